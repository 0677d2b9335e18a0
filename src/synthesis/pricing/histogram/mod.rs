//! Exact pricing for the histogram MMSE under a lone eps-LIP constraint, without listing rays.
//! Mutual information is priced the same way: on the slice its column function is
//! `sum_x p_x q_x ln q_x`, separable and convex too, with `phi_j(s) = s ln(s / p_j) - c s`.
//!
//! The histogram column function is `g(q) = sum_x (p_x q_x)^2 / (p . q)` (lip-data-aggregation
//! eq. 31; `p` the prior, which is also the LIP prior). On the LIP slice
//! `{q in [l, u]^n : p . q = 1}` with `l = e^-eps`, `u = e^eps`, pricing asks for
//!
//! ```text
//!     delta = max_q  sum_x h_x(q_x),      h_x(v) = p_x^2 v^2 - mu_x v,
//! ```
//!
//! a separable convex function, whose maximum over the slice is at a vertex: every coordinate at
//! `l` or `u` except one, the free coordinate `j`, with `q_j = (1 - S) / p_j` where
//! `S = sum_{x != j} p_x q_x` must keep `q_j` in `[l, u]`. With `s = 1 - S`, the free
//! coordinate adds `phi_j(s) = s^2 - (mu_j / p_j) s`, convex.
//!
//! For every `j` a branch and bound walks the bound patterns of the other coordinates: the last
//! `INNER_BITS` of them (the least influential) form a table of every pattern sorted by its
//! `S`-share; the others are fixed one by one. A node's upper bound is the fixed part plus the
//! best free choice of every remaining coordinate plus the largest `phi_j` over the `S` the
//! node can still reach inside the window (convex: at an end). A leaf scans only the table
//! entries whose `S` lands in the window, after bounding them by a range maximum. A second
//! bound replaces `phi_j` by its chord over the reachable `S` (a Lagrangian bound whose slope
//! couples `S` with the other coordinates). Nodes whose bound does not exceed the prune level
//! (the `KEEP`-th best value found, at least the caller's floor, plus the floor) are pruned,
//! so the returned `delta = max(best, prune level) + margin` is an upper bound on the true
//! maximum; the margins cover floating-point rounding (gamma_k bounds).
//!
//! This module holds the slice and the search over free coordinates; `tree` holds the branch
//! and bound of one free coordinate.

mod tree;

use crate::synthesis::pricing::search::{Best, SearchStats};
use crate::synthesis::pricing::Priced;
use rayon::prelude::*;
use std::time::Instant;
use tree::search_free;

/// Largest domain the bit patterns can hold.
pub const HISTOGRAM_PRICING_MAX_INPUTS: usize = 62;

/// The column function on the LIP slice `p . q = 1`, where both are separable and convex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeparableUtility {
    /// Histogram MMSE: `g(q) = sum_x (p_x q_x)^2` (lip-data-aggregation eq. 31).
    Histogram,
    /// Mutual information: `g(q) = sum_x p_x q_x ln q_x` (nats; `ln(q_x / lambda)` with
    /// `lambda = p . q = 1`).
    Information,
}

/// Per-coordinate data of the LIP pricing problem.
struct Slice<'a> {
    utility: SeparableUtility,
    p: &'a [f64],
    mu: &'a [f64],
    low: f64,
    high: f64,
}

impl Slice<'_> {
    fn h(&self, x: usize, v: f64) -> f64 {
        let g = match self.utility {
            SeparableUtility::Histogram => self.p[x] * self.p[x] * v * v,
            SeparableUtility::Information => self.p[x] * v * v.ln(),
        };
        g - self.mu[x] * v
    }
    fn q(&self, x: usize, mask: u64) -> f64 {
        if mask >> x & 1 == 1 {
            self.high
        } else {
            self.low
        }
    }
}

/// Exact LIP pricing of the histogram MMSE or of mutual information. `floor`: reduced values up to it need not be found (the
/// returned `delta` is at least `floor`); `deadline`: when it passes the search stops and
/// `delta` is infinite. Columns are vertices normalized to `p . q = 1`, best first.
pub fn price_histogram_lip(
    utility: SeparableUtility,
    prior: &[f64],
    mu: &[f64],
    epsilon: f64,
    floor: f64,
    deadline: Instant,
) -> (Priced, SearchStats) {
    let n = prior.len();
    assert!(n <= HISTOGRAM_PRICING_MAX_INPUTS, "caller checks the size");
    let slice = Slice {
        utility,
        p: prior,
        mu,
        low: (-epsilon).exp(),
        high: epsilon.exp(),
    };
    let results: Vec<FreeSearch> = (0..n)
        .into_par_iter()
        .map(|j| search_free(&slice, j, floor, deadline))
        .collect();
    let mut stats = SearchStats::default();
    let mut delta = f64::NEG_INFINITY;
    let mut found: Vec<(f64, Vec<f64>)> = Vec::new();
    for (best, margin, s) in results {
        stats.absorb(&s);
        delta = delta.max(best.upper() + margin);
        for &(value, (j, mask)) in best.items() {
            found.push((value, vertex(&slice, j, mask)));
        }
    }
    if !stats.complete {
        delta = f64::INFINITY;
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0));
    found.dedup_by(|a, b| a.1 == b.1);
    let columns = found.into_iter().map(|(_, q)| q).collect();
    (Priced { columns, delta }, stats)
}

/// The vertex with free coordinate `j` and the others at `mask`'s bounds, on `p . q = 1`.
fn vertex(slice: &Slice, j: usize, mask: u64) -> Vec<f64> {
    let n = slice.p.len();
    let mut q: Vec<f64> = (0..n).map(|x| slice.q(x, mask)).collect();
    let rest: f64 = (0..n).filter(|&x| x != j).map(|x| slice.p[x] * q[x]).sum();
    q[j] = ((1.0 - rest) / slice.p[j]).clamp(slice.low, slice.high);
    q
}

/// The best vertices (value, (free coordinate, pattern)) of one free coordinate's search, its
/// rounding margin and its work.
type FreeSearch = (Best<(usize, u64)>, f64, SearchStats);
