//! Global optima of column-convex objectives with the default build: the Bayesian MMSE of a sum
//! under LDP (enumerated staircase rays priced by scanning, n = 16; exact structured column
//! generation, n = 32) and under LIP (exact column generation), and a histogram under LDP
//! (direct extreme-ray LP), and a histogram under LIP (n = 20, 24; uniform prior as in
//! lip-data-aggregation Fig. 7, and p_i ~ i) and LDP (n = 20, 24) by column generation with
//! exact branch-and-bound pricing. Each time covers rays, master LPs, pricing and
//! certification.
//!
//! Run with `cargo bench --bench mmse`; numbers are quoted in the README.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use std::path::Path;

/// A skewed prior `p_i ~ i` (uniform when `kind` ends in `-uniform`) over `n` values `0..n-1`.
fn problem(n: usize, notion: &str, kind: &str) -> Problem {
    let (kind, uniform) = match kind.strip_suffix("-uniform") {
        Some(k) => (k, true),
        None => (kind, false),
    };
    let w: Vec<f64> = (1..=n)
        .map(|i| if uniform { 1.0 } else { i as f64 })
        .collect();
    let s: f64 = w.iter().sum();
    let prior: Vec<String> = w.iter().map(|v| format!("{}", v / s)).collect();
    let values: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    let text = format!(
        "[domain]\nvalues = [{}]\nprior = [{}]\n[[privacy]]\nnotion = \"{notion}\"\nepsilon = 1.0\n[objective]\nkind = \"{kind}\"\n",
        values.join(", "),
        prior.join(", ")
    );
    Problem::from_spec(ProblemSpec::from_toml(&text, Path::new("bench.toml")).unwrap()).unwrap()
}

fn bench(c: &mut Criterion) {
    let options = SolveOptions::default();
    let mut group = c.benchmark_group("mmse");
    group.sample_size(10);
    for (notion, kind, n) in [
        ("ldp", "mmse-sum", 16),
        ("ldp", "mmse-sum", 32),
        ("lip", "mmse-sum", 16),
        ("lip", "mmse-sum", 32),
        ("ldp", "mmse-histogram", 8),
        ("lip", "mmse-histogram-uniform", 20),
        ("lip", "mmse-histogram", 20),
        ("lip", "mmse-histogram", 24),
        ("ldp", "mmse-histogram", 20),
        ("ldp", "mmse-histogram", 24),
    ] {
        let p = problem(n, notion, kind);
        let report = solve(&p, &options).unwrap();
        assert!(
            report.status.is_optimal(),
            "{notion} {kind} {n}: {}",
            report.status
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
