//! The certified lower bound of an optimal design (docs/frequency.md, "The certified bound").

use crate::objective::FrequencyMse;
use crate::rays::{ColumnCone, CompactRays, RatioCone};
use crate::synthesis::design::compact::price_by_scan;
use crate::synthesis::design::rays::Rays;
use crate::synthesis::design::staircase::{
    ascend_staircase, mask_of, price_staircase, StaircasePriced,
};
use crate::synthesis::master::{dual_bound, reduced_value, solve_master, Columns};
use crate::synthesis::{design::barrier::MasterPoint, Run};
use mechsynth_solvers::BackendError;
use nalgebra::{DMatrix, DVector};

pub(crate) use crate::numeric::gamma_coarse as gamma;

/// An upper bound on `h(r) = sum_k (v_k . r)^2 / (pi . r)` in floating point.
pub(crate) fn h_upper(v: &DMatrix<f64>, r: &[f64], pi: &[f64]) -> f64 {
    let n = r.len();
    let g = gamma(n + 2);
    let lambda: f64 = r.iter().zip(pi).map(|(a, b)| a * b).sum::<f64>() * (1.0 - g);
    let mut total = 0.0;
    for col in v.column_iter() {
        let (dotv, mag) = col
            .iter()
            .zip(r)
            .fold((0.0, 0.0), |(s, m), (a, b)| (s + a * b, m + (a * b).abs()));
        let upper = dotv.abs() + g * mag;
        total += upper * upper;
    }
    total * (1.0 + gamma(2 * v.ncols() + 4)) / lambda
}

/// A certified lower bound on the trace (minus infinity when pricing could not bound every
/// ray), and the rays with positive reduced value (value, index), best first.
pub(crate) type Priced = (f64, Vec<(f64, usize)>);

/// How the rays are priced.
pub(crate) enum Pricing<'a> {
    /// Every ray is in the list: scan it.
    Scan,
    /// The list holds only the rays found so far; every ray is in this store of tree codes:
    /// scan it, keeping this many of the best rays.
    Compact(&'a RatioCone, &'a CompactRays, usize),
    /// A lone eps-LDP constraint (this eps): rays found by ascent, bounded by a branch and
    /// bound over the staircase patterns keeping this many of the best rays per parallel
    /// subtree.
    Staircase(f64, usize),
}

/// The staircase search prunes subtrees whose reduced value is within this of the best kept,
/// relative to the trace over the number of inputs: it adds at most twice this (relative) to
/// the certified gap, well inside [`crate::synthesis::DESIGN_GAP_TOLERANCE`].
pub(crate) const STAIRCASE_FLOOR: f64 = 1e-10;
/// The ascent's rays suffice while the best could still lower the trace by this much,
/// relative (its reduced value times the number of inputs); below, the complete search runs.
const STAIRCASE_FULL_SEARCH_GAP: f64 = 1e-4;

