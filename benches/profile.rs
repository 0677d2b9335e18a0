//! The report's profiles at 1,000 inputs: the whole LDP solve with its report at each
//! `--profile` level, and the profiles alone, the quick ones against every entry (with the
//! O(n^3) inversion and frequency MSEs), in the same run so that their ratio can be quoted.
//!
//! Run with `cargo bench --bench profile`; numbers are quoted in docs/benchmarks.md.

use criterion::{criterion_group, criterion_main, Criterion};
use mechsynth::objective::{objective_profile_up_to, profile_accuracy_warning};
use mechsynth::privacy::{leakage_profile, NOTIONS};
use mechsynth::solve::{ProfileLevel, PROFILE_QUICK_INPUTS};
use mechsynth::{solve, Channel, Domain, Problem, ProblemSpec, SolveOptions};
use std::path::Path;

const N: usize = 1000;

fn ldp_hamming(n: usize) -> Problem {
    let text = format!(
        "[domain]\nsize = {n}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n"
    );
    Problem::from_spec(ProblemSpec::from_toml(&text, Path::new("bench.toml")).unwrap()).unwrap()
}

/// k-RR at eps = 1: the optimum of the LDP Hamming problem.
fn krr(n: usize) -> Channel {
    let e = 1f64.exp();
    Channel::new(
        (0..n)
            .map(|x| {
                (0..n)
                    .map(|y| if x == y { e } else { 1.0 } / (e + n as f64 - 1.0))
                    .collect()
            })
            .collect(),
    )
    .unwrap()
}

fn bench(c: &mut Criterion) {
    let problem = ldp_hamming(N);
    let mut group = c.benchmark_group("ldp-1000");
    group.sample_size(10);
    for (name, profile) in [
        ("solve-with-report-auto", ProfileLevel::Auto),
        ("solve-with-report-full", ProfileLevel::Full),
    ] {
        let options = SolveOptions {
            profile,
            ..SolveOptions::default()
        };
        group.bench_function(name, |b| b.iter(|| solve(&problem, &options).unwrap()));
    }
    let channel = krr(N);
    let domain = Domain::sized(N).unwrap();
    // Every objective entry, the O(n^3) ones included, with the accuracy check they bring: the
    // objective profile as it was computed at 1,000 inputs.
    group.bench_function("objective-profile-full", |b| {
        b.iter(|| {
            let p = objective_profile_up_to(&channel, &domain, usize::MAX);
            (profile_accuracy_warning(&channel, &domain, &p), p)
        })
    });
    group.bench_function("objective-profile-auto", |b| {
        b.iter(|| {
            let p = objective_profile_up_to(&channel, &domain, PROFILE_QUICK_INPUTS);
            (profile_accuracy_warning(&channel, &domain, &p), p)
        })
    });
    group.bench_function("leakage-profile", |b| {
        b.iter(|| leakage_profile(&channel, &domain))
    });
    for entry in NOTIONS {
        if let Some(f) = entry.profile {
            group.bench_function(format!("leakage-{}", entry.key), |b| {
                b.iter(|| f(&channel, &domain))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
