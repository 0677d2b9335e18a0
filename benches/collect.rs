//! Collection throughput with the default build: privatizing 10^7 records from a file against
//! the time to read and write the same file line by line; the exact sampler against the alias
//! tables (exact only to about 2^-64) and the raw ChaCha20 generator; EM (with SQUAREM) on n = 1,000 to a 1e-10 change; a simulation of
//! 10^9 users x 1,000 trials at n = 16.
//!
//! Run with `cargo bench --bench collect`; numbers are quoted in the README.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mechsynth::collect::baseline::BaselineSpec;
use mechsynth::collect::estimate::{em, Estimand, EstimatorSpec, EM_TOLERANCE};
use mechsynth::collect::privatize::{privatize, MatchBy, RecordFormat};
use mechsynth::collect::sampler::{seeded_rng, AliasTable, ChannelSampler};
use mechsynth::collect::simulate::{simulate, Sampling, SimulateOptions};
use mechsynth::collect::Model;
use mechsynth::Domain;
use rand::RngCore;
use std::fs::File;
use std::hint::black_box;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

const RECORDS: usize = 10_000_000;
const BUFFER: usize = 1 << 20;

fn krr(n: usize, eps: f64) -> Model {
    Model::baseline(BaselineSpec::KRr, Domain::sized(n).unwrap(), eps).unwrap()
}

fn record_file() -> PathBuf {
    let path = std::env::temp_dir().join(format!("mechsynth-bench-records-{}", std::process::id()));
    let mut w = BufWriter::with_capacity(BUFFER, File::create(&path).unwrap());
    let mut rng = seeded_rng(1);
    for _ in 0..RECORDS {
        writeln!(w, "{}", rng.next_u32() % 16).unwrap();
    }
    w.flush().unwrap();
    path
}

fn bench_privatize(c: &mut Criterion) {
    let input = record_file();
    let output = input.with_extension("out");
    let model = krr(16, 1.0);
    let mut group = c.benchmark_group("privatize-1e7");
    group.sample_size(10);
    group.throughput(Throughput::Elements(RECORDS as u64));
    group.bench_function("read+write lines", |b| {
        b.iter(|| {
            let mut r = BufReader::with_capacity(BUFFER, File::open(&input).unwrap());
            let mut w = BufWriter::with_capacity(BUFFER, File::create(&output).unwrap());
            let mut buf = Vec::new();
            while r.read_until(b'\n', &mut buf).unwrap() > 0 {
                w.write_all(&buf).unwrap();
                buf.clear();
            }
            w.flush().unwrap();
        })
    });
    group.bench_function("privatize (k-RR, n = 16)", |b| {
        let mut rng = seeded_rng(2);
        b.iter(|| {
            let r = BufReader::with_capacity(BUFFER, File::open(&input).unwrap());
            let w = BufWriter::with_capacity(BUFFER, File::create(&output).unwrap());
            privatize(
                r,
                Some(w),
                &model,
                &RecordFormat::Lines,
                MatchBy::Label,
                &mut rng,
            )
            .unwrap()
        })
    });
    group.finish();
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&output);
}

/// Per-draw cost of the exact tables `privatize` releases with, against the alias tables
/// (the naive baseline, exact only to about 2^-64) on the same channel: k-RR over 16 symbols,
/// and the truncated geometric line of 200 points at 0.5 per unit (entries down to 1e-44).
fn bench_sampler(c: &mut Criterion) {
    const DRAWS: u64 = 1_000_000;
    let mut group = c.benchmark_group("sampler-1e6");
    group.throughput(Throughput::Elements(DRAWS));
    group.bench_function("ChaCha20 next_u64", |b| {
        let mut rng = seeded_rng(3);
        b.iter(|| {
            let mut acc = 0u64;
            for _ in 0..DRAWS {
                acc = acc.wrapping_add(rng.next_u64());
            }
            black_box(acc)
        })
    });
    let line = Model::baseline(
        BaselineSpec::TruncatedGeometric,
        Domain::sized(200).unwrap(),
        0.5,
    )
    .unwrap();
    for (name, model) in [("k-RR n = 16", krr(16, 1.0)), ("line n = 200", line)] {
        let n = model.channel.inputs();
        let exact = ChannelSampler::new(&model.channel).unwrap();
        let alias: Vec<AliasTable> = model
            .channel
            .rows()
            .iter()
            .map(|r| AliasTable::new(r).unwrap())
            .collect();
        group.bench_function(format!("exact sample ({name})"), |b| {
            let mut rng = seeded_rng(3);
            b.iter(|| {
                let mut acc = 0usize;
                for i in 0..DRAWS {
                    acc = acc.wrapping_add(exact.sample(i as usize % n, &mut rng));
                }
                black_box(acc)
            })
        });
        group.bench_function(format!("alias sample ({name})"), |b| {
            let mut rng = seeded_rng(3);
            b.iter(|| {
                let mut acc = 0usize;
                for i in 0..DRAWS {
                    acc = acc.wrapping_add(alias[i as usize % n].sample(&mut rng));
                }
                black_box(acc)
            })
        });
    }
    group.finish();
}

