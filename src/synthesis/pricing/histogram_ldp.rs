//! Exact pricing for the histogram MMSE under a lone eps-LDP constraint, without listing rays.
//!
//! The extreme rays are the staircase patterns `r = 1 + (e^eps - 1) s`, `s in {0, 1}^n`
//! (Kairouz, Oh, Viswanath, Theorem 2), and pricing asks for
//!
//! ```text
//!     delta = max_r (g(r) - mu . r) / (p . r) = max_r  A / B^2 - C / B,
//!     A = sum_x p_x^2 r_x^2,   B = p . r,   C = mu . r
//! ```
//!
//! (`g(r) = sum_x (p_x r_x)^2 / (p . r)`, lip-data-aggregation eq. 31). With `y = 1 / B` this is
//! `sum_x t_x(r_x, y)`, `t_x(r, y) = p_x^2 r^2 y^2 - mu_x r y`, convex in `y`. A branch and bound
//! fixes the most influential coordinates one by one; the last `INNER_BITS` form a table of
//! every pattern scanned at the leaves. A node whose `B` lies in `[B_lo, B_hi]` is bounded by the
//! larger of `F(1 / B_hi)` and `F(1 / B_lo)`, where `F(y)` is the fixed part plus
//! `max_r t_x(r, y)` for every free coordinate: `F` is convex, so its maximum over the interval
//! is at an end, and it is at least the value of every pattern below the node. Pruning and the
//! returned bound follow the LIP pricer (`histogram`).

use crate::numeric::gamma_coarse as gamma;
use crate::synthesis::pricing::search::{Best, SearchStats};
use crate::synthesis::pricing::Priced;
use rayon::prelude::*;
use std::time::Instant;

/// Coordinates tabulated at the leaves.
const INNER_BITS: usize = 12;
/// The first coordinates whose patterns are searched in parallel.
const SPLIT_BITS: usize = 5;

/// Table entries per block bounded together at a leaf.
const CHUNK: usize = 64;

/// Extremes of a block of the leaf table (sorted by `b`).
struct Chunk {
    a_max: f64,
    c_min: f64,
    b_lo: f64,
    b_hi: f64,
}

#[derive(Clone, Copy)]
struct Entry {
    a: f64,
    b: f64,
    c: f64,
    mask: u64,
}

struct Tree<'a> {
    p: &'a [f64],
    mu: &'a [f64],
    high: f64,
    outer: Vec<usize>,
    inner: Vec<usize>,
    b_low: Vec<f64>,
    b_high: Vec<f64>,
    table: Vec<Entry>,
    chunks: Vec<Chunk>,
    table_b: (f64, f64),
    margin: f64,
    deadline: Instant,
}

impl Tree<'_> {
    fn best_term(&self, x: usize, y: f64) -> f64 {
        let (p, m) = (self.p[x], self.mu[x]);
        let at = |r: f64| p * p * r * r * y * y - m * r * y;
        at(1.0).max(at(self.high))
    }

    /// The bound `F(y)` and an upper bound on its rounding error.
    fn bound_at(&self, d: usize, fixed: (f64, f64), y: f64) -> f64 {
        let (free, size) = self.outer[d..]
            .iter()
            .chain(&self.inner)
            .map(|&x| self.best_term(x, y))
            .fold((0.0, 0.0), |(s, m), t| (s + t, m + t.abs()));
        let (quadratic, linear) = (fixed.0 * y * y, fixed.1 * y);
        let error = gamma(2 * self.p.len() + 16) * 4.0 * (size + quadratic.abs() + linear.abs());
        quadratic - linear + free + error
    }

    fn dfs(&self, d: usize, f: Entry, best: &mut Best<u64>, stats: &mut SearchStats) {
        if !stats.complete {
            return;
        }
        stats.nodes += 1;
        let b_lo = f.b + self.b_low[d] + self.table_b.0;
        let b_hi = f.b + self.b_high[d] + self.table_b.1;
        let bound =
            self.bound_at(d, (f.a, f.c), 1.0 / b_hi)
                .max(self.bound_at(d, (f.a, f.c), 1.0 / b_lo));
        if bound + self.margin <= best.prune_level() {
            return;
        }
        if d == self.outer.len() {
            self.leaf(f, best, stats);
            return;
        }
        let x = self.outer[d];
        let (p, m, e) = (self.p[x], self.mu[x], self.high);
        let low = Entry {
            a: f.a + p * p,
            b: f.b + p,
            c: f.c + m,
            mask: f.mask,
        };
        let high = Entry {
            a: f.a + p * p * e * e,
            b: f.b + p * e,
            c: f.c + m * e,
            mask: f.mask | 1 << x,
        };
        self.dfs(d + 1, high, best, stats);
        self.dfs(d + 1, low, best, stats);
    }

    fn leaf(&self, f: Entry, best: &mut Best<u64>, stats: &mut SearchStats) {
        stats.leaves += 1;
        if Instant::now() > self.deadline {
            stats.complete = false;
            return;
        }
        let g = gamma(2 * self.p.len() + 16) * 4.0;
        for (chunk, block) in self.chunks.iter().zip(self.table.chunks(CHUNK)) {
            // Every entry has a <= a_max, c >= c_min and b in [b_lo, b_hi]: its value is at most
            // (A y^2 - C y) at y = 1 / B for the larger A and smaller C, convex in y.
            let (a, c) = (f.a + chunk.a_max, f.c + chunk.c_min);
            let at = |y: f64| {
                let (quadratic, linear) = (a * y * y, c * y);
                quadratic - linear + g * (quadratic.abs() + linear.abs())
            };
            let bound = at(1.0 / (f.b + chunk.b_hi)).max(at(1.0 / (f.b + chunk.b_lo)));
            if bound <= best.prune_level() {
                continue;
            }
            stats.evaluated += block.len() as u64;
            for e in block {
                let inv = 1.0 / (f.b + e.b);
                let value = ((f.a + e.a) * inv - (f.c + e.c)) * inv;
                if value > best.threshold() {
                    best.offer(value, f.mask | e.mask);
                }
            }
        }
    }
}

