//! Exact pricing on a line by dynamic programming, with a rigorous lower bound.
//!
//! With `a = e^t` the per-step ratio, the vertices of `P = {q in C : q <= 1}`,
//! `C = {q >= 0 : q_x <= a q_{x+1}, q_{x+1} <= a q_x}`, are `0` and points `q_x = a^{-k_x}` with
//! integers `k_x >= 0` and `|k_{x+1} - k_x| <= 1`, and every such point lies in P. (At a
//! vertex, n independent constraints are tight; a zero entry forces all entries to zero, and
//! otherwise every run of tight ratio rows contains an entry at its upper bound 1, so its
//! entries are integer powers of `a`; neighbours in different runs have a ratio within
//! `[1/a, a]`, hence equal exponents.) So for a price vector `s`,
//!
//! ```text
//! m(s) = min { s . q : q in P } = min(0, min over such k of sum_x s_x a^{-k_x}),
//! ```
//!
//! a shortest path over positions x with states k. No vertex needs a level above `n - 1`, so
//! when `(n - 1) t <= LEVEL_CUTOFF` the levels are `0..n-1` and the program is exact. Otherwise
//! levels are capped at `K = ceil(LEVEL_CUTOFF / t)`; state K is a floor meaning
//! `q_x in [0, a^{-K}]`, worth `min(0, s_x) a^{-K}`. Every sequence maps to the capped one with
//! a value no larger, so the capped program is a relaxation and its minimum is at most `m(s)`
//! (by at most `a^{-K} sum_x max(0, -s_x) <= e^-40 sum_x max(0, -s_x)`).
//!
//! Rounding: the computed minimum is at most the computed value of the exact optimal path P
//! of the capped program (rounding is monotone, so the recursion never exceeds any path's own
//! rounded sum); that rounded sum differs from the exact one by at most
//! `gamma(n + 1) sum_x |term_x|` (recursive summation of the path's terms `s_x w_x`, weights at
//! most 1). When P's exact value is negative, `sum |term_x| = value + 2 sum (negative terms)
//! < 2 N` with `N = sum_x max(0, -s_x)`; when it is not, `m(s) = 0` and any bound <= 0 holds.
//! The weights `a^{-k}` carry a relative error from `exp`, and `s = c - u` itself is rounded;
//! the margin subtracts all three, each times `2 N`.

use rayon::prelude::*;

/// Levels below `a^{-K}` with `K t >= LEVEL_CUTOFF` are merged into the floor state
/// (`e^-40 = 4e-18`, far below the accepted gap).
pub const LEVEL_CUTOFF: f64 = 40.0;

pub use crate::numeric::gamma_coarse as gamma;

/// The levels of the program for `n` points at per-step log-ratio `t`: their weights `a^{-k}`
/// (k = 0..=top), whether the top one is a floor, and a bound on the weights' relative error.
#[derive(Debug, Clone)]
pub struct Levels {
    /// `a^{-k}` for `k = 0..=top`.
    pub weights: Vec<f64>,
    /// Whether the top level is the floor state `q_x in [0, a^{-top}]`.
    pub floor: bool,
    /// A bound on the relative error of each computed weight.
    pub relative_error: f64,
}

impl Levels {
    /// Exact levels `0..n-1` when `(n - 1) t <= LEVEL_CUTOFF`, else levels up to
    /// `K = ceil(LEVEL_CUTOFF / t)` with a floor at K.
    pub fn new(n: usize, t: f64) -> Self {
        let exact_top = n.saturating_sub(1);
        let needed = (LEVEL_CUTOFF / t).ceil();
        let (top, floor) = if exact_top as f64 * t <= LEVEL_CUTOFF || needed >= exact_top as f64 {
            (exact_top, false)
        } else {
            ((needed as usize).max(1), true)
        };
        let weights = (0..=top).map(|k| (-(k as f64) * t).exp()).collect();
        // The exponent `k t` is rounded (relative error u, absolute u k t) and `exp` is within
        // a few ulps; a generous factor 4 on both.
        let relative_error = 4.0 * f64::EPSILON * (top as f64 * t + 4.0);
        Levels {
            weights,
            floor,
            relative_error,
        }
    }

    /// Number of states (levels, floor included).
    pub fn count(&self) -> usize {
        self.weights.len()
    }
}

