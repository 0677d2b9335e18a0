//! The interior-point method by output column against independent references: one LP with
//! every constraint solved by the backend (a general-purpose solver), and the k-RR closed form.

use mechsynth::synthesis::{Method, Status};
use mechsynth::{solve, MethodChoice, Problem, ProblemSpec, SolveError, SolveOptions};
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
    let mut options = SolveOptions {
        method,
        ..SolveOptions::default()
    };
    options.backend_options.time_limit_seconds = time_limit;
    solve(p, &options).unwrap()
}

fn list(values: &[f64]) -> String {
    let v: Vec<String> = values.iter().map(|x| format!("{x:?}")).collect();
    format!("[{}]", v.join(", "))
}

/// The method's certified optimum equals one LP's, and its bound is below the LP's objective.
fn agrees_with_one_lp(p: &Problem) -> Result<(), TestCaseError> {
    let ip = run(p, MethodChoice::RatioInteriorPoint, 60.0);
    let lp = run(p, MethodChoice::Lp, 60.0);
    prop_assert_eq!(ip.method, Method::RatioInteriorPoint);
    prop_assert_eq!(&ip.status, &Status::Optimal, "notes: {:?}", ip.method_notes);
    prop_assert_eq!(&lp.status, &Status::Optimal);
    prop_assert!(ip.certificate.as_ref().unwrap().all_hold);
    let (a, b) = (ip.objective.unwrap(), lp.objective.unwrap());
    prop_assert!(
        (a - b).abs() <= AGREEMENT * b.abs().max(1.0),
        "interior point {} vs LP {}",
        a,
        b
    );
    let bound = ip.bound.unwrap();
    prop_assert!(
        bound <= b + BOUND_ROUNDING * b.abs().max(1.0),
        "lower bound {} above the LP's {}",
        bound,
        b
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 16,
        failure_persistence: crate::common::persistence(),
        ..ProptestConfig::default()
    })]

    /// Random places in the plane, priors, eps and losses under Euclidean d-privacy (every
    /// pair a row, no symmetry).
    #[test]
    fn random_places_match_one_lp(
        points in prop::collection::vec((0.0f64..5.0, 0.0f64..5.0), 3..12),
        weights in prop::collection::vec(0.05f64..1.0, 12),
        epsilon in 0.2f64..2.0,
        squared in any::<bool>(),
    ) {
        let n = points.len();
        let csv: String = std::iter::once("x,y,w".to_string())
            .chain(points.iter().zip(&weights).map(|((x, y), w)| format!("{x},{y},{w}")))
            .collect::<Vec<_>>()
            .join("\n");
        let dir = std::env::temp_dir().join(format!("mechsynth-ratio-ip-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("points-{n}-{}.csv", (epsilon * 1e9) as u64));
        std::fs::write(&file, csv).unwrap();
        let loss = if squared { "squared" } else { "absolute" };
        let text = format!(
            "[domain]\npoints = {{ file = {:?}, x = \"x\", y = \"y\", weight = \"w\" }}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = {epsilon}\n[objective]\nkind = \"expected-loss\"\nloss = \"{loss}\"\n",
            file.display().to_string()
        );
        let p = problem(&text);
        agrees_with_one_lp(&p)?;
    }

    /// Random priors on a line under d-privacy and LDP together (two notions intersected).
    #[test]
    fn intersections_match_one_lp(
        prior in prop::collection::vec(0.05f64..1.0, 3..9),
        epsilon in 0.1f64..1.5,
        ldp in 1.0f64..4.0,
    ) {
        let total: f64 = prior.iter().sum();
        let prior: Vec<f64> = prior.iter().map(|p| p / total).collect();
        let text = format!(
            "[domain]\nsize = {}\nprior = {}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"line\"\nepsilon = {epsilon}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = {ldp}\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n",
            prior.len(),
            list(&prior)
        );
        agrees_with_one_lp(&problem(&text))?;
    }
}

/// Euclidean grids with a uniform prior (8 symmetries: one block per orbit of outputs).
#[test]
fn symmetric_grids_match_one_lp() {
    for side in [3, 5, 6] {
        let text = format!("[domain]\ngrid = {{ rows = {side}, cols = {side} }}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.5\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n");
        let p = problem(&text);
        agrees_with_one_lp(&p).unwrap();
        let ip = run(&p, MethodChoice::RatioInteriorPoint, 60.0);
        assert!(
            ip.method_notes.iter().any(|n| n.contains("8 permutations")),
            "{:?}",
            ip.method_notes
        );
        if side >= 5 {
            // Later rounds start from a checkpoint of the round before.
            assert!(
                ip.method_notes
                    .iter()
                    .any(|n| n.contains("warm-started") && !n.contains("; 0 warm-started")),
                "{:?}",
                ip.method_notes
            );
        }
    }
}

/// `auto` picks the method on a 10 x 10 grid (100 inputs, 8 symmetries), and its optimum is
/// that of lazy rows (the backend's LP over the rows added as violated).
#[test]
fn auto_picks_it_on_a_grid_and_agrees_with_lazy_rows() {
    let text = "[domain]\ngrid = { rows = 10, cols = 10 }\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.5\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n";
    let p = problem(text);
    let auto = run(&p, MethodChoice::Auto, 120.0);
    let lazy = run(&p, MethodChoice::LazyRows, 120.0);
    assert_eq!(auto.method, Method::RatioInteriorPoint);
    assert_eq!(lazy.method, Method::LazyRows);
    assert_eq!(auto.status, Status::Optimal, "{:?}", auto.method_notes);
    assert_eq!(lazy.status, Status::Optimal);
    assert!(auto.certificate.as_ref().unwrap().all_hold);
    let (a, b) = (auto.objective.unwrap(), lazy.objective.unwrap());
    assert!((a - b).abs() <= AGREEMENT * b, "auto {a} vs lazy rows {b}");
    assert!(auto.bound.unwrap() <= b * (1.0 + BOUND_ROUNDING));
    assert!(lazy.bound.unwrap() <= a * (1.0 + BOUND_ROUNDING));
}

/// From 25 inputs `auto` takes the method without any symmetry too (a 6 x 6 grid with an uneven
/// prior, where it used to solve one LP), and its optimum is one LP's; below 25 it keeps one LP.
#[test]
fn auto_picks_it_from_25_inputs_without_symmetry_and_agrees_with_one_lp() {
    for (side, expected) in [(6, Method::RatioInteriorPoint), (4, Method::Lp)] {
        let n = side * side;
        let prior: Vec<f64> = (0..n).map(|i| 1.0 + (i * 7 % 5) as f64).collect();
        let total: f64 = prior.iter().sum();
        let prior: Vec<f64> = prior.iter().map(|w| w / total).collect();
        let text = format!("[domain]\ngrid = {{ rows = {side}, cols = {side} }}\nprior = {}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.5\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n", list(&prior));
        let p = problem(&text);
        let auto = run(&p, MethodChoice::Auto, 60.0);
        let lp = run(&p, MethodChoice::Lp, 60.0);
        assert_eq!(auto.method, expected, "{side} x {side}");
        assert_eq!(auto.status, Status::Optimal, "{:?}", auto.method_notes);
        assert_eq!(lp.status, Status::Optimal);
        let (a, b) = (auto.objective.unwrap(), lp.objective.unwrap());
        assert!((a - b).abs() <= AGREEMENT * b, "auto {a} vs one LP {b}");
        assert!(auto.bound.unwrap() <= b * (1.0 + BOUND_ROUNDING));
    }
}

/// Under eps-LDP alone with Hamming loss and a uniform prior the optimum is k-RR's
/// `(n - 1) / (e^eps + n - 1)`.
#[test]
fn ldp_hamming_is_krr() {
    for (n, epsilon) in [(3usize, 0.5f64), (5, 1.0), (8, 2.0)] {
        let text = format!("[domain]\nsize = {n}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = {epsilon}\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n");
        let report = run(&problem(&text), MethodChoice::RatioInteriorPoint, 60.0);
        assert_eq!(report.status, Status::Optimal);
        let krr = (n as f64 - 1.0) / (epsilon.exp() + n as f64 - 1.0);
        let v = report.objective.unwrap();
        assert!((v - krr).abs() <= AGREEMENT * krr, "{v} vs k-RR {krr}");
        assert!(report.bound.unwrap() <= krr * (1.0 + BOUND_ROUNDING));
    }
}

/// A time limit that ends the method still gives a certified channel, reported as feasible
/// unless its gap happens to be closed.
#[test]
fn a_time_limit_gives_a_certified_channel() {
    let text = "[domain]\ngrid = { rows = 7, cols = 7 }\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.5\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n";
    let report = run(&problem(text), MethodChoice::RatioInteriorPoint, 1e-3);
    assert!(report.certificate.as_ref().unwrap().all_hold);
    assert!(matches!(report.status, Status::Feasible | Status::Optimal));
    assert!(report.bound.is_none_or(|b| b <= report.objective.unwrap()));
}

/// Notions with a factor of 1 (eps = 0, or a zero entry of a privacy matrix) or with
/// coupling rows are refused with a reason.
#[test]
fn refusals_name_the_condition() {
    for privacy in [
        "notion = \"ldp\"\nepsilon = 0.0",
        "notion = \"context-ldp\"\nmatrix = [[0, 0, 1], [0, 0, 1], [1, 1, 0]]",
        "notion = \"lip\"\nepsilon = 1.0",
    ] {
        let text = format!("[domain]\nsize = 3\n[[privacy]]\n{privacy}\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n");
        let options = SolveOptions {
            method: MethodChoice::RatioInteriorPoint,
            ..SolveOptions::default()
        };
        match solve(&problem(&text), &options) {
            Err(SolveError::MethodNotApplicable(why)) => {
                assert!(why.contains("factor above 1"), "{why}")
            }
            other => panic!(
                "{privacy}: expected a refusal, got {:?}",
                other.map(|r| r.status)
            ),
        }
    }
}

/// The same problem gives the same channel bit for bit on one thread and on three (the
/// blocks' sums are combined in block order, whatever the threads do).
#[test]
fn one_thread_and_three_give_the_same_bits() {
    let p = problem(
        "[domain]\ngrid = { rows = 10, cols = 10 }\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.5\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n",
    );
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| run(&p, MethodChoice::RatioInteriorPoint, 60.0))
    };
    let (one, three) = (on(1), on(3));
    assert_eq!(one.status, Status::Optimal);
    assert_eq!(one.solver.iterations, three.solver.iterations);
    let bits = |r: &mechsynth::report::Report| -> Vec<u64> {
        r.channel
            .as_ref()
            .unwrap()
            .rows()
            .iter()
            .flatten()
            .map(|v| v.to_bits())
            .collect()
    };
    assert!(bits(&one) == bits(&three), "the channels differ");
    assert_eq!(one.bound.map(f64::to_bits), three.bound.map(f64::to_bits));
}
