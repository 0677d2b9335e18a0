//! The restricted master of the optimal-design problem, solved by a log-barrier Newton method:
//! minimize `f(w) = tr(C^T J(w)^-1 C)` with `J(w) = sum_j w_j b_j b_j^T`, `b_j = r_j /
//! sqrt(pi . r_j)`, subject to `sum_j w_j r_j = 1` (row sums), `G w <= h` (coupling rows) and
//! `w >= 0` (Boyd and Vandenberghe, "Convex Optimization", 2004, Sec. 10.3 and 11.3).
//!
//! With `V = J^-1 C`, `U = V^T B`, `X = J^-1 B`: `df/dw_j = -||U e_j||^2` and
//! `d2f/dw_j dw_l = 2 (B^T X)_jl (U^T U)_jl`. At the end, the multipliers of the row sums divided
//! by `t` are prices `mu` with `||U e_j||^2 <= mu . r_j + kappa . g_j` (up to `1 / (t w_j)`),
//! which the caller turns into a rigorous bound.

use nalgebra::{DMatrix, DVector};
use std::time::Instant;

/// Barrier parameter growth per outer iteration.
const BARRIER_GROWTH: f64 = 16.0;
/// Stop when the barrier's duality gap `(m + p) / t` is below this fraction of `f`.
const BARRIER_GAP: f64 = 1e-12;
/// Newton steps per centering.
const NEWTON_STEPS: usize = 60;
/// Centering ends when half the squared Newton decrement is below this.
const NEWTON_DECREMENT: f64 = 1e-9;
/// Armijo fraction of the predicted decrease.
const ARMIJO: f64 = 0.25;
/// Row sums within this of 1 count as feasible (later steps keep them).
const ROW_SUM_RESIDUAL: f64 = 1e-12;
/// Fraction of the step to the boundary of `w > 0`, `s > 0`.
const BOUNDARY_FRACTION: f64 = 0.99;

/// The data of a restricted master over `m` generators.
pub(crate) struct DesignData<'a> {
    /// The generators' input parts `r_j` (n each).
    pub rays: Vec<&'a [f64]>,
    /// Coupling row values `g_ij` (p rows of m) and their right-hand sides.
    pub coupling: Vec<Vec<f64>>,
    /// Right-hand sides of the coupling rows.
    pub rhs: Vec<f64>,
    /// The true distribution.
    pub pi: &'a [f64],
    /// `C`, one column per query (n x k).
    pub c: &'a DMatrix<f64>,
}

/// A solved restricted master.
pub(crate) struct MasterPoint {
    /// The weights (positive, row sums 1 up to rounding).
    pub w: Vec<f64>,
    /// `f(w)`.
    pub value: f64,
    /// Newton steps taken.
    pub steps: usize,
}

struct Derivatives {
    value: f64,
    gradient: DVector<f64>,
    hessian: DMatrix<f64>,
}

impl DesignData<'_> {
    fn b(&self) -> DMatrix<f64> {
        let n = self.pi.len();
        DMatrix::from_fn(n, self.rays.len(), |x, j| {
            let r = self.rays[j];
            let lambda: f64 = r.iter().zip(self.pi).map(|(a, b)| a * b).sum();
            r[x] / lambda.sqrt()
        })
    }

    fn a(&self) -> DMatrix<f64> {
        DMatrix::from_fn(self.pi.len(), self.rays.len(), |x, j| self.rays[j][x])
    }

    fn slacks(&self, w: &DVector<f64>) -> Vec<f64> {
        self.coupling
            .iter()
            .zip(&self.rhs)
            .map(|(g, h)| h - g.iter().zip(w.iter()).map(|(a, b)| a * b).sum::<f64>())
            .collect()
    }

    /// `f(w)`, or `None` when `J(w)` is not positive definite.
    fn value(&self, b: &DMatrix<f64>, w: &DVector<f64>) -> Option<f64> {
        let mut scaled = b.clone();
        for (j, mut col) in scaled.column_iter_mut().enumerate() {
            col *= w[j];
        }
        let v = (&scaled * b.transpose()).cholesky()?.solve(self.c);
        let value: f64 = v.iter().zip(self.c.iter()).map(|(a, c)| a * c).sum();
        value.is_finite().then_some(value)
    }

    /// `f`, its gradient and Hessian at `w`, or `None` when `J(w)` is not positive definite.
    fn derivatives(&self, b: &DMatrix<f64>, w: &DVector<f64>) -> Option<Derivatives> {
        let mut scaled = b.clone();
        for (j, mut col) in scaled.column_iter_mut().enumerate() {
            col *= w[j];
        }
        let j = &scaled * b.transpose();
        let chol = j.cholesky()?;
        let v = chol.solve(self.c);
        let x = chol.solve(b);
        let u = v.transpose() * b;
        let value: f64 = v.iter().zip(self.c.iter()).map(|(a, c)| a * c).sum();
        let gradient = DVector::from_fn(b.ncols(), |j, _| -u.column(j).norm_squared());
        let g = b.transpose() * x;
        let h = u.transpose() * u;
        let hessian = g.component_mul(&h) * 2.0;
        value.is_finite().then_some(Derivatives {
            value,
            gradient,
            hessian,
        })
    }
}

