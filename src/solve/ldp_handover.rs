//! `auto` under a lone LDP constraint with a linear objective: one decomposition round (it
//! closes the gap at once under Hamming loss, where k-RR's columns are optimal), then the LDP
//! interior-point method, then, where one LP is quick, one LP. Each step runs only when the
//! one before did not close its gap; the best certified channel is kept, with the tightest of
//! the rigorous bounds found on the way (each bounds the same optimum).

use super::SolveError;
use crate::objective::Goal;
use crate::privacy::PrivacyNotion;
use crate::synthesis::{
    solve_by_decomposition, solve_ldp_interior, solve_linear, Outcome, Run, Status,
};

/// Rounds `auto` gives the decomposition before the LDP interior-point method takes over.
/// Under other losses than Hamming the decomposition does not converge (absolute loss on a
/// line, eps 1: gap open after 120 s at 100 inputs) and each round at 1,000 inputs costs
/// seconds the interior-point method needs for all of its work.
const AUTO_DECOMPOSITION_ROUNDS: usize = 1;
/// Up to this many inputs one LP takes over when the interior-point method does not close
/// its gap (one LP takes 0.2 s at 100 inputs and 3.3 s at 300; at very large eps the
/// interior-point method can stop at a gap of 1e-6 to 1e-4 where rounding takes over).
const LP_FALLBACK_INPUTS: usize = 300;

/// Solve by the sequence in the module docs; `None` when the decomposition does not apply.
pub(super) fn solve_ldp_auto(
    privacy: &[Box<dyn PrivacyNotion>],
    coefficients: &[Vec<f64>],
    goal: Goal,
    epsilon: f64,
    run: &Run,
) -> Result<Option<(Outcome, Vec<String>)>, SolveError> {
    let all: Vec<&dyn PrivacyNotion> = privacy.iter().map(|p| p.as_ref()).collect();
    let Some(first) = solve_by_decomposition(
        &all,
        coefficients,
        goal,
        Some(AUTO_DECOMPOSITION_ROUNDS),
        run,
    )?
    else {
        return Ok(None);
    };
    let column_cone = vec!["ldp: column cone for pricing".to_string()];
    let envelope =
        vec!["ldp: envelope form, column floor e^-eps m_y <= Q[x][y] <= m_y".to_string()];
    if first.status == Status::Optimal || run.expired() {
        return Ok(Some((first, column_cone)));
    }
    let mut interior = solve_ldp_interior(epsilon, coefficients, goal, run);
    interior.notes.insert(
        0,
        format!(
            "the decomposition over outputs did not close its gap in its first round ({}), so the LDP interior-point method took over",
            describe(&first)
        ),
    );
    let (mut best, mut encoding) = keep_better(goal, (interior, envelope), (first, column_cone));
    let n = coefficients.len();
    if best.status != Status::Optimal && !run.expired() && n <= LP_FALLBACK_INPUTS {
        let (mut linear, lp_encoding) = solve_linear(privacy, coefficients, goal, run)?;
        linear.notes.insert(
            0,
            format!(
                "the LDP interior-point method did not close its gap ({}), so one LP over the channel took over",
                describe(&best)
            ),
        );
        (best, encoding) = keep_better(goal, (linear, lp_encoding), (best, encoding));
    }
    Ok(Some((best, encoding)))
}

/// The outcome and its encoding notes.
type Solved = (Outcome, Vec<String>);

/// `later` unless it has no channel, or is not optimal and ends worse than `earlier`; the
/// kept outcome gets the tighter of the two bounds.
fn keep_better(goal: Goal, later: Solved, earlier: Solved) -> Solved {
    let better = |a: f64, b: f64| match goal {
        Goal::Minimize => a < b,
        Goal::Maximize => a > b,
    };
    let later_worse = later.0.status != Status::Optimal
        && match (later.0.solver_objective, earlier.0.solver_objective) {
            (Some(l), Some(e)) => better(e, l),
            _ => false,
        };
    let (mut kept, other) = if later.0.rows.is_none() || later_worse {
        let mut kept = earlier;
        kept.0.notes.push(format!(
            "the {} method that took over ended with {}; this channel is kept",
            later.0.method, later.0.status
        ));
        (kept, later.0)
    } else {
        (later, earlier.0)
    };
    if let Some(b) = other.bound {
        let tighter = match (kept.0.bound, goal) {
            (None, _) => true,
            (Some(k), Goal::Minimize) => b > k,
            (Some(k), Goal::Maximize) => b < k,
        };
        if tighter {
            kept.0.bound = Some(b);
            kept.0.notes.push(format!(
                "bound from the {} method ({b:.9e}), tighter than this method's own",
                other.method
            ));
        }
    }
    kept
}

/// The objective and bound of an outcome, for a note.
fn describe(outcome: &Outcome) -> String {
    match (outcome.solver_objective, outcome.bound) {
        (Some(v), Some(b)) => format!("objective {v:.9e}, bound {b:.9e}"),
        (Some(v), None) => format!("objective {v:.9e}, no bound"),
        _ => "no point".into(),
    }
}
