//! From the LDP interior-point method's iterates to what it reports: a channel that meets the
//! constraint (with its objective) and the rigorous bound at its duals.

use super::Data;
use super::Point;
use crate::synthesis::decompose::pricing::{lagrangian_bound, staircase};
use rayon::prelude::*;

/// The projected channel's columns rise above their floor by at most `(e^eps - 1)(1 - this)`
/// times it, so that rounding in the sum keeps every ratio within `e^eps`.
const PROJECTION_MARGIN: f64 = 1e-12;
/// A column whose floor is below this fraction of the largest floor is taken as unused.
const UNUSED_FLOOR: f64 = 1e-12;
/// An output whose every entry is below this fraction of the channel's largest entry is
/// dropped from the final channel when that costs almost nothing (interior points leave
/// unused outputs at a trace of mass).
const TRACE_OUTPUT: f64 = 1e-8;
/// The scaling margin that makes room for the row deficits is raised by this fraction
/// (rounding).
const FILL_MARGIN: f64 = 1e-6;

impl Data {
    /// The point as a channel and its objective. Each column is projected onto the LDP cone
    /// (`0 <= t <= m'` with `m'` just below `m`: the iterates meet it only up to rounding,
    /// which is large relative to a nearly unused column), giving row sums `s_x` close to 1.
    /// Scaling every row by the same `1 / S` keeps each column's ratios; with
    /// `S = (1 + g) max_x s_x` each row then lacks `d_x = 1 - s_x / S`, and adding `d_x` to one
    /// output keeps that column within `e^eps` when `max d <= e^eps min d`, which holds for
    /// `g >= (1 - min s / max s) / k`. The output receiving the deficits is the cheapest.
    pub(super) fn channel(&self, p: &Point) -> (f64, Vec<Vec<f64>>) {
        let (n, o, alpha, beta) = (self.n, self.outputs, self.alpha, self.beta);
        // Columns whose floor is at the solver's noise level are left out (the deficit step
        // below refills the rows), so that unused outputs are exactly unused.
        let top = p.m.iter().fold(0.0f64, |a, b| a.max(*b));
        let floors: Vec<f64> =
            p.m.iter()
                .map(|&m| if m > UNUSED_FLOOR * top { m } else { 0.0 })
                .collect();
        let mut rows: Vec<Vec<f64>> = (0..n)
            .map(|x| {
                (0..o)
                    .map(|y| {
                        let floor = floors[y];
                        let rise = p.t[y * n + x].clamp(0.0, floor * (1.0 - PROJECTION_MARGIN));
                        alpha * floor + beta * rise
                    })
                    .collect()
            })
            .collect();
        self.fill(&mut rows);
        let objective = self.cost(&rows);
        (objective, rows)
    }

