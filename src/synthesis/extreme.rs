//! Global optima of column-convex objectives over polyhedral notions: the exact LP over the
//! extreme rays of the column cone, by enumeration when the rays are few enough, otherwise by
//! column generation with exact pricing (MMSE of a sum under LDP or LIP).

use super::master::{
    channel_rows, dual_bound, purify, reduced_value, solve_master, Columns, MasterSolution,
};
use super::pricing::{price_lip_box, price_staircase, Priced};
use super::pricing_histogram::{
    price_histogram_lip, SeparableUtility, HISTOGRAM_PRICING_MAX_INPUTS,
};
use super::pricing_histogram_ldp::price_histogram_ldp;
use super::pricing_search::{more_rays_than, SearchStats, HISTOGRAM_SCAN_LIMIT};
use super::{Method, Outcome, Run, Status};
use crate::certify::tie_groups;
use crate::objective::ColumnConvex;
use crate::privacy::PrivacyNotion;
use crate::rays::{enumerate_rays_until, ColumnCone, RayFamily};
use mechsynth_solvers::{BackendError, LpStatus};
use std::time::Instant;

/// Largest number of rays enumerated (LDP at n = 20 has 2^20 - 2; pricing scans them all, which
/// takes about 0.2 s per round and 0.4 GB there).
pub const ENUMERATION_LIMIT: usize = 1 << 20;
/// Double description gets at most this fraction (1 / share) of the remaining time ...
const ENUMERATION_TIME_SHARE: u32 = 3;
/// ... and at most this many seconds; then the method falls back to a local one.
const ENUMERATION_TIME_CAP_SECONDS: f64 = 60.0;
/// Column generation stops when the certified gap is below this, relative to the value.
pub const CG_GAP_TOLERANCE: f64 = 1e-9;
/// Most column-generation rounds.
const CG_MAX_ROUNDS: usize = 500;
/// Most columns added per round.
const CG_BATCH: usize = 8;
/// Above this many enumerated rays the master LP is solved by column generation that prices
/// by scanning every ray (a master with all of them is slow and loses accuracy in an interior
/// point method).
pub const DIRECT_MASTER_LIMIT: usize = 2048;

/// How column generation finds columns with positive reduced value.
enum Pricer<'a> {
    /// Exact structured pricing over a closed-form family (rays normalized to `p . q = 1`).
    Family {
        family: &'a RayFamily,
        a: &'a [f64],
        p: &'a [f64],
    },
    /// Scan every enumerated ray (normalized to `1 . q = 1`).
    Scan(&'a Columns),
    /// Exact branch-and-bound pricing of the histogram MMSE (LDP or LIP) or of mutual
    /// information (LIP) over a closed-form family (rays normalized to `p . q = 1`).
    Histogram {
        family: &'a RayFamily,
        p: &'a [f64],
        utility: SeparableUtility,
    },
}

/// Reduced values up to this share of the column-generation gap tolerance need not be found
/// by the histogram pricer (its bound then reports them as possible).
const HISTOGRAM_PRICING_FLOOR_SHARE: f64 = 0.1;

/// The intersection of every notion's column cone, or `None` when one has none.
pub fn combined_cone(privacy: &[&dyn PrivacyNotion], n: usize) -> Option<ColumnCone> {
    privacy.iter().try_fold(ColumnCone::orthant(n), |cone, p| {
        Some(cone.intersect(p.column_cone(n)?))
    })
}

