//! A bracket on the exact optimum when d-privacy is encoded over a spanner.
//!
//! The spanner encoding (`approximate = { spanner = t }`) restricts the exact problem, so its
//! certified channel is eps-d-private and its objective `U` is achievable by the exact problem;
//! its status `optimal` and its bound hold for the restricted problem only. Keeping only the
//! spanner's edges at the full `eps` (instead of `eps / t`) instead relaxes the exact problem:
//! every eps-d-private channel meets those constraints. The rigorous bound `L` of that
//! relaxation (same size as the spanner LP) therefore bounds the exact optimum, which lies in
//! `[L, U]` when minimizing (`[U, L]` when maximizing).

use super::GeoError;
use crate::objective::Goal;
use crate::privacy::{ContextLdp, PrivacyNotion, PrivacySpec, SpannerEncoding};
use crate::problem::Problem;
use crate::report::Report;
use crate::solve::{solve, SolveOptions};
use serde::Serialize;

/// Where the exact (all-pairs) problem's optimum lies.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ExactBracket {
    /// The approximate channel's objective: achieved by an eps-d-private channel.
    pub achieved: f64,
    /// The relaxation's rigorous bound on the exact optimum.
    pub bound: f64,
    /// How far the exact optimum can be from `achieved`: `achieved - bound` when minimizing,
    /// `bound - achieved` when maximizing.
    pub gap: f64,
}

impl ExactBracket {
    /// A one-line note for the report.
    pub fn note(&self) -> String {
        format!(
            "exact eps-d-privacy (every pair at eps): this channel's objective {} is achievable and the optimum is within {:.6e} of it (rigorous bound {} from the relaxation that keeps only the spanner's edges at eps); `optimal` above refers to the spanner-restricted problem",
            self.achieved, self.gap, self.bound
        )
    }
}

/// Whether any d-privacy entry of `problem` uses the spanner encoding.
pub fn uses_spanner(problem: &Problem) -> bool {
    problem.spec.privacy.iter().any(|p| {
        matches!(
            p,
            PrivacySpec::DPrivacy {
                approximate: Some(_),
                ..
            }
        )
    })
}

/// The relaxation described in the module docs: every spanner-encoded d-privacy entry becomes
/// its spanner's edges at the full epsilon; other entries stay as they are.
pub fn spanner_relaxation(problem: &Problem) -> Result<Problem, crate::ProblemError> {
    let domain = problem.domain.clone();
    let mut warnings = Vec::new();
    let mut privacy: Vec<Box<dyn PrivacyNotion>> = Vec::new();
    for (i, spec) in problem.spec.privacy.iter().enumerate() {
        let key = format!("privacy[{i}]");
        match spec {
            PrivacySpec::DPrivacy {
                epsilon,
                metric,
                approximate: Some(a),
            } => {
                let d = metric.distances(&format!("{key}.metric"), &domain, &mut warnings)?;
                let unit = SpannerEncoding::new(&d, a.spanner).edge_distances;
                privacy.push(Box::new(ContextLdp {
                    epsilon: *epsilon,
                    checked: crate::privacy::checked_pairs(&unit, unit.len()),
                    unit,
                    name: "d-privacy (spanner edges at eps, a relaxation)",
                }));
            }
            other => privacy.push(other.resolve(&key, &domain, &mut warnings)?),
        }
    }
    Ok(Problem {
        spec: problem.spec.clone(),
        objective: problem.spec.objective.resolve(&domain)?,
        domain,
        privacy,
        warnings,
    })
}

/// Solve the relaxation and bracket the exact optimum around `report`'s objective; `None` when
/// no entry uses a spanner, the report has no objective, or the relaxation gives no bound.
pub fn exact_bracket(
    problem: &Problem,
    report: &Report,
    options: &SolveOptions,
) -> Result<Option<ExactBracket>, GeoError> {
    let Some(achieved) = report.objective else {
        return Ok(None);
    };
    if !uses_spanner(problem) {
        return Ok(None);
    }
    let relaxed = spanner_relaxation(problem)?;
    let Some(bound) = solve(&relaxed, options)?.bound else {
        return Ok(None);
    };
    let gap = match problem.objective.goal() {
        Goal::Minimize => achieved - bound,
        Goal::Maximize => bound - achieved,
    };
    Ok(Some(ExactBracket {
        achieved,
        bound,
        gap,
    }))
}
