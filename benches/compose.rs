//! The cost of `compose` at k = 5 releases: a 4 x 4 channel (1024 outputs) and an 8 x 8 one
//! (32,768 outputs), with and without the advanced-composition delta' (a bisection over eps).
//!
//! Run with `cargo bench --bench compose`; numbers are quoted in the README.

use criterion::{criterion_group, criterion_main, Criterion};
use mechsynth::compose::report::ComposeOptions;
use mechsynth::compose::{compose, power};
use mechsynth::Channel;

fn krr(n: usize, eps: f64) -> Channel {
    let t = eps.exp() + n as f64 - 1.0;
    Channel::new(
        (0..n)
            .map(|x| {
                (0..n)
                    .map(|y| if x == y { eps.exp() / t } else { 1.0 / t })
                    .collect()
            })
            .collect(),
    )
    .unwrap()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("compose-k5");
    group.sample_size(10);
    for n in [4usize, 8] {
        let channel = krr(n, 1.0);
        let prior = vec![1.0 / n as f64; n];
        let releases = vec![&channel; 5];
        group.bench_function(format!("product only {n}x{n}"), |b| {
            b.iter(|| power(&channel, 5).unwrap())
        });
        group.bench_function(format!("compose {n}x{n} (all notions)"), |b| {
            b.iter(|| compose(&releases, &prior, &ComposeOptions::default()).unwrap())
        });
        let options = ComposeOptions {
            delta_prime: Some(1e-3),
            ..ComposeOptions::default()
        };
        group.bench_function(format!("compose {n}x{n} with delta' = 1e-3"), |b| {
            b.iter(|| compose(&releases, &prior, &options).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
