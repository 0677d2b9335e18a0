//! Global optima of column-convex objectives over polyhedral notions: the exact LP over the
//! extreme rays of the column cone, by enumeration when the rays are few enough, otherwise by
//! column generation with exact pricing (MMSE of a sum under LDP or LIP).
//!
//! This module chooses the route and solves the enumerated LP; `enumeration` lists the rays,
//! `column_generation` prices them in, and `certificate` turns a master and its dual bound into
//! the outcome.

mod certificate;
mod column_generation;
mod enumeration;

pub(crate) use certificate::timed_out;
pub use column_generation::CG_GAP_TOLERANCE;
pub(crate) use enumeration::enumerate_cone;
pub use enumeration::{combined_cone, ENUMERATION_LIMIT};

use super::master::{dual_bound, reduced_value, solve_master, Columns};
use super::pricing::histogram::{SeparableUtility, HISTOGRAM_PRICING_MAX_INPUTS};
use super::pricing::search::{more_rays_than, HISTOGRAM_SCAN_LIMIT};
use super::{Method, Outcome, Run};
use crate::objective::ColumnConvex;
use crate::policy::COMPACT_MAX_BYTES;
use crate::privacy::PrivacyNotion;
use crate::rays::{ColumnCone, CompactRays, RatioCone, RayFamily};
use certificate::outcome_from;
use column_generation::{column_generation, Pricer};
use mechsynth_solvers::BackendError;

/// Above this many enumerated rays the master LP is solved by column generation that prices
/// by scanning every ray (a master with all of them is slow and loses accuracy in an interior
/// point method).
const DIRECT_MASTER_LIMIT: usize = 2048;

fn normalized_by(mut z: Vec<f64>, eta: &[f64]) -> Option<Vec<f64>> {
    let s: f64 = z.iter().zip(eta).map(|(a, b)| a * b).sum();
    (s > 0.0).then(|| {
        z.iter_mut().for_each(|v| *v /= s);
        z
    })
}

/// Solve by extreme rays when the notions allow it; `Ok(None)` when they do not (a notion
/// without a column cone, or too many rays and no exact pricing).
pub fn solve_by_rays(
    privacy: &[&dyn PrivacyNotion],
    f: &dyn ColumnConvex,
    n: usize,
    run: &Run,
) -> Result<Option<Outcome>, BackendError> {
    rays_with_list_limit(privacy, f, n, run, ENUMERATION_LIMIT)
}

/// [`solve_by_rays`] with rays listed as floats only up to `list_limit` (beyond it, ratio
/// cones keep tree codes).
fn rays_with_list_limit(
    privacy: &[&dyn PrivacyNotion],
    f: &dyn ColumnConvex,
    n: usize,
    run: &Run,
    list_limit: usize,
) -> Result<Option<Outcome>, BackendError> {
    let Some(cone) = combined_cone(privacy, n) else {
        return Ok(None);
    };
    let many = match privacy {
        [single] => single
            .ray_family()
            .is_some_and(|fam| more_rays_than(&fam, n, HISTOGRAM_SCAN_LIMIT)),
        _ => false,
    };
    if many {
        if let Some(outcome) = solve_histogram_by_pricing(privacy, f, n, run)? {
            return Ok(Some(outcome));
        }
    }
    let (rays, family, source) = enumerate_cone(privacy, &cone, n, list_limit, run);
    if let Some(rays) = rays {
        return enumerated(&cone, f, rays, source, run).map(Some);
    }
    if run.expired() {
        return Ok(Some(timed_out(
            "the time limit passed while enumerating extreme rays",
        )));
    }
    if let Some(outcome) = solve_histogram_by_pricing(privacy, f, n, run)? {
        return Ok(Some(outcome));
    }
    if family.is_none() {
        if let Some(ratio) = RatioCone::from_cone(&cone) {
            let limit = COMPACT_MAX_BYTES / CompactRays::bytes_per_ray(n);
            return match ratio.compact(limit, Some(run.deadline())) {
                Some(store) => {
                    column_generation(&cone, f, &Pricer::Compact(&ratio, &store), run).map(Some)
                }
                None if run.expired() => Ok(Some(timed_out(
                    "the time limit passed while listing extreme rays",
                ))),
                None => Ok(None),
            };
        }
    }
    match (family, f.quadratic_ratio()) {
        (Some(fam), Some((a, p))) => {
            if let RayFamily::LipBox { prior, .. } = &fam {
                if prior.as_slice() != p {
                    return Ok(None);
                }
            }
            let pricer = Pricer::Family { family: &fam, a, p };
            column_generation(&cone, f, &pricer, run).map(Some)
        }
        _ => Ok(None),
    }
}

