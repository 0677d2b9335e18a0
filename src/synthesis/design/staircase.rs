//! Pricing an optimal design under a lone eps-LDP constraint without listing its `2^n - 2`
//! extreme rays (docs/frequency.md, "Pricing without listing").
//!
//! The rays are the staircase patterns `r_S = 1 + c 1_S` (`c = e^eps - 1`), normalized to
//! `1 . q = 1`, and the value priced is the reduced value
//!
//! ```text
//! rho(S) = (||V^T r_S||^2 / (pi . r_S) - mu . r_S) / (1 . r_S),
//! ```
//!
//! the quadratic-over-linear `h` of [`crate::synthesis::design::bound`] less the prices. `h` is
//! convex, so `rho` is a convex function of the normalized ray, and its largest value over the
//! rays is the largest over the polytope they span; a branch and bound fixes one coordinate of
//! `S` per level. With `G = V V^T`, a node that has fixed some coordinates (the others at 1 so
//! far) and leaves a set `R` free bounds every completion `T` of `R` as follows: with
//! `y = 1 / (pi . r)` and `d_x = (G r)_x` at the node,
//!
//! ```text
//! ||V^T r_T||^2 <= ||V^T r||^2 + sum_{x in T} a_x,  a_x = 2 c d_x + c^2 G_xx + c^2 sum_{z in R, z != x} max(0, G_xz),
//! rho(T) <= max_T (y ||V^T r||^2 - mu . r + sum_{x in T} (y a_x - c mu_x)) / (1 . r + c |T|),
//! ```
//!
//! a linear-fractional function of `T`, whose maximum is a prefix of the coordinates sorted by
//! their coefficient (thresholding, as for a linear pricing function). The right-hand side is
//! a maximum of functions linear in `y`, hence convex, and `y` lies between its values with no
//! free coordinate raised and with all of them raised: the larger of the two ends bounds the
//! node. Every bound is widened by a margin for floating-point rounding, so the returned
//! `delta` bounds the reduced value of every ray.

use crate::numeric::gamma_coarse as gamma;
use nalgebra::DMatrix;
use rayon::prelude::*;
use std::time::Instant;

/// The first coordinates whose patterns are searched in parallel.
const SPLIT_BITS: usize = 5;

/// What the search found.
pub(crate) struct StaircasePriced {
    /// An upper bound on the reduced value of every ray; `None` when the deadline stopped the
    /// search.
    pub delta: Option<f64>,
    /// The best rays found (reduced value, normalized ray), best first.
    pub candidates: Vec<(f64, Vec<f64>)>,
}

/// The `keep` best (value, mask) pairs above a floor.
struct Top {
    items: Vec<(f64, u64)>,
    keep: usize,
    floor: f64,
}

impl Top {
    fn threshold(&self) -> f64 {
        if self.items.len() < self.keep {
            self.floor
        } else {
            self.floor.max(self.items[self.keep - 1].0)
        }
    }

    /// Subtrees whose bound is at most this are pruned; every value pruned is at most
    /// `max(top, prune_level)`.
    fn prune_level(&self) -> f64 {
        self.threshold() + self.floor.max(0.0)
    }

    fn upper(&self) -> f64 {
        let top = self.items.first().map_or(f64::NEG_INFINITY, |i| i.0);
        top.max(self.prune_level())
    }

    fn offer(&mut self, value: f64, mask: u64) {
        if value <= self.threshold() {
            return;
        }
        let at = self.items.partition_point(|i| i.0 >= value);
        self.items.insert(at, (value, mask));
        self.items.truncate(self.keep);
    }
}

/// The node's running sums, with the free coordinates at 1.
#[derive(Clone)]
struct Node {
    /// `(G r)_x` for every x.
    dots: Vec<f64>,
    /// `r^T G r`.
    square: f64,
    /// `pi . r`, `mu . r`, `1 . r`.
    lambda: f64,
    price: f64,
    total: f64,
    mask: u64,
}

struct Search<'a> {
    g: &'a DMatrix<f64>,
    pi: &'a [f64],
    mu: &'a [f64],
    c: f64,
    order: Vec<usize>,
    /// `positive[d][x]`: sum of `max(0, G_xz)` over the free `z != x` at depth `d`.
    positive: Vec<Vec<f64>>,
    /// `pi` summed over the free coordinates at depth `d`.
    free_pi: Vec<f64>,
    margin: f64,
    deadline: Instant,
    budget: u64,
}

