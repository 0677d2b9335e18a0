//! Linear objectives under a lone eps-LDP constraint, by a primal-dual interior-point method
//! that exploits the constraint's structure: every factorization is of one dense `n x n`
//! matrix, so a step costs `O(n^3)` flops and `O(n^2)` memory where a general sparse solver
//! factors a system over all `n^2` entries and `2 n^2` ratio rows.
//!
//! **Formulation** (the envelope form of the LDP cone, docs/design-notes.md, "Compact encodings"). Write
//! each column as a convex combination of its top and its floor,
//! `Q[x][y] = alpha m_y + beta t_xy` with `0 <= t_xy <= m_y`, `alpha = e^-eps`,
//! `beta = 1 - e^-eps`: every entry lies between `alpha m_y` and `m_y`, which is eps-LDP for that
//! output, and every such column has this form. (Both weights are at most 1, so the program
//! stays balanced at tiny and at large eps.) The program is
//!
//! ```text
//! minimize   alpha sum_y a_y m_y + beta sum_{x,y} c_xy t_xy          (a_y = sum_x c_xy)
//! subject to alpha sum_y m_y + beta sum_y t_xy = 1       for every input x   (dual u_x)
//!            t_xy >= 0 (dual lambda_xy),  m_y - t_xy >= 0  (dual nu_xy, slack r_xy)
//! ```
//!
//! **Newton step** (Mehrotra's predictor-corrector; Wright, "Primal-Dual Interior-Point
//! Methods", SIAM 1997, Ch. 10). Eliminating the inequality duals leaves, for each output, an
//! arrow-shaped block `H_y = [[D, -e], [-e^T, sum e]]` over `(t_.y, m_y)` with
//! `D = lambda / t + nu / r` (diagonal) and `e = nu / r`. With `A_y = [beta I | alpha 1]` (the
//! column's part of the row sums) the step's row duals solve
//!
//! ```text
//! S du = rhs,   S = sum_y A_y H_y^-1 A_y^T = beta^2 sum_y diag(1 / D_.y) + sum_y w_y w_y^T / s_y,
//! w_y = alpha + beta e / D,   s_y = sum e - e^T D^-1 e = sum_x e_x (lambda_x / t_x) / D_x,
//! ```
//!
//! so `S` is a diagonal plus `W W^T` (one `n x outputs` product) and one dense Cholesky.
//! At eps = 0 (`beta = 0`) every column is constant and the optimum is the best constant
//! output, in closed form.
//!
//! **Bound.** The method's duals are only approximate; the bound comes from them through the
//! Lagrangian relaxation of the row sums (`decompose.rs`), priced in closed form, which is
//! rigorous for any prices. The method stops when that bound meets the objective of the
//! point made a channel (projected onto the cone, rows scaled, deficits filled in).

mod newton;
mod recover;

use super::{Method, Outcome, RoundTrace, Run, Status};
use crate::objective::Goal;
use rayon::prelude::*;
use std::time::Instant;

/// The method stops when the gap between the objective of the point made a channel and the
/// rigorous bound is at most this relative to the objective plus `ABSOLUTE_GAP` (well inside
/// the report's default tolerance of 1e-9 plus 1e-6 relative).
pub const LDP_INTERIOR_GAP_TOLERANCE: f64 = 1e-9;
/// The absolute part of the stopping gap, in units of the largest cost (the scaled units, so
/// that the test does not depend on the loss's units).
const ABSOLUTE_GAP: f64 = 1e-12;
/// The method stops when its gap has not shrunk by [`STALL_PROGRESS`] in this many
/// iterations.
const STALL_ITERATIONS: usize = 10;
/// See [`STALL_ITERATIONS`].
const STALL_PROGRESS: f64 = 0.99;
/// The method stops when the iterate's row sums are off by more than this: at the end of the
/// path rounding in the Schur complement can take over the steps (measured at 1,000 inputs:
/// row sums off by 3e-7, then 1e-5, then 9e-3 in three steps, the objective getting worse).
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
    lambda: Vec<f64>,
    nu: Vec<f64>,
}

