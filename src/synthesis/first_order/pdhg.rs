//! The primal-dual hybrid gradient iteration (Chambolle and Pock, J. Math. Imaging Vis. 40,
//! 2011) with their diagonal preconditioning (Pock and Chambolle, ICCV 2011) on
//!
//! ```text
//! min c.q   s.t.   sum_y q[x][y] = 1 (duals u),   w q_a - q_b <= 0 per encoded row (duals l >= 0),   q >= 0,
//! ```
//!
//! column by column: each output's entries, its rows' duals and its share of the row sums are
//! updated together, so a step is one parallel pass over the columns. Step sizes are
//! `tau_j = theta / (omega sum_i |K_ij|)` and `sigma_i = theta omega / sum_j |K_ij|`, which
//! satisfy the method's convergence condition for any primal weight `omega > 0`.
//!
//! **Bound.** For any `l >= 0` and every channel meeting the rows, `c.q >= c.q + l.(K q) =
//! sum_x sum_y (c + K^T l)[x][y] q[x][y] >= sum_x min_y (c + K^T l)[x][y]`, since each row of
//! the channel is a distribution (the row sums' duals cancel). Computed with every rounding
//! error bounded (Higham, "Accuracy and Stability of Numerical Algorithms", Sec. 3.1), it is a
//! rigorous lower bound at any iterate.

use super::rows::{Row, Rows};
use crate::numeric::gamma;
use rayon::prelude::*;

/// The step sizes' safety factor `theta < 1`.
const THETA: f64 = 0.95;

/// A primal-dual point: columns of the channel, row-sum duals, and each column's row duals.
#[derive(Clone)]
pub(super) struct Point {
    /// The channel by column: `q[y * n + x] = Q[x][y]`.
    pub q: Vec<f64>,
    u: Vec<f64>,
    local: Vec<f64>,
    star: Vec<f64>,
    added: Vec<Vec<f64>>,
}

impl Point {
    /// `self += (other - self) / k` entry by entry (a running mean).
    fn pull(&mut self, other: &Point, k: f64) {
        let mean = |a: &mut [f64], b: &[f64]| {
            a.par_iter_mut()
                .zip(b)
                .for_each(|(a, b)| *a += (b - *a) / k)
        };
        mean(&mut self.q, &other.q);
        mean(&mut self.u, &other.u);
        mean(&mut self.local, &other.local);
        mean(&mut self.star, &other.star);
        for (a, b) in self.added.iter_mut().zip(&other.added) {
            a.resize(b.len(), 0.0);
            mean(a, b);
        }
    }
}

/// The iterate of restarted PDHG (Applegate et al., "Practical large-scale linear programming
/// using primal-dual hybrid gradient", NeurIPS 2021): the current point and the mean of the
/// points since the last restart.
pub(super) struct Iterate {
    n: usize,
    /// Costs by column, divided by the power of two `scale` (exact).
    costs: Vec<f64>,
    scale: f64,
    /// The current point.
    pub now: Point,
    /// The mean of the points since the last restart.
    pub mean: Point,
    count: usize,
    /// The primal weight.
    pub omega: f64,
}

/// What a step or a measurement needs of one column.
struct Column<'a> {
    y: usize,
    q: &'a mut [f64],
    local: &'a mut [f64],
    star: &'a mut [f64],
    added: &'a mut [f64],
    rows: &'a [Row],
    costs: &'a [f64],
}

/// Measures of an iterate, in the problem's units.
#[derive(Debug, Clone, Copy)]
pub(super) struct Measure {
    /// `c.q` of the iterate.
    pub objective: f64,
    /// Largest `|1 - sum_y Q[x][y]|`.
    pub row_error: f64,
    /// Largest violation `w q_a - q_b` of an encoded row.
    pub violation: f64,
}

impl Iterate {
    /// The uniform channel with zero duals, for costs `c[x][y]` divided by `scale`.
    pub fn new(coefficients: &[Vec<f64>], scale: f64, rows: &Rows) -> Self {
        let n = coefficients.len();
        let mut costs = vec![0.0; n * n];
        for (x, row) in coefficients.iter().enumerate() {
            for (y, &c) in row.iter().enumerate() {
                costs[y * n + x] = c / scale;
            }
        }
        let now = Point {
            q: vec![1.0 / n as f64; n * n],
            u: vec![0.0; n],
            local: vec![0.0; n * rows.local.len()],
            star: vec![0.0; n * n],
            added: vec![Vec::new(); n],
        };
        Iterate {
            n,
            costs,
            scale,
            mean: now.clone(),
            now,
            count: 1,
            omega: 1.0,
        }
    }