impl Search<'_> {
    fn raise(&self, node: &Node, x: usize) -> Node {
        let c = self.c;
        let mut next = node.clone();
        next.square += 2.0 * c * node.dots[x] + c * c * self.g[(x, x)];
        for (z, d) in next.dots.iter_mut().enumerate() {
            *d += c * self.g[(x, z)];
        }
        next.lambda += c * self.pi[x];
        next.price += c * self.mu[x];
        next.total += c;
        next.mask |= 1 << x;
        next
    }

    /// The largest over subsets `T` of the free coordinates of the linear-fractional bound at
    /// `y`, by thresholding.
    fn fractional(&self, node: &Node, depth: usize, y: f64, scratch: &mut Vec<f64>) -> f64 {
        let c = self.c;
        scratch.clear();
        for &x in &self.order[depth..] {
            let a = 2.0 * c * node.dots[x] + c * c * (self.g[(x, x)] + self.positive[depth][x]);
            scratch.push(y * a - c * self.mu[x]);
        }
        scratch.sort_by(|a, b| b.total_cmp(a));
        let mut numerator = y * node.square - node.price;
        let mut denominator = node.total;
        let mut best = numerator / denominator;
        for &b in scratch.iter() {
            numerator += b;
            denominator += c;
            best = best.max(numerator / denominator);
        }
        best
    }

    fn bound(&self, node: &Node, depth: usize, scratch: &mut Vec<f64>) -> f64 {
        let y_hi = 1.0 / node.lambda;
        let y_lo = 1.0 / (node.lambda + self.c * self.free_pi[depth]);
        self.fractional(node, depth, y_hi, scratch)
            .max(self.fractional(node, depth, y_lo, scratch))
    }

    fn dfs(&self, depth: usize, node: Node, top: &mut Top, nodes: &mut u64, complete: &mut bool) {
        if !*complete {
            return;
        }
        *nodes += 1;
        if *nodes > self.budget || (*nodes % 4096 == 0 && Instant::now() > self.deadline) {
            *complete = false;
            return;
        }
        if depth == self.order.len() {
            let value = (node.square / node.lambda - node.price) / node.total;
            top.offer(value, node.mask);
            return;
        }
        let mut scratch = Vec::with_capacity(self.order.len());
        if self.bound(&node, depth, &mut scratch) + self.margin <= top.prune_level() {
            return;
        }
        let x = self.order[depth];
        let high = self.raise(&node, x);
        self.dfs(depth + 1, high, top, nodes, complete);
        self.dfs(depth + 1, node, top, nodes, complete);
    }
}

/// Price every staircase ray of the eps-LDP cone at `n = pi.len()` inputs for the design's
/// `v = J^-1 C` and prices `mu`: the `keep` best rays per parallel subtree with a reduced value
/// above `floor`, and an upper bound on the reduced value of every ray (at least `floor`).
/// A subtree stops after `budget` nodes (or at the deadline); the rays found so far are
/// returned, without a bound. `n` is at most 63.
pub(crate) fn price_staircase(
    v: &DMatrix<f64>,
    pi: &[f64],
    mu: &[f64],
    epsilon: f64,
    (keep, floor): (usize, f64),
    budget: u64,
    deadline: Instant,
) -> StaircasePriced {
    let n = pi.len();
    assert!(n < 64, "masks of 63 bits");
    let c = epsilon.exp_m1();
    let g = v * v.transpose();
    // The coordinates with the largest effect first.
    let mut order: Vec<usize> = (0..n).collect();
    let weight = |x: usize| g[(x, x)] + mu[x].abs();
    order.sort_by(|&a, &b| weight(b).total_cmp(&weight(a)));
    let positive: Vec<Vec<f64>> = (0..=n)
        .map(|depth| {
            (0..n)
                .map(|x| {
                    order[depth..]
                        .iter()
                        .filter(|&&z| z != x)
                        .map(|&z| g[(x, z)].max(0.0))
                        .sum()
                })
                .collect()
        })
        .collect();
    let free_pi: Vec<f64> = (0..=n)
        .map(|depth| order[depth..].iter().map(|&x| pi[x]).sum())
        .collect();
    // Rounding. Every ray has pi . r >= 1 (pi sums to 1, r >= 1) and 1 . r >= n; every value
    // and bound is a sum of at most 4 n + k products whose magnitudes add up to at most
    // `magnitude` (with `sum_xz |G_xz| <= sum_j (sum_x |V_xj|)^2`, which also bounds the
    // rounding of `G` itself): each errs by at most a few gamma_(8n + k) of it.
    let a = c + 1.0;
    let v_abs: f64 = v
        .column_iter()
        .map(|col| col.iter().map(|e| e.abs()).sum::<f64>().powi(2))
        .sum();
    let mu_abs: f64 = mu.iter().map(|e| e.abs()).sum();
    let magnitude = (8.0 * a * a * v_abs + 4.0 * a * mu_abs) / n as f64;
    let margin = 16.0 * gamma(8 * n + v.ncols() + 64) * magnitude;
    let root = Node {
        dots: (0..n).map(|x| g.row(x).sum()).collect(),
        square: g.sum(),
        lambda: pi.iter().sum(),
        price: mu.iter().sum(),
        total: n as f64,
        mask: 0,
    };
    let search = Search {
        g: &g,
        pi,
        mu,
        c,
        order,
        positive,
        free_pi,
        margin,
        deadline,
        budget,
    };
    let split = n.min(SPLIT_BITS);
    let results: Vec<(Top, bool)> = (0..1u64 << split)
        .into_par_iter()
        .map(|bits| {
            let mut node = root.clone();
            for (i, &x) in search.order[..split].iter().enumerate() {
                if bits >> i & 1 == 1 {
                    node = search.raise(&node, x);
                }
            }
            let mut top = Top {
                items: Vec::new(),
                keep,
                floor,
            };
            let (mut nodes, mut complete) = (0, true);
            search.dfs(split, node, &mut top, &mut nodes, &mut complete);
            (top, complete)
        })
        .collect();
    let mut delta = f64::NEG_INFINITY;
    let mut complete = true;
    let mut found: Vec<(f64, u64)> = Vec::new();
    for (top, done) in results {
        complete &= done;
        delta = delta.max(top.upper() + margin);
        found.extend(top.items);
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0));
    let candidates = found
        .into_iter()
        .map(|(value, mask)| {
            let r: Vec<f64> = (0..n)
                .map(|x| if mask >> x & 1 == 1 { a } else { 1.0 })
                .collect();
            let s: f64 = r.iter().sum();
            (value, r.iter().map(|v| v / s).collect())
        })
        .collect();
    StaircasePriced {
        delta: (complete && delta.is_finite()).then_some(delta.max(floor)),
        candidates,
    }
}

