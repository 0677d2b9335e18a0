//! The result of `solve`, serializable to JSON and renderable as a table.

use crate::certify::Certificate;
use crate::channel::Channel;
use crate::objective::Goal;
use crate::problem::ProblemSpec;
use crate::synthesis::{Method, Status};
use serde::Serialize;
use std::collections::BTreeMap;

mod gap;

pub use crate::float_serde::{serialize_number, serialize_number_map};
pub use gap::GapTolerance;

/// A method `solve` considered for the problem and what came of it (`solve --explain`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Consideration {
    /// The method, as `--method` names it.
    pub method: String,
    /// What came of it: its result kept, tried and passed over (and why), or not run (and why).
    pub verdict: String,
}

/// Which backend ran and what it said.
#[derive(Debug, Clone, Serialize)]
pub struct SolverInfo {
    /// Backend name, or "none" when the method solves no program.
    pub name: &'static str,
    /// What the method proved.
    pub status: Status,
    /// Iterations used (local method: starts).
    pub iterations: u64,
    /// The backend's objective value for its own (uncertified) point, in the problem's sense
    /// (single-program methods only).
    pub objective: Option<f64>,
}

/// Wall-clock time of each phase, in milliseconds.
#[derive(Debug, Clone, Serialize)]
pub struct Timings {
    /// Formulating and solving (ray enumeration, every backend call).
    pub solve_ms: f64,
    /// Certification and repair.
    pub certify_ms: f64,
    /// The leakage profile (the channel's leakage under every notion that applies).
    pub leakage_profile_ms: f64,
    /// The objective profile (every objective that applies, with its accuracy check).
    pub objective_profile_ms: f64,
    /// Everything.
    pub total_ms: f64,
}

/// The distance between the emitted channel's objective and the rigorous bound.
#[derive(Debug, Clone, Serialize)]
pub struct GapReport {
    /// The emitted channel's objective.
    pub objective: f64,
    /// The rigorous bound on the optimum.
    pub bound: f64,
    /// How much worse than the bound the objective is (`objective - bound` when minimizing,
    /// `bound - objective` when maximizing); the optimum lies within this of the objective.
    pub absolute: f64,
    /// `absolute / max(|objective|, |bound|, floor)` with `floor` the tolerance's
    /// [`GapTolerance::relative_floor`] (the magnitude below which the absolute
    /// tolerance decides), so a gap of 1e-12 between an objective of 1e-12 and a bound of 0 is
    /// tiny, not 100%; 0 when that denominator is 0.
    pub relative: f64,
    /// The tolerance that decides `closed`.
    pub tolerance: GapTolerance,
    /// Whether `absolute` is within the tolerance (then the status is `optimal`).
    pub closed: bool,
}

impl GapReport {
    /// The gap between `objective` and `bound` for `goal`, judged by `tolerance`.
    pub fn new(objective: f64, bound: f64, goal: Goal, tolerance: GapTolerance) -> Self {
        let absolute = match goal {
            Goal::Minimize => objective - bound,
            Goal::Maximize => bound - objective,
        };
        let scale = objective
            .abs()
            .max(bound.abs())
            .max(tolerance.relative_floor());
        let relative = if scale > 0.0 { absolute / scale } else { 0.0 };
        let closed = absolute.is_finite() && absolute <= tolerance.allowed(objective, bound);
        GapReport {
            objective,
            bound,
            absolute,
            relative,
            tolerance,
            closed,
        }
    }
}

/// Comparison with the problem file's `[expected]` optimum.
#[derive(Debug, Clone, Serialize)]
pub struct ExpectedCheck {
    /// The expected optimum.
    pub objective: f64,
    /// The accepted absolute difference.
    pub tolerance: f64,
    /// Whether the emitted channel's objective is within tolerance of it.
    pub matches: bool,
    /// Where the value comes from.
    pub source: Option<String>,
}

