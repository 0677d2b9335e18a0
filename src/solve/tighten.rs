//! A second solve with identifiability's epsilon tightened, when the certified gap of the
//! first stays open.
//!
//! Just above identifiability's threshold `ln(max p / min p)` every feasible channel has a
//! slack of about `eps - ln(max p / min p)` nats on the pair of the most and least likely
//! inputs, so a backend's point that violates that pair by its accuracy (1e-11 nats) is
//! repaired by mixing at a weight of up to 1e-5 of the distance to a constant channel: a
//! certified gap of 1e-6 where the tolerance allows 1e-7. Solving again at `eps - tau` gives a
//! point with `tau` nats of slack on every ratio, which certifies against the requested
//! epsilon at almost no repair, for a cost of about `tau` times the optimum's slope in eps.
//! The channel kept is certified against the problem as requested and its gap measured to the
//! first solve's rigorous bound, so nothing about the status changes meaning.

use super::certification::certify;
use super::dispatch::formulate_and_solve;
use super::{GapTolerance, MethodChoice};
use crate::certify::Certificate;
use crate::channel::Channel;
use crate::objective::Goal;
use crate::privacy::PrivacySpec;
use crate::problem::Problem;
use crate::synthesis::Run;

/// Tightenings of identifiability's epsilon tried in turn (nats), each far above a backend's
/// accuracy and far below the gap tolerance's relative 1e-6 for slopes of order 1.
pub(super) const TIGHTENINGS: [f64; 3] = [1e-8, 1e-7, 1e-6];

/// Columns of the backend's point whose entries are all at most this are unused outputs
/// rendered with noise (the backend's accuracy is 1e-10 at the default tolerance).
const EMPTY_COLUMN: f64 = 1e-9;

/// Above this many inputs no second solve is made.
pub(super) const TIGHTEN_MAX_INPUTS: usize = 60;

/// The problem with every identifiability epsilon lowered by `tau` (kept when that would make
/// it negative); `None` when there is none to lower or the problem does not rebuild.
fn tightened(problem: &Problem, tau: f64) -> Option<Problem> {
    let mut spec = problem.spec.clone();
    let mut changed = false;
    for p in &mut spec.privacy {
        if let PrivacySpec::Identifiability { epsilon } = p {
            if *epsilon > tau {
                *epsilon -= tau;
                changed = true;
            }
        }
    }
    changed.then(|| Problem::from_spec(spec).ok()).flatten()
}

/// A certified channel from a solve at tightened epsilons whose objective is within
/// `tolerance` of `bound`, or the best improvement on `objective` found; `None` when none
/// improves on it. Tried only for linear objectives under an identifiability constraint on at
/// most [`TIGHTEN_MAX_INPUTS`] inputs, while time remains.
pub(super) fn retry_tightened(
    problem: &Problem,
    run: &Run,
    objective: f64,
    bound: f64,
    tolerance: GapTolerance,
) -> Option<(Channel, Certificate, f64, String)> {
    let applies = problem.domain.size() <= TIGHTEN_MAX_INPUTS
        && problem.objective.linear_coefficients().is_some()
        && problem
            .spec
            .privacy
            .iter()
            .any(|p| matches!(p, PrivacySpec::Identifiability { .. }));
    if !applies {
        return None;
    }
    let worse = |v: f64| match problem.objective.goal() {
        Goal::Minimize => v - bound,
        Goal::Maximize => bound - v,
    };
    let mut best: Option<(Channel, Certificate, f64, String)> = None;
    let mut best_gap = worse(objective);
    for tau in TIGHTENINGS {
        if run.expired() {
            break;
        }
        let Some(tight) = tightened(problem, tau) else {
            continue;
        };
        let Ok((outcome, _, _)) = formulate_and_solve(&tight, MethodChoice::Auto, run) else {
            continue;
        };
        let Some(rows) = outcome.rows else {
            continue;
        };
        for rows in [without_empty_columns(&rows), rows] {
            let (channel, correction) = Channel::from_solver_point(rows);
            let Ok((channel, certificate)) = certify(problem, channel, correction) else {
                continue;
            };
            let value = problem.objective.evaluate(&channel);
            let gap = worse(value);
            if !value.is_finite() || gap >= best_gap {
                continue;
            }
            best_gap = gap;
            let note = format!(
                "the first point certified {:e} from the bound; the channel is from a second solve with identifiability's epsilon lowered by {tau:e} nats, certified against the requested epsilon",
                worse(objective)
            );
            best = Some((channel, certificate, value, note));
        }
        if best
            .as_ref()
            .is_some_and(|b| best_gap <= tolerance.allowed(b.2, bound))
        {
            break;
        }
    }
    best
}

/// The rows with every column whose entries are all at most [`EMPTY_COLUMN`] set to 0 (the
/// rows are renormalized when the point becomes a channel). Such a column is the backend's
/// rendering of an unused output; under identifiability a column is either empty or positive
/// in every row, and the noise in it would otherwise carry ratio violations of order 1 that
/// only a heavy repair removes.
fn without_empty_columns(rows: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let m = rows.first().map_or(0, Vec::len);
    let empty: Vec<bool> = (0..m)
        .map(|y| rows.iter().all(|r| r[y].abs() <= EMPTY_COLUMN))
        .collect();
    rows.iter()
        .map(|r| {
            r.iter()
                .zip(&empty)
                .map(|(&q, &e)| if e { 0.0 } else { q })
                .collect()
        })
        .collect()
}