/// The program's data in the scaled units.
struct Data {
    n: usize,
    outputs: usize,
    /// `e^eps - 1`.
    k: f64,
    /// `1 / e^eps`, the floor's weight in `Q = alpha m + beta t`.
    alpha: f64,
    /// `1 - alpha`, the rise's weight.
    beta: f64,
    /// Costs, indexed `y * n + x`.
    c: Vec<f64>,
    /// Column sums of the costs.
    a: Vec<f64>,
}

/// Solve `min/max sum c[x][y] Q[x][y]` under eps-LDP alone (`coefficients` is n x outputs).
pub fn solve_ldp_interior(
    epsilon: f64,
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
        k: epsilon.exp_m1(),
        alpha: (-epsilon).exp(),
        beta: -(-epsilon).exp_m1(),
        c,
        a,
    };
    if data.beta == 0.0 {
        return data.constant_optimum(to_problem);
    }
    let mut point = data.start();
    let mut best: Option<(f64, f64)> = None; // (objective, bound)
    let mut best_bound = f64::NEG_INFINITY;
    let mut best_rows = None;
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
        // Predictor (affine scaling), then the centred corrector.
        let zero_target = |p: &[f64], q: &[f64]| -> Vec<f64> {
            p.par_iter().zip(q).map(|(a, b)| -a * b).collect()
        };
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
                .into_par_iter()
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
        let bound = data.bound(&point.u, epsilon);
        best_bound = best_bound.max(bound);
        if best.is_none_or(|(o, _)| objective < o) {
            best = Some((objective, best_bound));
            best_rows = Some(rows);
        }
        let (objective, _) = best.expect("set above");
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
            "ldp interior point, iteration {iteration}: objective {:.9e}, bound {:.9e}, gap {:.2e}",
            to_problem(objective),
            to_problem(best_bound),
            (gap * scale).abs()
        ));
        if gap <= LDP_INTERIOR_GAP_TOLERANCE * objective.abs() + ABSOLUTE_GAP {
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
    if let (Some((objective, bound)), Some(rows)) = (best, &best_rows) {
        // A tenth of the stopping gap may go to a channel without trace outputs.
        let allowed = 0.1 * (LDP_INTERIOR_GAP_TOLERANCE * objective.abs() + ABSOLUTE_GAP);
        if let Some((cleaner, kept)) = data.without_trace_outputs(rows, objective, allowed) {
            best = Some((cleaner, bound));
            best_rows = Some(kept);
        }
    }
    notes.insert(
        0,
        format!(
            "interior point on the LDP envelope form ({n} x {n} Schur complement, {iterations} iteration{}, {:.2} s); bound from the Lagrangian of the row sums at its duals",
            if iterations == 1 { "" } else { "s" },
            start.elapsed().as_secs_f64()
        ),
    );
    Outcome {
        method: Method::LdpInteriorPoint,
        status: if converged {
            Status::Optimal
        } else {
            Status::Feasible
        },
        iterations,
        rows: best_rows,
        bound: best_bound.is_finite().then(|| to_problem(best_bound)),
        notes,
        solver_objective: best.map(|(o, _)| to_problem(o)),
        trace,
    }
}

impl Data {
    /// The uniform channel (`t = r = m / 2`), and duals with `c - u >= 0` and every
    /// multiplier at least 1.
    fn start(&self) -> Point {
        let (n, o, alpha, beta) = (self.n, self.outputs, self.alpha, self.beta);
        let floor = 1.0 / (o as f64 * (alpha + beta / 2.0));
        let u: Vec<f64> = (0..n)
            .map(|x| {
                (0..o)
                    .map(|y| self.c[y * n + x])
                    .fold(f64::INFINITY, f64::min)
                    - 1.0
            })
            .collect();
        // lambda - nu = beta (c - u) (dual feasibility for t) with both at least 1.
        let lambda = (0..n * o)
            .map(|i| beta * (self.c[i] - u[i % n]) + 1.0)
            .collect();
        Point {
            t: vec![floor / 2.0; n * o],
            m: vec![floor; o],
            r: vec![floor / 2.0; n * o],
            u,
            lambda,
            nu: vec![1.0; n * o],
        }
    }

