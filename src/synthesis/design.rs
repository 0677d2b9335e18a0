//! Certified optimal channels for frequency estimation: an optimal design over the extreme rays
//! of the column cone, by column generation with a restricted master solved by a barrier
//! method ([`super::barrier`]) and pricing by scanning every ray.
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

use super::barrier::{solve_restricted, DesignData, MasterPoint};
use super::extreme::{combined_cone, enumerate_cone, timed_out, ENUMERATION_LIMIT};
use super::master::{dual_bound, reduced_value, solve_master, Columns};
use super::{Method, Outcome, Run, Status};
use crate::objective::FrequencyMse;
use crate::privacy::PrivacyNotion;
use crate::rays::{dot, ColumnCone};
use mechsynth_solvers::{BackendError, LinearProgram, LpStatus, Sense};
use nalgebra::{DMatrix, DVector};
use std::time::Instant;

/// Column generation stops when the certified gap is below this, relative to the value.
pub const DESIGN_GAP_TOLERANCE: f64 = 1e-9;
/// Most column-generation rounds.
const DESIGN_MAX_ROUNDS: usize = 200;
/// Up to this many rays the master starts with all of them.
const DESIGN_DIRECT_LIMIT: usize = 300;
/// A ray whose weight in the interior start is below this fraction of the cap cannot carry
/// weight in the current master.
const START_WEIGHT_FLOOR: f64 = 1e-7;
/// Bisection steps for the k-RR-like mixture columns.
const MIXTURE_BISECTIONS: usize = 50;
/// Share of the interior point in a warm start.
const WARM_MIX: f64 = 0.1;
/// The starting point keeps every coupling row this fraction below its right-hand side.
const START_COUPLING_MARGIN: f64 = 1e-3;
/// Between rounds, rays whose weight is below this fraction of the largest leave the master
/// (pricing brings them back if they are needed).
const DESIGN_PRUNE: f64 = 1e-7;
/// Weights below this fraction of the largest are dropped from the emitted channel.
const DESIGN_WEIGHT_FLOOR: f64 = 1e-9;

/// Generators: lifted and normalized to `1 . q = 1`, their input parts, coupling values.
struct Rays {
    /// How many generators at the end are not extreme rays (mixture and constant columns).
    extra: usize,
    z: Vec<Vec<f64>>,
    q: Vec<Vec<f64>>,
    coupling: Vec<Vec<f64>>,
}

impl Rays {
    fn new(cone: &ColumnCone, lifted: Vec<Vec<f64>>) -> Self {
        let mut q = Vec::new();
        let mut lifted_all = Vec::new();
        let mut coupling: Vec<Vec<f64>> = vec![Vec::new(); cone.coupling.len()];
        for z in lifted {
            let s: f64 = z[..cone.n].iter().sum();
            if s <= 0.0 {
                continue;
            }
            let z: Vec<f64> = z.iter().map(|v| v / s).collect();
            for (i, (row, _)) in cone.coupling.iter().enumerate() {
                coupling[i].push(dot(row, &z));
            }
            q.push(z[..cone.n].to_vec());
            lifted_all.push(z);
        }
        Rays {
            extra: 0,
            z: lifted_all,
            q,
            coupling,
        }
    }

    fn data<'a>(
        &'a self,
        set: &[usize],
        cone: &ColumnCone,
        pi: &'a [f64],
        c: &'a DMatrix<f64>,
    ) -> DesignData<'a> {
        DesignData {
            rays: set.iter().map(|&j| self.q[j].as_slice()).collect(),
            coupling: self
                .coupling
                .iter()
                .map(|row| set.iter().map(|&j| row[j]).collect())
                .collect(),
            rhs: cone.coupling.iter().map(|(_, h)| *h).collect(),
            pi,
            c,
        }
    }
}

/// `gamma_k = k u / (1 - k u)`: the relative error bound of a k-term dot product.
fn gamma(k: usize) -> f64 {
    let ku = k as f64 * f64::EPSILON;
    ku / (1.0 - ku)
}