    /// Give every added row of `rows` a dual (zero for new rows).
    pub fn sync_added(&mut self, rows: &Rows) {
        for point in [&mut self.now, &mut self.mean] {
            for (l, r) in point.added.iter_mut().zip(&rows.added) {
                l.resize(r.len(), 0.0);
            }
        }
    }

    /// Restart from the mean (`true`) or the current point: both become that point.
    pub fn restart(&mut self, from_mean: bool) {
        if from_mean {
            self.now = self.mean.clone();
        } else {
            self.mean = self.now.clone();
        }
        self.count = 1;
    }

    /// The current point (`false`) or the mean (`true`).
    pub fn point(&self, mean: bool) -> &Point {
        if mean {
            &self.mean
        } else {
            &self.now
        }
    }
}

/// Every column of `point` with its duals, in parallel.
fn columns<'a>(
    point: &'a mut Point,
    costs: &'a [f64],
    rows: &'a Rows,
) -> impl IndexedParallelIterator<Item = Column<'a>> + 'a {
    let (n, m) = (rows.n, rows.local.len().max(1));
    point
        .q
        .par_chunks_mut(n)
        .zip(point.local.par_chunks_mut(m))
        .zip(point.star.par_chunks_mut(n))
        .zip(point.added.par_iter_mut())
        .zip(rows.added.par_iter())
        .zip(costs.par_chunks(n))
        .enumerate()
        .map(
            |(y, (((((q, local), star), added), added_rows), costs))| Column {
                y,
                q,
                local,
                star,
                added,
                rows: added_rows,
                costs,
            },
        )
}

impl Iterate {
    /// One step of the iteration.
    pub fn step(&mut self, rows: &Rows) {
        let n = self.n;
        let (tau, sigma) = (THETA / self.omega, THETA * self.omega);
        let u = std::mem::take(&mut self.now.u);
        let sums = columns(&mut self.now, &self.costs, rows)
            .fold(
                || (vec![0.0; n], vec![0.0; n], vec![0.0; n]),
                |(mut acc, mut g, mut sum), col| {
                    column_step(col, rows, &u, tau, sigma, &mut acc, &mut g, &mut sum);
                    (acc, g, sum)
                },
            )
            .map(|(acc, _, _)| acc)
            .reduce(|| vec![0.0; n], add);
        self.now.u = u;
        let step = sigma / n as f64;
        for (u, s) in self.now.u.iter_mut().zip(&sums) {
            *u += step * (1.0 - s);
        }
        self.count += 1;
        self.mean.pull(&self.now, self.count as f64);
    }

    /// The objective, row-sum error and largest encoded violation of the iterate.
    pub fn measure(&mut self, rows: &Rows, mean: bool) -> Measure {
        let n = self.n;
        let scale = self.scale;
        let point = if mean { &mut self.mean } else { &mut self.now };
        let (objective, violation, sums) = columns(point, &self.costs, rows)
            .map(|col| {
                let objective: f64 = col.q.iter().zip(col.costs).map(|(q, c)| q * c).sum();
                let mut worst = 0.0f64;
                let mut check =
                    |r: &Row| worst = worst.max(r.w * col.q[r.a as usize] - col.q[r.b as usize]);
                rows.local.iter().for_each(&mut check);
                col.rows.iter().for_each(&mut check);
                let w = &rows.weight[col.y * n..(col.y + 1) * n];
                for (x, &wx) in w.iter().enumerate() {
                    worst = worst.max(wx * col.q[col.y] - col.q[x]);
                }
                (objective, worst, col.q.to_vec())
            })
            .reduce(
                || (0.0, 0.0, vec![0.0; n]),
                |a, b| (a.0 + b.0, a.1.max(b.1), add(a.2, b.2)),
            );
        let row_error = sums.iter().fold(0.0f64, |m, s| m.max((1.0 - s).abs()));
        Measure {
            objective: objective * scale,
            row_error,
            violation,
        }
    }

