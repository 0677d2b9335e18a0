//! The LDP interior-point method against independent references: one LP with every
//! constraint solved by the backend (a general-purpose solver), and closed forms.

use mechsynth::solve::ProfileLevel;
use mechsynth::synthesis::{Method, Status};
use mechsynth::{solve, MethodChoice, Problem, ProblemSpec, SolveOptions};
use proptest::prelude::*;
use std::path::Path;

/// Two certified optima of the same problem agree to this (relative; the report's default
/// gap tolerance is 1e-6 relative, and each side may use part of it).
const AGREEMENT: f64 = 2e-6;
/// A rigorous bound may exceed another method's certified objective only by rounding in that
/// objective's evaluation (relative).
const BOUND_ROUNDING: f64 = 1e-12;

fn problem(text: &str) -> Problem {
    Problem::from_spec(ProblemSpec::from_toml(text, Path::new("test.toml")).unwrap()).unwrap()
}

fn run(p: &Problem, method: MethodChoice, time_limit: f64) -> mechsynth::report::Report {
    run_at(p, method, time_limit, ProfileLevel::Auto)
}

fn run_at(
    p: &Problem,
    method: MethodChoice,
    time_limit: f64,
    profile: ProfileLevel,
) -> mechsynth::report::Report {
    let mut options = SolveOptions {
        method,
        profile,
        ..SolveOptions::default()
    };
    options.backend_options.time_limit_seconds = time_limit;
    solve(p, &options).unwrap()
}

fn matrix(rows: &[Vec<f64>]) -> String {
    let rows: Vec<String> = rows
        .iter()
        .map(|r| {
            let v: Vec<String> = r.iter().map(|x| format!("{x:?}")).collect();
            format!("[{}]", v.join(", "))
        })
        .collect();
    format!("[{}]", rows.join(", "))
}

/// Check the interior-point result against one LP on the same problem.
fn agrees_with_one_lp(p: &Problem, maximize: bool) -> Result<(), TestCaseError> {
    let ip = run(p, MethodChoice::LdpInteriorPoint, 60.0);
    let lp = run(p, MethodChoice::Lp, 60.0);
    prop_assert_eq!(ip.method, Method::LdpInteriorPoint);
    prop_assert_eq!(&ip.status, &Status::Optimal);
    prop_assert_eq!(&lp.status, &Status::Optimal);
    prop_assert!(ip.certificate.as_ref().unwrap().all_hold);
    let (a, b) = (ip.objective.unwrap(), lp.objective.unwrap());
    prop_assert!(
        (a - b).abs() <= AGREEMENT * b.abs().max(1.0),
        "interior point {} vs LP {}",
        a,
        b
    );
    // Each bound is on the right side of the other method's certified channel.
    let bound = ip.bound.unwrap();
    let slack = BOUND_ROUNDING * b.abs().max(1.0);
    if maximize {
        prop_assert!(
            bound >= b - slack,
            "upper bound {} below the LP's {}",
            bound,
            b
        );
    } else {
        prop_assert!(
            bound <= b + slack,
            "lower bound {} above the LP's {}",
            bound,
            b
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: crate::common::persistence(),
        ..ProptestConfig::default()
    })]

    /// Random loss matrices, priors and eps: the interior-point method reaches the optimum of
    /// one LP with every constraint, with a bound on the right side of it.
    #[test]
    fn interior_point_agrees_with_one_lp_on_random_losses(
        n in 2usize..14,
        eps in 0.05f64..4.0,
        seed in any::<u64>(),
    ) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let w: Vec<f64> = (0..n).map(|_| rng.gen_range(0.01..1.0)).collect();
        let total: f64 = w.iter().sum();
        let prior: Vec<f64> = w.iter().map(|v| v / total).collect();
        let loss: Vec<Vec<f64>> = (0..n)
            .map(|_| (0..n).map(|_| rng.gen_range(0.0..10.0)).collect())
            .collect();
        let p = problem(&format!(
            "[domain]\nsize = {n}\nprior = {prior:?}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = {eps}\n[objective]\nkind = \"expected-loss\"\nloss = {{ matrix = {} }}\n",
            matrix(&loss)
        ));
        agrees_with_one_lp(&p, false)?;
    }

    /// Distance losses on a line and co-location (maximized), over a range of eps.
    #[test]
    fn interior_point_agrees_with_one_lp_on_structured_objectives(
        n in 2usize..40,
        eps in 0.05f64..5.0,
        kind in 0usize..3,
    ) {
        let objective = ["loss = \"absolute\"", "loss = \"squared\"", ""][kind];
        let name = if kind == 2 { "co-location" } else { "expected-loss" };
        let p = problem(&format!(
            "[domain]\nline = {n}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = {eps}\n[objective]\nkind = \"{name}\"\n{objective}\n"
        ));
        agrees_with_one_lp(&p, kind == 2)?;
    }
}

