//! The methods for large linear problems (decomposition over outputs, lazily added ratio rows)
//! against independent references: closed forms, and one LP with every constraint (a different
//! formulation of the same problem) on random instances.

use mechsynth::synthesis::{Method, Status};
use mechsynth::{solve, MethodChoice, Problem, ProblemSpec, SolveOptions};
use rand::{Rng, SeedableRng};
use std::path::Path;

/// Two certified optima of the same problem agree to this (relative).
const AGREEMENT: f64 = 2e-6;

fn problem(text: &str) -> Problem {
    Problem::from_spec(ProblemSpec::from_toml(text, Path::new("test.toml")).unwrap()).unwrap()
}

fn run(p: &Problem, method: MethodChoice) -> mechsynth::report::Report {
    let options = SolveOptions {
        method,
        ..SolveOptions::default()
    };
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

/// k-RR is optimal for Hamming loss under eps-LDP with a uniform prior; its loss is
/// `(n - 1) / (e^eps + n - 1)` (Kairouz, Oh, Viswanath; derived in problems/ldp-hamming-5.toml).
#[test]
fn decomposition_reaches_the_krr_optimum_with_a_valid_bound() {
    for (n, eps) in [(24, 0.5), (40, 1.0), (64, 2.0), (150, 1.0)] {
        let p = problem(&format!(
            "[domain]\nsize = {n}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = {eps}\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n"
        ));
        let r = run(&p, MethodChoice::Auto);
        let exact = (n as f64 - 1.0) / (f64::exp(eps) + n as f64 - 1.0);
        assert_eq!(r.method, Method::Decomposition, "n = {n}");
        assert_eq!(r.status, Status::Optimal, "n = {n}");
        let v = r.objective.unwrap();
        let b = r.bound.unwrap();
        assert!(
            (v - exact).abs() <= AGREEMENT * exact,
            "n = {n}: {v} vs {exact}"
        );
        assert!(b <= exact, "n = {n}: bound {b} above the optimum {exact}");
        assert!(!r.rounds.is_empty());
    }
}

/// Random loss matrices and priors, minimized and maximized: decomposition and one LP with
/// every constraint reach the same optimum, and each bound is on the right side of the other's
/// objective.
#[test]
fn decomposition_agrees_with_one_lp_on_random_losses() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for case in 0..6 {
        let n = rng.gen_range(24..34);
        let eps: f64 = rng.gen_range(0.2..3.0);
        let w: Vec<f64> = (0..n).map(|_| rng.gen_range(0.05..1.0)).collect();
        let total: f64 = w.iter().sum();
        let prior: Vec<f64> = w.iter().map(|v| v / total).collect();
        let loss: Vec<Vec<f64>> = (0..n)
            .map(|_| (0..n).map(|_| rng.gen_range(0.0..5.0)).collect())
            .collect();
        let text = format!(
            "[domain]\nsize = {n}\nprior = {:?}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = {eps}\n[objective]\nkind = \"expected-loss\"\nloss = {{ matrix = {} }}\n",
            prior,
            matrix(&loss)
        );
        let p = problem(&text);
        let d = run(&p, MethodChoice::Decomposition);
        let l = run(&p, MethodChoice::Lp);
        assert_eq!(d.method, Method::Decomposition);
        assert_eq!(l.method, Method::Lp);
        let (vd, vl) = (d.objective.unwrap(), l.objective.unwrap());
        assert!(
            (vd - vl).abs() <= AGREEMENT * vl.abs().max(1.0),
            "case {case}: decomposition {vd} vs LP {vl}"
        );
        assert!(d.bound.unwrap() <= vl + 1e-12, "case {case}");
        assert!(l.bound.unwrap() <= vd + 1e-12, "case {case}");
        assert_eq!(d.status, Status::Optimal, "case {case}");
    }
}

/// A maximized objective (co-location) under LDP intersected with d-privacy on a line: the
/// generic pricing LPs, against one LP.
#[test]
fn decomposition_with_pricing_lps_agrees_with_one_lp_when_maximizing() {
    let text = "[domain]\nline = 26\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 2.0\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"line\"\nepsilon = 0.4\n[objective]\nkind = \"co-location\"\n";
    let p = problem(text);
    let d = run(&p, MethodChoice::Decomposition);
    let l = run(&p, MethodChoice::Lp);
    let (vd, vl) = (d.objective.unwrap(), l.objective.unwrap());
    assert!((vd - vl).abs() <= AGREEMENT * vl, "{vd} vs {vl}");
    assert!(
        d.bound.unwrap() >= vl - 1e-12,
        "an upper bound when maximizing"
    );
    assert_eq!(d.status, Status::Optimal);
}