fn bench_em(c: &mut Criterion) {
    let n = 1000;
    let model = krr(n, 2.0);
    // A Zipf-like truth; the reports are its exact output distribution.
    let w: Vec<f64> = (1..=n).map(|i| 1.0 / i as f64).collect();
    let s: f64 = w.iter().sum();
    let pi: Vec<f64> = w.iter().map(|v| v / s).collect();
    let counts = model.channel.output_marginal(&pi);
    let mut group = c.benchmark_group("em");
    group.sample_size(10);
    group.bench_function("k-RR n = 1000 to 1e-10", |b| {
        b.iter(|| {
            let r = em(&model, &counts, EM_TOLERANCE, 1_000_000);
            assert!(r.converged);
            r.iterations
        })
    });
    // The same channel with its outputs reversed is no longer diagonal-plus-constant: the
    // dense O(n m) steps, as for any channel (the naive baseline).
    let reversed: Vec<Vec<f64>> = model
        .channel
        .rows()
        .iter()
        .map(|r| r.iter().rev().copied().collect())
        .collect();
    let dense = Model::new(
        mechsynth::Channel::new(reversed).unwrap(),
        mechsynth::Domain::sized(n).unwrap(),
        "reversed".into(),
    )
    .unwrap();
    let dense_counts: Vec<f64> = counts.iter().rev().copied().collect();
    group.bench_function("dense steps, same channel reversed, to 1e-10", |b| {
        b.iter(|| {
            let r = em(&dense, &dense_counts, EM_TOLERANCE, 1_000_000);
            assert!(r.converged);
            r.iterations
        })
    });
    group.finish();
    let r = em(&model, &counts, EM_TOLERANCE, 1_000_000);
    eprintln!("EM n = 1000: {} plain steps", r.iterations);
}

fn bench_simulate(c: &mut Criterion) {
    let model = krr(16, 1.0);
    let mut group = c.benchmark_group("simulate");
    group.sample_size(10);
    group.bench_function("1e9 users x 1000 trials, n = 16, inversion", |b| {
        b.iter(|| {
            let options = SimulateOptions {
                users: 1_000_000_000,
                trials: 1000,
                sampling: Sampling::Iid,
                estimators: vec![EstimatorSpec::Inversion],
                groups: Vec::new(),
                noncompliance: 0.0,
                level: 0.95,
                estimand: Estimand::Sample,
                deadline: None,
                progress: None,
            };
            simulate(&model, &options, &mut seeded_rng(4)).unwrap()
        })
    });
    group.finish();
}

/// Privatizing an array of 10^7 input indices into a new array of outputs (k-RR, n = 16): the
/// library's loop that the Python package's `privatize` runs on a numpy array, for its
/// per-record comparison (`benches/python_bench.py --rust`).
fn bench_privatize_array(c: &mut Criterion) {
    let model = krr(16, 1.0);
    let sampler = ChannelSampler::new(&model.channel).unwrap();
    let values: Vec<i64> = (0..RECORDS as i64).map(|i| (i * 7919) % 16).collect();
    let mut group = c.benchmark_group("privatize-array-1e7");
    group.sample_size(10);
    group.throughput(Throughput::Elements(RECORDS as u64));
    group.bench_function("array of indices (k-RR, n = 16)", |b| {
        let mut rng = seeded_rng(4);
        b.iter(|| {
            let out: Vec<i64> = values
                .iter()
                .map(|&x| sampler.sample(x as usize, &mut rng) as i64)
                .collect();
            black_box(out)
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_privatize_array,
    bench_sampler,
    bench_em,
    bench_simulate,
    bench_privatize
);
criterion_main!(benches);
