//! Column generation for the LP over extreme rays: the master over the columns found so far,
//! and pricing that returns the columns of positive reduced value with a rigorous bound on the
//! largest one (exact over a closed-form family, exact branch and bound for the histogram MMSE
//! and mutual information, or a scan of every enumerated ray).

use super::certificate::outcome_from;
use crate::objective::ColumnConvex;
use crate::rays::{ColumnCone, CompactRays, RatioCone, RayFamily};
use crate::synthesis::master::{dual_bound, reduced_value, solve_master, Columns};
use crate::synthesis::pricing::histogram::{price_histogram_lip, SeparableUtility};
use crate::synthesis::pricing::histogram_ldp::price_histogram_ldp;
use crate::synthesis::pricing::search::SearchStats;
use crate::synthesis::pricing::{price_lip_box, price_staircase, Priced};
use crate::synthesis::{Method, Outcome, Run};
use mechsynth_solvers::{BackendError, LpStatus};
use std::time::Instant;

/// Column generation stops when the certified gap is below this, relative to the value.
pub const CG_GAP_TOLERANCE: f64 = 1e-9;
/// Most column-generation rounds.
const CG_MAX_ROUNDS: usize = 500;
/// Most columns added per round.
const CG_BATCH: usize = 8;

/// How column generation finds columns with positive reduced value.
pub(super) enum Pricer<'a> {
    /// Exact structured pricing over a closed-form family (rays normalized to `p . q = 1`).
    Family {
        family: &'a RayFamily,
        a: &'a [f64],
        p: &'a [f64],
    },
    /// Scan every enumerated ray (normalized to `1 . q = 1`).
    Scan(&'a Columns),
    /// Scan every extreme ray of a ratio cone kept as tree codes (normalized to `1 . q = 1`).
    Compact(&'a RatioCone, &'a CompactRays),
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

/// Columns with positive reduced value (best first) and an upper bound `delta` on the largest
/// reduced value, with the total `eta . 1` of the normalization used.
#[allow(clippy::too_many_arguments)]
fn price(
    pricer: &Pricer,
    cone: &ColumnCone,
    f: &dyn ColumnConvex,
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
        Pricer::Compact(ratio, store) => (price_compact(ratio, store, f, mu), cone.n as f64),
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

pub(super) fn column_generation(
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
        Pricer::Scan(_) | Pricer::Compact(..) => vec![1.0 / cone.n as f64; cone.n],
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
            f,
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
                Pricer::Compact(_, store) => format!(
                    "pricing by scanning all {} rays kept as tree codes ({} MB)",
                    store.len(),
                    store.bytes() >> 20
                ),
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

/// The reduced value `(g(q) - mu . q) / (1 . q)` of every ray kept as a tree code (`g` is
/// positively homogeneous), the `CG_BATCH` best normalized to `1 . q = 1`, and their largest
/// plus a margin for the distance between a computed and an exact vertex: a relative change
/// `w` in every entry moves a reduced value near the largest by at most
/// `2 w (|largest| + max |mu|)` (docs/frequency.md, "Pricing without listing").
fn price_compact(
    ratio: &RatioCone,
    store: &CompactRays,
    f: &dyn ColumnConvex,
    mu: &[f64],
) -> Priced {
    let (top, best) = store.best_by(
        ratio,
        CG_BATCH,
        || (),
        |_, q| {
            let price: f64 = q.iter().zip(mu).map(|(a, b)| a * b).sum();
            (f.column_value(q) - price) / q.iter().sum::<f64>()
        },
    );
    let n = ratio.inputs();
    let w = ratio.vertex_widening() + crate::numeric::gamma_coarse(2 * n + 8);
    let largest_mu = mu.iter().map(|m| m.abs()).fold(0.0, f64::max);
    let delta = top + 4.0 * w * (top.abs() + largest_mu);
    let columns = best
        .into_iter()
        .map(|(_, q)| {
            let s: f64 = q.iter().sum();
            q.iter().map(|v| v / s).collect()
        })
        .collect();
    Priced { columns, delta }
}
