//! Certification of a method's point: tie forced-equal rows, check every requested bound with
//! outward rounding, and repair by mixing with a constant row when one is exceeded (after
//! tying rows that are equal up to the solver's accuracy, when that is cheaper).

use super::near_ties::{near_equal_groups, NEAR_EQUAL_ROWS, NEAR_TIE_MAX_INPUTS};
use super::SolveError;
use crate::certify::{
    average_groups, check_all, repair_by_mixing, repair_directly, repair_with_margins, tie_groups,
    Certificate, Repair,
};
use crate::channel::Channel;
use crate::objective::Goal;
use crate::problem::Problem;

/// A direct repair whose cost is at most this relative to the objective is kept without
/// searching the other targets (a thousandth of the default gap tolerance, 1e-6).
const CHEAP_REPAIR: f64 = 1e-9;
/// Nudges of the direct weight tried, kept only when cheap, before a search (relative: 1 doubles
/// the weight; on a 20 x 20 grid a repair of weight 1e-13 certified at none of the fine
/// nudges, and the two searches took 6 s).
const COARSE_MARGINS: [f64; 4] = [1e-2, 1.0, 10.0, 1e3];

/// Tie the rows the constraints force equal, check every requested bound on `channel`, and
/// repair by mixing with a constant row when one is still exceeded; fail when no mixture
/// certifies.
pub(super) fn certify(
    problem: &Problem,
    channel: Channel,
    correction: f64,
) -> Result<(Channel, Certificate), SolveError> {
    let groups = tie_groups(problem.privacy.iter().map(|p| p.as_ref()), channel.inputs());
    let channel = if groups.is_empty() {
        channel
    } else {
        average_groups(&channel, &groups, problem.domain.prior())
    };
    let checks = check_all(&problem.privacy, &channel);
    if checks.iter().all(|c| c.holds()) {
        let certificate = Certificate {
            checks,
            all_hold: true,
            cleanup_correction: correction,
            tied_rows: groups,
            repair: None,
        };
        return Ok((channel, certificate));
    }
    let sign = match problem.objective.goal() {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let cost = |c: &Channel| sign * problem.objective.evaluate(c);
    let mut best = repair(problem, &channel).map(|(w, c)| (w, c, groups.clone()));
    // Rows equal up to the solver's accuracy (the binding pair near identifiability's
    // threshold) are tied when that certifies at a lower cost than mixing alone.
    let is_cheap_at = |c: &Channel| {
        let before = cost(&channel);
        cost(c) - before <= CHEAP_REPAIR * before.abs().max(f64::MIN_POSITIVE)
    };
    if channel.inputs() <= NEAR_TIE_MAX_INPUTS && !best.as_ref().is_some_and(|b| is_cheap_at(&b.1))
    {
        let mut tried: Vec<Vec<Vec<usize>>> = vec![groups.clone()];
        for threshold in NEAR_EQUAL_ROWS {
            let near = near_equal_groups(&channel, threshold);
            if tried.contains(&near) {
                continue;
            }
            let tied = average_groups(&channel, &near, problem.domain.prior());
            let found = if check_all(&problem.privacy, &tied).iter().all(|c| c.holds()) {
                Some((0.0, tied))
            } else {
                repair(problem, &tied)
            };
            if let Some((w, c)) = found {
                if best.as_ref().is_none_or(|b| cost(&c) < cost(&b.1)) {
                    best = Some((w, c, near.clone()));
                }
            }
            tried.push(near);
        }
    }
    let Some((weight, repaired, groups)) = best else {
        let worst = checks
            .into_iter()
            .find(|c| !c.holds())
            .expect("some check fails");
        return Err(SolveError::CertificationFailed {
            constraint: worst.constraint,
            requested: worst.requested,
            achieved: worst.achieved,
        });
    };
    let repair = Repair {
        weight,
        objective_before: problem.objective.evaluate(&channel),
        objective_after: problem.objective.evaluate(&repaired),
    };
    let checks = check_all(&problem.privacy, &repaired);
    let all_hold = checks.iter().all(|c| c.holds());
    debug_assert!(all_hold, "repair_by_mixing returns a certified channel");
    let certificate = Certificate {
        checks,
        all_hold,
        cleanup_correction: correction,
        tied_rows: groups,
        repair: Some(repair),
    };
    Ok((repaired, certificate))
}

/// The cheapest certified mixture of `channel` with a constant channel, with its weight.
/// Candidate constant rows: the output distribution (keeps unused outputs unused) and the
/// uniform distribution (cheapest when a near-empty column carries the violation). The direct
/// repairs first (a few leakage scans each), then coarser nudges of the direct weight, kept
/// only when cheap; the searches, dozens of scans per target (a minute on a 30 x 30 grid),
/// only for targets without a direct repair, and only when no direct repair costs at most
/// CHEAP_REPAIR of the objective.
fn repair(problem: &Problem, channel: &Channel) -> Option<(f64, Channel)> {
    let m = channel.outputs();
    let targets = [
        channel.output_marginal(problem.domain.prior()),
        vec![1.0 / m as f64; m],
    ];
    let sign = match problem.objective.goal() {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let cost = |c: &Channel| sign * problem.objective.evaluate(c);
    let before = cost(channel);
    let is_cheap =
        |c: &Channel| cost(c) - before <= CHEAP_REPAIR * before.abs().max(f64::MIN_POSITIVE);
    // A cheap direct repair toward the first target ends the search (on a 30 x 30 grid each
    // direct repair costs a few leakage scans of a second or two).
    let mut direct: Vec<Option<(f64, Channel)>> = Vec::new();
    for t in &targets {
        let found = repair_directly(&problem.privacy, channel, t);
        let done = found.as_ref().is_some_and(|(_, c)| is_cheap(c));
        direct.push(found);
        if done {
            break;
        }
    }
    if !direct.iter().flatten().any(|(_, c)| is_cheap(c)) {
        for (slot, t) in direct.iter_mut().zip(&targets) {
            if slot.is_none() {
                *slot = repair_with_margins(&problem.privacy, channel, t, &COARSE_MARGINS)
                    .filter(|(_, c)| is_cheap(c));
            }
        }
    }
    let cheap = direct.iter().flatten().any(|(_, c)| is_cheap(c));
    targets
        .iter()
        .zip(direct)
        .filter_map(|(t, d)| match d {
            Some(found) => Some(found),
            None if !cheap => repair_by_mixing(&problem.privacy, channel, t),
            None => None,
        })
        .min_by(|a, b| cost(&a.1).total_cmp(&cost(&b.1)))
}