/// Lazily added rows on a Euclidean grid (many pairs) against one LP with every pair.
#[test]
fn lazy_rows_agree_with_every_row_on_a_grid() {
    for (side, eps, prior_seed) in [(6, 0.5, 1u64), (6, 0.8, 2)] {
        let n = side * side;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(prior_seed);
        let w: Vec<f64> = (0..n).map(|_| rng.gen_range(0.1..1.0)).collect();
        let total: f64 = w.iter().sum();
        let prior: Vec<f64> = w.iter().map(|v| v / total).collect();
        let text = format!(
            "[domain]\ngrid = {{ rows = {side}, cols = {side} }}\nprior = {prior:?}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = {eps}\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n"
        );
        let p = problem(&text);
        let lazy = run(&p, MethodChoice::LazyRows);
        let full = run(&p, MethodChoice::Lp);
        assert_eq!(lazy.method, Method::LazyRows);
        assert!(
            lazy.method_notes[0].contains("added as violated"),
            "{:?}",
            lazy.method_notes
        );
        let (a, b) = (lazy.objective.unwrap(), full.objective.unwrap());
        assert!(
            (a - b).abs() <= AGREEMENT * b,
            "{side}x{side}: lazy {a} vs full {b}"
        );
        assert!(lazy.bound.unwrap() <= b + 1e-12);
        assert_eq!(lazy.status, Status::Optimal);
        assert!(lazy.certificate.as_ref().unwrap().all_hold);
        // The trace: one entry per round, rows growing, each round's program a relaxation
        // (objective at most the optimum), the last one at the optimum.
        let rounds = &lazy.rounds;
        assert!(!rounds.is_empty());
        for pair in rounds.windows(2) {
            assert!(pair[1].rows.unwrap() > pair[0].rows.unwrap(), "{rounds:?}");
        }
        for r in rounds {
            assert!(r.objective <= b * (1.0 + AGREEMENT), "{rounds:?}");
        }
        let last = rounds.last().unwrap().objective;
        assert!((last - b).abs() <= AGREEMENT * b, "{last} vs {b}");
    }
}

#[test]
fn a_method_for_a_nonlinear_objective_or_a_coupled_notion_is_refused() {
    let p = problem("[domain]\nsize = 4\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"mmse-histogram\"\n");
    let e = solve(
        &p,
        &SolveOptions {
            method: MethodChoice::Decomposition,
            ..SolveOptions::default()
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("only for linear objectives"), "{e}");
    let p = problem("[domain]\nsize = 4\n[[privacy]]\nnotion = \"max-leakage\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n");
    let e = solve(
        &p,
        &SolveOptions {
            method: MethodChoice::Decomposition,
            ..SolveOptions::default()
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("coupling"), "{e}");
}

/// Symmetric grids: the lazy LP over orbit variables against one LP with every entry and row,
/// with the group the geometry and the prior leave (8 on a square with a uniform prior, 4 on a
/// rectangle, 2 when one corner weighs more: only the diagonal reflection keeps it).
#[test]
fn symmetry_reduction_keeps_the_optimum() {
    for (rows, cols, heavy_corner, order) in [(6, 6, false, 8), (5, 7, false, 4), (6, 6, true, 2)] {
        let n = rows * cols;
        let mut prior = vec![1.0; n];
        if heavy_corner {
            prior[0] = 5.0;
        }
        let total: f64 = prior.iter().sum();
        let prior: Vec<f64> = prior.iter().map(|v| v / total).collect();
        let text = format!(
            "[domain]\ngrid = {{ rows = {rows}, cols = {cols} }}\nprior = {prior:?}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.6\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n"
        );
        let p = problem(&text);
        let lazy = run(&p, MethodChoice::LazyRows);
        let full = run(&p, MethodChoice::Lp);
        assert!(
            lazy.method_notes[0].starts_with(&format!("symmetry: {order} permutations")),
            "{rows}x{cols}: {:?}",
            lazy.method_notes
        );
        let (a, b) = (lazy.objective.unwrap(), full.objective.unwrap());
        assert!(
            (a - b).abs() <= AGREEMENT * b,
            "{rows}x{cols}: symmetric {a} vs full {b}"
        );
        assert!(lazy.bound.unwrap() <= b + 1e-12);
        assert_eq!(lazy.status, Status::Optimal);
        assert!(lazy.certificate.as_ref().unwrap().all_hold);
        // The emitted channel is constant on orbits: Q[g x][g y] = Q[x][y] for the reflection
        // of the grid's rows (a symmetry of every case but the heavy corner), up to the
        // rounding of certification's row renormalization.
        if !heavy_corner {
            let q = lazy.channel.as_ref().unwrap();
            let flip = |i: usize| (rows - 1 - i / cols) * cols + i % cols;
            for x in 0..n {
                for y in 0..n {
                    let (u, v) = (q.get(x, y), q.get(flip(x), flip(y)));
                    assert!((u - v).abs() <= 1e-12 * u.max(v), "{x} {y}: {u} vs {v}");
                }
            }
        }
    }
}

/// With HiGHS, `auto` picks lazy rows from 36 inputs even without a symmetry, and later rounds
/// re-optimize from the previous basis; the optimum agrees with one LP solved by Clarabel (a
/// different backend and formulation).
#[cfg(feature = "highs")]
#[test]
fn highs_lazy_rows_warm_start_and_agree_with_one_clarabel_lp() {
    let side = 6;
    let n = side * side;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let w: Vec<f64> = (0..n).map(|_| rng.gen_range(0.1..1.0)).collect();
    let total: f64 = w.iter().sum();
    let prior: Vec<f64> = w.iter().map(|v| v / total).collect();
    let text = format!(
        "[domain]\ngrid = {{ rows = {side}, cols = {side} }}\nprior = {prior:?}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.5\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n"
    );
    let p = problem(&text);
    let highs = solve(
        &p,
        &SolveOptions {
            backend: mechsynth::BackendKind::Highs,
            method: MethodChoice::LazyRows,
            ..SolveOptions::default()
        },
    )
    .unwrap();
    assert_eq!(highs.method, Method::LazyRows);
    let note = highs
        .method_notes
        .iter()
        .find(|n| n.contains("re-optimized from the previous basis"))
        .expect("a note on warm starts");
    assert!(!note.contains("(0 re-optimized"), "{note}");
    let full = run(&p, MethodChoice::Lp);
    let (a, b) = (highs.objective.unwrap(), full.objective.unwrap());
    assert!(
        (a - b).abs() <= AGREEMENT * b,
        "highs lazy {a} vs clarabel {b}"
    );
    assert_eq!(highs.status, Status::Optimal);
    assert!(highs.certificate.as_ref().unwrap().all_hold);
}