/// An upper bound on `h(r) = sum_k (v_k . r)^2 / (pi . r)` in floating point.
fn h_upper(v: &DMatrix<f64>, r: &[f64], pi: &[f64]) -> f64 {
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

/// A certified lower bound on the trace, and the rays with positive reduced value (value,
/// index), best first.
type Priced = (f64, Vec<(f64, usize)>);

/// The certified lower bound on `min tr(C^T J^-1 C)` from the master's point: `v = J^-1 C`
/// there, prices from the extreme-ray LP with column values `h` over the master's rays, and
/// the pricing gap over every ray. Also the rays with positive reduced value, best first.
fn lower_bound(
    rays: &Rays,
    cone: &ColumnCone,
    design: &FrequencyMse,
    point: &MasterPoint,
    set: &[usize],
    run: &Run,
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
    let mut reduced: Vec<(f64, usize)> = (0..rays.q.len())
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
    Ok(Some((bound.next_down(), reduced)))
}

/// Whether the queries lie in the range of `sum_r r r^T / (pi . r)` over every ray (the largest
/// Fisher information's range): otherwise no channel estimates them.
fn estimable(rays: &Rays, design: &FrequencyMse) -> bool {
    let n = design.distribution().len();
    let mut j = DMatrix::zeros(n, n);
    for r in &rays.q {
        let r = DVector::from_column_slice(r);
        let lambda: f64 = r
            .iter()
            .zip(design.distribution())
            .map(|(a, b)| a * b)
            .sum();
        j.ger(1.0 / lambda, &r, &r, 1.0);
    }
    design.trace(&j).is_finite()
}

/// A strictly positive point of the master that meets its row sums, with every coupling row
/// strictly inside, over the rays of `set` that can carry weight at all: the LP that maximizes
/// `sum_j min(w_j, cap)` (an interior-point backend ends in the relative interior of its
/// optimal face, so every ray that can be positive is). Rays left at zero are dropped; they
/// return through pricing when other rays make room for them. `None` when the backend finds
/// no point.
fn interior_start(
    rays: &Rays,
    cone: &ColumnCone,
    set: &[usize],
    run: &Run,
) -> Option<(Vec<usize>, Vec<f64>)> {
    let n = cone.n;
    let cap = 1.0 / set.len() as f64;
    let mut lp = LinearProgram::new();
    let vars: Vec<usize> = set
        .iter()
        .map(|_| lp.add_var(0.0, 0.0, f64::INFINITY))
        .collect();
    for &v in &vars {
        let s = lp.add_var(-1.0, 0.0, cap);
        lp.add_constraint(vec![(v, 1.0), (s, -1.0)], Sense::Ge, 0.0);
    }
    for x in 0..n {
        let terms = vars
            .iter()
            .zip(set)
            .map(|(&v, &j)| (v, rays.q[j][x]))
            .filter(|t| t.1 != 0.0)
            .collect();
        lp.add_constraint(terms, Sense::Eq, 1.0);
    }
    for (row, (_, rhs)) in rays.coupling.iter().zip(&cone.coupling) {
        let terms = vars.iter().zip(set).map(|(&v, &j)| (v, row[j])).collect();
        lp.add_constraint(terms, Sense::Le, rhs * (1.0 - START_COUPLING_MARGIN));
    }
    let solution = run.backend.solve(&lp, &run.backend_options()).ok()?;
    if !solution.status.has_point() {
        return None;
    }
    let floor = START_WEIGHT_FLOOR * cap;
    let kept: Vec<(usize, f64)> = set
        .iter()
        .zip(&vars)
        .map(|(&j, &v)| (j, solution.x[v]))
        .filter(|e| e.1 > floor)
        .collect();
    (!kept.is_empty()).then(|| kept.into_iter().unzip())
}

/// The columns `(1 - t) / n + t e_x` of the k-RR-like mixture with the largest `t` (to
/// bisection accuracy) that keeps every one in the cone; none when only `t = 0` does.
fn mixture_columns(cone: &ColumnCone) -> Vec<Vec<f64>> {
    let n = cone.n;
    let columns = |t: f64| -> Vec<Vec<f64>> {
        (0..n)
            .map(|x| {
                let mut z = vec![(1.0 - t) / n as f64; n];
                z[x] += t;
                z
            })
            .collect()
    };
    let fits = |t: f64| columns(t).iter().all(|z| cone.contains(z, 0.0));
    let (mut lo, mut hi) = (0.0, 1.0);
    if fits(hi) {
        return columns(hi);
    }
    for _ in 0..MIXTURE_BISECTIONS {
        let mid = 0.5 * (lo + hi);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    if lo > 0.0 {
        columns(lo)
    } else {
        Vec::new()
    }
}

/// The rays to start column generation with: all of them when few, otherwise for each input the
/// ray that puts the most mass on it, and the rays best for `J = I`.
fn initial_set(rays: &Rays, design: &FrequencyMse) -> Vec<usize> {
    let count = rays.q.len();
    if count <= DESIGN_DIRECT_LIMIT {
        return (0..count).collect();
    }
    let n = design.distribution().len();
    // The last generators are the mixture columns and the constant (see `solve_by_design`).
    let mut set: Vec<usize> = (count - rays.extra..count).collect();
    set.extend(
        (0..n).filter_map(|x| (0..count).max_by(|&a, &b| rays.q[a][x].total_cmp(&rays.q[b][x]))),
    );
    let v = design.queries_t().clone();
    let mut scored: Vec<(f64, usize)> = (0..count)
        .map(|i| (h_upper(&v, &rays.q[i], design.distribution()), i))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    set.extend(scored.iter().take(4 * n).map(|s| s.1));
    set.sort_unstable();
    set.dedup();
    set
}

/// Solve the frequency-estimation design when the notions give a column cone whose extreme
/// rays can be listed; `Ok(None)` otherwise (the caller falls back to the local method).
pub fn solve_by_design(
    privacy: &[&dyn PrivacyNotion],
    design: &FrequencyMse,
    n: usize,
    run: &Run,
) -> Option<Outcome> {
    let cone = combined_cone(privacy, n)?;
    let (lifted, _, source) = enumerate_cone(privacy, &cone, n, ENUMERATION_LIMIT, run);
    let Some(lifted) = lifted else {
        return run
            .expired()
            .then(|| timed_out("the time limit passed while enumerating extreme rays"));
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
    let mut notes = vec![format!("{listed} extreme rays ({source})")];
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
        let Ok(priced) = lower_bound(&rays, &cone, design, &point, &set, run) else {
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
            .take(2 * n)
            .collect();
        let closed = gap <= DESIGN_GAP_TOLERANCE * point.value.abs();
        let (w_old, set_old) = (point.w.clone(), set.clone());
        best = Some((point.value, point, set.clone()));
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
        });
    };
    notes.push(format!(
        "{rounds} rounds ({stop}), {} rays in the master, barrier Newton steps {}, prices from the extreme-ray LP of the gradient, pricing by scanning every ray",
        set.len(),
        point.steps
    ));
    let rows = emitted_rows(&rays, &point, &set, n);
    let bound = design.mse_from_trace(best_bound);
    Some(Outcome {
        method: Method::OptimalDesign,
        status: Status::Optimal,
        iterations: point.steps as u64,
        rows: Some(rows),
        bound: Some(bound - gamma(4) * bound.abs()),
        notes,
        solver_objective: Some(design.mse_from_trace(point.value)),
    })
}

/// The channel of the master's point: negligible weights dropped and the row sums restored by
/// the least-norm correction on the remaining weights.
fn emitted_rows(rays: &Rays, point: &MasterPoint, set: &[usize], n: usize) -> Vec<Vec<f64>> {
    let largest = point.w.iter().cloned().fold(0.0, f64::max);
    let keep: Vec<usize> = (0..set.len())
        .filter(|&j| point.w[j] > DESIGN_WEIGHT_FLOOR * largest)
        .collect();
    let a = DMatrix::from_fn(n, keep.len(), |x, c| rays.q[set[keep[c]]][x]);
    let mut w = DVector::from_fn(keep.len(), |c, _| point.w[keep[c]]);
    let residual = DVector::from_element(n, 1.0) - &a * &w;
    if let Some(y) = (&a * a.transpose()).lu().solve(&residual) {
        let corrected = &w + a.transpose() * y;
        if corrected.iter().all(|&v| v > 0.0) {
            w = corrected;
        }
    }
    (0..n)
        .map(|x| (0..keep.len()).map(|c| w[c] * a[(x, c)]).collect())
        .collect()
}
