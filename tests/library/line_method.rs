//! The line method (remapped geometric mechanism, certified by exact DP pricing) against
//! independent references: one LP with every constraint, brute force over the vertices of the
//! pricing set, random points of that set, and random feasible channels.

use mechsynth::synthesis::line::{line_pricing_lower_bound, Levels};
use mechsynth::synthesis::{Method, Status};
use mechsynth::{solve, Channel, MethodChoice, Problem, ProblemSpec, SolveError, SolveOptions};
use rand::{Rng, SeedableRng};
use std::path::Path;

/// The line method and one LP agree to this (relative to max(1, |optimum|)).
const AGREEMENT: f64 = 1e-7;
/// The DP bound may lie below the brute-force minimum by at most this (its rounding margin).
const PRICING_TIGHTNESS: f64 = 1e-9;

fn problem(text: &str) -> Problem {
    Problem::from_spec(ProblemSpec::from_toml(text, Path::new("test.toml")).unwrap()).unwrap()
}

fn run(p: &Problem, method: MethodChoice) -> Result<mechsynth::report::Report, SolveError> {
    let options = SolveOptions {
        method,
        ..SolveOptions::default()
    };
    solve(p, &options)
}

fn list(v: &[f64]) -> String {
    let items: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
    format!("[{}]", items.join(", "))
}

fn matrix(rows: &[Vec<f64>]) -> String {
    let rows: Vec<String> = rows.iter().map(|r| list(r)).collect();
    format!("[{}]", rows.join(", "))
}

/// A line problem: `domain` is the `[domain]` body, `objective` the `[objective]` body.
fn line_problem(domain: &str, eps: f64, objective: &str) -> Problem {
    problem(&format!(
        "[domain]\n{domain}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"line\"\nepsilon = {eps:?}\n[objective]\n{objective}\n"
    ))
}

#[test]
fn same_optimum_as_one_lp_on_small_lines() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let objectives = [
        "kind = \"expected-loss\"\nloss = \"absolute\"",
        "kind = \"expected-loss\"\nloss = \"squared\"",
        "kind = \"expected-loss\"\nloss = \"hamming\"",
        "kind = \"co-location\"",
    ];
    let mut cases = 0;
    for n in [2usize, 3, 5, 8, 13, 21, 40] {
        for (i, objective) in objectives.iter().enumerate() {
            let eps = [0.05, 0.3, 1.0, 2.5][(n + i) % 4];
            // Uniform, or a skewed prior ~ random^3; steps of 1 or 0.5 (written as values).
            let skewed = (n + i) % 2 == 0;
            let mut domain = if (n + i) % 3 == 0 {
                let values: Vec<f64> = (0..n).map(|x| 0.5 * x as f64).collect();
                format!("values = {}", list(&values))
            } else {
                format!("line = {n}")
            };
            if skewed {
                let w: Vec<f64> = (0..n)
                    .map(|_| rng.gen_range(0.05f64..1.0).powi(3))
                    .collect();
                let total: f64 = w.iter().sum();
                let prior: Vec<f64> = w.iter().map(|v| v / total).collect();
                domain.push_str(&format!("\nprior = {}", list(&prior)));
            }
            let p = line_problem(&domain, eps, objective);
            let line = run(&p, MethodChoice::Auto).unwrap();
            let lp = run(&p, MethodChoice::Lp).unwrap();
            let what = format!("n {n}, eps {eps}, {objective}, skewed {skewed}, {domain}");
            assert_eq!(line.method, Method::GeometricRemap, "{what}");
            assert_eq!(line.status, Status::Optimal, "{what}: {:?}", line.gap);
            assert_eq!(lp.status, Status::Optimal, "{what}");
            let (a, b) = (line.objective.unwrap(), lp.objective.unwrap());
            assert!(
                (a - b).abs() <= AGREEMENT * b.abs().max(1.0),
                "{what}: line {a} vs LP {b}"
            );
            // Each bound is rigorous, so neither exceeds the other's certified objective.
            let goal_sign = if objective.contains("co-location") {
                -1.0
            } else {
                1.0
            };
            assert!(goal_sign * (line.bound.unwrap() - b) <= 1e-12, "{what}");
            cases += 1;
        }
    }
    assert_eq!(cases, 28);
}

