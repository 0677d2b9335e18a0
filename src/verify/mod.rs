//! `verify`: is a published mechanism private under the notion it claims, and optimal for the
//! objective it claims? Every registry entry that applies to a problem is built, checked from
//! its numbers, evaluated, and compared with mechsynth's certified optimum.

mod registry;
mod sweep;
pub mod theorems;

pub use crate::problem::SweepSpec;
pub(crate) use registry::{hadamard_block, mangat_rows, truncated_geometric_rows};
pub use registry::{
    hadamard_blocks_rows, hadamard_high_low_rows, krr, mimo_lip_rows, subset_selection_rows,
    tight_constraints_rows, unary_rows, Candidate, Entry, Setting, REGISTRY,
};
pub use sweep::{sweep, SweepError, SweepReport};

use crate::channel::Channel;
use crate::objective::Goal;
use crate::privacy::Check;
use crate::problem::Problem;
use crate::solve::{solve, SolveError, SolveOptions};
use serde::Serialize;

/// A closed form meets its constraints with equality; outward rounding may then exceed the
/// requested parameter by about this much, which `verify` still counts as feasible.
pub const FEASIBILITY_TOLERANCE: f64 = 1e-9;
/// Objective differences up to this (absolute, plus the same relative) count as equal.
pub const VALUE_TOLERANCE: f64 = 1e-6;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= VALUE_TOLERANCE * (1.0 + a.abs().max(b.abs()))
}

/// The verdict on one registry entry for one problem.
#[derive(Debug, Clone, Serialize)]
pub struct EntryCheck {
    /// Registry name.
    pub name: &'static str,
    /// Paper, theorem or equation.
    pub citation: &'static str,
    /// The mechanism's rows.
    pub channel: Vec<Vec<f64>>,
    /// Whether the rows form a channel (finite, non-negative, rows summing to 1).
    pub valid_channel: bool,
    /// Whether every constraint of the problem holds (up to [`FEASIBILITY_TOLERANCE`]).
    pub feasible: bool,
    /// Requested vs achieved, per constraint (outward rounded).
    pub leakage: Vec<Check>,
    /// The mechanism's objective value (absent when the objective does not apply to its shape).
    pub objective: Option<f64>,
    /// The value the source claims.
    pub claimed_value: Option<f64>,
    /// Whether the objective matches the claimed value.
    pub value_matches: Option<bool>,
    /// Whether the source claims optimality for this objective.
    pub claims_optimal: bool,
    /// mechsynth's certified optimum.
    pub optimum: Option<f64>,
    /// How much worse than the optimum the mechanism is (0 when optimal; in objective units).
    pub gap: Option<f64>,
    /// Whether every claim holds.
    pub claim_holds: bool,
    /// Why a claim fails, one reason per failed claim.
    pub failures: Vec<String>,
    /// What is not checked.
    pub note: Option<&'static str>,
    /// Whether `objective` is after the best remap of the outputs (claims up to post-processing).
    pub remapped: bool,
}

/// Everything `verify FILE` found.
#[derive(Debug, Clone, Serialize)]
pub struct VerifyReport {
    /// The problem's title.
    pub problem: String,
    /// mechsynth's optimum and its status.
    pub optimum: Option<f64>,
    /// Status of that solve.
    pub optimum_status: String,
    /// One check per applicable registry entry.
    pub checks: Vec<EntryCheck>,
    /// Whether every claim holds.
    pub all_hold: bool,
    /// Why no entry applies, when none does.
    pub notes: Vec<String>,
}

/// `sum_x sum_z coef[x][z] (Q W)[x][z]` at the best deterministic remap `W` of the outputs onto
/// the input symbols: each output `y` goes to the `z` that is best for `sum_x coef[x][z] Q[x][y]`.
pub fn best_remap_value(coef: &[Vec<f64>], goal: Goal, channel: &Channel) -> f64 {
    let n = coef.len();
    (0..channel.outputs())
        .map(|y| {
            let score = |z: usize| (0..n).map(|x| coef[x][z] * channel.get(x, y)).sum::<f64>();
            let scores = (0..n).map(score);
            match goal {
                Goal::Minimize => scores.fold(f64::INFINITY, f64::min),
                Goal::Maximize => scores.fold(f64::NEG_INFINITY, f64::max),
            }
        })
        .sum()
}

/// The registry entries that apply to `problem` (it must have exactly one privacy constraint).
pub fn candidates(problem: &Problem) -> Vec<Candidate> {
    let [notion] = problem.spec.privacy.as_slice() else {
        return Vec::new();
    };
    let setting = Setting {
        domain: &problem.domain,
        notion,
        objective: &problem.spec.objective,
    };
    REGISTRY
        .iter()
        .filter_map(|e| (e.build)(&setting))
        .collect()
}

