//! Solve-time benchmarks for the LP pipeline (formulate, solve, certify) with the default build.
//!
//! Run with `cargo bench --bench solve`; numbers are quoted in the README.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mechsynth::{solve, MethodChoice, Problem, ProblemSpec, SolveOptions};
use std::path::Path;

fn problem(text: &str) -> Problem {
    Problem::from_spec(ProblemSpec::from_toml(text, Path::new("bench.toml")).unwrap()).unwrap()
}

fn ldp_hamming(n: usize) -> Problem {
    problem(&format!(
        "[domain]\nsize = {n}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n"
    ))
}

fn lip_absolute(n: usize) -> Problem {
    let w: Vec<f64> = (1..=n).map(|i| i as f64).collect();
    let s: f64 = w.iter().sum();
    let prior: Vec<String> = w.iter().map(|v| format!("{}", v / s)).collect();
    problem(&format!(
        "[domain]\nline = {n}\nprior = [{}]\n[[privacy]]\nnotion = \"lip\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n",
        prior.join(", ")
    ))
}

fn geo_grid(side: usize) -> Problem {
    problem(&format!(
        "[domain]\ngrid = {{ rows = {side}, cols = {side} }}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.5\n[objective]\nkind = \"expected-loss\"\nloss = {{ range = 1.0 }}\n"
    ))
}

fn bench(c: &mut Criterion) {
    let options = SolveOptions::default();
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for n in [16, 32, 64] {
        let p = ldp_hamming(n);
        group.bench_with_input(BenchmarkId::new("ldp-hamming", n), &p, |b, p| {
            b.iter(|| solve(p, &options).unwrap())
        });
        let p = lip_absolute(n);
        group.bench_with_input(BenchmarkId::new("lip-absolute", n), &p, |b, p| {
            b.iter(|| solve(p, &options).unwrap())
        });
    }
    for side in [4, 6] {
        let p = geo_grid(side);
        group.bench_with_input(
            BenchmarkId::new("geo-grid-range", side * side),
            &p,
            |b, p| b.iter(|| solve(p, &options).unwrap()),
        );
    }
    group.finish();
}

/// LIP, absolute loss, n = 200, uniform and skewed priors: `auto` (the LIP interior point)
/// against one LP with every constraint (the path `auto` took before), in the same run.
fn bench_lip_200(c: &mut Criterion) {
    let mut group = c.benchmark_group("lip-200");
    group.sample_size(10);
    let uniform = problem(
        "[domain]\nline = 200\n[[privacy]]\nnotion = \"lip\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n",
    );
    for (name, p) in [("uniform", uniform), ("skewed", lip_absolute(200))] {
        for method in [MethodChoice::Auto, MethodChoice::Lp] {
            let options = SolveOptions {
                method,
                ..SolveOptions::default()
            };
            group.bench_with_input(
                BenchmarkId::new(format!("{name}-{}", method.name()), 200),
                &p,
                |b, p| b.iter(|| solve(p, &options).unwrap()),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, bench, bench_lip_200);
criterion_main!(benches);