/// The minimum over the (capped) program, as computed in floating point (no margin; the
/// vertex 0 not included).
pub fn capped_minimum(s: &[f64], levels: &Levels) -> f64 {
    let weights = &levels.weights;
    let top = weights.len() - 1;
    // The floor's weight applies to min(0, s_x) only; an exact top level is like the others.
    let exact = if levels.floor { top } else { top + 1 };
    let mut value: Vec<f64> = vec![0.0; weights.len()];
    let mut next = value.clone();
    let mut best_neighbour = value.clone();
    for (x, &sx) in s.iter().enumerate() {
        let floor_term = sx.min(0.0) * weights[top];
        if x == 0 {
            for (v, w) in value[..exact].iter_mut().zip(&weights[..exact]) {
                *v = sx * w;
            }
            if levels.floor {
                value[top] = floor_term;
            }
            continue;
        }
        neighbour_minima(&value, &mut best_neighbour);
        for ((v, m), w) in next[..exact]
            .iter_mut()
            .zip(&best_neighbour[..exact])
            .zip(&weights[..exact])
        {
            *v = sx * w + m;
        }
        if levels.floor {
            next[top] = floor_term + best_neighbour[top];
        }
        std::mem::swap(&mut value, &mut next);
    }
    value.iter().copied().fold(f64::INFINITY, f64::min)
}

/// `out[k] = min(v[k-1], v[k], v[k+1])` over the indices that exist.
fn neighbour_minima(v: &[f64], out: &mut [f64]) {
    let last = v.len() - 1;
    if last == 0 {
        out[0] = v[0];
        return;
    }
    out[0] = v[0].min(v[1]);
    for k in 1..last {
        out[k] = v[k - 1].min(v[k]).min(v[k + 1]);
    }
    out[last] = v[last - 1].min(v[last]);
}

/// A rigorous lower bound on `m(s) = min { s . q : q in C, 0 <= q <= 1 }` for the line cone at
/// per-step log-ratio `t` (see the module docs), where `s` was computed as `c - u` in floating
/// point (one rounding per entry).
pub fn line_pricing_lower_bound(s: &[f64], levels: &Levels) -> f64 {
    let n = s.len();
    let computed = capped_minimum(s, levels).min(0.0);
    let weight_error = levels.relative_error;
    let negative: f64 = s.iter().map(|v| (-v).max(0.0)).sum();
    // gamma(n + 1) for the path sums, the weights' error and one rounding of each s_x, times
    // 2 N (see the module docs); gamma(n) covers the rounding of N itself.
    let margin =
        (gamma(n + 4) + weight_error + 2.0 * f64::EPSILON) * 2.0 * negative * (1.0 + gamma(n));
    (computed - margin).next_down()
}

/// Lower bounds on `m_y` for every output (`costs[y]` in line order), in parallel; `None`
/// when `stop()` says so before all are done. `done(k)` is told how many outputs are priced.
pub fn price_all_outputs(
    costs: &[Vec<f64>],
    prices: &[f64],
    t: f64,
    stop: &(dyn Fn() -> bool + Sync),
    done: &(dyn Fn(usize) + Sync),
) -> Option<Vec<f64>> {
    let n = prices.len();
    let levels = Levels::new(n, t);
    let count = std::sync::atomic::AtomicUsize::new(0);
    costs
        .par_iter()
        .map(|c| {
            if stop() {
                return None;
            }
            let s: Vec<f64> = c.iter().zip(prices).map(|(c, u)| c - u).collect();
            let bound = line_pricing_lower_bound(&s, &levels);
            done(count.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
            Some(bound)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_exact_unless_the_cutoff_is_reached() {
        let exact = Levels::new(10, 0.01);
        assert_eq!((exact.count(), exact.floor), (10, false));
        let capped = Levels::new(10_000, 1.0);
        assert_eq!((capped.count(), capped.floor), (41, true));
        let steep = Levels::new(5, 100.0);
        assert_eq!((steep.count(), steep.floor), (2, true));
    }

    #[test]
    fn single_point_and_constant_prices() {
        let levels = Levels::new(1, 1.0);
        assert_eq!(capped_minimum(&[-2.0], &levels), -2.0);
        assert!(line_pricing_lower_bound(&[3.0], &levels) <= 0.0);
        // All negative: q = 1 is best.
        let bound = line_pricing_lower_bound(&[-1.0; 4], &Levels::new(4, 0.5));
        assert!(bound <= -4.0 && bound > -4.0 - 1e-12);
    }
}
