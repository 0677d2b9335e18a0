//! Cost of one numerical calibration: the Gaussian mechanism under (1, 1e-4)-LIP on [-10, 10]
//! with a normal prior, and with a three-component mixture prior.

use criterion::{criterion_group, criterion_main, Criterion as Bench};
use mechsynth::continuous::calibrate::numerical;
use mechsynth::continuous::{Criterion, MechanismKind, Notion, Prior, Request};

fn request(prior: Prior) -> Request {
    Request {
        prior,
        mechanism: MechanismKind::Gaussian,
        notion: Notion::Lip,
        epsilon: 1.0,
        delta: 1e-4,
        range: Some((-10.0, 10.0)),
        sensitivity: None,
        at: None,
        criterion: Criterion::Definition,
    }
}

fn bench(c: &mut Bench) {
    let normal = request(Prior::normal(0.0, 5.0).unwrap());
    let mixture = request(
        Prior::mixture(vec![
            (0.3, Prior::normal(-4.0, 2.0).unwrap()),
            (0.5, Prior::normal(1.0, 1.0).unwrap()),
            (0.2, Prior::normal(5.0, 3.0).unwrap()),
        ])
        .unwrap(),
    );
    let mut g = c.benchmark_group("continuous");
    g.sample_size(10);
    g.bench_function("gaussian-lip-normal-prior", |b| {
        b.iter(|| numerical(&normal, Criterion::Definition).unwrap())
    });
    g.bench_function("gaussian-lip-3-mixture", |b| {
        b.iter(|| numerical(&mixture, Criterion::Definition).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
