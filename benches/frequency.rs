//! Certified frequency-estimation optima (`frequency-mse`, the optimal design over extreme
//! rays) with the default build, against the method that existed before it: the local
//! Frank-Wolfe search on the inversion-estimator MSE (`inversion-mse`) for the same domain and
//! constraint, which gives no bound. Also the histogram MMSE under LDP at |D| = 20 (column
//! generation with exact branch-and-bound pricing), and Euclidean d-privacy on a 4 x 4 grid
//! (16,743,648 extreme rays, priced from tree codes). Uniform prior; each time covers rays,
//! masters, pricing and certification.
//!
//! Run with `cargo bench --bench frequency`; numbers are quoted in the README.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use std::path::Path;

/// With `nudged`, the uniform prior moves by 1e-11 on two symbols: the symmetry that gives the
/// closed form is gone, and the general optimal design runs (to the same optimum).
fn problem(n: usize, notion: &str, kind: &str, nudged: bool) -> Problem {
    let mut prior = vec![1.0 / n as f64; n];
    if nudged {
        prior[0] += 1e-11;
        prior[1] -= 1e-11;
    }
    with_prior(&prior, notion, kind)
}

/// The prior `pi_i ~ i` (i = 1..n).
fn linear_prior(n: usize) -> Vec<f64> {
    let total = (n * (n + 1) / 2) as f64;
    (1..=n).map(|i| i as f64 / total).collect()
}

fn with_prior(prior: &[f64], notion: &str, kind: &str) -> Problem {
    let n = prior.len();
    let text = format!(
        "[domain]\nsize = {n}\nprior = {prior:?}\n[[privacy]]\nnotion = \"{notion}\"\nepsilon = 1.0\n[objective]\nkind = \"{kind}\"\n"
    );
    Problem::from_spec(ProblemSpec::from_toml(&text, Path::new("bench.toml")).unwrap()).unwrap()
}

fn bench(c: &mut Criterion) {
    let options = SolveOptions::default();
    let mut group = c.benchmark_group("frequency");
    group.sample_size(10);
    for (notion, kind, n, nudged) in [
        ("ldp", "frequency-mse", 8, false),
        ("ldp", "frequency-mse", 8, true),
        ("ldp", "inversion-mse", 8, false),
        ("ldp", "frequency-mse", 12, true),
        ("ldp", "inversion-mse", 12, false),
        ("ldp", "frequency-mse", 16, false),
        ("ldp", "frequency-mse", 16, true),
        ("ldp", "frequency-mse", 32, false),
        ("ldp", "inversion-mse", 32, false),
        ("ldp", "frequency-mse", 64, false),
        ("lip", "frequency-mse", 8, false),
        ("lip", "frequency-mse", 16, false),
        ("ldp", "mmse-histogram", 20, false),
    ] {
        let p = problem(n, notion, kind, nudged);
        let report = solve(&p, &options).unwrap();
        eprintln!(
            "{notion} {kind} n = {n}{}: {} {} {:?} (bound {:?})",
            if nudged { " (nudged prior)" } else { "" },
            report.method,
            report.status,
            report.objective,
            report.bound
        );
        group.bench_with_input(
            BenchmarkId::new(
                format!("{notion}-{kind}{}", if nudged { "-nudged" } else { "" }),
                n,
            ),
            &p,
            |b, p| b.iter(|| solve(p, &options).unwrap()),
        );
    }
    // Skewed prior (pi ~ i): no symmetry; under LDP from 8 inputs on the rays are found by
    // ascent and bounded by the branch and bound over the staircase patterns.
    for n in [8, 12, 16] {
        let p = with_prior(&linear_prior(n), "ldp", "frequency-mse");
        let report = solve(&p, &options).unwrap();
        eprintln!(
            "ldp frequency-mse n = {n} (prior ~ i): {} {} {:?} (bound {:?})",
            report.method, report.status, report.objective, report.bound
        );
        group.bench_with_input(
            BenchmarkId::new("ldp-frequency-mse-linear-prior", n),
            &p,
            |b, p| b.iter(|| solve(p, &options).unwrap()),
        );
    }
    group.finish();
    grid(c);
}

/// Euclidean d-privacy on the 4 x 4 grid, eps = 1, uniform prior: 16,743,648 extreme rays kept
/// as tree codes (the certified design), against the local search on `inversion-mse`, which is
/// what ran before (no bound).
fn grid(c: &mut Criterion) {
    let options = SolveOptions::default();
    let mut group = c.benchmark_group("frequency-grid");
    group.sample_size(10);
    for kind in ["frequency-mse", "inversion-mse"] {
        let text = format!(
            "[domain]\ngrid = {{ rows = 4, cols = 4 }}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 1.0\n[objective]\nkind = \"{kind}\"\n"
        );
        let p = Problem::from_spec(ProblemSpec::from_toml(&text, Path::new("grid.toml")).unwrap())
            .unwrap();
        let report = solve(&p, &options).unwrap();
        eprintln!(
            "d-privacy 4 x 4 {kind}: {} {} {:?} (bound {:?})",
            report.method, report.status, report.objective, report.bound
        );
        group.bench_with_input(
            BenchmarkId::new(format!("dprivacy-4x4-{kind}"), 16),
            &p,
            |b, p| b.iter(|| solve(p, &options).unwrap()),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
