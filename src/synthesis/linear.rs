//! Linear objectives: one LP over the channel (a conic program under mutual-information
//! privacy), solved with a safety margin on every privacy budget and bounded rigorously from the
//! duals on the program without the margin.

use super::{Method, Outcome, Run, Status};
use crate::formulation::{ChannelLp, SAFETY_MARGIN};
use crate::objective::Goal;
use crate::privacy::PrivacyNotion;
use mechsynth_solvers::{rigorous_lower_bound, BackendError, LpStatus};

/// The channel LP for `coefficients` (row-major over an n x n channel), minimizing
/// `sign * c . Q / scale`, with every notion encoded at `margin`.
fn build(
    privacy: &[Box<dyn PrivacyNotion>],
    coefficients: &[Vec<f64>],
    multiplier: f64,
    margin: f64,
) -> (ChannelLp, Vec<String>) {
    let n = coefficients.len();
    let mut lp = ChannelLp::with_margin(n, n, margin);
    for (x, row) in coefficients.iter().enumerate() {
        for (y, c) in row.iter().enumerate() {
            lp.set_entry_cost(x, y, multiplier * c);
        }
    }
    let encoding = privacy.iter().map(|p| p.encode(&mut lp)).collect();
    (lp, encoding)
}

/// A power of two near the largest coefficient: dividing by it is exact and brings the costs
/// to order 1, whatever the units of the loss.
fn cost_scale(coefficients: &[Vec<f64>]) -> f64 {
    let largest = coefficients
        .iter()
        .flatten()
        .fold(0.0f64, |m, c| m.max(c.abs()));
    if largest > 0.0 && largest.is_finite() {
        2f64.powi(largest.log2().round() as i32)
    } else {
        1.0
    }
}

/// Solve `min/max sum c[x][y] Q[x][y]` over the privacy constraints; returns the outcome and
/// the encoding notes. The bound is rigorous (see [`rigorous_lower_bound`]) whatever the
/// backend's accuracy, or absent.
pub fn solve_linear(
    privacy: &[Box<dyn PrivacyNotion>],
    coefficients: &[Vec<f64>],
    goal: Goal,
    run: &Run,
) -> Result<(Outcome, Vec<String>), BackendError> {
    let sign = match goal {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let scale = cost_scale(coefficients);
    let multiplier = sign / scale;
    let (exact, encoding) = build(privacy, coefficients, multiplier, 0.0);
    let (tight, _) = build(privacy, coefficients, multiplier, SAFETY_MARGIN);
    let conic = !exact.program().exp_cones().is_empty();
    let mut notes = Vec::new();
    let mut s = run.backend.solve(tight.program(), &run.backend_options())?;
    let mut used = &tight;
    if matches!(
        s.status,
        LpStatus::Infeasible | LpStatus::InfeasibleOrUnbounded
    ) {
        // The margin can only matter at the edge of feasibility: try the exact program.
        s = run.backend.solve(exact.program(), &run.backend_options())?;
        used = &exact;
    } else {
        notes.push(format!(
            "solved with every privacy budget shrunk by a relative {SAFETY_MARGIN:e}; the bound is for the exact budgets"
        ));
    }
    // The duals of either program are multipliers for the exact one (same rows).
    let bound = s
        .status
        .has_point()
        .then(|| rigorous_lower_bound(exact.program(), &s))
        .flatten()
        .map(|b| sign * b * scale);
    if s.status.has_point() && bound.is_none() {
        notes.push("no rigorous bound could be computed from the backend's duals".into());
    }
    let outcome = Outcome {
        method: if conic {
            Method::ConicProgram
        } else {
            Method::Lp
        },
        status: Status::from_lp(s.status.clone()),
        iterations: s.iterations,
        rows: s.status.has_point().then(|| used.channel_rows(&s.x)),
        bound,
        notes,
        solver_objective: s.status.has_point().then_some(sign * s.objective * scale),
    };
    Ok((outcome, encoding))
}
