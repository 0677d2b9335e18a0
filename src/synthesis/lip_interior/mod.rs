//! Linear objectives under a lone eps-LIP constraint with one full-support prior, by a
//! primal-dual interior-point method that exploits the constraint's structure: every
//! factorization is of one dense `n x n` matrix, so a step costs `O(n^3)` flops and `O(n^2)`
//! memory where a general sparse solver factors a system over all `n^2` entries, `n` output
//! probabilities and `2 n^2` two-term rows.
//!
//! **Formulation.** LIP asks `e^-eps lambda_y <= Q[x][y] <= e^eps lambda_y` with
//! `lambda_y = sum_x p_x Q[x][y]`. With the column's top `m_y = e^eps lambda_y`, write
//! `Q[x][y] = alpha m_y + beta t_xy` with `0 <= t_xy <= m_y`, `alpha = e^-2eps`,
//! `beta = 1 - alpha`: every entry then lies between `e^-eps lambda_y` and `e^eps lambda_y`,
//! and `lambda_y = m_y / e^eps` becomes `sum_x p_x t_xy = kappa m_y` with
//! `kappa = 1 / (e^eps + 1)`. The program is
//!
//! ```text
//! minimize   alpha sum_y a_y m_y + beta sum_{x,y} c_xy t_xy          (a_y = sum_x c_xy)
//! subject to alpha sum_y m_y + beta sum_y t_xy = 1       for every input x   (dual u_x)
//!            sum_x p_x t_xy - kappa m_y = 0              for every output y  (dual v_y)
//!            t_xy >= 0 (dual lambda_xy),  m_y - t_xy >= 0  (dual nu_xy, slack r_xy)
//! ```
//!
//! **Newton step** (Mehrotra's predictor-corrector; Wright, "Primal-Dual Interior-Point
//! Methods", SIAM 1997, Ch. 10). As for the LDP envelope form (`ldp_interior`), eliminating
//! the inequality duals leaves an arrow-shaped block `H_y` over `(t_.y, m_y)` per output.
//! The output's own equality `g_y = (p, -kappa)` is eliminated inside its block: with
//! `h_y = H_y^-1 g_y` and `sigma_y = g_y . h_y` the block's operator on the row sums is
//! `K_y = H_y^-1 - h_y h_y^T / sigma_y`, so the row duals solve
//!
//! ```text
//! S du = rhs,   S = beta^2 sum_y diag(1 / D_.y) + sum_y w_y w_y^T / s_y - sum_y z_y z_y^T / sigma_y
//! ```
//!
//! with `w_y`, `s_y` as in `ldp_interior` and `z_y = A_y h_y`: a diagonal plus two `n x outputs`
//! products and one dense Cholesky, refined with the exact block operators.
//!
//! **Bound.** For any row prices `u`, every LIP channel costs at least
//! `sum_x u_x + P min_y phi_y` (`P = sum_x p_x`, the sign of the minimum deciding which
//! rounding of `P`), where `phi_y = min {d . r : r in [e^-eps, e^eps]^n, p . r = 1}` with
//! `d = c_.y - u`: each column is `lambda_y r` with such an `r`, and the `lambda_y` sum to `P`.
//! Each `phi_y` is bounded below by weak duality at the greedy multiplier, with its rounding
//! error subtracted (`recover.rs`), so the bound is rigorous for any prices.

mod newton;
mod recover;

use super::{Method, Outcome, RoundTrace, Run, Status};
use crate::objective::Goal;
use crate::rays::RayFamily;
use std::time::Instant;

/// The method stops when the gap between the objective of the point made a channel and the
/// rigorous bound is at most this relative to the objective plus `ABSOLUTE_GAP` (well inside
/// the report's default tolerance of 1e-9 plus 1e-6 relative).
pub const LIP_INTERIOR_GAP_TOLERANCE: f64 = 1e-9;
/// The absolute part of the stopping gap, in the scaled units (largest cost about 1).
const ABSOLUTE_GAP: f64 = 1e-12;
/// The method stops when its gap has not shrunk by [`STALL_PROGRESS`] in this many
/// iterations.
const STALL_ITERATIONS: usize = 10;
/// See [`STALL_ITERATIONS`].
const STALL_PROGRESS: f64 = 0.99;
/// The method stops when the iterate's row sums are off by more than this: at the end of the
/// path the blocks of unused outputs (tops near 1e-12) make the Schur complement lose its
/// accuracy, and rounding takes over the steps (measured at 200 inputs, absolute loss: row sums
/// off by 3e-10, then 2e-7, then 4e-5 in three steps, the relative gap then 7e-8).
const DIVERGED_ROW_SUMS: f64 = 1e-6;
/// Iterations before giving up.
const MAX_ITERATIONS: usize = 200;
/// Fraction of the step to the boundary of the positive orthant.
const STEP_TO_BOUNDARY: f64 = 0.995;

