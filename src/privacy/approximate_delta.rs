//! The smallest delta of (eps, delta)-LDP and (eps, delta)-LIP at a given eps (and the
//! smallest eps at a given delta), outward rounded: the closed forms stated in `approximate.rs`.
//! Upper bounds for the emitted numbers too (see [`crate::numeric`]): a term whose pure ratio
//! already meets eps with the slack of the emitted numbers is 0, any other is bounded from the
//! widest values the emitted numbers may take.

use super::{output_probability_bounds, support_range, union_support};
use crate::channel::Channel;
use crate::error::show_number;
use crate::numeric::{emitted_down, emitted_up, entry_log_ratio_up, log_ratio_up};

/// Bisection steps when inverting `delta(eps)` for the smallest eps at a given delta.
const EPSILON_BISECTION_STEPS: usize = 100;
/// The bisection stops when the bracket is this narrow relative to its upper end (the eps
/// returned is then within this fraction of the smallest, and never below it).
const EPSILON_RELATIVE_PRECISION: f64 = 1e-12;

/// Lower bound on `e^eps` (libm's `exp` is within one unit in the last place; two steps down).
fn exp_down(eps: f64) -> f64 {
    eps.exp().next_down().next_down().max(0.0)
}

/// Upper bound on `e^eps`.
fn exp_up(eps: f64) -> f64 {
    eps.exp().next_up().next_up()
}

/// Upper bound on `(a - b)^+` where `a <= a_hi` and `b >= b_lo` are floating-point values.
fn positive_part_up(a_hi: f64, b_lo: f64) -> f64 {
    let d = a_hi - b_lo;
    if d <= 0.0 && a_hi <= b_lo {
        0.0
    } else {
        d.next_up().max(0.0)
    }
}

/// Upper bound on the exact sum of the non-negative `terms` (each already an upper bound).
fn sum_up(terms: &[f64]) -> f64 {
    let s: f64 = terms.iter().sum();
    if s == 0.0 {
        return 0.0;
    }
    (s * (1.0 + (terms.len() as f64 + 2.0) * f64::EPSILON)).next_up()
}

/// Upper bound on `(a * b)` for `a, b >= 0`.
fn mul_up(a: f64, b: f64) -> f64 {
    let p = a * b;
    if p == 0.0 {
        p
    } else {
        p.next_up()
    }
}

/// Lower bound on `(a * b)` for `a, b >= 0`.
fn mul_down(a: f64, b: f64) -> f64 {
    (a * b).next_down().max(0.0)
}

/// The smallest delta for which `channel` is (eps, delta)-LDP (Def. 1), outward rounded:
/// `max_{x, x'} sum_y (Q[x][y] - e^eps Q[x'][y])^+`.
pub fn ldp_delta(channel: &Channel, epsilon: f64) -> f64 {
    let factor = exp_down(epsilon);
    let n = channel.inputs();
    let mut worst: f64 = 0.0;
    let mut terms = Vec::with_capacity(channel.outputs());
    for x in 0..n {
        for x2 in (0..n).filter(|&x2| x2 != x) {
            terms.clear();
            terms.extend((0..channel.outputs()).map(|y| {
                let (a, b) = (channel.get(x, y), channel.get(x2, y));
                // Zero where the pure leakage of the pair already meets eps (as ldp_leakage
                // bounds it), else from the emitted numbers' widest values.
                if entry_log_ratio_up(a, b) <= epsilon {
                    0.0
                } else {
                    positive_part_up(emitted_up(a), mul_down(factor, emitted_down(b)))
                }
            }));
            worst = worst.max(sum_up(&terms));
        }
    }
    worst.min(1.0)
}

