//! A bracket on the exact optimum when d-privacy is encoded over a spanner.
//!
//! The spanner encoding (`approximate = { spanner = t }`) restricts the exact problem, so its
//! certified channel is eps-d-private and its objective `U` is achievable by the exact problem;
//! its status `optimal` and its bound hold for the restricted problem only. Keeping only the
//! spanner's edges at the full `eps` (instead of `eps / t`) instead relaxes the exact problem:
//! every eps-d-private channel meets those constraints. The rigorous bound `L` of that
//! relaxation (same size as the spanner LP) therefore bounds the exact optimum, which lies in
//! `[L, U]` when minimizing (`[U, L]` when maximizing). `solve` reports `L` as its bound in
//! that case (see `solve/approximate.rs`).

use crate::privacy::{ContextLdp, PrivacyNotion, PrivacySpec, SpannerEncoding};
use crate::problem::Problem;

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
    // The spec no longer asks for a spanner: this program is the relaxation itself.
    let mut spec = problem.spec.clone();
    for p in &mut spec.privacy {
        if let PrivacySpec::DPrivacy { approximate, .. } = p {
            *approximate = None;
        }
    }
    Ok(Problem {
        spec,
        objective: problem.spec.objective.resolve(&domain)?,
        domain,
        privacy,
        warnings,
    })
}
