//! The Newton step of the LIP interior-point method: residuals, the factored Schur
//! complement, the direction and the step lengths (formulas in the parent module's docs).

use super::{Data, Point};
use nalgebra::{DMatrix, DVector};

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
    pub(super) v: Vec<f64>,
    pub(super) lambda: Vec<f64>,
    pub(super) nu: Vec<f64>,
}

/// The residuals at a point (each wants to be 0).
pub(super) struct Residuals {
    /// `beta (c - u_x) - p_x v_y - lambda + nu`, per entry.
    dual_t: Vec<f64>,
    /// `alpha (a_y - sum u) + kappa v_y - sum_x nu_xy`, per output.
    dual_m: Vec<f64>,
    /// `1 - alpha sum_y m_y - beta sum_y t_xy`, per input.
    primal: Vec<f64>,
    /// `kappa m_y - sum_x p_x t_xy`, per output.
    column: Vec<f64>,
    /// `m_y - t_xy - r_xy`, per entry.
    upper: Vec<f64>,
}

/// The factored Newton system at a point.
pub(super) struct Newton {
    /// `D = lambda / t + nu / r`, per entry.
    d: Vec<f64>,
    /// `e = nu / r`, per entry.
    e: Vec<f64>,
    /// `s_y`, per output.
    s: Vec<f64>,
    /// `h_y = H_y^-1 (p, -kappa)`: its `t` part per entry, its `m` part per output.
    h_t: Vec<f64>,
    h_m: Vec<f64>,
    /// `sigma_y = (p, -kappa) . h_y`, per output.
    sigma: Vec<f64>,
    /// The Cholesky factor of `S`.
    schur: nalgebra::Cholesky<f64, nalgebra::Dyn>,
}

impl Newton {
    /// `H_y^-1 (gt, gm)` for output `y` (the arrow block solved in closed form).
    fn block_solve(&self, y: usize, n: usize, gt: &[f64]) -> impl Fn(f64) -> (Vec<f64>, f64) + '_ {
        let range = y * n..(y + 1) * n;
        let (d, e) = (&self.d[range.clone()], &self.e[range]);
        let weighted: f64 = gt.iter().zip(e).zip(d).map(|((g, e), d)| e * g / d).sum();
        let s = self.s[y];
        let gt = gt.to_vec();
        move |gm: f64| {
            let dm = (weighted + gm) / s;
            let dt = gt
                .iter()
                .zip(e)
                .zip(d)
                .map(|((g, e), d)| (g + e * dm) / d)
                .collect();
            (dt, dm)
        }
    }
}

impl Data {
    pub(super) fn residuals(&self, p: &Point) -> Residuals {
        let (n, alpha, beta, kappa) = (self.n, self.alpha, self.beta, self.kappa);
        let sum_u: f64 = p.u.iter().sum();
        let dual_t = (0..self.c.len())
            .map(|i| {
                let (y, x) = (i / n, i % n);
                beta * (self.c[i] - p.u[x]) - self.p[x] * p.v[y] - p.lambda[i] + p.nu[i]
            })
            .collect();
        let dual_m = (0..self.outputs)
            .map(|y| {
                alpha * (self.a[y] - sum_u) + kappa * p.v[y]
                    - p.nu[y * n..(y + 1) * n].iter().sum::<f64>()
            })
            .collect();
        let primal = self.residuals_of_rows(p);
        let column = p
            .t
            .chunks(n)
            .zip(&p.m)
            .map(|(col, m)| kappa * m - col.iter().zip(&self.p).map(|(t, q)| t * q).sum::<f64>())
            .collect();
        let upper = (0..self.c.len())
            .map(|i| p.m[i / n] - p.t[i] - p.r[i])
            .collect();
        Residuals {
            dual_t,
            dual_m,
            primal,
            column,
            upper,
        }
    }