    /// Make rows whose columns each meet LDP sum to 1 (the scaling and deficit step of
    /// [`Data::channel`]).
    fn fill(&self, rows: &mut [Vec<f64>]) {
        let (n, o) = (self.n, self.outputs);
        let sums: Vec<f64> = rows.iter().map(|r| r.iter().sum()).collect();
        let (low, high) = sums
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(l, h), s| (l.min(*s), h.max(*s)));
        let spread = (1.0 - low / high).max(0.0);
        let g = spread / self.k * (1.0 + FILL_MARGIN) + f64::EPSILON;
        let total = high * (1.0 + g);
        let deficits: Vec<f64> = sums.iter().map(|s| 1.0 - s / total).collect();
        // The cheapest output that carries mass (so a dropped output stays unused).
        let carries = |y: &usize| rows.iter().any(|r| r[*y] > 0.0);
        let target = (0..o)
            .filter(carries)
            .min_by(|&a, &b| {
                let cost =
                    |y: usize| -> f64 { (0..n).map(|x| deficits[x] * self.c[y * n + x]).sum() };
                cost(a).total_cmp(&cost(b))
            })
            .unwrap_or(0);
        for (row, d) in rows.iter_mut().zip(&deficits) {
            row.iter_mut().for_each(|v| *v /= total);
            row[target] += d;
        }
    }

    /// The objective of a channel (scaled units).
    fn cost(&self, rows: &[Vec<f64>]) -> f64 {
        let n = self.n;
        rows.iter()
            .enumerate()
            .map(|(x, row)| {
                row.iter()
                    .enumerate()
                    .map(|(y, v)| self.c[y * n + x] * v)
                    .sum::<f64>()
            })
            .sum()
    }

    /// The channel without the outputs an interior point leaves at a trace of mass (every
    /// entry below [`TRACE_OUTPUT`] times the largest), rows filled again, if its objective is
    /// at most `allowed` above `objective`; `None` when no output is that small or the cost is
    /// higher.
    pub(super) fn without_trace_outputs(
        &self,
        rows: &[Vec<f64>],
        objective: f64,
        allowed: f64,
    ) -> Option<(f64, Vec<Vec<f64>>)> {
        let o = self.outputs;
        let top = rows.iter().flatten().fold(0.0f64, |a, b| a.max(*b));
        let trace: Vec<bool> = (0..o)
            .map(|y| rows.iter().all(|r| r[y] < TRACE_OUTPUT * top))
            .collect();
        if !trace.iter().any(|t| *t) || trace.iter().all(|t| *t) {
            return None;
        }
        let mut kept: Vec<Vec<f64>> = rows
            .iter()
            .map(|r| {
                r.iter()
                    .zip(&trace)
                    .map(|(v, t)| if *t { 0.0 } else { *v })
                    .collect()
            })
            .collect();
        self.fill(&mut kept);
        let cost = self.cost(&kept);
        (cost <= objective + allowed).then_some((cost, kept))
    }

    /// The rigorous Lagrangian bound at row prices `u` (module docs).
    pub(super) fn bound(&self, u: &[f64], epsilon: f64) -> f64 {
        let n = self.n;
        let lowers: Vec<f64> = self
            .c
            .par_chunks(n)
            .map(|col| {
                let d: Vec<f64> = col.iter().zip(u).map(|(c, p)| c - p).collect();
                staircase(&d, epsilon).lower
            })
            .collect();
        lagrangian_bound(u, &lowers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A column ratio may exceed `e^eps` by this (relative) from rounding alone.
    const RATIO_ROUNDING: f64 = 1e-12;

    proptest! {
        /// Whatever the point (entries above the cone's ceiling, negative floors, row sums off
        /// by up to 1e-3), the channel has rows summing to 1 and every column within `e^eps`.
        #[test]
        fn the_channel_meets_ldp_and_sums_to_one(
            n in 2usize..9,
            o in 1usize..9,
            eps in 0.01f64..6.0,
            seed in any::<u64>(),
        ) {
            use rand::{Rng, SeedableRng};
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let k = eps.exp_m1();
            let m: Vec<f64> = (0..o).map(|_| rng.gen_range(-1e-9..1.0) / o as f64).collect();
            let t: Vec<f64> = (0..n * o)
                .map(|i| m[i / n].abs() * rng.gen_range(-0.01..1.01))
                .collect();
            let point = Point {
                r: vec![0.0; n * o],
                u: vec![0.0; n],
                lambda: vec![0.0; n * o],
                nu: vec![0.0; n * o],
                t,
                m,
            };
            let c: Vec<f64> = (0..n * o).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let a = c.chunks(n).map(|col| col.iter().sum()).collect();
            let (alpha, beta) = ((-eps).exp(), -(-eps).exp_m1());
            let data = Data { n, outputs: o, k, alpha, beta, c, a };
            let (objective, rows) = data.channel(&point);
            let mut direct = 0.0;
            for (x, row) in rows.iter().enumerate() {
                let sum: f64 = row.iter().sum();
                prop_assert!((sum - 1.0).abs() <= 1e-12, "row {} sums to {}", x, sum);
                for (y, v) in row.iter().enumerate() {
                    prop_assert!(*v >= 0.0);
                    direct += data.c[y * n + x] * v;
                }
            }
            prop_assert!((objective - direct).abs() <= 1e-12);
            for y in 0..o {
                let hi = rows.iter().map(|r| r[y]).fold(0.0, f64::max);
                let lo = rows.iter().map(|r| r[y]).fold(f64::INFINITY, f64::min);
                prop_assert!(
                    hi <= (k + 1.0) * lo * (1.0 + RATIO_ROUNDING),
                    "column {}: {} / {} above e^eps = {}", y, hi, lo, k + 1.0
                );
            }
        }

        /// Dropping trace outputs keeps a channel: rows sum to 1, every column within
        /// `e^eps`, the trace outputs exactly unused.
        #[test]
        fn dropping_trace_outputs_keeps_a_channel(
            n in 2usize..7,
            o in 2usize..7,
            eps in 0.05f64..4.0,
            seed in any::<u64>(),
        ) {
            use rand::{Rng, SeedableRng};
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let k = eps.exp_m1();
            // Output 0 carries a trace of mass; the others are ordinary.
            let m: Vec<f64> = (0..o)
                .map(|y| if y == 0 { 1e-11 } else { rng.gen_range(0.1..1.0) / o as f64 })
                .collect();
            let t: Vec<f64> = (0..n * o).map(|i| m[i / n] * rng.gen_range(0.0..1.0)).collect();
            let point = Point {
                r: vec![0.0; n * o],
                u: vec![0.0; n],
                lambda: vec![0.0; n * o],
                nu: vec![0.0; n * o],
                t,
                m,
            };
            let c: Vec<f64> = (0..n * o).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let a = c.chunks(n).map(|col| col.iter().sum()).collect();
            let (alpha, beta) = ((-eps).exp(), -(-eps).exp_m1());
            let data = Data { n, outputs: o, k, alpha, beta, c, a };
            let (objective, rows) = data.channel(&point);
            let top = rows.iter().flatten().fold(0.0f64, |a, b| a.max(*b));
            let trace = rows.iter().all(|r| r[0] < TRACE_OUTPUT * top);
            let dropped = data.without_trace_outputs(&rows, objective, f64::INFINITY);
            prop_assert_eq!(dropped.is_some(), trace);
            let Some((cost, kept)) = dropped else {
                return Ok(());
            };
            prop_assert!((cost - data.cost(&kept)).abs() <= 1e-12);
            for row in &kept {
                prop_assert_eq!(row[0], 0.0);
                prop_assert!((row.iter().sum::<f64>() - 1.0).abs() <= 1e-12);
            }
            for y in 1..o {
                let hi = kept.iter().map(|r| r[y]).fold(0.0, f64::max);
                let lo = kept.iter().map(|r| r[y]).fold(f64::INFINITY, f64::min);
                prop_assert!(hi <= (k + 1.0) * lo * (1.0 + RATIO_ROUNDING), "column {}", y);
            }
            // With no allowance for a higher cost, a costlier channel is refused.
            if cost > objective {
                prop_assert!(data.without_trace_outputs(&rows, objective, 0.0).is_none());
            }
        }
    }
}
