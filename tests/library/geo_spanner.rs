//! Approximate d-privacy over a greedy t-spanner (Bordenabe, Chatzikokolakis, Palamidessi,
//! CCS 2014): dilation at most t (brute-force all-pairs shortest paths), eps-d-privacy of the
//! emitted channel for every pair (checked here from the definition), and the objective
//! sandwiched by the exact optimum and the relaxation's bound, with fewer encoded rows.

use mechsynth::formulation::ChannelLp;
use mechsynth::geo::greedy_spanner;
use mechsynth::{solve, Problem, ProblemSpec, Report, SolveOptions};
use rand::{Rng, SeedableRng};
use std::path::Path;

/// Relative slack on a float path length compared with `t d` (sums of a few terms).
const PATH_ROUNDING: f64 = 1e-12;
/// Slack on the privacy check and on objective comparisons between solves (solver accuracy).
const SOLVE_TOLERANCE: f64 = 1e-6;

fn euclidean(points: &[[f64; 2]]) -> Vec<Vec<f64>> {
    points
        .iter()
        .map(|a| {
            points
                .iter()
                .map(|b| (a[0] - b[0]).hypot(a[1] - b[1]))
                .collect()
        })
        .collect()
}

/// Floyd-Warshall over the undirected edges, from scratch.
fn shortest_paths(d: &[Vec<f64>], edges: &[(usize, usize)]) -> Vec<Vec<f64>> {
    let n = d.len();
    let mut g = vec![vec![f64::INFINITY; n]; n];
    for (i, row) in g.iter_mut().enumerate() {
        row[i] = 0.0;
    }
    for &(a, b) in edges {
        g[a][b] = d[a][b];
        g[b][a] = d[a][b];
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                g[i][j] = g[i][j].min(g[i][k] + g[k][j]);
            }
        }
    }
    g
}

#[test]
fn greedy_spanners_have_dilation_at_most_t_on_random_point_sets() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for case in 0..40 {
        let n = rng.gen_range(2..30);
        let points: Vec<[f64; 2]> = (0..n)
            .map(|_| [rng.gen_range(0.0..10.0), rng.gen_range(0.0..10.0)])
            .collect();
        let d = euclidean(&points);
        let t = [1.0, 1.1, 1.5, 2.0, 3.0][case % 5];
        let spanner = greedy_spanner(&d, t);
        let g = shortest_paths(&d, &spanner.edges);
        for a in 0..n {
            for b in 0..n {
                assert!(
                    g[a][b] <= t * d[a][b] * (1.0 + PATH_ROUNDING),
                    "case {case}: d_G({a},{b}) = {} > {t} * {}",
                    g[a][b],
                    d[a][b]
                );
            }
        }
        assert!(spanner.edges.len() <= n * (n - 1) / 2);
        if t >= 1.5 && n >= 10 {
            assert!(
                spanner.edges.len() < n * (n - 1) / 2,
                "case {case}: no sparsification"
            );
        }
    }
}

fn grid_problem(side: usize, eps: f64, spanner: Option<f64>) -> Problem {
    let approx = spanner.map_or(String::new(), |t| {
        format!("approximate = {{ spanner = {t} }}\n")
    });
    let text = format!("[domain]\ngrid = {{ rows = {side}, cols = {side} }}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = {eps}\n{approx}[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n");
    Problem::from_spec(ProblemSpec::from_toml(&text, Path::new("grid.toml")).unwrap()).unwrap()
}

/// `max over pairs a != b and outputs y of ln(Q[a][y] / Q[b][y]) / d(a, b)`, from the definition.
fn all_pairs_leakage(report: &Report, d: &[Vec<f64>]) -> f64 {
    let c = report.channel.as_ref().unwrap();
    let mut worst: f64 = 0.0;
    for (a, row) in d.iter().enumerate() {
        for (b, &distance) in row.iter().enumerate() {
            for y in 0..c.outputs() {
                let (qa, qb) = (c.get(a, y), c.get(b, y));
                if a != b && qa > 0.0 {
                    assert!(qb > 0.0, "Q[{a}][{y}] > 0 = Q[{b}][{y}]");
                    worst = worst.max((qa / qb).ln() / distance);
                }
            }
        }
    }
    worst
}

fn encoded_rows(problem: &Problem) -> usize {
    let n = problem.domain.size();
    let mut lp = ChannelLp::new(n, n);
    for p in &problem.privacy {
        p.encode(&mut lp);
    }
    lp.program().num_constraints()
}