/// Everything `solve` found.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The problem's title.
    pub name: String,
    /// `optimal`: a certified channel within the stated gap of a rigorous bound; `feasible`:
    /// a certified channel without that proof; `local-optimum`: the local method's certified
    /// channel; otherwise (no channel) the backend's status.
    pub status: Status,
    /// How the channel was found.
    pub method: Method,
    /// Objective value of the emitted channel.
    pub objective: Option<f64>,
    /// A rigorous bound on the optimal objective (lower when minimizing, upper when
    /// maximizing): from the LP's or conic program's duals with directed rounding, the dual
    /// bound of the extreme-ray LP or column generation, or a relaxation's. Absent when none
    /// is known.
    pub bound: Option<f64>,
    /// The gap between `objective` and `bound`, when both exist.
    pub gap: Option<GapReport>,
    /// What the objective measures.
    pub objective_description: String,
    /// Minimize or maximize.
    pub goal: Goal,
    /// The emitted channel (rows = inputs, columns = outputs); absent when there is none.
    pub channel: Option<Channel>,
    /// Input labels.
    pub labels: Vec<String>,
    /// Output labels: the input symbols when the objective makes output `y` an estimate of
    /// input `y` (expected loss, co-location) and the channel is square, otherwise
    /// `y0, y1, ...`.
    pub output_labels: Vec<String>,
    /// Leakage of the emitted channel under every notion that applies to the domain.
    #[serde(serialize_with = "serialize_number_map")]
    pub leakage: BTreeMap<String, f64>,
    /// Every objective that applies, evaluated for the emitted channel.
    pub objectives: BTreeMap<String, f64>,
    /// What the two profiles left out (at `solve --profile auto`, their O(n^3) entries on a
    /// large channel; everything at `--profile none`) and how to get it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub profile_notes: Vec<String>,
    /// Requested versus achieved, per constraint.
    pub certificate: Option<Certificate>,
    /// The backend's run.
    pub solver: SolverInfo,
    /// How each constraint was encoded (or, for ray methods, which constraints apply).
    pub encoding: Vec<String>,
    /// What the method did (ray counts, rounds, starts).
    pub method_notes: Vec<String>,
    /// The methods considered in order, and why each was kept, passed over or not run.
    pub methods_considered: Vec<Consideration>,
    /// The rounds of an iterative method (decomposition rounds, LDP interior-point iterations):
    /// objective, bound and gap per round.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<crate::synthesis::RoundTrace>,
    /// Phase timings.
    pub timings: Timings,
    /// Non-fatal findings.
    pub warnings: Vec<String>,
    /// Comparison with `[expected]`, when the file gives one.
    pub expected: Option<ExpectedCheck>,
    /// The problem as solved (after any `--epsilon` override).
    pub problem: ProblemSpec,
}

mod render;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gap_is_measured_on_the_side_of_the_goal() {
        let tol = GapTolerance::DEFAULT;
        let min = GapReport::new(1.0 + 1e-7, 1.0, Goal::Minimize, tol);
        assert!((min.absolute - 1e-7).abs() < 1e-15 && min.closed);
        let far = GapReport::new(1.01, 1.0, Goal::Minimize, tol);
        assert!(!far.closed && (far.relative - 0.01 / 1.01).abs() < 1e-12);
        let max = GapReport::new(0.5, 0.5 + 2e-6, Goal::Maximize, tol);
        assert!(!max.closed && max.absolute > 0.0);
        // Near 0 the relative gap is measured against the tolerance's floor
        // (1e-9 / 1e-6 = 1e-3), not against the values themselves.
        let tiny = GapReport::new(1e-12, 0.0, Goal::Minimize, tol);
        assert!(tiny.closed && (tiny.relative - 1e-12 / 1e-3).abs() < 1e-20);
        let small = GapReport::new(2e-4, 1e-4, Goal::Minimize, tol);
        assert!(!small.closed && (small.relative - 1e-4 / 1e-3).abs() < 1e-15);
        // A NaN objective never closes the gap.
        assert!(!GapReport::new(f64::NAN, 1.0, Goal::Minimize, tol).closed);
    }
}