    /// eps = 0: every column is constant, so a channel costs `sum_y q_y a_y` for a
    /// distribution `q` over outputs, and the best is all mass on the cheapest output. The
    /// bound is the Lagrangian bound at prices `u_x = c[x][y*]`, where every column's reduced
    /// cost sums to `a_y - a_y* >= 0`.
    fn constant_optimum(&self, to_problem: impl Fn(f64) -> f64) -> Outcome {
        let (n, o) = (self.n, self.outputs);
        let best = (0..o)
            .min_by(|&a, &b| self.a[a].total_cmp(&self.a[b]))
            .unwrap_or(0);
        let prices: Vec<f64> = (0..n).map(|x| self.c[best * n + x]).collect();
        let lowers: Vec<f64> = self
            .c
            .chunks(n)
            .map(|col| {
                let d: Vec<f64> = col.iter().zip(&prices).map(|(c, p)| c - p).collect();
                super::decompose::pricing::staircase(&d, 0.0).lower
            })
            .collect();
        let bound = super::decompose::pricing::lagrangian_bound(&prices, &lowers);
        let rows = (0..n)
            .map(|_| (0..o).map(|y| f64::from(u8::from(y == best))).collect())
            .collect();
        Outcome {
            method: Method::LdpInteriorPoint,
            status: Status::Optimal,
            iterations: 0,
            rows: Some(rows),
            bound: Some(to_problem(bound)),
            notes: vec![
                "eps = 0: every column is constant; the optimum puts all mass on the output of least expected cost (closed form, no iterations)".into(),
            ],
            solver_objective: Some(to_problem(self.a[best])),
            trace: Vec::new(),
        }
    }
}

/// The LDP interior-point method behind the common trait.
pub struct LdpInteriorMethod;

impl LdpInteriorMethod {
    /// The epsilon of the lone pure eps-LDP constraint it solves, when it applies.
    pub fn epsilon(task: &super::Task) -> Option<f64> {
        super::staircase_epsilon(&task.notions)
            .filter(|_| task.inputs() <= crate::policy::LDP_INTERIOR_MAX_INPUTS)
    }
}

impl super::LinearMethod for LdpInteriorMethod {
    fn choice(&self) -> crate::policy::MethodChoice {
        crate::policy::MethodChoice::LdpInteriorPoint
    }

    fn refusal(&self, task: &super::Task) -> String {
        use crate::policy::LDP_INTERIOR_MAX_INPUTS;
        let n = task.inputs();
        let keys: Vec<&str> = task.notions.iter().map(|p| p.key()).collect();
        let reason = match keys.as_slice() {
            ["ldp"] if n > LDP_INTERIOR_MAX_INPUTS => format!(
                "{n} symbols, above its maximum of {LDP_INTERIOR_MAX_INPUTS} (it keeps about 22 arrays of n^2 numbers, {:.1} GB here)",
                22.0 * 8.0 * (n as f64).powi(2) / 1e9
            ),
            ["ldp"] => format!(
                "its ldp constraint is not pure eps-LDP with eps at most {} (an (eps, delta) or multi-release constraint, or an eps so loose it is not encoded)",
                crate::formulation::LOOSE_LOG_RATIO
            ),
            _ => format!(
                "it needs exactly one privacy constraint, of notion ldp; the problem has {}",
                keys.join(", ")
            ),
        };
        format!("the ldp-interior-point method does not apply: {reason}")
    }

    fn solve(
        &self,
        task: &super::Task,
        run: &Run,
    ) -> Result<Option<super::MethodOutcome>, super::SolveError> {
        let (Some(coefficients), Some(epsilon)) = (task.coefficients, Self::epsilon(task)) else {
            return Ok(None);
        };
        Ok(Some(super::MethodOutcome {
            outcome: solve_ldp_interior(epsilon, coefficients, task.goal, run),
            encoding: vec!["ldp: envelope form, column floor m_y <= Q[x][y] <= e^eps m_y".into()],
        }))
    }
}
