//! A bound on the exact problem when d-privacy is encoded over a spanner
//! (`approximate = { spanner = t }`).
//!
//! The spanner program is a restriction of the exact one: its certified channel is
//! eps-d-private, but its bound holds for the restricted problem only. Keeping the spanner's
//! edges at the full eps instead relaxes the exact problem (every eps-d-private channel meets
//! them), so that program's rigorous bound bounds the exact optimum (see
//! [`super::bracket::spanner_relaxation`]). The report then compares the channel with that bound.

use super::{solve, SolveError, SolveOptions};
use crate::problem::Problem;
use std::time::Instant;

/// The rigorous bound on the exact problem's optimum, with notes on what was done; `None` when
/// no time is left or the relaxation gives no bound.
pub(super) fn exact_problem_bound(
    problem: &Problem,
    options: &SolveOptions,
    start: Instant,
    restricted_bound: Option<f64>,
    notes: &mut Vec<String>,
) -> Result<Option<f64>, SolveError> {
    if let Some(b) = restricted_bound {
        notes.push(format!(
            "the spanner-restricted problem's own bound is {b} (not a bound on exact eps-d-privacy)"
        ));
    }
    let left = options.backend_options.time_limit_seconds - start.elapsed().as_secs_f64();
    if left <= 0.0 {
        notes.push(
            "no bound on exact eps-d-privacy: the time limit was used up by the spanner program"
                .into(),
        );
        return Ok(None);
    }
    let relaxed = super::bracket::spanner_relaxation(problem)
        .map_err(|e| SolveError::MethodNotApplicable(e.to_string()))?;
    if let Some(p) = &options.progress {
        p("bounding exact eps-d-privacy: solving the relaxation with the spanner's edges at eps");
    }
    let mut relaxed_options = options.clone();
    relaxed_options.backend_options.time_limit_seconds = left;
    let bound = solve(&relaxed, &relaxed_options)?.bound;
    notes.push(match bound {
        Some(_) => "bound: on exact eps-d-privacy (every pair at eps), from the relaxation that keeps only the spanner's edges at eps; the gap is what the approximation may cost".into(),
        None => "no bound on exact eps-d-privacy (the relaxation gave none)".into(),
    });
    Ok(bound)
}