    /// The rigorous Lagrangian bound at the current row duals (module docs), in the problem's
    /// units.
    pub fn bound(&mut self, rows: &Rows, mean: bool) -> f64 {
        let n = self.n;
        let scale = self.scale;
        let point = if mean { &mut self.mean } else { &mut self.now };
        let terms = n + rows.local.len() + rows.added.iter().map(Vec::len).max().unwrap_or(0) + 4;
        let g = gamma(terms);
        let least = columns(point, &self.costs, rows)
            .map(|col| {
                let (h, magnitude) = transposed(&col, rows);
                (0..n)
                    .map(|x| {
                        let c = col.costs[x] * scale;
                        let value = c + scale * h[x];
                        let error = g * (c.abs() + scale * magnitude[x]) * 2.0;
                        value - error
                    })
                    .collect::<Vec<f64>>()
            })
            .reduce(
                || vec![f64::INFINITY; n],
                |a, b| a.iter().zip(&b).map(|(x, y)| x.min(*y)).collect(),
            );
        let (total, magnitude) = least
            .iter()
            .fold((0.0, 0.0), |(s, m), v| (s + v, m + v.abs()));
        (total - gamma(n + 2) * magnitude).next_down()
    }
}

/// `K_y^T l_y` of one column and the sum of its terms' magnitudes, entry by entry.
fn transposed(col: &Column, rows: &Rows) -> (Vec<f64>, Vec<f64>) {
    let n = col.q.len();
    let (mut h, mut m) = (vec![0.0; n], vec![0.0; n]);
    let mut add_row = |r: &Row, l: f64| {
        let (a, b) = (r.a as usize, r.b as usize);
        h[a] += r.w * l;
        m[a] += r.w * l;
        h[b] -= l;
        m[b] += l;
    };
    rows.local
        .iter()
        .zip(col.local.iter())
        .for_each(|(r, &l)| add_row(r, l));
    col.rows
        .iter()
        .zip(col.added.iter())
        .for_each(|(r, &l)| add_row(r, l));
    let w = &rows.weight[col.y * n..(col.y + 1) * n];
    for (x, (&wx, &l)) in w.iter().zip(col.star.iter()).enumerate() {
        if x != col.y {
            add_row(
                &Row {
                    a: col.y as u32,
                    b: x as u32,
                    w: wx,
                },
                l,
            );
        }
    }
    (h, m)
}

/// One column's primal and dual step; adds its extrapolated entries to `acc`.
#[allow(clippy::too_many_arguments)]
fn column_step(
    col: Column,
    rows: &Rows,
    u: &[f64],
    tau: f64,
    sigma: f64,
    acc: &mut [f64],
    g: &mut Vec<f64>,
    sum: &mut Vec<f64>,
) {
    let n = col.q.len();
    let y = col.y;
    g.clear();
    g.extend(col.costs.iter().zip(u).map(|(c, u)| c - u));
    sum.clear();
    sum.extend(rows.local_column_sum.iter().map(|s| s + 1.0));
    for (r, &l) in rows.local.iter().zip(col.local.iter()) {
        g[r.a as usize] += r.w * l;
        g[r.b as usize] -= l;
    }
    for (r, &l) in col.rows.iter().zip(col.added.iter()) {
        g[r.a as usize] += r.w * l;
        g[r.b as usize] -= l;
        sum[r.a as usize] += r.w;
        sum[r.b as usize] += 1.0;
    }
    let w = &rows.weight[y * n..(y + 1) * n];
    for x in 0..n {
        if x != y {
            g[y] += w[x] * col.star[x];
            g[x] -= col.star[x];
            sum[y] += w[x];
            sum[x] += 1.0;
        }
    }
    // Primal step, then the extrapolated point 2 q_new - q_old (kept in g).
    for x in 0..n {
        let old = col.q[x];
        let new = (old - tau / sum[x] * g[x]).max(0.0);
        col.q[x] = new;
        g[x] = 2.0 * new - old;
        acc[x] += g[x];
    }
    let bar = &g[..];
    for (r, l) in rows.local.iter().zip(col.local.iter_mut()) {
        *l = (*l + sigma / (1.0 + r.w) * (r.w * bar[r.a as usize] - bar[r.b as usize])).max(0.0);
    }
    for (r, l) in col.rows.iter().zip(col.added.iter_mut()) {
        *l = (*l + sigma / (1.0 + r.w) * (r.w * bar[r.a as usize] - bar[r.b as usize])).max(0.0);
    }
    for x in 0..n {
        if x != y {
            let l = &mut col.star[x];
            *l = (*l + sigma / (1.0 + w[x]) * (w[x] * bar[y] - bar[x])).max(0.0);
        }
    }
}

fn add(mut a: Vec<f64>, b: Vec<f64>) -> Vec<f64> {
    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
    a
}
