//! A 25-point curve (`run_curve`, points in parallel) against 25 separate `solve` calls.
//!
//! Run with `cargo bench --bench curve`; numbers are quoted in the README.

use criterion::{criterion_group, criterion_main, Criterion};
use mechsynth::curve::{run_curve, Axis, CurveOptions, Grid, SeriesSource};
use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use std::path::Path;

fn spec(n: usize) -> ProblemSpec {
    let w: Vec<f64> = (1..=n).map(|i| i as f64).collect();
    let s: f64 = w.iter().sum();
    let prior: Vec<String> = w.iter().map(|v| format!("{}", v / s)).collect();
    let text = format!(
        "[domain]\nline = {n}\nprior = [{}]\n[[privacy]]\nnotion = \"lip\"\nepsilon = 1.0\n[objective]\nkind = \"mmse-sum\"\n",
        prior.join(", ")
    );
    ProblemSpec::from_toml(&text, Path::new("bench.toml")).unwrap()
}

fn bench(c: &mut Criterion) {
    let base = spec(8);
    let grid = Grid::parse(Axis::Epsilon, "--epsilons", "0.1:5:25").unwrap();
    let mut group = c.benchmark_group("curve-25-points");
    group.sample_size(10);
    group.bench_function("run_curve (optimum only, parallel)", |b| {
        b.iter(|| {
            run_curve(
                &base,
                &grid,
                &[SeriesSource::Optimum],
                &CurveOptions::default(),
            )
            .unwrap()
        })
    });
    group.bench_function("run_curve (optimum + registry, parallel)", |b| {
        b.iter(|| {
            run_curve(
                &base,
                &grid,
                &[SeriesSource::Optimum, SeriesSource::Registry],
                &CurveOptions::default(),
            )
            .unwrap()
        })
    });
    let options = SolveOptions::default();
    group.bench_function("25 separate solve calls", |b| {
        b.iter(|| {
            for &e in &grid.values {
                let mut s = base.clone();
                s.set_epsilon(e);
                solve(&Problem::from_spec(s).unwrap(), &options).unwrap();
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