fn normalized_by(mut z: Vec<f64>, eta: &[f64]) -> Option<Vec<f64>> {
    let s: f64 = z.iter().zip(eta).map(|(a, b)| a * b).sum();
    (s > 0.0).then(|| {
        z.iter_mut().for_each(|v| *v /= s);
        z
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

/// No channel: the time limit passed before the method had a point.
pub(crate) fn timed_out(note: &str) -> Outcome {
    Outcome {
        method: Method::ExtremeRayLp,
        status: Status::Solver(LpStatus::TimeLimit),
        iterations: 0,
        rows: None,
        bound: None,
        notes: vec![note.into()],
        solver_objective: None,
        trace: Vec::new(),
    }
}

/// Whether the certified bound closes the gap to the master's value: then the channel is
/// optimal by weak duality, whatever accuracy the backend reported.
fn gap_closed(bound_total: Option<f64>, total: f64) -> bool {
    bound_total.is_some_and(|b| b - total <= CG_GAP_TOLERANCE * total.abs().max(1.0))
}

/// Relative slack added to a dual bound computed in floating point: the few hundred
/// roundings in `mu . 1 + nu . rhs + (eta . 1) delta` and in each `g(r)` stay far below it.
const BOUND_ROUNDING_SLACK: f64 = 1e-12;

fn outcome_from(
    cone: &ColumnCone,
    f: &dyn ColumnConvex,
    columns: &Columns,
    master: MasterSolution,
    bound_total: Option<f64>,
    method: Method,
    mut notes: Vec<String>,
) -> Outcome {
    let closed = gap_closed(bound_total, master.total);
    let MasterSolution {
        lp, mut weights, ..
    } = master;
    let rows = lp.status.has_point().then(|| {
        purify(cone, columns, &mut weights);
        channel_rows(cone, columns, &weights)
    });
    // A reduced-accuracy master still has a valid certificate: the dual bound holds for any
    // prices, so a closed gap proves optimality.
    let status = match lp.status {
        LpStatus::OptimalReducedAccuracy if closed => {
            notes.push(
                "the backend reported reduced accuracy; optimality is certified by the dual bound"
                    .into(),
            );
            Status::Optimal
        }
        other => Status::from_lp(other),
    };
    Outcome {
        method,
        status,
        iterations: lp.iterations,
        rows,
        bound: bound_total.map(|v| {
            let v = v + BOUND_ROUNDING_SLACK * (v.abs() + 1.0);
            let b = f.offset() + f.scale() * v;
            // The bound is on the side the goal needs: widen it outwards.
            b + b.abs().max(1.0) * BOUND_ROUNDING_SLACK * f.scale().signum()
        }),
        notes,
        solver_objective: None,
        trace: Vec::new(),
    }
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

/// Columns with positive reduced value (best first) and an upper bound `delta` on the largest
/// reduced value, with the total `eta . 1` of the normalization used.
fn price(
    pricer: &Pricer,
    cone: &ColumnCone,
    mu: &[f64],
    nu: &[f64],
    floor: f64,
    deadline: Instant,
    work: &mut SearchStats,
) -> (Priced, f64) {
    match pricer {
        Pricer::Histogram { family, p, utility } => {
            let (priced, stats) = match family {
                RayFamily::Staircase { epsilon } => {
                    price_histogram_ldp(p, mu, *epsilon, floor, deadline)
                }
                RayFamily::LipBox { epsilon, .. } => {
                    price_histogram_lip(*utility, p, mu, *epsilon, floor, deadline)
                }
            };
            work.absorb(&stats);
            (priced, 1.0)
        }
        Pricer::Family { family, a, p } => {
            let priced = match family {
                RayFamily::Staircase { epsilon } => price_staircase(a, p, mu, *epsilon),
                RayFamily::LipBox { epsilon, .. } => price_lip_box(a, p, mu, *epsilon),
            };
            // Rays are normalized to p . q = 1, and sum_i w_i p . q_i = p . 1 = 1.
            (priced, 1.0)
        }
        Pricer::Scan(all) => {
            let ones = vec![1.0; cone.n];
            let mut scored: Vec<(f64, usize)> = (0..all.z.len())
                .map(|i| {
                    let v = reduced_value(cone, &all.z[i], all.value[i], mu, nu, &ones);
                    (v, i)
                })
                .collect();
            let delta = scored.iter().map(|s| s.0).fold(f64::NEG_INFINITY, f64::max);
            scored.retain(|s| s.0 > 0.0);
            scored.sort_by(|x, y| y.0.total_cmp(&x.0));
            let columns = scored.iter().map(|&(_, i)| all.z[i].clone()).collect();
            (Priced { columns, delta }, cone.n as f64)
        }
    }
}

fn column_generation(
    cone: &ColumnCone,
    f: &dyn ColumnConvex,
    pricer: &Pricer,
    run: &Run,
) -> Result<Outcome, BackendError> {
    let started = Instant::now();
    let mut columns = Columns::default();
    // The constant column keeps the first master feasible (the constant channel).
    let start = match pricer {
        Pricer::Family { .. } | Pricer::Histogram { .. } => vec![1.0; cone.n],
        Pricer::Scan(_) => vec![1.0 / cone.n as f64; cone.n],
    };
    let start_value = f.column_value(&start);
    columns.push(start, start_value);
    let mut best_bound = f64::INFINITY;
    let mut rounds = 0;
    let mut work = SearchStats::default();
    loop {
        rounds += 1;
        let master = solve_master(cone, &columns, run.backend, &run.backend_options())?;
        let usable = matches!(
            master.lp.status,
            LpStatus::Optimal | LpStatus::OptimalReducedAccuracy
        );
        if !usable {
            let note = format!("master LP stopped in round {rounds}: {}", master.lp.status);
            return Ok(outcome_from(
                cone,
                f,
                &columns,
                master,
                None,
                Method::ColumnGeneration,
                vec![note],
            ));
        }
        let (
            Priced {
                columns: new,
                delta,
            },
            eta_total,
        ) = price(
            pricer,
            cone,
            &master.mu,
            &master.nu,
            HISTOGRAM_PRICING_FLOOR_SHARE * CG_GAP_TOLERANCE * master.total.abs().max(1.0),
            run.deadline(),
            &mut work,
        );
        best_bound = best_bound.min(dual_bound(cone, &master.mu, &master.nu, eta_total, delta));
        let gap = best_bound - master.total;
        let fresh: Vec<Vec<f64>> = new
            .into_iter()
            .filter(|q| !columns.z.contains(q))
            .take(CG_BATCH)
            .collect();
        let done = gap <= CG_GAP_TOLERANCE * master.total.abs().max(1.0) || fresh.is_empty();
        if started.elapsed().as_secs_f64() > 1.0 {
            run.progress(&format!(
                "column generation round {rounds}: master {:.9e}, bound {:.9e}, gap {:.2e}",
                f.offset() + f.scale() * master.total,
                f.offset() + f.scale() * best_bound,
                gap.max(0.0) * f.scale().abs()
            ));
        }
        let capped = rounds >= CG_MAX_ROUNDS;
        let expired = run.expired();
        if done || capped || expired {
            let how = match pricer {
                Pricer::Family { family, .. } => format!("exact pricing over {}", family.name()),
                Pricer::Scan(all) => format!("pricing by scanning all {} rays", all.z.len()),
                Pricer::Histogram { family, .. } => format!(
                    "exact branch-and-bound pricing over {} ({} nodes, {} values computed{})",
                    family.name(),
                    work.nodes,
                    work.evaluated,
                    if work.complete {
                        ""
                    } else {
                        "; the last round stopped at the time limit"
                    }
                ),
            };
            let stop = if done {
                "converged"
            } else if capped {
                "stopped at the round limit"
            } else {
                "stopped at the time limit"
            };
            let notes = vec![format!(
                "{rounds} rounds ({stop}), {} columns in the master, {how}; gap of the master to its dual bound {:.1e}",
                columns.z.len(),
                gap.max(0.0) * f.scale().abs()
            )];
            return Ok(outcome_from(
                cone,
                f,
                &columns,
                master,
                Some(best_bound),
                Method::ColumnGeneration,
                notes,
            ));
        }
        for q in fresh {
            let value = f.column_value(&q);
            columns.push(q, value);
        }
    }
}