    /// The largest error of the row sums at `p`.
    pub(super) fn row_sum_error(&self, p: &Point) -> f64 {
        self.residuals_of_rows(p)
            .iter()
            .fold(0.0, |e, r| e.max(r.abs()))
    }

    /// `1 - alpha sum_y m_y - beta sum_y t_xy`, per input.
    fn residuals_of_rows(&self, p: &Point) -> Vec<f64> {
        let total_m: f64 = p.m.iter().sum();
        let mut primal = vec![1.0 - self.alpha * total_m; self.n];
        for col in p.t.chunks(self.n) {
            primal
                .iter_mut()
                .zip(col)
                .for_each(|(v, t)| *v -= self.beta * t);
        }
        primal
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
        let (n, o, alpha, beta, kappa) = (self.n, self.outputs, self.alpha, self.beta, self.kappa);
        let d: Vec<f64> = (0..n * o)
            .map(|i| p.lambda[i] / p.t[i] + p.nu[i] / p.r[i])
            .collect();
        let e: Vec<f64> = (0..n * o).map(|i| p.nu[i] / p.r[i]).collect();
        let s: Vec<f64> = (0..o)
            .map(|y| {
                (y * n..(y + 1) * n)
                    .map(|i| e[i] * (p.lambda[i] / p.t[i]) / d[i])
                    .sum()
            })
            .collect();
        let mut newton = Newton {
            d,
            e,
            s,
            h_t: Vec::with_capacity(n * o),
            h_m: Vec::with_capacity(o),
            sigma: Vec::with_capacity(o),
            schur: nalgebra::Cholesky::new(DMatrix::identity(1, 1)).expect("1 x 1 identity"),
        };
        let mut w = DMatrix::<f64>::zeros(n, o);
        let mut z = DMatrix::<f64>::zeros(n, o);
        for y in 0..o {
            let (ht, hm) = newton.block_solve(y, n, &self.p)(-kappa);
            let sigma: f64 = ht.iter().zip(&self.p).map(|(h, q)| h * q).sum::<f64>() - kappa * hm;
            let (ws, zs) = (newton.s[y].sqrt().recip(), sigma.sqrt().recip());
            for x in 0..n {
                let i = y * n + x;
                w[(x, y)] = (alpha + beta * newton.e[i] / newton.d[i]) * ws;
                z[(x, y)] = (beta * ht[x] + alpha * hm) * zs;
            }
            newton.h_t.extend(ht);
            newton.h_m.push(hm);
            newton.sigma.push(sigma);
        }
        let mut schur = &w * w.transpose() - &z * z.transpose();
        for x in 0..n {
            schur[(x, x)] += beta * beta * (0..o).map(|y| 1.0 / newton.d[y * n + x]).sum::<f64>();
        }
        let largest = (0..n).map(|x| schur[(x, x)]).fold(0.0, f64::max);
        newton.schur = match nalgebra::Cholesky::new(schur.clone()) {
            Some(f) => f,
            None => {
                for x in 0..n {
                    schur[(x, x)] += SCHUR_REGULARIZATION * largest;
                }
                nalgebra::Cholesky::new(schur)?
            }
        };
        Some(newton)
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
        let (n, o, alpha, beta, kappa) = (self.n, self.outputs, self.alpha, self.beta, self.kappa);
        let upper_term: Vec<f64> = (0..n * o)
            .map(|i| (rho_upper[i] - p.nu[i] * res.upper[i]) / p.r[i])
            .collect();
        let g: Vec<f64> = (0..n * o)
            .map(|i| -res.dual_t[i] + rho_lower[i] / p.t[i] - upper_term[i])
            .collect();
        let g_m: Vec<f64> = (0..o)
            .map(|y| -res.dual_m[y] + upper_term[y * n..(y + 1) * n].iter().sum::<f64>())
            .collect();
        // Every output's (dt, dm, dv) for row duals du: H_y^-1 of the right-hand side, then
        // the multiple of h_y that meets the output's equality.
        let apply = |du: &[f64]| -> (Vec<f64>, Vec<f64>, Vec<f64>) {
            let sum_du: f64 = du.iter().sum();
            let mut dt = Vec::with_capacity(n * o);
            let mut dm = Vec::with_capacity(o);
            let mut dv = Vec::with_capacity(o);
            let mut gt = vec![0.0; n];
            for y in 0..o {
                for x in 0..n {
                    gt[x] = g[y * n + x] + beta * du[x];
                }
                let (t0, m0) = newton.block_solve(y, n, &gt)(g_m[y] + alpha * sum_du);
                let met = t0.iter().zip(&self.p).map(|(t, q)| t * q).sum::<f64>() - kappa * m0;
                let step = (res.column[y] - met) / newton.sigma[y];
                let h = &newton.h_t[y * n..(y + 1) * n];
                dt.extend(t0.iter().zip(h).map(|(t, h)| t + step * h));
                dm.push(m0 + step * newton.h_m[y]);
                dv.push(step);
            }
            (dt, dm, dv)
        };
        let row_residual = |dt: &[f64], dm: &[f64]| -> DVector<f64> {
            let mut v = DVector::from_column_slice(&res.primal);
            for (y, col) in dt.chunks(n).enumerate() {
                for x in 0..n {
                    v[x] -= beta * col[x] + alpha * dm[y];
                }
            }
            v
        };
        let (mut dt, mut dm, mut dv) = apply(&vec![0.0; n]);
        let mut du = newton.schur.solve(&row_residual(&dt, &dm));
        for step in 0..=REFINEMENT_STEPS {
            (dt, dm, dv) = apply(du.as_slice());
            let residual = row_residual(&dt, &dm);
            if step == REFINEMENT_STEPS || residual.amax() <= REFINED_ROW_RESIDUAL {
                break;
            }
            du += newton.schur.solve(&residual);
        }
        let dlambda = (0..n * o)
            .map(|i| (rho_lower[i] - p.lambda[i] * dt[i]) / p.t[i])
            .collect();
        let dr: Vec<f64> = (0..n * o)
            .map(|i| dm[i / n] - dt[i] + res.upper[i])
            .collect();
        let dnu = (0..n * o)
            .map(|i| (rho_upper[i] - p.nu[i] * dr[i]) / p.r[i])
            .collect();
        Direction {
            t: dt,
            m: dm,
            r: dr,
            u: du.iter().copied().collect(),
            v: dv,
            lambda: dlambda,
            nu: dnu,
        }
    }