/// Starts for the ascent: every listed ray, each ray of the master with one entry flipped,
/// and [`ASCENT_RANDOM_STARTS`] seeded random patterns.
fn ascent_starts(rays: &Rays, set: &[usize], epsilon: f64, n: usize) -> Vec<u64> {
    use rand::{Rng, SeedableRng};
    let mut starts: Vec<u64> = rays.q.iter().map(|q| mask_of(q, epsilon)).collect();
    for &j in set {
        let mask = mask_of(&rays.q[j], epsilon);
        starts.extend((0..n).map(|x| mask ^ 1 << x));
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(rays.q.len() as u64);
    let full = (1u64 << n) - 1;
    starts.extend((0..ASCENT_RANDOM_STARTS).map(|_| rng.gen::<u64>() & full));
    starts.retain(|&m| m != 0 && m != full);
    starts.sort_unstable();
    starts.dedup();
    starts
}

/// The ascent's best rays kept per round, per input.
const ASCENT_KEEP_PER_INPUT: usize = 4;
/// Random patterns among the ascent's starts.
const ASCENT_RANDOM_STARTS: usize = 256;

/// The certified lower bound on `min tr(C^T J^-1 C)` from the master's point: `v = J^-1 C`
/// there, prices from the extreme-ray LP with column values `h` over the master's rays, and
/// the pricing gap over every ray. Also the rays with positive reduced value, best first.
pub(crate) fn lower_bound(
    rays: &mut Rays,
    cone: &ColumnCone,
    design: &FrequencyMse,
    point: &MasterPoint,
    set: &[usize],
    run: &Run,
    pricing: &Pricing<'_>,
) -> Result<Option<Priced>, BackendError> {
    let pi = design.distribution();
    let c = design.queries_t();
    let n = pi.len();
    let mut j = DMatrix::zeros(n, n);
    for (&idx, &w) in set.iter().zip(&point.w) {
        let r = DVector::from_column_slice(&rays.q[idx]);
        let lambda: f64 = r.iter().zip(pi).map(|(a, b)| a * b).sum();
        j.ger(w / lambda, &r, &r, 1.0);
    }
    let Some(chol) = j.cholesky() else {
        return Ok(None);
    };
    let v = chol.solve(c);
    let mut columns = Columns::default();
    for &idx in set {
        columns.push(rays.z[idx].clone(), h_upper(&v, &rays.q[idx], pi));
    }
    let master = solve_master(cone, &columns, run.backend, &run.backend_options())?;
    if !master.lp.status.has_point() {
        return Ok(None);
    }
    let ones = vec![1.0; n];
    let (mut reduced, delta): (Vec<(f64, usize)>, f64) = match pricing {
        Pricing::Scan => {
            let reduced: Vec<(f64, usize)> = (0..rays.q.len())
                .map(|idx| {
                    let h = h_upper(&v, &rays.q[idx], pi);
                    let r = reduced_value(cone, &rays.z[idx], h, &master.mu, &master.nu, &ones);
                    (r, idx)
                })
                .collect();
            let delta = reduced
                .iter()
                .map(|r| r.0)
                .fold(f64::NEG_INFINITY, f64::max);
            (reduced, delta)
        }
        Pricing::Compact(ratio, store, keep) => {
            let found = price_by_scan(ratio, store, &v, pi, &master.mu, *keep);
            let reduced = found
                .candidates
                .iter()
                .map(|(value, q)| (*value, rays.push(cone, q)))
                .collect();
            (reduced, found.delta.unwrap_or(f64::INFINITY))
        }
        Pricing::Staircase(epsilon, keep) => {
            let floor = STAIRCASE_FLOOR * point.value.abs() / n as f64;
            // Far from the optimum an ascent from every listed ray finds rays worth adding;
            // the complete search (the only one that bounds) runs when it finds none or only
            // nearly useless ones.
            let starts = ascent_starts(rays, set, *epsilon, n);
            let mut ascended = ascend_staircase(&v, pi, &master.mu, *epsilon, &starts);
            ascended.retain(|c| c.0 > 0.0);
            ascended.truncate(ASCENT_KEEP_PER_INPUT * n);
            let useful = ascended.first().is_some_and(|(value, _)| {
                *value * n as f64 > STAIRCASE_FULL_SEARCH_GAP * point.value.abs()
            });
            let found = if useful {
                StaircasePriced {
                    delta: None,
                    candidates: ascended,
                }
            } else {
                let budget = u64::MAX;
                price_staircase(
                    &v,
                    pi,
                    &master.mu,
                    *epsilon,
                    (*keep, floor),
                    budget,
                    run.deadline(),
                )
            };
            let reduced = found
                .candidates
                .iter()
                .map(|(value, q)| (*value, rays.push(cone, q)))
                .collect();
            (reduced, found.delta.unwrap_or(f64::INFINITY))
        }
    };
    // The prices' own rounding: each is a short dot product of values at most 1.
    let price_error = gamma(n + cone.coupling.len() + 2)
        * (master
            .mu
            .iter()
            .chain(&master.nu)
            .map(|m| m.abs())
            .sum::<f64>()
            + 1.0);
    let upper = dual_bound(cone, &master.mu, &master.nu, n as f64, delta + price_error);
    let terms: Vec<f64> = v.iter().zip(c.iter()).map(|(a, b)| 2.0 * a * b).collect();
    let magnitude: f64 = terms.iter().map(|t| t.abs()).sum::<f64>() + upper.abs();
    let first: f64 = terms.iter().sum();
    let bound = first - upper - gamma(terms.len() + 3) * magnitude;
    reduced.retain(|r| r.0 > 0.0);
    reduced.sort_by(|a, b| b.0.total_cmp(&a.0));
    let bound = if bound.is_finite() {
        bound.next_down()
    } else {
        f64::NEG_INFINITY
    };
    Ok(Some((bound, reduced)))
}
