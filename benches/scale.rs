//! Large linear problems: each method beside the naive formulation (one LP with every
//! constraint) on the same problem and backend, so the README can quote ratios.
//!
//! Run with `cargo bench --bench scale`; numbers are quoted in the README. Peak memory is
//! measured separately with `/usr/bin/time -v mechsynth solve` (criterion does not report it).

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

/// With `skewed`, a prior without the grid's symmetries (so no orbit reduction applies).
fn geo_distance(side: usize, skewed: bool) -> Problem {
    let n = side * side;
    let weights: Vec<f64> = (0..n)
        .map(|i| {
            if skewed {
                1.0 + ((i * 37) % 11) as f64
            } else {
                1.0
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let prior: Vec<f64> = weights.iter().map(|w| w / total).collect();
    problem(&format!(
        "[domain]\ngrid = {{ rows = {side}, cols = {side} }}\nprior = {prior:?}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.5\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n"
    ))
}

fn ldp_absolute_line(n: usize) -> Problem {
    problem(&format!(
        "[domain]\nline = {n}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n"
    ))
}

fn line_absolute(n: usize, eps: f64) -> Problem {
    problem(&format!(
        "[domain]\nline = {n}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"line\"\nepsilon = {eps}\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n"
    ))
}

fn with(method: MethodChoice) -> SolveOptions {
    SolveOptions {
        method,
        ..SolveOptions::default()
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("scale");
    group.sample_size(10);
    for n in [100, 300] {
        let p = ldp_hamming(n);
        for (name, method) in [
            ("decomposition", MethodChoice::Decomposition),
            ("one-lp", MethodChoice::Lp),
        ] {
            let options = with(method);
            group.bench_with_input(
                BenchmarkId::new(format!("ldp-hamming/{name}"), n),
                &p,
                |b, p| b.iter(|| solve(p, &options).unwrap()),
            );
        }
    }
    let p = ldp_hamming(1000);
    let options = with(MethodChoice::Decomposition);
    group.bench_with_input(
        BenchmarkId::new("ldp-hamming/decomposition", 1000),
        &p,
        |b, p| b.iter(|| solve(p, &options).unwrap()),
    );
    // Any loss under LDP: the structured interior-point method beside one LP (the
    // decomposition does not close its gap here); 1,000 symbols alone (one LP takes minutes).
    for n in [100, 300] {
        let p = ldp_absolute_line(n);
        for (name, method) in [
            ("ldp-interior-point", MethodChoice::LdpInteriorPoint),
            ("one-lp", MethodChoice::Lp),
        ] {
            let options = with(method);
            group.bench_with_input(
                BenchmarkId::new(format!("ldp-absolute/{name}"), n),
                &p,
                |b, p| b.iter(|| solve(p, &options).unwrap()),
            );
        }
    }
    let p = ldp_absolute_line(1000);
    let options = with(MethodChoice::LdpInteriorPoint);
    group.bench_with_input(
        BenchmarkId::new("ldp-absolute/ldp-interior-point", 1000),
        &p,
        |b, p| b.iter(|| solve(p, &options).unwrap()),
    );
    // Larger grids: both methods at 10 x 10 and 14 x 14 (one LP does not finish there); the
    // interior point by output column alone at 20 x 20 (lazy rows take about 3 minutes a run).
    for side in [10, 14] {
        let p = geo_distance(side, false);
        for (name, method) in [
            ("lazy-rows", MethodChoice::LazyRows),
            ("ratio-interior-point", MethodChoice::RatioInteriorPoint),
        ] {
            let options = with(method);
            group.bench_with_input(
                BenchmarkId::new(format!("geo-euclidean/{name}"), side * side),
                &p,
                |b, p| b.iter(|| solve(p, &options).unwrap()),
            );
        }
    }
    let p = geo_distance(20, false);
    let options = with(MethodChoice::RatioInteriorPoint);
    group.bench_with_input(
        BenchmarkId::new("geo-euclidean/ratio-interior-point", 400),
        &p,
        |b, p| b.iter(|| solve(p, &options).unwrap()),
    );
    for (side, skewed) in [(8, false), (8, true)] {
        let p = geo_distance(side, skewed);
        let prior = if skewed { "-skewed" } else { "" };
        for (name, method) in [
            ("lazy-rows", MethodChoice::LazyRows),
            ("ratio-interior-point", MethodChoice::RatioInteriorPoint),
            ("one-lp", MethodChoice::Lp),
        ] {
            let options = with(method);
            group.bench_with_input(
                BenchmarkId::new(format!("geo-euclidean{prior}/{name}"), side * side),
                &p,
                |b, p| b.iter(|| solve(p, &options).unwrap()),
            );
        }
    }
    // d-privacy on an equally spaced line: the line method beside one LP (200 points), and
    // alone at 1,000 points (one LP there needs minutes and gigabytes). 2,000 points are timed
    // as a single `mechsynth solve` run (README).
    let p = line_absolute(200, 0.5);
    for (name, method) in [("line", MethodChoice::Line), ("one-lp", MethodChoice::Lp)] {
        let options = with(method);
        group.bench_with_input(
            BenchmarkId::new(format!("line-absolute/{name}"), 200),
            &p,
            |b, p| b.iter(|| solve(p, &options).unwrap()),
        );
    }
    let p = line_absolute(1000, 0.1);
    let options = with(MethodChoice::Line);
    group.bench_with_input(BenchmarkId::new("line-absolute/line", 1000), &p, |b, p| {
        b.iter(|| solve(p, &options).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
