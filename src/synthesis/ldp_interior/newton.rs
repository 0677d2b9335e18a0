//! The Newton step of the LDP interior-point method: residuals, the factored Schur
//! complement, the direction and the step lengths (formulas in the parent module's docs).

use super::{Data, Point};
use nalgebra::DMatrix;
use rayon::prelude::*;

/// Iterative-refinement steps for the row duals of a Newton step.
const REFINEMENT_STEPS: usize = 3;
/// Refinement stops when the step leaves the row sums' residual below this.
const REFINED_ROW_RESIDUAL: f64 = 1e-15;
/// Regularization added to the Schur complement's diagonal, relative to its largest diagonal
/// entry, when its Cholesky factorization fails (rounding at the end of the path).
const SCHUR_REGULARIZATION: f64 = 1e-14;

/// A Newton direction.
pub(super) struct Direction {
    pub(super) t: Vec<f64>,
    pub(super) m: Vec<f64>,
    pub(super) r: Vec<f64>,
    pub(super) u: Vec<f64>,
    pub(super) lambda: Vec<f64>,
    pub(super) nu: Vec<f64>,
}

/// The residuals at a point (each wants to be 0).
pub(super) struct Residuals {
    /// `beta (c - u_x) - lambda + nu`, per entry.
    pub(super) dual_t: Vec<f64>,
    /// `alpha (a_y - sum u) - sum_x nu_xy`, per output.
    pub(super) dual_m: Vec<f64>,
    /// `1 - alpha sum_y m_y - beta sum_y t_xy`, per input.
    pub(super) primal: Vec<f64>,
    /// `m_y - t_xy - r_xy`, per entry.
    upper: Vec<f64>,
}

/// The factored Newton system at a point.
pub(super) struct Newton {
    /// `D`, per entry.
    d: Vec<f64>,
    /// `e = nu / r`, per entry.
    e: Vec<f64>,
    /// `s_y`, per output.
    s: Vec<f64>,
    /// The Cholesky factor of `S`.
    schur: nalgebra::Cholesky<f64, nalgebra::Dyn>,
}

impl Data {
    pub(super) fn residuals(&self, p: &Point) -> Residuals {
        let (n, alpha, beta) = (self.n, self.alpha, self.beta);
        let sum_u: f64 = p.u.iter().sum();
        let dual_t = (0..self.c.len())
            .into_par_iter()
            .map(|i| beta * (self.c[i] - p.u[i % n]) - p.lambda[i] + p.nu[i])
            .collect();
        let dual_m = (0..self.outputs)
            .map(|y| alpha * (self.a[y] - sum_u) - p.nu[y * n..(y + 1) * n].iter().sum::<f64>())
            .collect();
        let total_m: f64 = p.m.iter().sum();
        let mut primal = vec![1.0 - alpha * total_m; n];
        for col in p.t.chunks(n) {
            primal.iter_mut().zip(col).for_each(|(v, t)| *v -= beta * t);
        }
        let upper = (0..self.c.len())
            .into_par_iter()
            .map(|i| p.m[i / n] - p.t[i] - p.r[i])
            .collect();
        Residuals {
            dual_t,
            dual_m,
            primal,
            upper,
        }
    }

    /// The largest error of the row sums at `p`.
    pub(super) fn row_sum_error(&self, p: &Point) -> f64 {
        let (n, alpha, beta) = (self.n, self.alpha, self.beta);
        let total_m: f64 = p.m.iter().sum();
        let mut sums = vec![alpha * total_m; n];
        for col in p.t.chunks(n) {
            sums.iter_mut().zip(col).for_each(|(v, t)| *v += beta * t);
        }
        sums.iter().fold(0.0, |e, s| e.max((s - 1.0).abs()))
    }

    pub(super) fn complementarity(&self, p: &Point) -> f64 {
        let total: f64 = (0..p.t.len())
            .map(|i| p.t[i] * p.lambda[i] + p.r[i] * p.nu[i])
            .sum();
        total / (2 * p.t.len()) as f64
    }

