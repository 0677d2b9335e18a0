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

use super::design_bound::gamma;
use super::pricing::Priced;
use super::pricing_search::{Best, RangeMax, SearchStats};
use rayon::prelude::*;
use std::time::Instant;

/// Coordinates tabulated at the leaves (2^INNER_BITS entries per free coordinate).
const INNER_BITS: usize = 12;

/// Leaf-table entries bounded together before they are scanned.
const CHUNK: usize = 64;

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

/// One entry of the leaf table: `S`-share, value, pattern.
#[derive(Clone, Copy)]
struct Entry {
    s: f64,
    v: f64,
    mask: u64,
}

/// What the branch and bound of one free coordinate needs.
struct Tree<'a> {
    slice: &'a Slice<'a>,
    outer: Vec<usize>,
    inner: Vec<usize>,
    /// Suffix sums over `outer[d..]`: smallest and largest `S`-share, best value.
    s_low: Vec<f64>,
    s_high: Vec<f64>,
    v_best: Vec<f64>,
    table: Vec<Entry>,
    table_max: RangeMax,
    window: (f64, f64),
    c: f64,
    p_free: f64,
    /// Rounding margin of a vertex's computed value.
    margin: f64,
    /// Rounding margin of a node's computed bound.
    node_margin: f64,
    deadline: Instant,
    free: usize,
}

impl Tree<'_> {
    /// The free coordinate's term as a function of `S`: `h_j((1 - S) / p_j)`.
    fn phi(&self, s_total: f64) -> f64 {
        let s = 1.0 - s_total;
        match self.slice.utility {
            SeparableUtility::Histogram => s * (s - self.c),
            // s ln(s / p_j) - c s, continued by 0 at s <= 0 (outside the window anyway).
            SeparableUtility::Information if s > 0.0 => s * ((s / self.p_free).ln() - self.c),
            SeparableUtility::Information => 0.0,
        }
    }

    /// The bound with `phi_j` replaced by its chord over `[a, b]` (the `S` still reachable in
    /// the window): `phi_j(S) <= phi_j(a) + beta (S - a)` there, and the rest is separable.
    fn chord_bound(&self, d: usize, s_f: f64, v_f: f64, (a, b): (f64, f64)) -> f64 {
        let (phi_a, phi_b) = (self.phi(a), self.phi(b));
        let beta = if b > a {
            (phi_b - phi_a) / (b - a)
        } else {
            0.0
        };
        let (low, high) = (self.slice.low, self.slice.high);
        let free: f64 = self.outer[d..]
            .iter()
            .chain(&self.inner)
            .map(|&x| {
                let shift = beta * self.slice.p[x];
                (self.slice.h(x, low) + shift * low).max(self.slice.h(x, high) + shift * high)
            })
            .sum();
        // Rounding of the chord's ends and of the shifted terms (sums of <= n + 4 terms).
        let slack = gamma(self.slice.p.len() + 8)
            * (4.0 * (phi_a.abs() + phi_b.abs()) + 4.0 * beta.abs() * (self.slice.high + a.abs()));
        v_f + phi_a + beta * (s_f - a) + free + slack
    }

    fn dfs(
        &self,
        d: usize,
        s_f: f64,
        v_f: f64,
        mask: u64,
        best: &mut Best<(usize, u64)>,
        stats: &mut SearchStats,
    ) {
        if !stats.complete {
            return;
        }
        stats.nodes += 1;
        let (first, last) = (self.table[0].s, self.table[self.table.len() - 1].s);
        let a = (s_f + self.s_low[d] + first).max(self.window.0);
        let b = (s_f + self.s_high[d] + last).min(self.window.1);
        if a > b {
            return;
        }
        let bound = v_f + self.v_best[d] + self.table_max.all() + self.phi(a).max(self.phi(b));
        if bound + self.node_margin <= best.prune_level() {
            return;
        }
        if self.chord_bound(d, s_f, v_f, (a, b)) + self.node_margin <= best.prune_level() {
            return;
        }
        if d == self.outer.len() {
            self.leaf(s_f, v_f, mask, best, stats);
            return;
        }
        let x = self.outer[d];
        let p = self.slice.p[x];
        let (low, high) = (self.slice.low, self.slice.high);
        let children = [
            (s_f + p * low, v_f + self.slice.h(x, low), mask),
            (s_f + p * high, v_f + self.slice.h(x, high), mask | 1 << x),
        ];
        let order = if children[1].1 > children[0].1 {
            [1, 0]
        } else {
            [0, 1]
        };
        for k in order {
            let (s, v, m) = children[k];
            self.dfs(d + 1, s, v, m, best, stats);
        }
    }

    fn leaf(
        &self,
        s_f: f64,
        v_f: f64,
        mask: u64,
        best: &mut Best<(usize, u64)>,
        stats: &mut SearchStats,
    ) {
        stats.leaves += 1;
        if Instant::now() > self.deadline {
            stats.complete = false;
            return;
        }
        let start = self.table.partition_point(|e| s_f + e.s < self.window.0);
        let end = self.table.partition_point(|e| s_f + e.s <= self.window.1);
        if start >= end {
            return;
        }
        let ends = self
            .phi(s_f + self.table[start].s)
            .max(self.phi(s_f + self.table[end - 1].s));
        if v_f + self.table_max.range(start, end) + ends + self.margin <= best.prune_level() {
            return;
        }
        let span = (s_f + self.table[start].s, s_f + self.table[end - 1].s);
        if self.chord_bound(self.outer.len(), s_f, v_f, span) + self.node_margin
            <= best.prune_level()
        {
            return;
        }
        // Blocks of the range, each bounded like the whole range before it is scanned.
        for lo in (start..end).step_by(CHUNK) {
            let hi = (lo + CHUNK).min(end);
            let ends = self
                .phi(s_f + self.table[lo].s)
                .max(self.phi(s_f + self.table[hi - 1].s));
            if v_f + self.table_max.range(lo, hi) + ends + self.margin <= best.prune_level() {
                continue;
            }
            stats.evaluated += (hi - lo) as u64;
            for e in &self.table[lo..hi] {
                let value = v_f + e.v + self.phi(s_f + e.s);
                if value > best.threshold() {
                    best.offer(value, (self.free, mask | e.mask));
                }
            }
        }
    }
}

