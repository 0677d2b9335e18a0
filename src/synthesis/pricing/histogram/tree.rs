//! The branch and bound of one free coordinate of the LIP pricing problem: the leaf table of
//! the least influential coordinates, the suffix sums and rounding margins of the search, the
//! node bounds (window ends and chord) and the scan of the leaves.

use super::{FreeSearch, SeparableUtility, Slice};
use crate::numeric::gamma_coarse as gamma;
use crate::synthesis::pricing::search::{Best, RangeMax, SearchStats};
use std::time::Instant;

/// Coordinates tabulated at the leaves (2^INNER_BITS entries per free coordinate).
const INNER_BITS: usize = 12;

/// Leaf-table entries bounded together before they are scanned.
const CHUNK: usize = 64;

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
pub(super) fn search_free(slice: &Slice, j: usize, floor: f64, deadline: Instant) -> FreeSearch {
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