/// Cholesky of a symmetric positive definite matrix, retried with a small ridge when rounding
/// makes it fail.
fn factor(h: DMatrix<f64>) -> Option<nalgebra::Cholesky<f64, nalgebra::Dyn>> {
    if let Some(c) = h.clone().cholesky() {
        return Some(c);
    }
    let scale = h.diagonal().amax();
    let mut ridged = h;
    for j in 0..ridged.nrows() {
        ridged[(j, j)] += 1e-12 * scale;
    }
    ridged.cholesky()
}

/// `t f - sum ln w - sum ln s` at `w`, or `None` outside the domain.
fn barrier_value(data: &DesignData, b: &DMatrix<f64>, w: &DVector<f64>, t: f64) -> Option<f64> {
    if w.iter().any(|&v| v <= 0.0) {
        return None;
    }
    let s = data.slacks(w);
    if s.iter().any(|&v| v <= 0.0) {
        return None;
    }
    let value = data.value(b, w)?;
    Some(t * value - w.iter().map(|v| v.ln()).sum::<f64>() - s.iter().map(|v| v.ln()).sum::<f64>())
}

/// Solve the restricted master from `start` (positive weights; row sums need not hold), or
/// `None` when `J` is singular at every point tried or the deadline passed before a point.
pub(crate) fn solve_restricted(
    data: &DesignData,
    start: &[f64],
    deadline: Instant,
) -> Option<MasterPoint> {
    let m = data.rays.len();
    let n = data.pi.len();
    let p = data.rhs.len();
    let b = data.b();
    let a = data.a();
    let ones = DVector::from_element(n, 1.0);
    let mut w = DVector::from_column_slice(start);
    let first = data.derivatives(&b, &w)?;
    let mut t = (m + p) as f64 / first.value.abs().max(f64::MIN_POSITIVE);
    let mut steps = 0;
    let mut feasible = false;
    let mut last: Option<MasterPoint> = None;
    let mut steps_before = usize::MAX;
    loop {
        for _ in 0..NEWTON_STEPS {
            if Instant::now() >= deadline {
                break;
            }
            let Some(d) = data.derivatives(&b, &w) else {
                break;
            };
            let s = data.slacks(&w);
            let mut grad = &d.gradient * t;
            let mut hess = &d.hessian * t;
            for j in 0..m {
                grad[j] -= 1.0 / w[j];
                hess[(j, j)] += 1.0 / (w[j] * w[j]);
            }
            for (i, g) in data.coupling.iter().enumerate() {
                let gi = DVector::from_column_slice(g);
                grad += &gi / s[i];
                hess.ger(1.0 / (s[i] * s[i]), &gi, &gi, 1.0);
            }
            let Some(chol) = factor(hess) else {
                break;
            };
            let residual = &a * &w - &ones;
            let y = chol.solve(&a.transpose());
            let schur = &a * &y;
            let rhs = &residual - &a * chol.solve(&grad);
            let Some(nu) = schur.lu().solve(&rhs) else {
                break;
            };
            let dw = -chol.solve(&(&grad + a.transpose() * &nu));
            steps += 1;
            let decrement = -grad.dot(&dw);
            if feasible && decrement / 2.0 <= NEWTON_DECREMENT {
                break;
            }
            // Largest step keeping w > 0 and s > 0.
            let mut alpha: f64 = 1.0;
            for j in 0..m {
                if dw[j] < 0.0 {
                    alpha = alpha.min(-BOUNDARY_FRACTION * w[j] / dw[j]);
                }
            }
            for (i, g) in data.coupling.iter().enumerate() {
                let change: f64 = g.iter().zip(dw.iter()).map(|(a, b)| a * b).sum();
                if change > 0.0 {
                    alpha = alpha.min(BOUNDARY_FRACTION * s[i] / change);
                }
            }
            let Some(current) = barrier_value(data, &b, &w, t) else {
                break;
            };
            let mut accepted = false;
            for _ in 0..60 {
                let trial = &w + &dw * alpha;
                if let Some(v) = barrier_value(data, &b, &trial, t) {
                    if !feasible || v <= current - ARMIJO * alpha * decrement {
                        w = trial;
                        accepted = true;
                        break;
                    }
                }
                alpha *= 0.5;
            }
            if !accepted {
                break;
            }
            feasible = (&a * &w - &ones).amax() <= ROW_SUM_RESIDUAL;
        }
        let value = data.value(&b, &w)?;
        let point = MasterPoint {
            w: w.iter().copied().collect(),
            value,
            steps,
        };
        let done = (m + p) as f64 / t <= BARRIER_GAP * value.abs().max(f64::MIN_POSITIVE);
        let stalled = steps == steps_before;
        if done || stalled || Instant::now() >= deadline {
            // A stalled centering (rounding at large t) keeps the last point; the caller's
            // bound tells how good it is.
            return Some(match (stalled, last) {
                (true, Some(previous)) => previous,
                _ => point,
            });
        }
        if feasible {
            last = Some(point);
        }
        steps_before = steps;
        t *= BARRIER_GROWTH;
    }
}