/// Branch and bound over the vertices whose free coordinate is `j`: the best few (value,
/// (j, pattern)), and the rounding margin of its values.
fn search_free(slice: &Slice, j: usize, floor: f64, deadline: Instant) -> FreeSearch {
    let n = slice.p.len();
    let (p, mu, low, high) = (slice.p, slice.mu, slice.low, slice.high);
    let c = mu[j] / p[j];
    let slope = 2.0 * p[j] * high + c.abs();
    let mut others: Vec<usize> = (0..n).filter(|&x| x != j).collect();
    let weight =
        |x: usize| (slice.h(x, high) - slice.h(x, low)).abs() + slope * p[x] * (high - low);
    others.sort_by(|&x, &y| weight(y).total_cmp(&weight(x)));
    let k = others.len().min(INNER_BITS);
    let inner = others.split_off(others.len() - k);
    let outer = others;
    let mut table: Vec<Entry> = (0..1u64 << k)
        .map(|bits| {
            let mut e = Entry {
                s: 0.0,
                v: 0.0,
                mask: 0,
            };
            for (b, &x) in inner.iter().enumerate() {
                let on = bits >> b & 1 == 1;
                let v = if on { high } else { low };
                e.s += p[x] * v;
                e.v += slice.h(x, v);
                if on {
                    e.mask |= 1 << x;
                }
            }
            e
        })
        .collect();
    table.sort_by(|a, b| a.s.total_cmp(&b.s));
    let table_max = RangeMax::new(table.iter().map(|e| e.v).collect());
    let d_max = outer.len();
    let mut s_low = vec![0.0; d_max + 1];
    let mut s_high = vec![0.0; d_max + 1];
    let mut v_best = vec![0.0; d_max + 1];
    for d in (0..d_max).rev() {
        let x = outer[d];
        s_low[d] = s_low[d + 1] + p[x] * low;
        s_high[d] = s_high[d + 1] + p[x] * high;
        v_best[d] = v_best[d + 1] + slice.h(x, low).max(slice.h(x, high));
    }
    // Rounding. On a vertex every term is non-negative in S and S <= 1, so a computed S is
    // within gamma_(n+2) of the true one; its value has terms with sum of magnitudes at most
    // sum (p_x q_x)^2 + |mu_x| q_x <= 1 + max |mu_x| / p_x, and phi_j's slope is at most
    // 2 + |c| on [0, 1]. A node's bound adds terms up to `box_magnitude` (any pattern).
    let s_error = 2.0 * gamma(n + 4);
    let price_ratio = (0..n).map(|x| mu[x].abs() / p[x]).fold(0.0, f64::max);
    // (Mutual information: sum p_x q_x |ln q_x| <= eps, and phi_j's slope ln(s / p_j) + 1 - c
    // is at most 1 + eps + |c|.)
    let log_bound = high.ln();
    let margin = 4.0 * gamma(2 * n + 16) * (2.0 + log_bound + 2.0 * price_ratio)
        + 2.0 * (2.0 + log_bound + c.abs() + 2.0 * s_error) * s_error;
    let box_magnitude: f64 = (0..n)
        .map(|x| slice.h(x, low).abs().max(slice.h(x, high).abs()))
        .sum();
    let node_margin = margin + 4.0 * gamma(2 * n + 16) * box_magnitude;
    let window = (1.0 - p[j] * high - s_error, 1.0 - p[j] * low + s_error);
    let tree = Tree {
        slice,
        outer,
        inner,
        s_low,
        s_high,
        v_best,
        table,
        table_max,
        window,
        c,
        p_free: p[j],
        margin,
        node_margin,
        deadline,
        free: j,
    };
    let mut best = Best::new(floor);
    let mut stats = SearchStats::default();
    tree.dfs(0, 0.0, 0.0, 0, &mut best, &mut stats);
    (best, margin, stats)
}
