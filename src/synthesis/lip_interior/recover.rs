//! From the LIP interior-point method's iterates to what it reports: a channel that meets the
//! constraint (with its objective) and the rigorous bound at its row prices.

use super::{Data, Point};

/// Each column's ratios to its output probability are kept this far (relatively) inside
/// `[e^-eps, e^eps]`, so that rounding keeps them within the constraint.
const PROJECTION_MARGIN: f64 = 1e-12;
/// A column whose top is below this fraction of the largest top is taken as unused.
const UNUSED_TOP: f64 = 1e-12;
/// The scaling margin that makes room for the row deficits is raised by this fraction
/// (rounding).
const FILL_MARGIN: f64 = 1e-6;

impl Data {
    /// The point as a channel and its objective. Each column `q` is moved into the LIP cone
    /// by mixing it with the constant column of the same output probability
    /// (`q' = (1 - theta) q + theta (p . q) 1`, which keeps `p . q`), the least `theta` that
    /// brings every ratio `q'_x / (p . q')` inside the margin. The rows, with sums `s_x` close to
    /// 1, are scaled by a common `1 / S` (which keeps every column in the cone) with
    /// `S = (1 + g) max_x s_x`, and each row's deficit `d_x = 1 - s_x / S` is added to one
    /// output: the column `d` is in the cone when `max d <= e^eps min d`, which holds for
    /// `g >= (1 - min s / max s) / (e^eps - 1)`, and a sum of columns of a cone stays in it.
    pub(super) fn channel(&self, p: &Point) -> (f64, Vec<Vec<f64>>) {
        let (n, o, alpha, beta) = (self.n, self.outputs, self.alpha, self.beta);
        let (low, high) = (
            (-self.epsilon).exp() * (1.0 + PROJECTION_MARGIN),
            self.epsilon.exp() * (1.0 - PROJECTION_MARGIN),
        );
        let top = p.m.iter().fold(0.0f64, |a, b| a.max(*b));
        let mut rows = vec![vec![0.0; o]; n];
        for y in 0..o {
            let m = p.m[y];
            if m <= UNUSED_TOP * top {
                continue;
            }
            let col: Vec<f64> = (0..n)
                .map(|x| alpha * m + beta * p.t[y * n + x].clamp(0.0, m))
                .collect();
            let mass: f64 = col.iter().zip(&self.p).map(|(q, w)| q * w).sum();
            let (min, max) = col
                .iter()
                .fold((f64::INFINITY, 0.0f64), |(l, h), q| (l.min(*q), h.max(*q)));
            let (min, max) = (min / mass, max / mass);
            let theta = [
                0.0,
                if max > high {
                    (max - high) / (max - 1.0)
                } else {
                    0.0
                },
                if min < low {
                    (low - min) / (1.0 - min)
                } else {
                    0.0
                },
            ]
            .into_iter()
            .fold(0.0, f64::max)
            .min(1.0);
            for (row, q) in rows.iter_mut().zip(&col) {
                row[y] = (1.0 - theta) * q + theta * mass;
            }
        }
        self.fill(&mut rows);
        let objective = self.cost(&rows);
        (objective, rows)
    }

    /// Make rows whose columns each meet LIP sum to 1 (the scaling and deficit step of
    /// [`Data::channel`]).
    fn fill(&self, rows: &mut [Vec<f64>]) {
        let (n, o) = (self.n, self.outputs);
        let sums: Vec<f64> = rows.iter().map(|r| r.iter().sum()).collect();
        let (low, high) = sums
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(l, h), s| (l.min(*s), h.max(*s)));
        let spread = (1.0 - low / high).max(0.0);
        let g = spread / self.epsilon.exp_m1() * (1.0 + FILL_MARGIN) + f64::EPSILON;
        let total = high * (1.0 + g);
        let deficits: Vec<f64> = sums.iter().map(|s| 1.0 - s / total).collect();
        // The output whose column takes the deficits most cheaply, among those carrying mass.
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