    pub(super) fn complementarity_after(&self, p: &Point, d: &Direction, ap: f64, ad: f64) -> f64 {
        let total: f64 = (0..p.t.len())
            .map(|i| {
                (p.t[i] + ap * d.t[i]) * (p.lambda[i] + ad * d.lambda[i])
                    + (p.r[i] + ap * d.r[i]) * (p.nu[i] + ad * d.nu[i])
            })
            .sum();
        total / (2 * p.t.len()) as f64
    }

    /// Form and factor `S` (module docs); `None` when even the regularized matrix fails.
    pub(super) fn factor(&self, p: &Point) -> Option<Newton> {
        let (n, o, alpha, beta) = (self.n, self.outputs, self.alpha, self.beta);
        let d: Vec<f64> = (0..n * o)
            .into_par_iter()
            .map(|i| p.lambda[i] / p.t[i] + p.nu[i] / p.r[i])
            .collect();
        let e: Vec<f64> = (0..n * o)
            .into_par_iter()
            .map(|i| p.nu[i] / p.r[i])
            .collect();
        let s: Vec<f64> = (0..o)
            .into_par_iter()
            .map(|y| {
                (y * n..(y + 1) * n)
                    .map(|i| e[i] * (p.lambda[i] / p.t[i]) / d[i])
                    .sum()
            })
            .collect();
        let mut w = DMatrix::<f64>::zeros(n, o);
        w.as_mut_slice()
            .par_chunks_mut(n)
            .enumerate()
            .for_each(|(y, column)| {
                let scale = s[y].sqrt().recip();
                for (x, v) in column.iter_mut().enumerate() {
                    let i = y * n + x;
                    *v = (alpha + beta * e[i] / d[i]) * scale;
                }
            });
        // W W^T, its two halves of columns on two threads.
        let half = o / 2;
        let (left, right) = rayon::join(
            || {
                let part = w.columns(0, half);
                part * part.transpose()
            },
            || {
                let part = w.columns(half, o - half);
                part * part.transpose()
            },
        );
        let mut schur = left + right;
        for x in 0..n {
            schur[(x, x)] += beta * beta * (0..o).map(|y| 1.0 / d[y * n + x]).sum::<f64>();
        }
        let largest = (0..n).map(|x| schur[(x, x)]).fold(0.0, f64::max);
        let factor = match nalgebra::Cholesky::new(schur.clone()) {
            Some(f) => f,
            None => {
                for x in 0..n {
                    schur[(x, x)] += SCHUR_REGULARIZATION * largest;
                }
                nalgebra::Cholesky::new(schur)?
            }
        };
        Some(Newton {
            d,
            e,
            s,
            schur: factor,
        })
    }

