//! The ratio rows the first-order method encodes, column by column, and the exact scans over
//! every pair that the encoded rows leave out.
//!
//! A row `Q[a][y] <= e^(beta_ab) Q[b][y]` is stored scaled as `w q_a - q_b <= 0` with
//! `w = e^(-beta_ab)` rounded down (so every stored row holds for every private channel, which
//! keeps the Lagrangian bound rigorous), in three kinds:
//!
//! - **local** rows, shared by every column: each input and its nearest neighbours, both ways
//!   (under d-privacy an optimal column decays like `e^(-eps d)` and its binding rows join
//!   near places);
//! - **star** rows of column `y`: `w_yx q_y - q_x <= 0` for every `x`, the floor that keeps a
//!   column from falling faster than `e^(-eps d(x, y))` away from its own output;
//! - **added** rows of column `y`: pairs that a scan of every pair found violated.

use rayon::prelude::*;
use std::collections::HashSet;

/// Relative margin by which every stored weight `e^(-beta)` is rounded down: far above the
/// error of `exp` (a few units in the last place), so a stored row never cuts off a private
/// channel.
const WEIGHT_MARGIN: f64 = 1e-14;

/// A pair is violated in a scan when `q_a > e^(beta_ab) q_b (1 + this)`.
pub(super) const SCAN_VIOLATION: f64 = 1e-9;

/// One encoded row `w q_a - q_b <= 0`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Row {
    pub a: u32,
    pub b: u32,
    pub w: f64,
}

/// Every encoded row, and the factors `e^(beta_ab)` of every pair for the scans.
pub(super) struct Rows {
    pub n: usize,
    /// `e^(beta_ab)`, row-major.
    pub factor: Vec<f64>,
    /// `e^(-beta_ab)` rounded down, row-major (the star rows of column `a` are row `a`).
    pub weight: Vec<f64>,
    /// Local rows, shared by every column.
    pub local: Vec<Row>,
    /// Rows added to each column.
    pub added: Vec<Vec<Row>>,
    /// Encoded pairs `(a, b)` of the local rows, for the scans.
    local_pairs: HashSet<(u32, u32)>,
    /// Per input: the sum of the local rows' absolute coefficients at it.
    pub local_column_sum: Vec<f64>,
}

impl Rows {
    /// The rows of `budgets` (`beta_ab`), with `neighbours` local neighbours per input.
    pub fn new(budgets: &[Vec<f64>], neighbours: usize) -> Self {
        let n = budgets.len();
        let factor: Vec<f64> = budgets.iter().flatten().map(|b| b.exp()).collect();
        let weight: Vec<f64> = budgets
            .iter()
            .flatten()
            .map(|b| (-b).exp() * (1.0 - WEIGHT_MARGIN))
            .collect();
        let mut local_pairs = HashSet::new();
        let nearest: Vec<Vec<usize>> = budgets
            .par_iter()
            .enumerate()
            .map(|(a, row)| {
                let mut others: Vec<usize> = (0..n).filter(|&b| b != a).collect();
                let k = neighbours.min(others.len());
                if k > 0 && k < others.len() {
                    others.select_nth_unstable_by(k - 1, |&x, &y| row[x].total_cmp(&row[y]));
                }
                others.truncate(k);
                others
            })
            .collect();
        for (a, near) in nearest.iter().enumerate() {
            for &b in near {
                local_pairs.insert((a as u32, b as u32));
                local_pairs.insert((b as u32, a as u32));
            }
        }
        let mut local: Vec<Row> = local_pairs
            .iter()
            .map(|&(a, b)| Row {
                a,
                b,
                w: weight[a as usize * n + b as usize],
            })
            .collect();
        local.sort_by_key(|r| (r.b, r.a));
        let mut local_column_sum = vec![0.0; n];
        for r in &local {
            local_column_sum[r.a as usize] += r.w;
            local_column_sum[r.b as usize] += 1.0;
        }
        Rows {
            n,
            factor,
            weight,
            local,
            added: vec![Vec::new(); n],
            local_pairs,
            local_column_sum,
        }
    }

