//! The extreme rays of the column cone: the cone of a list of notions, and its rays from a
//! single notion's closed-form family or by double description within a share of the run's
//! time, with the rays snapped onto the groups of inputs the notions tie column by column.

use crate::certify::tie_groups;
use crate::privacy::PrivacyNotion;
use crate::rays::{enumerate_rays_until, ColumnCone, RatioCone, RayFamily};
use crate::synthesis::Run;
use std::time::Instant;

pub use crate::policy::ENUMERATION_LIMIT;
/// Double description gets at most this fraction (1 / share) of the remaining time ...
const ENUMERATION_TIME_SHARE: u32 = 3;
/// ... and at most this many seconds; then the method falls back to a local one.
const ENUMERATION_TIME_CAP_SECONDS: f64 = 60.0;

/// The intersection of every notion's column cone, or `None` when one has none.
pub fn combined_cone(privacy: &[&dyn PrivacyNotion], n: usize) -> Option<ColumnCone> {
    privacy.iter().try_fold(ColumnCone::orthant(n), |cone, p| {
        Some(cone.intersect(p.column_cone(n)?))
    })
}

/// The extreme rays of `cone` (the intersection of `privacy`'s column cones): from the closed
/// form of a single notion's family, or by double description (with progress and the run's
/// deadline). `None` when there are more than `limit` or the time ran out; the
/// family is returned for exact pricing, with the source's name for notes.
pub(crate) fn enumerate_cone(
    privacy: &[&dyn PrivacyNotion],
    cone: &ColumnCone,
    n: usize,
    limit: usize,
    run: &Run,
) -> (Option<Vec<Vec<f64>>>, Option<RayFamily>, &'static str) {
    let family = match privacy {
        [single] => single.ray_family(),
        _ => None,
    };
    match &family {
        Some(fam) => {
            let rays = fam.enumerate(n, limit);
            let name = fam.name();
            (rays, family, name)
        }
        None if RatioCone::from_cone(cone).is_some() => {
            let ratio = RatioCone::from_cone(cone).expect("checked");
            (
                ratio.list(limit, Some(run.deadline())),
                None,
                "vertex search of the log polytope",
            )
        }
        None => {
            let report = |done: usize, total: usize, rays: usize| {
                run.progress(&format!(
                    "double description: {done} of {total} cone rows, {rays} rays so far"
                ))
            };
            // Double description may not finish on large cones (d-privacy grids): it gets a
            // share of the remaining time, and the caller falls back to the local method.
            let remaining = run.deadline().saturating_duration_since(Instant::now());
            let share = (remaining / ENUMERATION_TIME_SHARE).min(
                std::time::Duration::from_secs_f64(ENUMERATION_TIME_CAP_SECONDS),
            );
            let rays = enumerate_rays_until(cone, limit, Some(Instant::now() + share), &report);
            let groups = tie_groups(privacy.iter().copied(), n);
            (
                rays.map(|r| snap_to_ties(r, &groups)),
                None,
                "double description",
            )
        }
    }
}

/// Make the coordinates of each tied group exactly equal in every ray (their average), for the
/// groups that are tied column by column: rows that the notions force equal with a cone row in
/// both directions (eps = 0 under LDP, LIP, bp-lip) have equal entries in every admissible
/// column, and double description computes such rays a few ulps off, so a dual bound priced over
/// them is not rigorous. A tie that only the row sums force (a zero budget in one direction of a
/// privacy matrix) leaves the columns free, and its rays differ visibly in the group: such
/// groups are left alone.
fn snap_to_ties(mut rays: Vec<Vec<f64>>, groups: &[Vec<usize>]) -> Vec<Vec<f64>> {
    for g in groups {
        let column_tied = rays.iter().all(|z| {
            let hi = g.iter().map(|&x| z[x]).fold(f64::NEG_INFINITY, f64::max);
            let lo = g.iter().map(|&x| z[x]).fold(f64::INFINITY, f64::min);
            hi - lo <= TIE_SNAP_TOLERANCE * hi.abs()
        });
        if !column_tied {
            continue;
        }
        for z in &mut rays {
            let mean = g.iter().map(|&x| z[x]).sum::<f64>() / g.len() as f64;
            for &x in g {
                z[x] = mean;
            }
        }
    }
    rays
}

/// Entries of a tied group that differ by at most this, relative, in every ray are rounding
/// error of the double description.
const TIE_SNAP_TOLERANCE: f64 = 1e-9;
