//! `auto` under a lone LDP constraint with a linear objective: one decomposition round (it
//! closes the gap at once under Hamming loss, where k-RR's columns are optimal), then the LDP
//! interior-point method, then, where one LP is quick, one LP. Each step runs only when the
//! ones before did not close the gap by the report's default tolerance; the kept channel is
//! the one whose certified objective is best, with the tightest of the rigorous bounds found
//! on the way (each bounds the same optimum).

use super::certification::certify;
use super::{GapTolerance, SolveError};
use crate::channel::Channel;
use crate::objective::Goal;
use crate::privacy::PrivacyNotion;
use crate::problem::Problem;
use crate::synthesis::{solve_by_decomposition, solve_ldp_interior, solve_linear, Outcome, Run};

use crate::policy::AUTO_DECOMPOSITION_ROUNDS;
use crate::policy::LP_FALLBACK_INPUTS;

/// The outcome, its encoding notes and its certified objective (`None` without a channel).
struct Candidate {
    outcome: Outcome,
    encoding: Vec<String>,
    certified: Option<f64>,
}

/// Solve by the sequence in the module docs; `None` when the decomposition does not apply.
pub(super) fn solve_ldp_auto(
    problem: &Problem,
    coefficients: &[Vec<f64>],
    epsilon: f64,
    run: &Run,
) -> Result<Option<(Outcome, Vec<String>)>, SolveError> {
    let goal = problem.objective.goal();
    let all: Vec<&dyn PrivacyNotion> = problem.privacy.iter().map(|p| p.as_ref()).collect();
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
    let mut best = candidate(problem, first, vec!["ldp: column cone for pricing".into()]);
    if closed(&best, goal) || run.expired() {
        return Ok(Some((best.outcome, best.encoding)));
    }
    let mut interior = solve_ldp_interior(epsilon, coefficients, goal, run);
    interior.notes.insert(
        0,
        format!(
            "the decomposition over outputs did not close its gap in its first round ({}), so the LDP interior-point method took over",
            describe(&best.outcome)
        ),
    );
    let envelope = vec!["ldp: envelope form, e^-eps m_y <= Q[x][y] <= m_y".to_string()];
    best = keep_better(goal, candidate(problem, interior, envelope), best);
    let n = coefficients.len();
    if !closed(&best, goal) && !run.expired() && n <= LP_FALLBACK_INPUTS {
        let (mut linear, lp_encoding) = solve_linear(&problem.privacy, coefficients, goal, run)?;
        linear.notes.insert(
            0,
            format!(
                "the LDP interior-point method did not close the gap ({}), so one LP over the channel took over",
                describe(&best.outcome)
            ),
        );
        best = keep_better(goal, candidate(problem, linear, lp_encoding), best);
    }
    Ok(Some((best.outcome, best.encoding)))
}

/// The outcome with the objective of its certified channel (certification is repeated on
/// the kept one; under LDP it is a pass over the columns).
fn candidate(problem: &Problem, outcome: Outcome, encoding: Vec<String>) -> Candidate {
    let certified = outcome.rows.as_ref().and_then(|rows| {
        let (channel, correction) = Channel::from_solver_point(rows.clone());
        certify(problem, channel, correction)
            .ok()
            .map(|(c, _)| problem.objective.evaluate(&c))
    });
    Candidate {
        outcome,
        encoding,
        certified,
    }
}

/// Whether the certified objective is within the report's default tolerance of the bound.
fn closed(c: &Candidate, goal: Goal) -> bool {
    let (Some(value), Some(bound)) = (c.certified, c.outcome.bound) else {
        return false;
    };
    let gap = match goal {
        Goal::Minimize => value - bound,
        Goal::Maximize => bound - value,
    };
    gap <= GapTolerance::DEFAULT.allowed(value, bound)
}

/// The candidate with the better certified objective (`later` on a tie); it gets the tighter
/// of the two bounds.
fn keep_better(goal: Goal, later: Candidate, earlier: Candidate) -> Candidate {
    let better = |a: f64, b: f64| match goal {
        Goal::Minimize => a < b,
        Goal::Maximize => a > b,
    };
    let later_wins = match (later.certified, earlier.certified) {
        (Some(l), Some(e)) => !better(e, l),
        (Some(_), None) => true,
        (None, _) => false,
    };
    let (mut kept, other) = if later_wins {
        (later, earlier)
    } else {
        let mut kept = earlier;
        kept.outcome.notes.push(format!(
            "the {} method that took over ended with a worse certified channel ({}, {}); this channel is kept",
            later.outcome.method,
            later.outcome.status,
            later
                .certified
                .map_or("none".to_string(), |v| format!("{v:.9e}"))
        ));
        (kept, later)
    };
    if let Some(b) = other.outcome.bound {
        let tighter = match (kept.outcome.bound, goal) {
            (None, _) => true,
            (Some(k), Goal::Minimize) => b > k,
            (Some(k), Goal::Maximize) => b < k,
        };
        if tighter {
            kept.outcome.bound = Some(b);
            kept.outcome.notes.push(format!(
                "bound from the {} method ({b:.9e}), tighter than this method's own",
                other.outcome.method
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