/// The histogram MMSE under a lone LDP or LIP constraint (with the objective's prior) by
/// column generation with exact branch-and-bound pricing, never listing the rays; `Ok(None)`
/// when the problem is not of that form.
pub fn solve_histogram_by_pricing(
    privacy: &[&dyn PrivacyNotion],
    f: &dyn ColumnConvex,
    n: usize,
    run: &Run,
) -> Result<Option<Outcome>, BackendError> {
    let [single] = privacy else {
        return Ok(None);
    };
    let (utility, p) = match (f.histogram_prior(), f.information_prior()) {
        (Some(p), _) => (SeparableUtility::Histogram, p),
        (None, Some(p)) => (SeparableUtility::Information, p),
        (None, None) => return Ok(None),
    };
    let (Some(family), Some(cone)) = (single.ray_family(), single.column_cone(n)) else {
        return Ok(None);
    };
    let fits = match &family {
        RayFamily::LipBox { prior, .. } => prior.as_slice() == p,
        RayFamily::Staircase { .. } => utility == SeparableUtility::Histogram,
    };
    if !fits || n > HISTOGRAM_PRICING_MAX_INPUTS || p.len() != n || p.iter().any(|&v| v <= 0.0) {
        return Ok(None);
    }
    let pricer = Pricer::Histogram {
        family: &family,
        p,
        utility,
    };
    column_generation(&cone, f, &pricer, run).map(Some)
}
fn enumerated(
    cone: &ColumnCone,
    f: &dyn ColumnConvex,
    rays: Vec<Vec<f64>>,
    source: &str,
    run: &Run,
) -> Result<Outcome, BackendError> {
    let ones = vec![1.0; cone.n];
    let mut columns = Columns::default();
    for z in rays {
        let mut eta = ones.clone();
        eta.resize(z.len(), 0.0);
        if let Some(z) = normalized_by(z, &eta) {
            let value = f.column_value(&z[..cone.n]);
            columns.push(z, value);
        }
    }
    let count = columns.z.len();
    let constant_fits = cone.aux == 0 && cone.contains(&ones, 0.0);
    if count > DIRECT_MASTER_LIMIT && constant_fits {
        let mut outcome = column_generation(cone, f, &Pricer::Scan(&columns), run)?;
        outcome
            .notes
            .insert(0, format!("{count} extreme rays ({source})"));
        return Ok(outcome);
    }
    let master = solve_master(cone, &columns, run.backend, &run.backend_options())?;
    let bound = master.lp.status.has_point().then(|| {
        let delta = (0..count)
            .map(|i| {
                reduced_value(
                    cone,
                    &columns.z[i],
                    columns.value[i],
                    &master.mu,
                    &master.nu,
                    &ones,
                )
            })
            .fold(f64::NEG_INFINITY, f64::max);
        dual_bound(cone, &master.mu, &master.nu, cone.n as f64, delta)
    });
    let notes = vec![format!("{count} extreme rays ({source})")];
    Ok(outcome_from(
        cone,
        f,
        &columns,
        master,
        bound,
        Method::ExtremeRayLp,
        notes,
    ))
}

#[cfg(test)]
mod tests {
    use super::{rays_with_list_limit, ENUMERATION_LIMIT};
    use crate::privacy::PrivacyNotion;
    use crate::problem::{Problem, ProblemSpec};
    use crate::synthesis::Run;
    use mechsynth_solvers::{ClarabelBackend, SolveOptions};
    use std::path::Path;

    /// Both bounds are rigorous and the optima agree to this, relative.
    const SAME_OPTIMUM: f64 = 1e-7;

    fn optimum(text: &str, list_limit: usize) -> (f64, f64, String) {
        let spec = ProblemSpec::from_toml(text, Path::new("test.toml")).expect("valid");
        let problem = Problem::from_spec(spec).expect("valid");
        let f = problem.objective.column_convex().expect("column-convex");
        let privacy: Vec<&dyn PrivacyNotion> = problem.privacy.iter().map(|p| p.as_ref()).collect();
        let run = Run::new(&ClarabelBackend, SolveOptions::default(), None);
        let n = problem.domain.size();
        let outcome = rays_with_list_limit(&privacy, f, n, &run, list_limit)
            .expect("backend")
            .expect("rays");
        let rows = outcome.rows.expect("a channel");
        let value = problem
            .objective
            .evaluate(&crate::channel::Channel::new(rows).expect("a channel"));
        (
            value,
            outcome.bound.expect("a bound"),
            outcome.notes.join("; "),
        )
    }

    /// Column generation over tree codes (forced by a list limit of zero) against the LP over
    /// every listed ray, on small d-privacy grids with a skewed prior.
    #[test]
    fn tree_codes_and_a_float_list_give_the_same_optimum() {
        for kind in ["mmse-histogram", "mutual-information"] {
            let text = format!(
                "[domain]\ngrid = {{ rows = 3, cols = 3 }}\nprior = [0.3, 0.05, 0.1, 0.05, 0.2, 0.1, 0.1, 0.05, 0.05]\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.8\n[objective]\nkind = \"{kind}\"\n"
            );
            let (listed, listed_bound, _) = optimum(&text, ENUMERATION_LIMIT);
            let (coded, coded_bound, notes) = optimum(&text, 0);
            assert!(notes.contains("tree codes"), "{notes}");
            let scale = listed.abs().max(1e-300);
            assert!(
                (listed - coded).abs() <= SAME_OPTIMUM * scale,
                "{kind}: {listed} vs {coded}"
            );
            // The bounds are on the same side of both values (maximizing or minimizing).
            let side = (listed_bound - listed).signum();
            assert!(
                (coded_bound - listed) * side >= -SAME_OPTIMUM * scale,
                "{kind}"
            );
            assert!(
                (listed_bound - coded) * side >= -SAME_OPTIMUM * scale,
                "{kind}"
            );
        }
    }
}
