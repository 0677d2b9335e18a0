//! Linear objectives: one LP over the channel (a conic program under mutual-information
//! privacy), bounded rigorously from the backend's duals.

pub(crate) mod lazy;

pub use lazy::{
    lazy_symmetry_order, solve_with_lazy_rows, LAZY_MIN_INPUTS, LAZY_ROWS_PER_INPUT,
    LAZY_SYMMETRIC_MIN_INPUTS, LAZY_SYMMETRY_ORDER, LAZY_WARM_MIN_INPUTS,
};

use super::{Method, Outcome, Run, Status};
use crate::formulation::ChannelLp;
use crate::objective::Goal;
use crate::privacy::PrivacyNotion;
use mechsynth_solvers::{rigorous_lower_bound, BackendError};

/// The channel LP for `coefficients` (row-major over an n x n channel), minimizing
/// `multiplier * c . Q`.
fn build(
    privacy: &[Box<dyn PrivacyNotion>],
    coefficients: &[Vec<f64>],
    multiplier: f64,
) -> (ChannelLp, Vec<String>) {
    let n = coefficients.len();
    let mut lp = ChannelLp::new(n, n);
    for (x, row) in coefficients.iter().enumerate() {
        for (y, c) in row.iter().enumerate() {
            lp.set_entry_cost(x, y, multiplier * c);
        }
    }
    let encoding = privacy.iter().map(|p| p.encode(&mut lp)).collect();
    (lp, encoding)
}

/// An objective that is identically zero: every feasible channel is optimal with value 0, so
/// the bound is exactly 0; the program only has to find a feasible point.
fn trivial(
    privacy: &[Box<dyn PrivacyNotion>],
    n: usize,
    run: &Run,
) -> Result<(Outcome, Vec<String>), BackendError> {
    let zero = vec![vec![0.0; n]; n];
    let (lp, encoding) = build(privacy, &zero, 1.0);
    let s = run.backend.solve(lp.program(), &run.backend_options())?;
    let point = s.status.has_point();
    let outcome = Outcome {
        method: if lp.program().exp_cones().is_empty() {
            Method::Lp
        } else {
            Method::ConicProgram
        },
        status: Status::from_lp(s.status.clone()),
        iterations: s.iterations,
        rows: point.then(|| lp.channel_rows(&s.x)),
        bound: point.then_some(0.0),
        notes: vec!["the objective is identically zero: every feasible channel is optimal".into()],
        solver_objective: point.then_some(0.0),
        trace: Vec::new(),
    };
    Ok((outcome, encoding))
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
    if coefficients.iter().flatten().all(|c| *c == 0.0) {
        return trivial(privacy, coefficients.len(), run);
    }
    let scale = super::cost_scale(coefficients);
    let multiplier = sign / scale;
    let (lp, encoding) = build(privacy, coefficients, multiplier);
    let conic = !lp.program().exp_cones().is_empty();
    let mut notes = Vec::new();
    let s = run.backend.solve(lp.program(), &run.backend_options())?;
    let bound = s
        .status
        .has_point()
        .then(|| rigorous_lower_bound(lp.program(), &s))
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
        rows: s.status.has_point().then(|| lp.channel_rows(&s.x)),
        bound,
        notes,
        solver_objective: s.status.has_point().then_some(sign * s.objective * scale),
        trace: Vec::new(),
    };
    Ok((outcome, encoding))
}

/// One LP with every constraint, behind the common trait.
pub struct OneLp;

impl super::LinearMethod for OneLp {
    fn choice(&self) -> crate::policy::MethodChoice {
        crate::policy::MethodChoice::Lp
    }

    fn refusal(&self, _: &super::Task) -> String {
        "one LP needs a linear objective".into()
    }

    fn solve(
        &self,
        task: &super::Task,
        run: &Run,
    ) -> Result<Option<super::MethodOutcome>, super::SolveError> {
        let Some(coefficients) = task.coefficients else {
            return Ok(None);
        };
        let (outcome, encoding) =
            solve_linear(&task.problem.privacy, coefficients, task.goal, run)?;
        Ok(Some(super::MethodOutcome { outcome, encoding }))
    }
}