/// Check one candidate against `problem`, given the certified optimum.
pub fn check_candidate(problem: &Problem, c: Candidate, optimum: Option<f64>) -> EntryCheck {
    let mut failures = Vec::new();
    let channel = Channel::new(c.rows.clone());
    let (valid, leakage, objective) = match &channel {
        Ok(ch) => {
            let leakage: Vec<Check> = problem.privacy.iter().flat_map(|p| p.check(ch)).collect();
            let value = match (problem.objective.linear_coefficients(), c.remap) {
                (Some(coef), true) => Some(best_remap_value(coef, problem.objective.goal(), ch)),
                (Some(_), false) if ch.outputs() != ch.inputs() => None,
                _ => Some(problem.objective.evaluate(ch)),
            }
            .filter(|v| v.is_finite());
            (true, leakage, value)
        }
        Err(e) => {
            failures.push(format!("not a channel: {e}"));
            (false, Vec::new(), None)
        }
    };
    let feasible = valid
        && leakage
            .iter()
            .all(|l| l.achieved <= l.requested + FEASIBILITY_TOLERANCE);
    for l in leakage
        .iter()
        .filter(|l| l.achieved > l.requested + FEASIBILITY_TOLERANCE)
    {
        failures.push(format!(
            "violates {}: requested {}, achieved {}",
            l.constraint, l.requested, l.achieved
        ));
    }
    let value_matches = match (c.claimed_value, objective) {
        (Some(claimed), Some(v)) => Some(close(claimed, v)),
        _ => None,
    };
    if value_matches == Some(false) {
        failures.push(format!(
            "claimed value {} but the mechanism's objective is {}",
            c.claimed_value.unwrap(),
            objective.unwrap()
        ));
    }
    let sign = match problem.objective.goal() {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let gap = match (objective, optimum) {
        (Some(v), Some(o)) => Some(sign * (v - o)),
        _ => None,
    };
    if c.claims_optimal {
        match (gap, optimum) {
            (Some(g), Some(o)) if g > VALUE_TOLERANCE * (1.0 + o.abs()) => failures.push(format!(
                "claimed optimal but the certified optimum is {o} (gap {g:e})"
            )),
            (_, None) => {
                failures.push("claimed optimal but no certified optimum is available".into())
            }
            _ => {}
        }
        if let (Some(claimed), Some(o)) = (c.claimed_value, optimum) {
            if sign * (claimed - o) < -VALUE_TOLERANCE * (1.0 + o.abs()) {
                failures.push(format!(
                    "claimed value {claimed} beats the certified optimum {o}, which is impossible"
                ));
            }
        }
    }
    EntryCheck {
        name: c.name,
        citation: c.citation,
        channel: c.rows,
        valid_channel: valid,
        feasible,
        leakage,
        objective,
        claimed_value: c.claimed_value,
        value_matches,
        claims_optimal: c.claims_optimal,
        optimum,
        gap,
        claim_holds: failures.is_empty(),
        failures,
        note: c.note,
        remapped: c.remap,
    }
}

/// Verify every applicable registry entry against `problem`.
pub fn verify(problem: &Problem, options: &SolveOptions) -> Result<VerifyReport, SolveError> {
    let report = solve(problem, options)?;
    let optimum = report
        .status
        .is_optimal()
        .then_some(report.objective)
        .flatten();
    let mut notes = Vec::new();
    if problem.spec.privacy.len() != 1 {
        notes.push("the registry's closed forms each claim a single notion; this problem has several constraints".into());
    }
    let checks: Vec<EntryCheck> = candidates(problem)
        .into_iter()
        .map(|c| check_candidate(problem, c, optimum))
        .collect();
    if checks.is_empty() && notes.is_empty() {
        notes.push("no registry entry applies to this notion, domain and objective".into());
    }
    Ok(VerifyReport {
        problem: problem.name().to_string(),
        optimum,
        optimum_status: report.status.to_string(),
        all_hold: checks.iter().all(|c| c.claim_holds),
        checks,
        notes,
    })
}

impl VerifyReport {
    /// A human-readable rendering.
    pub fn to_table(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "problem    {}", self.problem);
        match self.optimum {
            Some(o) => {
                let _ = writeln!(s, "optimum    {o:.9} (certified, {})", self.optimum_status);
            }
            None => {
                let _ = writeln!(s, "optimum    none ({})", self.optimum_status);
            }
        }
        for c in &self.checks {
            let verdict = if c.claim_holds { "HOLDS" } else { "FAILS" };
            let _ = writeln!(s, "\n{:<22} {verdict}   {}", c.name, c.citation);
            let _ = writeln!(s, "  feasible   {}", if c.feasible { "yes" } else { "no" });
            for l in &c.leakage {
                let _ = writeln!(
                    s,
                    "  {:<24} requested {} achieved {:.9}",
                    l.constraint, l.requested, l.achieved
                );
            }
            if let Some(v) = c.objective {
                let how = if c.remapped {
                    " (after the best remap of its outputs)"
                } else {
                    ""
                };
                let _ = writeln!(s, "  objective  {v:.9}{how}");
            }
            if let Some(v) = c.claimed_value {
                let _ = writeln!(s, "  claimed    {v:.9}");
            }
            if let Some(g) = c.gap {
                let _ = writeln!(
                    s,
                    "  gap        {g:.3e} to the optimum{}",
                    if c.claims_optimal {
                        " (claimed optimal)"
                    } else {
                        ""
                    }
                );
            }
            for f in &c.failures {
                let _ = writeln!(s, "  failure    {f}");
            }
            if let Some(n) = c.note {
                let _ = writeln!(s, "  note       {n}");
            }
        }
        for n in &self.notes {
            let _ = writeln!(s, "\nnote: {n}");
        }
        s
    }
}
