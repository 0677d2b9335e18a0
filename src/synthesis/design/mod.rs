//! Certified optimal channels for frequency estimation: an optimal design over the extreme rays
//! of the column cone, by column generation with a restricted master solved by a barrier
//! method ([`super::design::barrier`]) and pricing by scanning every ray.
//!
//! Why rays suffice: each term `q q^T / (pi . q)` of the Fisher information `J` is
//! matrix-convex and positively homogeneous in the column, so splitting a column into extreme
//! rays only increases `J` in the Loewner order and lowers `tr(C^T J^-1 C)` (docs/frequency.md).
//!
//! The bound. For any vectors `v_k` and any feasible weights, `c^T J^-1 c >= 2 v . c - v^T J v`,
//! so `f(w) >= 2 sum_k v_k . c_k - sum_r w_r h(r)` with `h(r) = sum_k (v_k . r)^2 / (pi . r)`.
//! The last sum is at most the optimum of the extreme-ray LP with column values `h`, which weak
//! duality bounds by `mu . 1 + kappa . rhs + n max(0, delta)` for any prices (see
//! [`super::master::dual_bound`]). With `v_k = J^-1 c_k` at the master's point and its prices,
//! the bound meets the optimum when the master is optimal over every ray.

pub(crate) mod balanced;
pub(crate) mod barrier;
pub(crate) mod bound;
pub(crate) mod compact;
pub(crate) mod rays;
pub(crate) mod staircase;
pub(crate) mod support;
pub(crate) mod symmetric;

pub use symmetric::solve_symmetric_design;

use super::design::barrier::{solve_restricted, MasterPoint};
use super::design::bound::{gamma, lower_bound, Pricing};
use super::design::compact::peak_rays;
use super::design::rays::{
    estimable, initial_set, interior_start, mixture_columns, Rays, DESIGN_DIRECT_LIMIT,
};
use super::design::support::emitted_rows;
use super::extreme::{combined_cone, enumerate_cone, timed_out, ENUMERATION_LIMIT};
use super::{Method, Outcome, Run, Status};
use crate::objective::FrequencyMse;
use crate::policy::DESIGN_STAIRCASE_MIN_INPUTS;
use crate::privacy::PrivacyNotion;
use crate::rays::{ColumnCone, CompactRays, RatioCone, RayFamily};
use crate::synthesis::pricing::search::more_rays_than;
use mechsynth_solvers::LpStatus;
use std::time::Instant;

/// Column generation stops when the certified gap is below this, relative to the value.
pub const DESIGN_GAP_TOLERANCE: f64 = 1e-9;
use crate::policy::COMPACT_MAX_BYTES;
/// Pricing over tree codes brings this many of the best rays per input into each round.
const SEARCH_KEEP_PER_INPUT: usize = 8;
/// The staircase search keeps this many of the best rays per parallel subtree (32 subtrees).
const STAIRCASE_KEEP: usize = 8;
/// Most column-generation rounds.
const DESIGN_MAX_ROUNDS: usize = 200;
/// Share of the interior point in a warm start.
const WARM_MIX: f64 = 0.1;
/// Between rounds, rays whose weight is below this fraction of the largest leave the master
/// (pricing brings them back if they are needed).
const DESIGN_PRUNE: f64 = 1e-7;

/// The eps of a lone eps-LDP constraint whose rays are priced by the staircase search rather
/// than listed: more than `list_limit` of them, or at least `search_from` inputs (in use,
/// [`DESIGN_STAIRCASE_MIN_INPUTS`], from where the search is the faster).
fn staircase_search(
    privacy: &[&dyn PrivacyNotion],
    cone: &ColumnCone,
    n: usize,
    (list_limit, search_from): (usize, usize),
) -> Option<f64> {
    let [single] = privacy else {
        return None;
    };
    let family = single.ray_family()?;
    let RayFamily::Staircase { epsilon } = family else {
        return None;
    };
    let sized = n >= search_from || more_rays_than(&family, n, list_limit);
    (sized && n < 64 && epsilon > 0.0 && cone.aux == 0 && cone.coupling.is_empty())
        .then_some(epsilon)
}

/// The first staircase rays: one high entry, and all but one.
fn staircase_start(n: usize, epsilon: f64) -> Vec<Vec<f64>> {
    let high = epsilon.exp();
    (0..n)
        .flat_map(|x| {
            let mut peak = vec![1.0; n];
            peak[x] = high;
            let mut dip = vec![high; n];
            dip[x] = 1.0;
            [peak, dip]
        })
        .collect()
}

