//! Certified frequency-estimation optima (`frequency-mse`, the optimal design over extreme
//! rays) with the default build, against the method that existed before it: the local
//! Frank-Wolfe search on the inversion-estimator MSE (`inversion-mse`) for the same domain and
//! constraint, which gives no bound. Also the histogram MMSE under LDP at |D| = 20 (column
//! generation with exact branch-and-bound pricing). Uniform prior; each time covers rays,
//! masters, pricing and certification.
//!
//! Run with `cargo bench --bench frequency`; numbers are quoted in the README.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use std::path::Path;

fn problem(n: usize, notion: &str, kind: &str) -> Problem {
    let text = format!(
        "[domain]\nsize = {n}\n[[privacy]]\nnotion = \"{notion}\"\nepsilon = 1.0\n[objective]\nkind = \"{kind}\"\n"
    );
    Problem::from_spec(ProblemSpec::from_toml(&text, Path::new("bench.toml")).unwrap()).unwrap()
}

fn bench(c: &mut Criterion) {
    let options = SolveOptions::default();
    let mut group = c.benchmark_group("frequency");
    group.sample_size(10);
    for (notion, kind, n) in [
        ("ldp", "frequency-mse", 8),
        ("ldp", "inversion-mse", 8),
        ("ldp", "frequency-mse", 12),
        ("ldp", "inversion-mse", 12),
        ("ldp", "frequency-mse", 16),
        ("lip", "frequency-mse", 8),
        ("lip", "frequency-mse", 16),
        ("ldp", "mmse-histogram", 20),
    ] {
        let p = problem(n, notion, kind);
        let report = solve(&p, &options).unwrap();
        eprintln!(
            "{notion} {kind} n = {n}: {} {:?} (bound {:?})",
            report.status, report.objective, report.bound
        );
        group.bench_with_input(
            BenchmarkId::new(format!("{notion}-{kind}"), n),
            &p,
            |b, p| b.iter(|| solve(p, &options).unwrap()),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
