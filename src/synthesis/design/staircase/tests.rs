//! The staircase search against a brute force over every subset, from the definition of the
//! reduced value (with `V` itself, not the search's `G = V V^T`).

use super::price_staircase;
use nalgebra::DMatrix;
use proptest::prelude::*;
use std::time::{Duration, Instant};

/// The search's best value may differ from the brute force's maximum by rounding: this much
/// relative to the magnitude of the terms.
const SAME_VALUE: f64 = 1e-10;
/// Its bound is the best value plus a rounding margin of up to `16 gamma_(8n + k + 64)` times
/// the terms' magnitudes (with `e^(2 eps)` factors): it may exceed the maximum by this much,
/// relative to the same magnitude.
const BOUND_SLACK: f64 = 1e-8;

/// `(||V^T r||^2 / (pi . r) - mu . r) / (1 . r)` for `r = 1 + (e^eps - 1) 1_S`, term by term.
fn reduced(v: &DMatrix<f64>, pi: &[f64], mu: &[f64], eps: f64, mask: u64) -> f64 {
    let n = pi.len();
    let r: Vec<f64> = (0..n)
        .map(|x| if mask >> x & 1 == 1 { eps.exp() } else { 1.0 })
        .collect();
    let mut square = 0.0;
    for k in 0..v.ncols() {
        let d: f64 = (0..n).map(|x| v[(x, k)] * r[x]).sum();
        square += d * d;
    }
    let lambda: f64 = (0..n).map(|x| pi[x] * r[x]).sum();
    let price: f64 = (0..n).map(|x| mu[x] * r[x]).sum();
    (square / lambda - price) / r.iter().sum::<f64>()
}

fn check(n: usize, k: usize, eps: f64, entries: &[f64], weights: &[f64], prices: &[f64]) {
    let v = DMatrix::from_fn(n, k, |x, j| entries[(x * k + j) % entries.len()]);
    let total: f64 = weights[..n].iter().sum();
    let pi: Vec<f64> = weights[..n].iter().map(|w| w / total).collect();
    // Prices near the typical reduced value, so that the maximum is near zero and both signs
    // occur.
    let scale = reduced(&v, &pi, &vec![0.0; n], eps, 1);
    let mu: Vec<f64> = prices[..n].iter().map(|m| m * scale).collect();
    let (mut brute, mut arg) = (f64::NEG_INFINITY, 0);
    for mask in 0..1u64 << n {
        let value = reduced(&v, &pi, &mu, eps, mask);
        if value > brute {
            (brute, arg) = (value, mask);
        }
    }
    let found = price_staircase(
        &v,
        &pi,
        &mu,
        eps,
        (4, f64::NEG_INFINITY),
        u64::MAX,
        Instant::now() + Duration::from_secs(60),
    );
    let delta = found.delta.expect("the search finished");
    let tolerance = SAME_VALUE * (scale.abs() + mu.iter().map(|m| m.abs()).sum::<f64>());
    assert!(
        delta >= brute,
        "delta {delta} below the brute force {brute}"
    );
    let slack = BOUND_SLACK * (brute.abs() + scale.abs() + mu.iter().map(|m| m.abs()).sum::<f64>());
    assert!(delta <= brute + slack, "delta {delta} far above {brute}");
    let (best, ray) = &found.candidates[0];
    assert!((best - brute).abs() <= tolerance, "{best} vs {brute}");
    // The best candidate is the maximizer (or ties with it): its value from its ray.
    let high = eps.exp();
    let mask = ray
        .iter()
        .enumerate()
        .filter(|(_, &q)| {
            q > ray.iter().cloned().fold(f64::INFINITY, f64::min) * (1.0 + high) / 2.0
        })
        .fold(0u64, |m, (x, _)| m | 1 << x);
    let value = reduced(&v, &pi, &mu, eps, mask);
    assert!(
        (value - brute).abs() <= tolerance,
        "{value} vs {brute} (brute force argmax {arg:b}, found {mask:b})"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn the_search_finds_the_brute_force_maximum(
        n in 2usize..=12,
        k in 1usize..=12,
        eps in 0.2f64..3.0,
        entries in proptest::collection::vec(-1.0f64..1.0, 144),
        weights in proptest::collection::vec(0.01f64..1.0, 12),
        prices in proptest::collection::vec(-0.5f64..1.5, 12),
    ) {
        check(n, k, eps, &entries, &weights, &prices);
    }
}

/// A design-like `V = J^-1` (identity queries): the search's maximum at the k-RR-like point.
#[test]
fn the_search_matches_the_brute_force_on_a_fisher_inverse() {
    let n = 10;
    let pi: Vec<f64> = (1..=n).map(|i| i as f64).collect();
    let total: f64 = pi.iter().sum();
    let pi: Vec<f64> = pi.iter().map(|p| p / total).collect();
    let inverse = DMatrix::from_fn(n, n, |x, y| if x == y { 3.0 } else { 0.0 } - 0.2);
    let entries: Vec<f64> = inverse.transpose().iter().copied().collect();
    check(n, n, 1.0, &entries, &pi, &vec![0.9; n]);
}