/// k-RR is optimal for Hamming loss under eps-LDP with a uniform prior, with loss
/// `(n - 1) / (e^eps + n - 1)` (Kairouz, Oh, Viswanath; problems/ldp-hamming-5.toml).
#[test]
fn interior_point_reaches_the_krr_optimum() {
    for (n, eps) in [(3, 0.1), (10, 1.0), (50, 2.5), (120, 0.7)] {
        let p = problem(&format!(
            "[domain]\nsize = {n}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = {eps}\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n"
        ));
        let r = run(&p, MethodChoice::LdpInteriorPoint, 60.0);
        let exact = (n as f64 - 1.0) / (f64::exp(eps) + n as f64 - 1.0);
        assert_eq!(r.status, Status::Optimal, "n = {n}");
        let (v, b) = (r.objective.unwrap(), r.bound.unwrap());
        assert!(
            (v - exact).abs() <= AGREEMENT * exact,
            "n = {n}: {v} vs {exact}"
        );
        assert!(b <= exact, "n = {n}: bound {b} above the optimum {exact}");
        assert_eq!(r.solver.name, "built-in interior point");
    }
}

/// `auto` under LDP with absolute loss: the decomposition's first round does not close the
/// gap, and the interior-point method takes over with a certified optimum.
#[test]
fn auto_hands_a_slow_decomposition_over_to_the_interior_point_method() {
    let p = problem(
        "[domain]\nline = 60\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n",
    );
    let auto = run(&p, MethodChoice::Auto, 60.0);
    assert_eq!(auto.status, Status::Optimal);
    assert_eq!(auto.method, Method::LdpInteriorPoint);
    assert!(
        auto.method_notes[0].contains("did not close its gap"),
        "{:?}",
        auto.method_notes
    );
    let lp = run(&p, MethodChoice::Lp, 60.0);
    let (a, b) = (auto.objective.unwrap(), lp.objective.unwrap());
    assert!((a - b).abs() <= AGREEMENT * b, "{a} vs {b}");
    // Asked for explicitly, the decomposition is not replaced.
    let forced = run(&p, MethodChoice::Decomposition, 60.0);
    assert_eq!(forced.method, Method::Decomposition);
}

/// A time limit that ends the method early gives a certified channel that is not called
/// optimal, with a note saying why.
#[test]
fn a_time_limit_gives_a_certified_channel_that_is_not_called_optimal() {
    let p = problem(
        "[domain]\nline = 300\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n",
    );
    let r = run_at(&p, MethodChoice::LdpInteriorPoint, 1e-6, ProfileLevel::Full);
    assert_eq!(r.status, Status::Feasible);
    assert!(r.certificate.as_ref().unwrap().all_hold);
    assert!(
        r.method_notes.iter().any(|n| n.contains("time limit")),
        "{:?}",
        r.method_notes
    );
    assert!(r.bound.unwrap() < r.objective.unwrap());
    // Past the limit the full profile leaves out its O(n^3) entries, and says so; with time
    // to spare it has them.
    assert!(
        !r.objectives.contains_key("inversion-mse"),
        "{:?}",
        r.objectives
    );
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("leaves out its O(n^3) entries")),
        "{:?}",
        r.warnings
    );
    let r = run_at(
        &p,
        MethodChoice::LdpInteriorPoint,
        600.0,
        ProfileLevel::Full,
    );
    assert!(r.warnings.iter().all(|w| !w.contains("leaves out")));
}