/// The primal-dual point, entries indexed `y * n + x` (one output's column contiguous).
struct Point {
    t: Vec<f64>,
    m: Vec<f64>,
    r: Vec<f64>,
    u: Vec<f64>,
    v: Vec<f64>,
    lambda: Vec<f64>,
    nu: Vec<f64>,
}

/// The program's data in the scaled units.
struct Data {
    n: usize,
    outputs: usize,
    /// The privacy parameter.
    epsilon: f64,
    /// `e^-2eps`, the floor's weight in `Q = alpha m + beta t`.
    alpha: f64,
    /// `1 - alpha`.
    beta: f64,
    /// `1 / (e^eps + 1)`.
    kappa: f64,
    /// The prior.
    p: Vec<f64>,
    /// Costs, indexed `y * n + x`.
    c: Vec<f64>,
    /// Column sums of the costs.
    a: Vec<f64>,
}

/// Solve `min/max sum c[x][y] Q[x][y]` under eps-LIP for one prior with every entry positive
/// (`coefficients` is n x outputs, `eps > 0`).
pub fn solve_lip_interior(
    epsilon: f64,
    prior: &[f64],
    coefficients: &[Vec<f64>],
    goal: Goal,
    run: &Run,
) -> Outcome {
    let start = Instant::now();
    let n = coefficients.len();
    let outputs = coefficients.first().map_or(0, Vec::len);
    let sign = match goal {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let scale = super::cost_scale(coefficients);
    let to_problem = |v: f64| sign * v * scale;
    let mut c = vec![0.0; n * outputs];
    for (x, row) in coefficients.iter().enumerate() {
        for (y, v) in row.iter().enumerate() {
            c[y * n + x] = sign * v / scale;
        }
    }
    let a = c.chunks(n).map(|col| col.iter().sum()).collect();
    let data = Data {
        n,
        outputs,
        epsilon,
        alpha: (-2.0 * epsilon).exp(),
        beta: -(-2.0 * epsilon).exp_m1(),
        kappa: 1.0 / (epsilon.exp() + 1.0),
        p: prior.to_vec(),
        c,
        a,
    };
    let mut point = data.start();
    let mut best: Option<(f64, Vec<Vec<f64>>)> = None;
    let mut best_bound = f64::NEG_INFINITY;
    let mut notes = Vec::new();
    let mut converged = false;
    let mut iterations = 0;
    let (mut best_gap, mut last_progress) = (f64::INFINITY, 0);
    let mut trace = Vec::new();
    for iteration in 1..=MAX_ITERATIONS {
        iterations = iteration as u64;
        let residuals = data.residuals(&point);
        let mu = data.complementarity(&point);
        let Some(newton) = data.factor(&point) else {
            notes.push("the Newton system became singular at the end of the path; the best point so far is kept".into());
            break;
        };
        let zero_target =
            |p: &[f64], q: &[f64]| -> Vec<f64> { p.iter().zip(q).map(|(a, b)| -a * b).collect() };
        let affine = data.direction(
            &point,
            &residuals,
            &newton,
            &zero_target(&point.t, &point.lambda),
            &zero_target(&point.r, &point.nu),
        );
        let (ap, ad) = data.step_lengths(&point, &affine, 1.0);
        let mu_affine = data.complementarity_after(&point, &affine, ap, ad);
        let centering = (mu_affine / mu).clamp(0.0, 1.0).powi(3);
        let target = |p: &[f64], q: &[f64], dp: &[f64], dq: &[f64]| -> Vec<f64> {
            (0..p.len())
                .map(|i| centering * mu - p[i] * q[i] - dp[i] * dq[i])
                .collect()
        };
        let rho_lower = target(&point.t, &point.lambda, &affine.t, &affine.lambda);
        let rho_upper = target(&point.r, &point.nu, &affine.r, &affine.nu);
        drop(affine);
        let step = data.direction(&point, &residuals, &newton, &rho_lower, &rho_upper);
        let (ap, ad) = data.step_lengths(&point, &step, STEP_TO_BOUNDARY);
        point.advance(&step, ap, ad);
        let (objective, rows) = data.channel(&point);
        best_bound = best_bound.max(data.bound(&point.u));
        if best.as_ref().is_none_or(|(o, _)| objective < *o) {
            best = Some((objective, rows));
        }
        let objective = best.as_ref().map_or(f64::INFINITY, |(o, _)| *o);
        let gap = objective - best_bound;
        trace.push(RoundTrace {
            round: iteration,
            columns: outputs,
            rows: None,
            objective: to_problem(objective),
            bound: to_problem(best_bound),
            gap: (gap * scale).abs(),
            seconds: start.elapsed().as_secs_f64(),
        });
        run.progress(&format!(
            "lip interior point, iteration {iteration}: objective {:.9e}, bound {:.9e}, gap {:.2e}",
            to_problem(objective),
            to_problem(best_bound),
            (gap * scale).abs()
        ));
        if gap <= LIP_INTERIOR_GAP_TOLERANCE * objective.abs() + ABSOLUTE_GAP {
            converged = true;
            break;
        }
        if gap < STALL_PROGRESS * best_gap {
            (best_gap, last_progress) = (gap, iteration);
        } else if iteration >= last_progress + STALL_ITERATIONS {
            notes.push(format!("the interior-point method stalled: its gap did not shrink in {STALL_ITERATIONS} iterations"));
            break;
        }
        if data.row_sum_error(&point) > DIVERGED_ROW_SUMS {
            notes.push(format!("the interior-point method stopped where rounding took over its steps (row sums off by more than {DIVERGED_ROW_SUMS:e}); the best point before is kept"));
            break;
        }
        if run.expired() {
            notes.push("the time limit ended the interior-point method; the channel is its best point so far, with the best bound".into());
            break;
        }
        if iteration == MAX_ITERATIONS {
            notes.push(format!(
                "the interior-point method stopped at its cap of {MAX_ITERATIONS} iterations"
            ));
        }
    }
    notes.insert(
        0,
        format!(
            "interior point on the LIP top form ({n} x {n} Schur complement, {iterations} iteration{}, {:.2} s); bound from the Lagrangian of the row sums at its duals",
            if iterations == 1 { "" } else { "s" },
            start.elapsed().as_secs_f64()
        ),
    );
    let (objective, rows) = best.map_or((None, None), |(o, r)| (Some(to_problem(o)), Some(r)));
    Outcome {
        method: Method::LipInteriorPoint,
        status: if converged {
            Status::Optimal
        } else {
            Status::Feasible
        },
        iterations,
        rows,
        bound: best_bound.is_finite().then(|| to_problem(best_bound)),
        notes,
        solver_objective: objective,
        trace,
    }
}

impl Data {
    /// Every column at `kappa` of its top (which meets the output equalities), the columns
    /// equal; duals with `c - u >= 0`, `v = 0` and every multiplier at least 1.
    fn start(&self) -> Point {
        let (n, o, alpha, beta, kappa) = (self.n, self.outputs, self.alpha, self.beta, self.kappa);
        let top = 1.0 / (o as f64 * (alpha + beta * kappa));
        let u: Vec<f64> = (0..n)
            .map(|x| {
                (0..o)
                    .map(|y| self.c[y * n + x])
                    .fold(f64::INFINITY, f64::min)
                    - 1.0
            })
            .collect();
        // lambda - nu = beta (c - u) (dual feasibility for t at v = 0) with both at least 1.
        let lambda = (0..n * o)
            .map(|i| beta * (self.c[i] - u[i % n]) + 1.0)
            .collect();
        Point {
            t: vec![kappa * top; n * o],
            m: vec![top; o],
            r: vec![(1.0 - kappa) * top; n * o],
            u,
            v: vec![0.0; o],
            lambda,
            nu: vec![1.0; n * o],
        }
    }
}

/// The epsilon and prior of a lone eps-LIP constraint under one prior with every entry
/// positive, eps in `(0, LOOSE_LOG_RATIO]` (what the method solves).
pub fn lip_interior_parameters(task: &super::Task) -> Option<(f64, Vec<f64>)> {
    match task.notions.as_slice() {
        [notion] if notion.key() == "lip" => match notion.ray_family() {
            Some(RayFamily::LipBox { prior, epsilon })
                if epsilon > 0.0 && prior.len() == task.inputs() =>
            {
                Some((epsilon, prior))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The LIP interior-point method behind the common trait.
pub struct LipInteriorMethod;

impl super::LinearMethod for LipInteriorMethod {
    fn choice(&self) -> crate::policy::MethodChoice {
        crate::policy::MethodChoice::LipInteriorPoint
    }

    fn refusal(&self, task: &super::Task) -> String {
        let keys: Vec<&str> = task.notions.iter().map(|p| p.key()).collect();
        let reason = match keys.as_slice() {
            ["lip"] => format!(
                "its lip constraint needs one prior with every entry positive and 0 < eps <= {}",
                crate::formulation::LOOSE_LOG_RATIO
            ),
            _ => format!(
                "it needs exactly one privacy constraint, of notion lip; the problem has {}",
                keys.join(", ")
            ),
        };
        format!("the lip-interior-point method does not apply: {reason}")
    }

    fn solve(
        &self,
        task: &super::Task,
        run: &Run,
    ) -> Result<Option<super::MethodOutcome>, super::SolveError> {
        let (Some(coefficients), Some((epsilon, prior))) =
            (task.coefficients, lip_interior_parameters(task))
        else {
            return Ok(None);
        };
        Ok(Some(super::MethodOutcome {
            outcome: solve_lip_interior(epsilon, &prior, coefficients, task.goal, run),
            encoding: vec![
                "lip: top form, e^-2eps m_y <= Q[x][y] <= m_y with sum_x p_x Q[x][y] = m_y / e^eps"
                    .into(),
            ],
        }))
    }
}