    /// Primal and dual step lengths: `fraction` of the way to the boundary, at most 1.
    pub(super) fn step_lengths(&self, p: &Point, d: &Direction, fraction: f64) -> (f64, f64) {
        let longest = |v: &[f64], dv: &[f64]| {
            v.iter()
                .zip(dv)
                .filter(|(_, dv)| **dv < 0.0)
                .map(|(v, dv)| -v / dv)
                .fold(f64::INFINITY, f64::min)
        };
        let primal = longest(&p.t, &d.t).min(longest(&p.r, &d.r));
        let dual = longest(&p.lambda, &d.lambda).min(longest(&p.nu, &d.nu));
        ((fraction * primal).min(1.0), (fraction * dual).min(1.0))
    }
}

impl Point {
    pub(super) fn advance(&mut self, d: &Direction, ap: f64, ad: f64) {
        let add = |v: &mut [f64], dv: &[f64], a: f64| {
            v.iter_mut().zip(dv).for_each(|(v, dv)| *v += a * dv)
        };
        add(&mut self.t, &d.t, ap);
        add(&mut self.m, &d.m, ap);
        add(&mut self.r, &d.r, ap);
        add(&mut self.u, &d.u, ad);
        add(&mut self.v, &d.v, ad);
        add(&mut self.lambda, &d.lambda, ad);
        add(&mut self.nu, &d.nu, ad);
    }
}
