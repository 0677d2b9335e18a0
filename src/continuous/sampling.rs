//! The sampling mechanism of context-aware-lip eq. (20): `Y = X` with probability `lambda`,
//! otherwise a fresh draw from the prior.
//!
//! Exact divergences from the definition: `f_{Y|x} = lambda delta_x + (1 - lambda) f_X` and
//! `f_Y = f_X` (continuous), so `E_{e^eps}(f_{Y|x} || f_Y) = lambda` (take `S = {x}`) and
//! `E_{e^eps}(f_Y || f_{Y|x}) = max(0, 1 - e^eps (1 - lambda))` (take `S = R \ {x}`).

use super::lip::Criterion;

/// The (eps, delta) failure probability the criterion assigns to `lambda`.
pub fn delta(lambda: f64, eps: f64, criterion: Criterion) -> f64 {
    let forward = lambda;
    let backward = (1.0 - eps.exp() * (1.0 - lambda)).max(0.0);
    let forward = match criterion {
        Criterion::Definition => (-eps).exp() * forward,
        Criterion::Corollary9 => forward,
    };
    forward.max(backward)
}

/// Proposition 2: `lambda = min{delta e^eps, 1 - e^-eps + delta e^-eps}`.
pub fn proposition2(eps: f64, delta: f64) -> f64 {
    (delta * eps.exp()).min(1.0 - (-eps).exp() + delta * (-eps).exp())
}

/// The largest `lambda` in [0, 1] with `delta(lambda) <= target`, by bisection (`delta` is
/// nondecreasing in `lambda`), to absolute width 1e-15.
pub fn calibrate(eps: f64, target: f64, criterion: Criterion) -> f64 {
    if delta(1.0, eps, criterion) <= target {
        return 1.0;
    }
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while hi - lo > 1e-15 {
        let mid = 0.5 * (lo + hi);
        if delta(mid, eps, criterion) <= target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// MSE of releasing `Y`: `E(X - Y)^2 = 2 (1 - lambda) Var X`.
pub fn release_mse(lambda: f64, variance: f64) -> f64 {
    2.0 * (1.0 - lambda) * variance
}

/// MSE of the posterior mean `E[X | Y] = lambda Y + (1 - lambda) E X`: `(1 - lambda^2) Var X`.
pub fn posterior_mse(lambda: f64, variance: f64) -> f64 {
    (1.0 - lambda * lambda) * variance
}