    /// The Newton direction for complementarity targets `rho_lower` (for `t lambda`) and
    /// `rho_upper` (for `r nu`), both as increments.
    pub(super) fn direction(
        &self,
        p: &Point,
        res: &Residuals,
        newton: &Newton,
        rho_lower: &[f64],
        rho_upper: &[f64],
    ) -> Direction {
        let (n, o, alpha, beta) = (self.n, self.outputs, self.alpha, self.beta);
        let Newton { d, e, s, schur } = newton;
        // Right-hand sides of the per-output blocks.
        let upper_term: Vec<f64> = (0..n * o)
            .into_par_iter()
            .map(|i| (rho_upper[i] - p.nu[i] * res.upper[i]) / p.r[i])
            .collect();
        let g: Vec<f64> = (0..n * o)
            .into_par_iter()
            .map(|i| -res.dual_t[i] + rho_lower[i] / p.t[i] - upper_term[i])
            .collect();
        let g_m: Vec<f64> = (0..o)
            .map(|y| -res.dual_m[y] + upper_term[y * n..(y + 1) * n].iter().sum::<f64>())
            .collect();
        // H_y^-1 applied to (g_t, g_m), per output: (dt, dm).
        let block_solve = |y: usize, extra: &dyn Fn(usize) -> f64, extra_m: f64| {
            let range = y * n..(y + 1) * n;
            let gt: Vec<f64> = range.clone().map(|i| g[i] + extra(i - y * n)).collect();
            let dm = (range
                .clone()
                .zip(&gt)
                .map(|(i, v)| e[i] * v / d[i])
                .sum::<f64>()
                + g_m[y]
                + extra_m)
                / s[y];
            let dt: Vec<f64> = range
                .zip(&gt)
                .map(|(i, v)| (v + e[i] * dm) / d[i])
                .collect();
            (dt, dm)
        };
        // All columns' (dt, dm) for row duals du; then the row sums' residual of that step.
        let apply = |du: &[f64]| -> (Vec<f64>, Vec<f64>) {
            let sum_du: f64 = du.iter().sum();
            let parts: Vec<(Vec<f64>, f64)> = (0..o)
                .into_par_iter()
                .map(|y| block_solve(y, &|x| beta * du[x], alpha * sum_du))
                .collect();
            let mut dt = Vec::with_capacity(n * o);
            let mut dm = Vec::with_capacity(o);
            for (col, m) in parts {
                dt.extend(col);
                dm.push(m);
            }
            (dt, dm)
        };
        let row_residual = |dt: &[f64], dm: &[f64]| -> nalgebra::DVector<f64> {
            let mut v = nalgebra::DVector::from_column_slice(&res.primal);
            for (y, col) in dt.chunks(n).enumerate() {
                for x in 0..n {
                    v[x] -= beta * col[x] + alpha * dm[y];
                }
            }
            v
        };
        // S du = rp - sum_y A_y z0_y, refined with the exact block operators: late on the
        // path S is ill-conditioned and one solve leaves the row sums off by far more than
        // rounding.
        let (mut dt, mut dm) = apply(&vec![0.0; n]);
        let mut du = schur.solve(&row_residual(&dt, &dm));
        for step in 0..=REFINEMENT_STEPS {
            (dt, dm) = apply(du.as_slice());
            let residual = row_residual(&dt, &dm);
            if step == REFINEMENT_STEPS || residual.amax() <= REFINED_ROW_RESIDUAL {
                break;
            }
            du += schur.solve(&residual);
        }
        let dlambda = (0..n * o)
            .into_par_iter()
            .map(|i| (rho_lower[i] - p.lambda[i] * dt[i]) / p.t[i])
            .collect();
        let dr: Vec<f64> = (0..n * o)
            .into_par_iter()
            .map(|i| dm[i / n] - dt[i] + res.upper[i])
            .collect();
        let dnu = (0..n * o)
            .into_par_iter()
            .map(|i| (rho_upper[i] - p.nu[i] * dr[i]) / p.r[i])
            .collect();
        Direction {
            t: dt,
            m: dm,
            r: dr,
            u: du.iter().copied().collect(),
            lambda: dlambda,
            nu: dnu,
        }
    }

    /// Primal and dual step lengths: `fraction` of the way to the boundary, at most 1.
    pub(super) fn step_lengths(&self, p: &Point, d: &Direction, fraction: f64) -> (f64, f64) {
        let longest = |v: &[f64], dv: &[f64]| {
            v.par_iter()
                .zip(dv)
                .filter(|(_, dv)| **dv < 0.0)
                .map(|(v, dv)| -v / dv)
                .reduce(|| f64::INFINITY, f64::min)
        };
        let primal = longest(&p.t, &d.t).min(longest(&p.r, &d.r));
        let dual = longest(&p.lambda, &d.lambda).min(longest(&p.nu, &d.nu));
        ((fraction * primal).min(1.0), (fraction * dual).min(1.0))
    }
}

impl Point {
    pub(super) fn advance(&mut self, d: &Direction, ap: f64, ad: f64) {
        let add = |v: &mut [f64], dv: &[f64], a: f64| {
            v.par_iter_mut().zip(dv).for_each(|(v, dv)| *v += a * dv)
        };
        add(&mut self.t, &d.t, ap);
        add(&mut self.m, &d.m, ap);
        add(&mut self.r, &d.r, ap);
        add(&mut self.u, &d.u, ad);
        add(&mut self.lambda, &d.lambda, ad);
        add(&mut self.nu, &d.nu, ad);
    }
}
