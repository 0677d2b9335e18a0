//! Pricing an optimal design over a ratio cone with too many extreme rays to list as floats
//! (the Euclidean 4 x 4 grid has 16,743,648): every ray is kept as a tree code
//! ([`crate::rays::CompactRays`]) and each round decodes and prices all of them in parallel.
//!
//! The value priced is the reduced value `rho(q) = (h(q) - mu . q) / (1 . q)` with
//! `h(q) = sum_k (v_k . q)^2 / (pi . q)` (see [`crate::synthesis::design::bound`]); the largest over every
//! ray, with a margin for rounding and for the distance between a computed vertex and the exact
//! one, is the `delta` of the certified bound (docs/frequency.md, "Pricing without listing").

use crate::rays::{CompactRays, RatioCone};
use crate::synthesis::design::bound::gamma;
use nalgebra::DMatrix;

/// What pricing found.
pub(crate) struct ScanPriced {
    /// An upper bound on the largest reduced value over every ray (at least zero); `None`
    /// when the scan cannot bound it (a zero in `pi`).
    pub delta: Option<f64>,
    /// The best rays found (reduced value, ray), best first.
    pub candidates: Vec<(f64, Vec<f64>)>,
}

/// For each input `x`, the ray with the most mass on it: every other input as low as `x`
/// allows (`q_y = q_x / f_xy`), an extreme ray whose tight pairs form a star.
pub(crate) fn peak_rays(ratio: &RatioCone) -> Vec<Vec<f64>> {
    let n = ratio.inputs();
    (0..n)
        .map(|x| (0..n).map(|y| 1.0 / ratio.factor(x, y)).collect())
        .collect()
}

/// Price every ray of `store` (all the extreme rays of `ratio`) by a parallel scan, keeping
/// the `keep` best with a positive reduced value. The largest reduced value is bounded by the
/// largest value computed plus a margin for rounding and for the vertex widening, on the
/// magnitude `sum_k max_x v_xk^2 / min_x pi_x + max_x |mu_x|` that bounds every ray's terms
/// (each normalized to `1 . q = 1`); with a zero in `pi` the scan gives no bound.
pub(crate) fn price_by_scan(
    ratio: &RatioCone,
    store: &CompactRays,
    v: &DMatrix<f64>,
    pi: &[f64],
    mu: &[f64],
    keep: usize,
) -> ScanPriced {
    let n = ratio.inputs();
    let k = v.ncols();
    let vrow: Vec<f64> = (0..n)
        .flat_map(|x| (0..k).map(move |j| (x, j)))
        .map(|(x, j)| v[(x, j)])
        .collect();
    let (top, candidates) = store.best_by(
        ratio,
        keep,
        || vec![0.0; k],
        |dots: &mut Vec<f64>, q: &[f64]| {
            dots.iter_mut().for_each(|d| *d = 0.0);
            let (mut lambda, mut price, mut one) = (0.0, 0.0, 0.0);
            for (x, &qx) in q.iter().enumerate() {
                for (d, c) in dots.iter_mut().zip(&vrow[x * k..(x + 1) * k]) {
                    *d += c * qx;
                }
                lambda += pi[x] * qx;
                price += mu[x] * qx;
                one += qx;
            }
            let squares: f64 = dots.iter().map(|d| d * d).sum();
            (squares / lambda - price) / one
        },
    );
    let min_pi = pi.iter().cloned().fold(f64::INFINITY, f64::min);
    let magnitude = (0..k)
        .map(|j| {
            let m = (0..n).map(|x| vrow[x * k + j].abs()).fold(0.0, f64::max);
            m * m
        })
        .sum::<f64>()
        / min_pi
        + mu.iter().map(|m| m.abs()).fold(0.0, f64::max);
    let margin = (gamma(2 * n + k + 16) + 4.0 * ratio.vertex_widening()) * magnitude;
    let delta = (top + margin).max(0.0);
    ScanPriced {
        delta: (min_pi > 0.0 && delta.is_finite()).then_some(delta),
        candidates,
    }
}