/// Every integer sequence k in 0..n with steps of at most 1: a superset of the vertices of
/// `{q in C : q <= 1}` other than 0, all inside the set.
fn brute_force_minimum(s: &[f64], t: f64) -> f64 {
    let n = s.len();
    let mut best: f64 = 0.0; // the vertex 0
    let mut k = vec![0usize; n];
    loop {
        if k.windows(2).all(|w| w[0].abs_diff(w[1]) <= 1) {
            let v: f64 = s
                .iter()
                .zip(&k)
                .map(|(s, &k)| s * (-(k as f64) * t).exp())
                .sum();
            best = best.min(v);
        }
        // Next sequence (odometer over 0..n).
        let mut i = 0;
        while i < n {
            k[i] += 1;
            if k[i] < n {
                break;
            }
            k[i] = 0;
            i += 1;
        }
        if i == n {
            return best;
        }
    }
}

#[test]
fn dp_pricing_never_exceeds_brute_force_and_meets_it() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for case in 0..300 {
        let n = rng.gen_range(1..=6);
        // Small t: every level is exact; large t: the floor state is used.
        let t = [0.05, 0.4, 1.3, 15.0, 60.0][case % 5];
        let s: Vec<f64> = (0..n).map(|_| rng.gen_range(-2.0..2.0)).collect();
        let bound = line_pricing_lower_bound(&s, &Levels::new(n, t));
        let exact = brute_force_minimum(&s, t);
        assert!(
            bound <= exact,
            "case {case}: n {n} t {t}: DP {bound} > brute {exact}"
        );
        assert!(
            bound >= exact - PRICING_TIGHTNESS,
            "case {case}: n {n} t {t}: DP {bound} far below brute {exact}"
        );
    }
}

/// Random points of `{q in C : 0 <= q <= 1}` (log-profiles with slopes in [-t, t], scaled
/// down): the DP bound is below every one of them, without relying on the vertex list.
#[test]
fn dp_pricing_is_below_random_points_of_the_pricing_set() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    for case in 0..200 {
        let n = rng.gen_range(2..=60);
        let t = rng.gen_range(0.01..2.0);
        let s: Vec<f64> = (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let bound = line_pricing_lower_bound(&s, &Levels::new(n, t));
        for _ in 0..50 {
            let mut log_q = vec![0.0; n];
            for x in 1..n {
                log_q[x] = log_q[x - 1] + rng.gen_range(-t..t) * (1.0 - 1e-12);
            }
            let top = log_q.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let scale: f64 = rng.gen_range(0.0..1.0);
            let value: f64 = s
                .iter()
                .zip(&log_q)
                .map(|(s, l)| s * scale * (l - top).exp())
                .sum();
            assert!(bound <= value, "case {case}: bound {bound} > {value}");
        }
    }
}

/// Feasible channels built independently: the truncated geometric mechanism at any per-step
/// ratio up to the budget, sent to random outputs, mixed with the constant channel.
fn random_feasible_channel(rng: &mut impl Rng, n: usize, t_max: f64) -> Vec<Vec<f64>> {
    let t = t_max * rng.gen_range(0.2..0.999);
    let r: f64 = (-t).exp();
    let target: Vec<usize> = (0..n).map(|_| rng.gen_range(0..n)).collect();
    let mix: f64 = rng.gen_range(0.0..0.5);
    (0..n)
        .map(|x| {
            let mut row = vec![mix / n as f64; n];
            for z in 0..n {
                let weight = if z == 0 || z == n - 1 {
                    1.0 / (1.0 + r)
                } else {
                    (1.0 - r) / (1.0 + r)
                };
                row[target[z]] += (1.0 - mix) * weight * r.powi(x.abs_diff(z) as i32);
            }
            row
        })
        .collect()
}

#[test]
fn bound_is_below_random_feasible_channels() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
    for (n, eps, loss) in [
        (10, 0.4, "absolute"),
        (30, 0.1, "squared"),
        (25, 1.0, "hamming"),
    ] {
        let p = line_problem(
            &format!("line = {n}"),
            eps,
            &format!("kind = \"expected-loss\"\nloss = \"{loss}\""),
        );
        let report = run(&p, MethodChoice::Line).unwrap();
        let bound = report.bound.unwrap();
        for _ in 0..40 {
            let channel = Channel::new(random_feasible_channel(&mut rng, n, eps)).unwrap();
            assert!(
                p.privacy[0].check(&channel)[0].holds(),
                "the test channel is feasible"
            );
            let value = p.objective.evaluate(&channel);
            assert!(
                bound <= value,
                "n {n} {loss}: bound {bound} > channel {value}"
            );
        }
    }
}