/// Solve the frequency-estimation design when the notions give a column cone whose extreme
/// rays can be listed; `Ok(None)` otherwise (the caller falls back to the local method).
pub fn solve_by_design(
    privacy: &[&dyn PrivacyNotion],
    design: &FrequencyMse,
    n: usize,
    run: &Run,
) -> Option<Outcome> {
    let limits = (ENUMERATION_LIMIT, DESIGN_STAIRCASE_MIN_INPUTS);
    let searched = design_with_list_limit(privacy, design, n, run, limits);
    // Where the search leaves its gap open and the rays can be listed, the listed rays close
    // it (range queries on 8 points at eps 5 ended `feasible` by the search).
    let open = searched.as_ref().is_some_and(|o| {
        let gap = match (o.solver_objective, o.bound) {
            (Some(v), Some(b)) => (v - b).abs() / v.abs().max(1.0),
            _ => f64::INFINITY,
        };
        !o.status.is_optimal() || gap > LISTED_STAIRCASE_GAP
    });
    if open
        && (DESIGN_STAIRCASE_MIN_INPUTS..=LISTED_STAIRCASE_MAX_INPUTS).contains(&n)
        && !run.expired()
    {
        let listed =
            design_with_list_limit(privacy, design, n, run, (ENUMERATION_LIMIT, usize::MAX));
        if listed.as_ref().is_some_and(|o| o.status.is_optimal()) {
            return listed;
        }
    }
    searched
}

/// A search whose own gap is above this (relative) is redone over the listed rays, where they
/// can be listed: it leaves no room for the repair of the channel's rounding (range queries on
/// 8 points at eps 5: 1.4e-6 after the repair, 1e-14 over the listed rays).
const LISTED_STAIRCASE_GAP: f64 = 1e-8;

/// The staircase rays are listed again, after a search that left its gap open, up to this many
/// inputs (2^n - 2 rays: 65,534 at 16).
const LISTED_STAIRCASE_MAX_INPUTS: usize = 16;

