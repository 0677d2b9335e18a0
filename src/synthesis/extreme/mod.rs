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
use super::pricing_histogram::{SeparableUtility, HISTOGRAM_PRICING_MAX_INPUTS};
use super::pricing_search::{more_rays_than, HISTOGRAM_SCAN_LIMIT};
use super::{Method, Outcome, Run};
use crate::objective::ColumnConvex;
use crate::privacy::PrivacyNotion;
use crate::rays::{ColumnCone, RayFamily};
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
    let (rays, family, source) = enumerate_cone(privacy, &cone, n, ENUMERATION_LIMIT, run);
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