    /// The rigorous Lagrangian bound at row prices `u` (module docs).
    pub(super) fn bound(&self, u: &[f64]) -> f64 {
        let n = self.n;
        // The box widened by two units in the last place on each side (exp is within one).
        let low = (-self.epsilon).exp().next_down().next_down();
        let high = self.epsilon.exp().next_up().next_up();
        let least = self
            .c
            .chunks(n)
            .map(|col| {
                let d: Vec<f64> = col.iter().zip(u).map(|(c, u)| c - u).collect();
                phi_lower(&d, &self.p, low, high)
            })
            .fold(f64::INFINITY, f64::min);
        let gamma = |k: usize| k as f64 * f64::EPSILON;
        let mass: f64 = self.p.iter().sum();
        let mass_error = gamma(n + 2) * mass;
        let spread = if least < 0.0 {
            least * (mass + mass_error)
        } else {
            least * (mass - mass_error)
        };
        let prices: f64 = u.iter().sum();
        let magnitude = u.iter().map(|v| v.abs()).sum::<f64>() + 2.0 * spread.abs();
        (prices + spread - gamma(n + 8) * magnitude).next_down()
    }
}

/// A rigorous lower bound on `min {d . r : r in [low, high]^n, p . r = 1}`: the Lagrangian
/// `theta + sum_x min(low e_x, high e_x)` with `e = d - theta p`, which is below the minimum
/// for any `theta` (weak duality), at the greedy multiplier (the ratio `d_x / p_x` of the
/// entry the greedy filling stops in), with its rounding error subtracted: each of its
/// `n + 1` terms is a few operations on numbers bounded by `|theta| + high (|d_x| + |theta| p_x)`,
/// so it errs by at most `gamma_{2n+16}` times their sum (Higham, Sec. 3.1).
pub(super) fn phi_lower(d: &[f64], p: &[f64], low: f64, high: f64) -> f64 {
    let n = d.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| (d[a] / p[a]).total_cmp(&(d[b] / p[b])));
    let mut needed = 1.0 - low * p.iter().sum::<f64>();
    let mut theta = order.last().map_or(0.0, |&x| d[x] / p[x]);
    for &x in &order {
        needed -= (high - low) * p[x];
        if needed <= 0.0 {
            theta = d[x] / p[x];
            break;
        }
    }
    let value = theta
        + d.iter()
            .zip(p)
            .map(|(d, p)| {
                let e = d - theta * p;
                (low * e).min(high * e)
            })
            .sum::<f64>();
    let magnitude = theta.abs()
        + high
            * d.iter()
                .zip(p)
                .map(|(d, p)| d.abs() + theta.abs() * p)
                .sum::<f64>();
    let error = (2 * n + 16) as f64 * f64::EPSILON * magnitude;
    (value - error).next_down()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How far (relative to the largest cost) the bound may sit below a brute-force minimum.
    const BOUND_SLACK: f64 = 1e-9;

    /// Every vertex of `{r in [low, high]^n : p . r = 1}`: all entries at a bound but one,
    /// which the equality fixes.
    fn vertices(p: &[f64], low: f64, high: f64) -> Vec<Vec<f64>> {
        let n = p.len();
        let mut found = Vec::new();
        for free in 0..n {
            for mask in 0..(1u32 << n) {
                if mask & (1 << free) != 0 {
                    continue;
                }
                let mut r: Vec<f64> = (0..n)
                    .map(|x| if mask & (1 << x) != 0 { high } else { low })
                    .collect();
                r[free] = 0.0;
                let rest: f64 = r.iter().zip(p).map(|(r, p)| r * p).sum();
                let v = (1.0 - rest) / p[free];
                if (low..=high).contains(&v) {
                    r[free] = v;
                    found.push(r);
                }
            }
        }
        found
    }

    #[test]
    fn phi_lower_is_the_minimum_over_the_box_vertices() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for n in 1..8 {
            for _ in 0..40 {
                let eps: f64 = rng.gen_range(0.05..3.0);
                let raw: Vec<f64> = (0..n).map(|_| rng.gen_range(0.05..1.0)).collect();
                let total: f64 = raw.iter().sum();
                let p: Vec<f64> = raw.iter().map(|v| v / total).collect();
                let d: Vec<f64> = (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect();
                let (low, high) = ((-eps).exp(), eps.exp());
                let brute = vertices(&p, low, high)
                    .iter()
                    .map(|r| r.iter().zip(&d).map(|(r, d)| r * d).sum::<f64>())
                    .fold(f64::INFINITY, f64::min);
                let lower = phi_lower(&d, &p, low, high);
                assert!(lower <= brute, "n {n}: {lower} above the minimum {brute}");
                assert!(
                    lower >= brute - BOUND_SLACK,
                    "n {n}: {lower} far below {brute}"
                );
            }
        }
    }
}