/// The smallest delta for which `channel` is (eps, delta)-LIP (Def. 5) for every prior in the
/// convex hull of `priors` (the conditions are affine in the prior, Lemma 2), outward rounded.
pub fn lip_delta(channel: &Channel, priors: &[Vec<f64>], epsilon: f64) -> f64 {
    let (up, down) = (exp_down(epsilon), exp_up(-epsilon));
    let support = union_support(priors);
    let m = channel.outputs();
    let mut worst: f64 = 0.0;
    for prior in priors {
        let bounds: Vec<(f64, f64)> = (0..m)
            .map(|y| output_probability_bounds(channel, prior, y))
            .collect();
        let ranges: Vec<(f64, f64)> = (0..m).map(|y| support_range(channel, prior, y)).collect();
        for &x in &support {
            // Each term is zero where the pure LIP ratio already meets eps (as lip_leakage
            // bounds it), else bounded from the emitted numbers' widest values.
            let below: Vec<f64> = (0..m)
                .map(|y| {
                    let (q, lo) = (channel.get(x, y), bounds[y].0);
                    if q <= ranges[y].0 || log_ratio_up(q, lo) <= epsilon {
                        0.0
                    } else {
                        positive_part_up(mul_up(down, emitted_up(q)), emitted_down(lo))
                    }
                })
                .collect();
            let above: Vec<f64> = (0..m)
                .map(|y| {
                    let (q, hi) = (channel.get(x, y), bounds[y].1);
                    if q >= ranges[y].1 || log_ratio_up(hi, q) <= epsilon {
                        0.0
                    } else {
                        positive_part_up(emitted_up(hi), mul_down(up, emitted_down(q)))
                    }
                })
                .collect();
            worst = worst.max(sum_up(&below)).max(sum_up(&above));
        }
    }
    worst.min(1.0)
}

/// The smallest eps (rounded up, to bisection accuracy) at which `delta_at(eps) <= delta`, given
/// that `delta_at` is non-increasing and `delta_at(pure) == 0` at the pure leakage `pure`.
/// `inf` when the pure leakage is infinite and no finite eps up to the largest accepted one
/// reaches `delta`.
pub fn smallest_epsilon(delta_at: impl Fn(f64) -> f64, pure: f64, delta: f64) -> f64 {
    if delta_at(0.0) <= delta {
        return 0.0;
    }
    let mut hi = if pure.is_finite() {
        pure
    } else {
        crate::privacy::MAX_EPSILON
    };
    if delta_at(hi) > delta {
        return if pure.is_finite() {
            pure
        } else {
            f64::INFINITY
        };
    }
    let mut lo = 0.0;
    for _ in 0..EPSILON_BISECTION_STEPS {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi || hi - lo <= EPSILON_RELATIVE_PRECISION * hi {
            break;
        }
        if delta_at(mid) <= delta {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// The (eps, delta) trade-off of `channel` under LDP and under LIP with `prior`: for each
/// `epsilon` the smallest delta (`ldp delta at eps = E`, `lip delta at eps = E`), and for each
/// `delta` the smallest eps (`ldp eps at delta = D`, `lip eps at delta = D`), outward rounded.
pub fn approximate_profile(
    channel: &Channel,
    prior: &[f64],
    epsilons: &[f64],
    deltas: &[f64],
) -> std::collections::BTreeMap<String, f64> {
    let priors = [prior.to_vec()];
    let mut out = std::collections::BTreeMap::new();
    for &e in epsilons {
        out.insert(
            format!("ldp delta at eps = {}", show_number(e)),
            ldp_delta(channel, e),
        );
        out.insert(
            format!("lip delta at eps = {}", show_number(e)),
            lip_delta(channel, &priors, e),
        );
    }
    for &d in deltas {
        let ldp = smallest_epsilon(
            |e| ldp_delta(channel, e),
            crate::privacy::ldp_leakage(channel),
            d,
        );
        let lip = smallest_epsilon(
            |e| lip_delta(channel, &priors, e),
            crate::privacy::lip_leakage(channel, &priors),
            d,
        );
        out.insert(format!("ldp eps at delta = {}", show_number(d)), ldp);
        out.insert(format!("lip eps at delta = {}", show_number(d)), lip);
    }
    out
}