    /// Rows encoded in all: local rows and star rows in every column, plus the added ones.
    pub fn count(&self) -> usize {
        self.n * (self.local.len() + self.n - 1) + self.added.iter().map(Vec::len).sum::<usize>()
    }

    /// Whether the pair `(a, b)` is encoded in column `y`.
    fn encoded(&self, y: usize, a: usize, b: usize) -> bool {
        a == y
            || self.local_pairs.contains(&(a as u32, b as u32))
            || self.added[y]
                .iter()
                .any(|r| r.a as usize == a && r.b as usize == b)
    }

    /// For column `y` with entries `q`: each input's most violated pair that is not encoded,
    /// at most `limit` of them, most violated first.
    pub fn violated(&self, y: usize, q: &[f64], limit: usize) -> Vec<Row> {
        let n = self.n;
        let mut found: Vec<(f64, Row)> = (0..n)
            .filter_map(|a| {
                let factors = &self.factor[a * n..(a + 1) * n];
                let (mut worst, mut at) = (0.0f64, usize::MAX);
                for (b, (&f, &qb)) in factors.iter().zip(q).enumerate() {
                    let excess = q[a] - f * qb * (1.0 + SCAN_VIOLATION);
                    if excess > worst {
                        worst = excess;
                        at = b;
                    }
                }
                (at != usize::MAX && !self.encoded(y, a, at)).then(|| {
                    let w = self.weight[a * n + at];
                    (
                        worst,
                        Row {
                            a: a as u32,
                            b: at as u32,
                            w,
                        },
                    )
                })
            })
            .collect();
        found.sort_by(|x, y| y.0.total_cmp(&x.0));
        found.truncate(limit);
        found.into_iter().map(|(_, r)| r).collect()
    }

    /// The smallest element of the cone above `q` (in place): `q_a <- max_b e^(-beta_ba) q_b`.
    /// With budgets that obey the triangle inequality the result meets every pair's row (a
    /// zero entry is raised to the floor its neighbours allow, never the column lowered to 0).
    pub fn envelope(&self, q: &mut [f64]) {
        envelope(q, &self.weight);
    }

    /// The weights `e^(-(1 - shrink) beta_ab)`, row-major: the cone of a budget smaller by the
    /// fraction `shrink`.
    pub fn shrunk_weights(&self, shrink: f64) -> Vec<f64> {
        self.factor
            .par_iter()
            .map(|f| (-(1.0 - shrink) * f.ln()).exp() * (1.0 - WEIGHT_MARGIN))
            .collect()
    }

    /// The smallest fraction `t` with `ln(s_b / s_a) <= t beta_ab` for every pair with
    /// `beta_ab > 0` (0 when `s` is constant); infinite when two places at distance 0 have
    /// different `s`.
    pub fn log_slope(&self, s: &[f64]) -> f64 {
        let n = self.n;
        let logs: Vec<f64> = s.iter().map(|v| v.ln()).collect();
        (0..n)
            .into_par_iter()
            .map(|a| {
                let f = &self.factor[a * n..(a + 1) * n];
                f.iter().zip(&logs).fold(0.0f64, |t, (&f, &lb)| {
                    let rise = lb - logs[a];
                    if rise <= 0.0 {
                        t
                    } else if f > 1.0 {
                        t.max(rise / f.ln())
                    } else {
                        f64::INFINITY
                    }
                })
            })
            .reduce(|| 0.0, f64::max)
    }
}

/// The smallest element above `q` of the cone whose weights `e^(-beta_ab)` are `weights`
/// (row-major), in place: `q_a <- max_b weights[b][a] q_b`.
pub(super) fn envelope(q: &mut [f64], weights: &[f64]) {
    let n = q.len();
    let mut raised = q.to_vec();
    for (b, &qb) in q.iter().enumerate() {
        // Row b of the weights is e^(-beta_ba) over a (rounded down by WEIGHT_MARGIN,
        // which certification's check absorbs).
        let w = &weights[b * n..(b + 1) * n];
        raised
            .iter_mut()
            .zip(w)
            .for_each(|(r, &w)| *r = r.max(qb * w));
    }
    q.copy_from_slice(&raised);
}