/// Exact LDP histogram pricing, as [`crate::synthesis::pricing::histogram::price_histogram_lip`]: columns
/// are staircase patterns normalized to `p . r = 1`, best first; `delta` bounds every reduced
/// value `(g(r) - mu . r) / (p . r)` from above, and is at least `floor`.
pub fn price_histogram_ldp(
    prior: &[f64],
    mu: &[f64],
    epsilon: f64,
    floor: f64,
    deadline: Instant,
) -> (Priced, SearchStats) {
    let n = prior.len();
    let (p, high) = (prior, epsilon.exp());
    let spread = |x: usize| p[x] * p[x] * (high * high - 1.0) + mu[x].abs() * (high - 1.0);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| spread(y).total_cmp(&spread(x)));
    let k = n.min(INNER_BITS);
    let inner = order.split_off(n - k);
    let outer = order;
    let mut table: Vec<Entry> = (0..1u64 << k)
        .map(|bits| {
            let mut e = Entry {
                a: 0.0,
                b: 0.0,
                c: 0.0,
                mask: 0,
            };
            for (i, &x) in inner.iter().enumerate() {
                let r = if bits >> i & 1 == 1 { high } else { 1.0 };
                e.a += p[x] * p[x] * r * r;
                e.b += p[x] * r;
                e.c += mu[x] * r;
                if r == high {
                    e.mask |= 1 << x;
                }
            }
            e
        })
        .collect();
    table.sort_by(|x, y| x.b.total_cmp(&y.b));
    let chunks = table
        .chunks(CHUNK)
        .map(|block| Chunk {
            a_max: block.iter().map(|e| e.a).fold(f64::NEG_INFINITY, f64::max),
            c_min: block.iter().map(|e| e.c).fold(f64::INFINITY, f64::min),
            b_lo: block[0].b,
            b_hi: block[block.len() - 1].b,
        })
        .collect();
    let table_b = table
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |acc, e| {
            (acc.0.min(e.b), acc.1.max(e.b))
        });
    let d_max = outer.len();
    let mut b_low = vec![0.0; d_max + 1];
    let mut b_high = vec![0.0; d_max + 1];
    for d in (0..d_max).rev() {
        b_low[d] = b_low[d + 1] + p[outer[d]];
        b_high[d] = b_high[d + 1] + p[outer[d]] * high;
    }
    // Rounding: A, B, C are sums of at most n terms (A and B of non-negative ones), and
    // A / B^2 <= 1, |C| / B <= max |mu_x| / p_x: the value errs by a few gamma_(2n) of those.
    let price_ratio = (0..n).map(|x| mu[x].abs() / p[x]).fold(0.0, f64::max);
    let margin = 4.0 * gamma(2 * n + 16) * (1.0 + price_ratio);
    let tree = Tree {
        p,
        mu,
        high,
        outer,
        inner,
        b_low,
        b_high,
        table,
        chunks,
        table_b,
        margin,
        deadline,
    };
    let split = d_max.min(SPLIT_BITS);
    let results: Vec<(Best<u64>, SearchStats)> = (0..1u64 << split)
        .into_par_iter()
        .map(|bits| {
            let mut f = Entry {
                a: 0.0,
                b: 0.0,
                c: 0.0,
                mask: 0,
            };
            for (i, &x) in tree.outer[..split].iter().enumerate() {
                let r = if bits >> i & 1 == 1 { high } else { 1.0 };
                f.a += p[x] * p[x] * r * r;
                f.b += p[x] * r;
                f.c += mu[x] * r;
                if r == high {
                    f.mask |= 1 << x;
                }
            }
            let mut best = Best::new(floor);
            let mut stats = SearchStats::default();
            tree.dfs(split, f, &mut best, &mut stats);
            (best, stats)
        })
        .collect();
    let mut stats = SearchStats::default();
    let mut delta = f64::NEG_INFINITY;
    let mut found: Vec<(f64, Vec<f64>)> = Vec::new();
    for (best, s) in results {
        stats.absorb(&s);
        delta = delta.max(best.upper() + margin);
        for &(value, mask) in best.items() {
            let r: Vec<f64> = (0..n)
                .map(|x| if mask >> x & 1 == 1 { high } else { 1.0 })
                .collect();
            let scale: f64 = r.iter().zip(p).map(|(a, b)| a * b).sum();
            found.push((value, r.iter().map(|v| v / scale).collect()));
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