/// The method needs a lone LDP constraint.
#[test]
fn the_method_is_refused_for_other_notions() {
    let p = problem(
        "[domain]\nline = 6\n[[privacy]]\nnotion = \"d-privacy\"\nepsilon = 1.0\nmetric = \"line\"\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n",
    );
    let options = SolveOptions {
        method: MethodChoice::LdpInteriorPoint,
        ..SolveOptions::default()
    };
    let err = solve(&p, &options).unwrap_err().to_string();
    assert!(
        err.contains("exactly one privacy constraint, of notion ldp"),
        "{err}"
    );
}

/// eps = 0: every column is constant and the optimum is the output of least expected loss,
/// `min_y sum_x pi_x L[x][y]`, computed here from the definition.
#[test]
fn at_eps_zero_the_optimum_is_the_best_constant_output() {
    let prior: Vec<f64> = (0..25).map(|i| 0.5f64.powi(i)).collect();
    let total: f64 = prior.iter().sum();
    let prior: Vec<f64> = prior.iter().map(|p| p / total).collect();
    for loss in ["absolute", "squared"] {
        let p = problem(&format!(
            "[domain]\nline = 25\nprior = {prior:?}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 0.0\n[objective]\nkind = \"expected-loss\"\nloss = \"{loss}\"\n"
        ));
        let exact = (0..25)
            .map(|y| {
                (0..25)
                    .map(|x| {
                        let d = (x as f64 - y as f64).abs();
                        prior[x] * if loss == "absolute" { d } else { d * d }
                    })
                    .sum::<f64>()
            })
            .fold(f64::INFINITY, f64::min);
        for method in [MethodChoice::LdpInteriorPoint, MethodChoice::Auto] {
            let r = run(&p, method, 60.0);
            assert_eq!(r.status, Status::Optimal, "{loss}");
            let v = r.objective.unwrap();
            assert!(
                (v - exact).abs() <= AGREEMENT * exact,
                "{loss}: {v} vs {exact}"
            );
            assert!(r.bound.unwrap() <= exact * (1.0 + BOUND_ROUNDING));
        }
    }
}

/// The method does not depend on the loss's units: a loss scaled by 1e-12 (or 1e12) gives the
/// optimum scaled by the same factor, to the relative agreement.
#[test]
fn the_optimum_scales_with_the_loss() {
    let base: Vec<Vec<f64>> = (0..30)
        .map(|x| (0..30).map(|y| (x as f64 - y as f64).abs()).collect())
        .collect();
    let solve_scaled = |factor: f64| {
        let scaled: Vec<Vec<f64>> = base
            .iter()
            .map(|r| r.iter().map(|v| v * factor).collect())
            .collect();
        let p = problem(&format!(
            "[domain]\nsize = 30\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = {{ matrix = {} }}\n",
            matrix(&scaled)
        ));
        let r = run(&p, MethodChoice::LdpInteriorPoint, 60.0);
        assert_eq!(r.status, Status::Optimal, "factor {factor}");
        r.objective.unwrap() / factor
    };
    let reference = solve_scaled(1.0);
    for factor in [1e-12, 1e12] {
        let v = solve_scaled(factor);
        assert!(
            (v - reference).abs() <= AGREEMENT * reference,
            "factor {factor}: {v} vs {reference}"
        );
    }
}

/// Large eps (entries spanning e^-12): `auto` reaches the optimum of one LP.
#[test]
fn auto_reaches_the_optimum_at_large_eps() {
    for (n, eps) in [(60, 12.0), (40, 16.0)] {
        let p = problem(&format!(
            "[domain]\nline = {n}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = {eps}\n[objective]\nkind = \"expected-loss\"\nloss = \"squared\"\n"
        ));
        let auto = run(&p, MethodChoice::Auto, 60.0);
        let lp = run(&p, MethodChoice::Lp, 60.0);
        assert_eq!(auto.status, Status::Optimal, "n = {n}, eps = {eps}");
        let (a, b) = (auto.objective.unwrap(), lp.objective.unwrap());
        assert!(
            (a - b).abs() <= AGREEMENT * b,
            "n = {n}, eps = {eps}: {a} vs {b}"
        );
    }
}