#[test]
fn spanner_channels_are_eps_private_and_no_better_than_the_exact_optimum() {
    let eps = 0.5;
    let exact_problem = grid_problem(5, eps, None);
    let exact = solve(&exact_problem, &SolveOptions::default()).unwrap();
    assert!(exact.status.is_optimal());
    let d = exact_problem.domain.natural_distances();
    for t in [1.0, 1.2, 1.5, 2.0] {
        let problem = grid_problem(5, eps, Some(t));
        let report = solve(&problem, &SolveOptions::default()).unwrap();
        assert!(report.certificate.as_ref().unwrap().all_hold, "t = {t}");
        let leak = all_pairs_leakage(&report, &d);
        assert!(
            leak <= eps * (1.0 + SOLVE_TOLERANCE),
            "t = {t}: leakage {leak}"
        );
        let (approx, opt) = (report.objective.unwrap(), exact.objective.unwrap());
        assert!(
            approx >= opt - SOLVE_TOLERANCE,
            "t = {t}: {approx} < exact {opt}"
        );
        if t > 1.0 {
            assert!(
                encoded_rows(&problem) < encoded_rows(&exact_problem),
                "t = {t}"
            );
        }
        assert!(report.encoding[0].contains(&format!("spanner with dilation {t}")));
        // The reported bound is on the exact problem: below the exact optimum (which is below
        // the channel's objective), and the status is optimal only if the gap closes.
        let b = report.bound.unwrap();
        assert!(
            b <= opt + SOLVE_TOLERANCE,
            "t = {t}: bound {b} > exact {opt}"
        );
        if t > 1.0 {
            assert_ne!(
                report.status,
                mechsynth::synthesis::Status::Optimal,
                "t = {t}"
            );
        }
    }
}

#[test]
fn the_column_cone_is_the_spanners() {
    let exact = grid_problem(4, 0.5, None);
    let approx = grid_problem(4, 0.5, Some(1.5));
    let rows = |p: &Problem| p.privacy[0].column_cone(16).unwrap().rows.len();
    assert!(
        rows(&approx) < rows(&exact),
        "{} vs {}",
        rows(&approx),
        rows(&exact)
    );
}

#[test]
fn a_dilation_below_one_is_rejected_with_the_key() {
    let text = "[domain]\nline = 4\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"line\"\nepsilon = 1.0\napproximate = { spanner = 0.9 }\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n";
    let e =
        Problem::from_spec(ProblemSpec::from_toml(text, Path::new("x.toml")).unwrap()).unwrap_err();
    assert!(
        e.to_string().contains("privacy[0].approximate.spanner") && e.to_string().contains("0.9"),
        "{e}"
    );
}

#[test]
fn the_binary_reports_the_spanner_and_the_bound_on_the_exact_problem() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/paris-landmarks-spanner.toml");
    let out = crate::bin::command()
        .args(["solve", file.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    // The bound is on the exact problem, and the spanner channel does not reach it: the status
    // is `feasible` (exit code 4), never `optimal`.
    assert_eq!(out.status.code(), Some(4));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["status"], "feasible");
    assert!(report["bound"].as_f64().unwrap() < report["objective"].as_f64().unwrap());
    let encoding = report["encoding"][0].as_str().unwrap();
    assert!(
        encoding.contains("spanner with dilation 1.2") && encoding.contains("(of 561 pairs)"),
        "{encoding}"
    );
    assert!(
        encoding.contains("spanner-restricted problem"),
        "{encoding}"
    );
    let notes = report["method_notes"].to_string();
    assert!(
        notes.contains("bound: on exact eps-d-privacy") && notes.contains("own bound"),
        "{notes}"
    );
    let check = &report["certificate"]["checks"][0];
    assert!(check["achieved"].as_f64().unwrap() <= check["requested"].as_f64().unwrap());
}

/// The interior point by output column, which encodes the column cone itself, names the
/// spanner in its encoding line as the LP does (it said only "ratio rows").
#[test]
fn the_interior_point_names_the_spanner_it_encodes() {
    let problem = grid_problem(10, 0.5, Some(1.1));
    let options = SolveOptions {
        method: mechsynth::MethodChoice::RatioInteriorPoint,
        ..SolveOptions::default()
    };
    let report = solve(&problem, &options).unwrap();
    assert_eq!(
        report.method,
        mechsynth::synthesis::Method::RatioInteriorPoint
    );
    let line = &report.encoding[0];
    assert!(
        line.contains("ratio rows") && line.contains("spanner with dilation 1.1"),
        "{line}"
    );
    assert!(line.contains("(of 4950 pairs)"), "{line}");
}