/// The mask of a staircase pattern (high entries above the midpoint of its two levels).
pub(crate) fn mask_of(q: &[f64], epsilon: f64) -> u64 {
    let low = q.iter().cloned().fold(f64::INFINITY, f64::min);
    let cut = low * (1.0 + epsilon.exp()) / 2.0;
    q.iter()
        .enumerate()
        .filter(|(_, &e)| e > cut)
        .fold(0, |m, (x, _)| m | 1 << x)
}

/// Rays with a high reduced value, found by ascent from each mask of `starts`: `h(r) =
/// max_t (2 t . V^T r - |t|^2 pi . r)` with the maximum at `t = V^T r / (pi . r)`, so for the
/// `t` of the current pattern the reduced value is at least a linear-fractional function of
/// the pattern, whose best pattern is found by thresholding; that pattern's reduced value is
/// at least as high, and the step repeats until the pattern stays. Best first, with values.
/// No bound: the search of [`price_staircase`] gives it.
pub(crate) fn ascend_staircase(
    v: &DMatrix<f64>,
    pi: &[f64],
    mu: &[f64],
    epsilon: f64,
    starts: &[u64],
) -> Vec<(f64, Vec<f64>)> {
    let n = pi.len();
    let a = epsilon.exp();
    let c = epsilon.exp_m1();
    let ray = |mask: u64| -> Vec<f64> {
        (0..n)
            .map(|x| if mask >> x & 1 == 1 { a } else { 1.0 })
            .collect()
    };
    let value = |r: &[f64]| -> (f64, Vec<f64>) {
        let u: Vec<f64> = v
            .column_iter()
            .map(|col| col.iter().zip(r).map(|(p, q)| p * q).sum())
            .collect();
        let lambda: f64 = r.iter().zip(pi).map(|(p, q)| p * q).sum();
        let price: f64 = r.iter().zip(mu).map(|(p, q)| p * q).sum();
        let square: f64 = u.iter().map(|e| e * e).sum();
        let total: f64 = r.iter().sum();
        (
            (square / lambda - price) / total,
            u.iter().map(|e| e / lambda).collect(),
        )
    };
    let mut found: Vec<(f64, u64)> = starts
        .par_iter()
        .map(|&start| {
            let mut mask = start;
            let (mut best, mut t) = value(&ray(mask));
            for _ in 0..ASCENT_STEPS {
                let tt: f64 = t.iter().map(|e| e * e).sum();
                let mut g: Vec<(f64, usize)> = (0..n)
                    .map(|x| {
                        let vt: f64 = v.row(x).iter().zip(&t).map(|(p, q)| p * q).sum();
                        (2.0 * vt - tt * pi[x] - mu[x], x)
                    })
                    .collect();
                let base: f64 = g.iter().map(|e| e.0).sum();
                g.sort_by(|p, q| q.0.total_cmp(&p.0));
                let (mut numerator, mut size, mut top) = (base, 0, base / n as f64);
                for (k, &(gx, _)) in g.iter().enumerate().take(n - 1) {
                    numerator += c * gx;
                    let ratio = numerator / (n as f64 + c * (k + 1) as f64);
                    if ratio > top {
                        (top, size) = (ratio, k + 1);
                    }
                }
                let next = g[..size].iter().fold(0u64, |m, e| m | 1 << e.1);
                if next == mask || size == 0 {
                    break;
                }
                let (candidate, t_next) = value(&ray(next));
                if candidate <= best {
                    break;
                }
                (mask, best, t) = (next, candidate, t_next);
            }
            (best, mask)
        })
        .collect();
    found.sort_by(|p, q| q.0.total_cmp(&p.0));
    found.dedup_by_key(|e| e.1);
    found
        .into_iter()
        .map(|(value, mask)| {
            let r = ray(mask);
            let s: f64 = r.iter().sum();
            (value, r.iter().map(|e| e / s).collect())
        })
        .collect()
}

/// Most ascent steps from one start.
const ASCENT_STEPS: usize = 30;

#[cfg(test)]
mod tests;