/// A loss that falls with the distance: the remapped geometric mechanism is not optimal, the
/// gap says so, and `auto` falls back to one LP.
#[test]
fn loss_that_is_not_monotone_reports_its_gap_honestly() {
    let n = 9;
    let loss: Vec<Vec<f64>> = (0..n)
        .map(|x| (0..n).map(|y| ((x * 7 + y * 3) % 5) as f64).collect())
        .collect();
    let objective = format!(
        "kind = \"expected-loss\"\nloss = {{ matrix = {} }}",
        matrix(&loss)
    );
    let p = line_problem(&format!("line = {n}"), 0.7, &objective);
    let lp = run(&p, MethodChoice::Lp).unwrap();
    let optimum = lp.objective.unwrap();
    let line = run(&p, MethodChoice::Line).unwrap();
    let (value, bound) = (line.objective.unwrap(), line.bound.unwrap());
    assert!(bound <= optimum + 1e-12 && value >= optimum - 1e-9);
    assert!(
        value - bound > 1e-4,
        "the gap is open here: {value} vs {bound}"
    );
    assert_eq!(line.status, Status::Feasible);
    let auto = run(&p, MethodChoice::Auto).unwrap();
    assert_eq!(auto.method, Method::Lp);
    assert_eq!(auto.status, Status::Optimal);
    assert!(
        auto.method_notes[0].contains("did not meet its bound"),
        "{:?}",
        auto.method_notes
    );
}

#[test]
fn unequal_spacing_and_other_metrics_do_not_use_the_line_method() {
    let p = line_problem(
        "values = [0.0, 1.0, 3.0, 4.0]",
        0.5,
        "kind = \"expected-loss\"\nloss = \"absolute\"",
    );
    assert!(matches!(
        run(&p, MethodChoice::Line),
        Err(SolveError::MethodNotApplicable(_))
    ));
    assert_eq!(run(&p, MethodChoice::Auto).unwrap().method, Method::Lp);
}

#[test]
fn more_than_a_thousand_points_on_a_line_and_off_it() {
    let n = 1200;
    let p = line_problem(
        &format!("line = {n}"),
        0.1,
        "kind = \"expected-loss\"\nloss = \"absolute\"",
    );
    let report = run(&p, MethodChoice::Auto).unwrap();
    assert_eq!(report.status, Status::Optimal);
    assert_eq!(report.method, Method::GeometricRemap);
    let mut values: Vec<f64> = (0..n).map(|x| x as f64).collect();
    values[n - 1] += 0.5;
    let text = format!(
        "[domain]\nvalues = {}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"line\"\nepsilon = 0.1\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n",
        list(&values)
    );
    // Off an equally spaced line the same size is accepted too, for the first-order method
    // (the line method does not apply).
    let problem = Problem::from_spec(ProblemSpec::from_toml(&text, Path::new("t.toml")).unwrap())
        .expect("more than 1,000 points are accepted for the first-order method");
    assert_eq!(problem.domain.size(), n);
}

/// Unsorted values with decimal steps (not exactly equal in binary) and a prior with zeros:
/// the line method still applies, and agrees with one LP.
#[test]
fn unsorted_decimal_values_and_zero_prior_entries_agree_with_one_lp() {
    for (values, prior, loss) in [
        (
            "[0.3, 0.0, 0.2, 0.1, 0.5, 0.4]",
            "[0.2, 0.0, 0.3, 0.1, 0.0, 0.4]",
            "absolute",
        ),
        (
            "[1.4, 0.7, 2.1, 0.0, 2.8]",
            "[0.1, 0.2, 0.3, 0.25, 0.15]",
            "squared",
        ),
    ] {
        let p = line_problem(
            &format!("values = {values}\nprior = {prior}"),
            3.0,
            &format!("kind = \"expected-loss\"\nloss = \"{loss}\""),
        );
        let line = run(&p, MethodChoice::Auto).unwrap();
        let lp = run(&p, MethodChoice::Lp).unwrap();
        assert_eq!(line.method, Method::GeometricRemap, "{values}");
        assert_eq!(line.status, Status::Optimal, "{values}");
        let (a, b) = (line.objective.unwrap(), lp.objective.unwrap());
        assert!(
            (a - b).abs() <= AGREEMENT * b.abs().max(1.0),
            "{values}: {a} vs {b}"
        );
        assert!(line.bound.unwrap() <= b + 1e-12);
    }
}
