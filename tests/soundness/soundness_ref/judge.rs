//! Judgement of one answer: the emitted channel against the definitions, and mechsynth's
//! values against a reference channel's achievable value.

use super::tally::Tally;
use super::{privacy, utility, Case};
use mechsynth::solve::GapTolerance;
use mechsynth::Report;

/// Nats by which a reported leakage may fall short of the recomputed one (float rounding in
/// the logarithms), relative to `max(1, leakage)`.
const LEAKAGE_TOLERANCE: f64 = 1e-9;
/// Relative tolerance between mechsynth's objective and the test's evaluation of its channel.
const EVALUATION_RELATIVE_TOLERANCE: f64 = 1e-9;
/// Absolute tolerance of that comparison.
const EVALUATION_ABSOLUTE_TOLERANCE: f64 = 1e-12;
/// Float rounding allowed between a rigorous bound and the emitted channel's own objective
/// (relative to `1 + |objective|`); beyond it the case is counted and shown.
const SELF_BOUND_TOLERANCE: f64 = 1e-12;
/// A bound beyond the emitted channel's own objective, or beyond a reference channel's value,
/// by more than this (relative to `1 + |value|`) fails the suite; smaller excesses are counted
/// and shown.
const SELF_BOUND_FAILURE: f64 = 1e-9;
/// Float rounding allowed against the value of a reference channel that is feasible to
/// rounding (relative to `1 + |value|`); a bound beyond it is counted and shown.
const ACHIEVABLE_TOLERANCE: f64 = 1e-12;

/// How much better than `reference` the value `v` is, in the problem's sense.
pub fn better_by(v: f64, reference: f64, maximize: bool) -> f64 {
    if maximize {
        v - reference
    } else {
        reference - v
    }
}

/// The emitted channel `q`: a channel, private under every constraint, its leakage never
/// understated, its objective as reported, and no bound beyond its own value.
pub fn channel(case: &Case, report: &Report, q: &[Vec<f64>], t: &mut Tally) {
    let maximize = case.utility.maximize();
    t.certified += 1;
    if let Some(why) = privacy::not_a_channel(q) {
        t.fail("privacy", case, format!("not a channel: {why}"));
    }
    // The reported leakage is never below the leakage recomputed here.
    for (key, mine) in privacy::leakage_profile(q, &case.prior, case.distances.as_deref()) {
        let Some(&shown) = report.leakage.get(key) else {
            t.fail(
                "leakage",
                case,
                format!("no `{key}` in the reported leakage"),
            );
            continue;
        };
        let understated = if mine.is_infinite() {
            shown != f64::INFINITY
        } else {
            mine > shown + LEAKAGE_TOLERANCE * mine.abs().max(1.0)
        };
        if understated {
            t.fail(
                "leakage",
                case,
                format!("reported {key} leakage {shown}, recomputed {mine}"),
            );
        }
    }
    for (c, label) in case.constraints.iter().zip(&case.notion_labels) {
        if let Some(why) = privacy::violation(c, q, &case.prior) {
            t.fail("privacy", case, format!("{label} violated: {why}"));
        }
    }
    if let Some(v) = report.objective.filter(|v| v.is_finite()) {
        if let Some(mine) = utility::evaluate(&case.utility, &case.prior, q) {
            let tol = EVALUATION_ABSOLUTE_TOLERANCE + EVALUATION_RELATIVE_TOLERANCE * mine.abs();
            if (mine - v).abs() > tol {
                t.fail(
                    "objective",
                    case,
                    format!("reported objective {v}, channel evaluates to {mine}"),
                );
            }
        }
        if let Some(b) = report.bound {
            let excess = better_by(v, b, maximize) / (1.0 + v.abs());
            let text = format!("bound {b} is beyond the emitted channel's objective {v}");
            if excess > SELF_BOUND_FAILURE {
                t.fail("bound", case, text);
            } else if excess > SELF_BOUND_TOLERANCE {
                t.bound_rounding(case, text);
            }
        }
    }
}

/// Rigorous checks against a value `a` that a channel meeting every constraint to rounding
/// attains: no bound is beyond it, and an `optimal` objective is within the gap of it.
pub fn achievable(case: &Case, report: &Report, a: f64, t: &mut Tally) {
    let maximize = case.utility.maximize();
    let tol = ACHIEVABLE_TOLERANCE * (1.0 + a.abs());
    if let Some(b) = report.bound {
        let excess = better_by(b, a, maximize) / -(1.0 + a.abs());
        let text = format!("bound {b} is beyond the value {a} of a feasible channel");
        if excess > SELF_BOUND_FAILURE {
            t.fail("bound", case, text);
        } else if excess > ACHIEVABLE_TOLERANCE {
            t.bound_rounding(case, text);
        }
    }
    if let (true, Some(v)) = (report.status.is_optimal(), report.objective) {
        if -better_by(v, a, maximize) > GapTolerance::DEFAULT.allowed(v, a) + tol {
            t.fail(
                "optimal",
                case,
                format!("reported optimal at {v}, but a feasible channel attains {a}"),
            );
        }
    }
}