/// [`solve_by_design`] with rays listed as floats only up to `list_limit` (beyond it, ratio
/// cones keep tree codes, and a lone LDP constraint prices by the staircase search, which it
/// also does from `search_from` inputs on).
fn design_with_list_limit(
    privacy: &[&dyn PrivacyNotion],
    design: &FrequencyMse,
    n: usize,
    run: &Run,
    (list_limit, search_from): (usize, usize),
) -> Option<Outcome> {
    let cone = combined_cone(privacy, n)?;
    let staircase = staircase_search(privacy, &cone, n, (list_limit, search_from));
    let (lifted, _, source) = match staircase {
        Some(epsilon) => (
            Some(staircase_start(n, epsilon)),
            None,
            "staircase patterns",
        ),
        None => enumerate_cone(privacy, &cone, n, list_limit, run),
    };
    if lifted.is_none() && run.expired() {
        return Some(timed_out(
            "the time limit passed while enumerating extreme rays",
        ));
    }
    // Too many rays to list as floats: a ratio cone keeps every ray as a tree code and prices
    // them all each round, starting from the rays that peak at each input.
    let (lifted, search) = match lifted {
        Some(lifted) => (lifted, None),
        None => {
            let ratio = RatioCone::from_cone(&cone)?;
            let limit = COMPACT_MAX_BYTES / CompactRays::bytes_per_ray(n);
            let Some(store) = ratio.compact(limit, Some(run.deadline())) else {
                return run
                    .expired()
                    .then(|| timed_out("the time limit passed while listing extreme rays"));
            };
            (peak_rays(&ratio), Some((ratio, store)))
        }
    };
    let keep = SEARCH_KEEP_PER_INPUT * n;
    let fresh_per_round = if search.is_some() { keep } else { 2 * n };
    let pricing = match (&search, staircase) {
        (Some((ratio, store)), _) => Pricing::Compact(ratio, store, keep),
        (None, Some(epsilon)) => Pricing::Staircase(epsilon, STAIRCASE_KEEP),
        (None, None) => Pricing::Scan,
    };
    let listed = lifted.len();
    let mut lifted = lifted;
    if cone.aux == 0 {
        // Generators that are not extreme but lie in the cone: the columns of the k-RR-like
        // mixture and the constant column. With them the first master is feasible, and its
        // Fisher information nonsingular, however few rays it starts with.
        lifted.extend(mixture_columns(&cone));
        lifted.push(vec![1.0; n]);
    }
    let mut rays = Rays::new(&cone, lifted);
    rays.extra = rays.q.len().saturating_sub(listed);
    let mut notes = vec![match &search {
        None if staircase.is_some() => format!(
            "{} extreme rays ({source}), not listed: priced by a branch and bound over the patterns",
            (1u128 << n) - 2
        ),
        None => format!("{listed} extreme rays ({source})"),
        Some((_, store)) => format!(
            "{} extreme rays (vertex search of the log polytope), kept as tree codes ({} MB)",
            store.len(),
            store.bytes() >> 20
        ),
    }];
    if !estimable(&rays, design) {
        notes.push("the queries are not estimable: every channel these constraints allow has a Fisher information whose range misses a query (for example eps = 0 ties every row)".into());
        return Some(Outcome {
            method: Method::OptimalDesign,
            status: Status::Solver(LpStatus::Other("not estimable".into())),
            iterations: 0,
            rows: None,
            bound: None,
            notes,
            solver_objective: None,
            trace: Vec::new(),
        });
    }
    let started = Instant::now();
    let pi = design.distribution();
    let mut set = initial_set(&rays, design);
    let mut start = match interior_start(&rays, &cone, &set, run) {
        Some((kept, inner)) => {
            set = kept;
            inner
        }
        None => vec![1.0 / set.len() as f64; set.len()],
    };
    let mut best: Option<(f64, MasterPoint, Vec<usize>)> = None;
    let mut best_bound = f64::NEG_INFINITY;
    let mut rounds = 0;
    let stop = loop {
        rounds += 1;
        let data = rays.data(&set, &cone, pi, design.queries_t());
        let Some(point) = solve_restricted(&data, &start, run.deadline()) else {
            break "the restricted master has a singular Fisher information at every point tried: the queries may not be estimable under these constraints";
        };
        let Ok(priced) = lower_bound(&mut rays, &cone, design, &point, &set, run, &pricing) else {
            break "the backend failed on the pricing LP";
        };
        let Some((bound, reduced)) = priced else {
            break "the Fisher information of the master's point is singular";
        };
        best_bound = best_bound.max(bound);
        let gap = point.value - best_bound;
        if started.elapsed().as_secs_f64() > 1.0 {
            run.progress(&format!(
                "optimal design round {rounds}: master {:.9e}, bound {:.9e}, {} rays in the master",
                design.mse_from_trace(point.value),
                design.mse_from_trace(best_bound),
                set.len()
            ));
        }
        let fresh: Vec<usize> = reduced
            .iter()
            .map(|r| r.1)
            .filter(|i| set.binary_search(i).is_err())
            .take(fresh_per_round)
            .collect();
        let closed = gap <= DESIGN_GAP_TOLERANCE * point.value.abs();
        let (w_old, set_old) = (point.w.clone(), set.clone());
        // A round cut short by the time limit can end above an earlier master: keep the best.
        if best.as_ref().is_none_or(|b| point.value <= b.0) {
            best = Some((point.value, point, set.clone()));
        }
        if closed {
            break "converged";
        }
        if fresh.is_empty() {
            break "no ray prices out; the gap left is the master's own accuracy";
        }
        if rounds >= DESIGN_MAX_ROUNDS {
            break "stopped at the round limit";
        }
        if run.expired() {
            break "stopped at the time limit";
        }
        // Warm start: most of the last weights (dropping rays the master has all but left),
        // mixed with an interior point of the new master so that the start is strictly
        // feasible.
        let largest = w_old.iter().cloned().fold(0.0, f64::max);
        let mut next: Vec<(usize, f64)> = set_old
            .iter()
            .zip(&w_old)
            .filter(|(_, &w)| set_old.len() <= DESIGN_DIRECT_LIMIT || w > DESIGN_PRUNE * largest)
            .map(|(&i, &w)| (i, w))
            .collect();
        next.extend(fresh.iter().map(|&i| (i, 0.0)));
        next.sort_by_key(|e| e.0);
        set = next.iter().map(|e| e.0).collect();
        match interior_start(&rays, &cone, &set, run) {
            Some((kept, inner)) => {
                let previous: std::collections::BTreeMap<usize, f64> = next.into_iter().collect();
                start = kept
                    .iter()
                    .zip(&inner)
                    .map(|(j, v)| (1.0 - WARM_MIX) * previous[j] + WARM_MIX * v)
                    .collect();
                set = kept;
            }
            None => start = next.iter().map(|e| e.1.max(1e-6 * largest)).collect(),
        }
    };
    let Some((_, point, set)) = best else {
        notes.push(stop.into());
        return Some(Outcome {
            method: Method::OptimalDesign,
            status: Status::Solver(LpStatus::NumericalTrouble),
            iterations: 0,
            rows: None,
            bound: None,
            notes,
            solver_objective: None,
            trace: Vec::new(),
        });
    };
    notes.push(format!(
        "{rounds} rounds ({stop}), {} rays in the master, barrier Newton steps {}, prices from the extreme-ray LP of the gradient, {}",
        set.len(),
        point.steps,
        match pricing {
            Pricing::Scan => "pricing by scanning every ray".to_string(),
            Pricing::Compact(..) => format!("pricing by scanning every ray's tree code ({} rays entered the list)", rays.q.len() - rays.extra),
            Pricing::Staircase(..) => format!("pricing by a branch and bound over the staircase patterns ({} rays entered the list)", rays.q.len() - rays.extra),
        }
    ));
    if !best_bound.is_finite() {
        notes.push(if staircase.is_some() {
            "no round bounded the reduced value of every ray (the complete branch and bound runs once the ascent finds no useful ray, and did not finish in the time limit): there is no certified bound".into()
        } else {
            "no round could bound the reduced value of every ray (the true distribution has a zero): there is no certified bound".into()
        });
    }
    let generators: Vec<&[f64]> = set.iter().map(|&j| rays.q[j].as_slice()).collect();
    let rows = emitted_rows(&generators, pi, &point.w);
    let bound = design.mse_from_trace(best_bound);
    Some(Outcome {
        method: Method::OptimalDesign,
        status: Status::Optimal,
        iterations: point.steps as u64,
        rows: Some(rows),
        bound: bound.is_finite().then(|| bound - gamma(4) * bound.abs()),
        notes,
        solver_objective: Some(design.mse_from_trace(point.value)),
        trace: Vec::new(),
    })
}

#[cfg(test)]
mod tests;
