//! Linear objectives under notions made only of pair rows (d-privacy over irregular places,
//! geo-indistinguishability with a population prior) at sizes where no program over every
//! pair can be held: a first-order primal-dual method by output column ([`pdhg`]) over the
//! rows that locality says matter ([`rows`]), with every other pair scanned and added when
//! violated.
//!
//! Each step costs one pass over the encoded rows (about `n (n + 2k)` for `k` neighbours),
//! not a factorization, so a step at 2,500 places takes a fraction of a second and memory
//! grows like `n^2`. The bound is the Lagrangian bound at the current duals, rigorous at every
//! iterate whatever rows are encoded (each encoded row holds for every private channel). The
//! channel is made exactly private by the cone's envelope over every pair (the largest private
//! column below each column) and its rows are scaled back to sums of 1; certification then
//! rechecks every pair with outward rounding and mixes in a constant channel if a rounding-level
//! excess remains. The gap between the emitted channel and the bound is the report's gap.

mod pdhg;
mod rows;
#[cfg(test)]
mod tests;

use super::{Method, Outcome, RoundTrace, Run, Status};
use crate::objective::Goal;
use pdhg::Iterate;
use rayon::prelude::*;
use rows::Rows;
use std::time::{Duration, Instant};

pub use crate::policy::FIRST_ORDER_GAP_TOLERANCE;

/// Steps between two measurements of the iterate.
const STEPS_PER_CHECK: usize = 50;
/// Rows added per column by one scan, at most.
const ADDED_PER_SCAN: usize = 8;
/// An iterate counts as settled on its rows (and the scan runs) when its row sums and
/// encoded rows are within this of holding.
const SETTLED_FEASIBILITY: f64 = 1e-7;
/// The fraction of the budget given up so that scaling the rows keeps every pair private is
/// at least this ...
const MIN_SHRINK: f64 = 1e-9;
/// ... and at most this.
const MAX_SHRINK: f64 = 0.01;
/// Scans' worth of time kept for the cleanup when the deadline nears (each cleanup round costs
/// about one scan; on 150 towns the rounds needed to make the rows' scaling exact were 11) ...
const CLEANUP_RESERVE: u32 = 20;
/// ... but at most this share of the time limit.
const CLEANUP_SHARE: f64 = 0.3;
/// PDLP's restart rules (Applegate et al., NeurIPS 2021): restart when the candidate's error
/// fell to this fraction of the error at the last restart, ...
const RESTART_SUFFICIENT: f64 = 0.2;
/// ... or to this fraction and it stopped falling, ...
const RESTART_NECESSARY: f64 = 0.8;
/// ... or when this fraction of all steps passed since the last restart.
const RESTART_ARTIFICIAL: f64 = 0.36;
/// Rounds of row scaling and the envelope before the channel is made exact, at most (each
/// shrinks the rows' excess by about a fifth; fewer when the cleanup's time runs out).
const CLEANUP_ROUNDS: usize = 40;

/// Local neighbours per input: fewer on larger sets, where the local rows' duals are
/// `n^2 k` numbers.
fn neighbours(n: usize) -> usize {
    match n {
        0..=1000 => 8,
        1001..=2500 => 6,
        _ => 4,
    }
}

/// Solve `min sum c[x][y] Q[x][y]` subject to `Q[a][y] <= e^(budgets[a][b]) Q[b][y]` (module
/// docs); `None` for a maximization.
pub fn solve_first_order(
    budgets: &[Vec<f64>],
    coefficients: &[Vec<f64>],
    goal: Goal,
    run: &Run,
) -> Option<Outcome> {
    if goal != Goal::Minimize {
        return None;
    }
    let start = Instant::now();
    let n = budgets.len();
    let mut rows = Rows::new(budgets, neighbours(n));
    let mut it = Iterate::new(coefficients, super::cost_scale(coefficients), &rows);
    it.omega = primal_weight(coefficients, super::cost_scale(coefficients));
    let mut best_bound = f64::NEG_INFINITY;
    let mut trace = Vec::new();
    let (mut steps, mut scans) = (0usize, 0usize);
    let mut scan_cost = Duration::ZERO;
    let mut target = FIRST_ORDER_GAP_TOLERANCE;
    let mut last_scan_steps = 0usize;
    let mut last_scan = Instant::now();
    // At most CLEANUP_SHARE of the time is kept for the cleanup.
    let total = run.deadline().saturating_duration_since(start);
    let mut exact: Option<(Vec<Vec<f64>>, f64)> = None;
    let (mut restart_error, mut last_error) = (f64::INFINITY, f64::INFINITY);
    let (mut restarted_at, mut restarts) = (0usize, 0usize);
    loop {
        // Keep time for a short cleanup (a few scans) and the report.
        let reserve = (scan_cost * CLEANUP_RESERVE).min(total.mul_f64(CLEANUP_SHARE));
        if run.expired() || Instant::now() + reserve >= run.deadline() {
            run.spend();
            break;
        }
        for _ in 0..STEPS_PER_CHECK {
            it.step(&rows);
        }
        steps += STEPS_PER_CHECK;
        // The current point and the mean since the last restart: the better one (by its own
        // gap and infeasibility) is the candidate, and the restart rule of PDLP decides.
        let candidates = [false, true].map(|mean| {
            let m = it.measure(&rows, mean);
            let bound = it.bound(&rows, mean);
            let error = m.row_error.max(m.violation) + relative_gap(m.objective, bound).max(0.0);
            (mean, m, bound, error)
        });
        best_bound = candidates.iter().fold(best_bound, |b, c| b.max(c.2));
        let &(from_mean, m, _, error) = candidates
            .iter()
            .min_by(|a, b| a.3.total_cmp(&b.3))
            .expect("two candidates");
        let since = steps - restarted_at;
        if error <= RESTART_SUFFICIENT * restart_error
            || (error <= RESTART_NECESSARY * restart_error && error > last_error)
            || since as f64 >= RESTART_ARTIFICIAL * steps as f64
        {
            it.restart(from_mean);
            restart_error = error;
            restarted_at = steps;
            restarts += 1;
        }
        last_error = error;
        let gap = relative_gap(m.objective, best_bound);
        run.progress(&format!(
            "first-order, step {steps}: objective {:.9e}, bound {:.9e}, rows off by {:.1e}, {} rows",
            m.objective,
            best_bound,
            m.row_error.max(m.violation),
            rows.count()
        ));
        let settled = gap <= target && m.row_error.max(m.violation) <= SETTLED_FEASIBILITY;
        // Scans of every pair take at most a fifth of the time.
        let periodic =
            steps - last_scan_steps >= 20 * STEPS_PER_CHECK && last_scan.elapsed() >= scan_cost * 4;
        if !(settled || periodic) {
            continue;
        }
        last_scan_steps = steps;
        last_scan = Instant::now();
        let began = Instant::now();
        let added = scan(&mut rows, &it.point(from_mean).q, n);
        it.sync_added(&rows);
        scan_cost = began.elapsed();
        scans += 1;
        trace.push(RoundTrace {
            round: scans,
            columns: n,
            rows: Some(rows.count()),
            objective: m.objective,
            bound: best_bound,
            gap: (m.objective - best_bound).abs(),
            seconds: start.elapsed().as_secs_f64(),
        });
        if added == 0 && settled {
            let (channel, objective) = cleanup(
                &rows,
                &it.point(from_mean).q,
                coefficients,
                cleanup_budget(run, scan_cost),
            );
            let closed = relative_gap(objective, best_bound) <= FIRST_ORDER_GAP_TOLERANCE;
            exact = Some((channel, objective));
            if closed {
                break;
            }
            target /= 10.0;
        }
    }
    let (channel, objective) = match exact {
        Some(e) if relative_gap(e.1, best_bound) <= FIRST_ORDER_GAP_TOLERANCE => e,
        _ => cleanup(
            &rows,
            &it.now.q,
            coefficients,
            cleanup_budget(run, scan_cost),
        ),
    };
    let closed = relative_gap(objective, best_bound) <= FIRST_ORDER_GAP_TOLERANCE;
    Some(Outcome {
        method: Method::FirstOrder,
        status: if closed { Status::Optimal } else { Status::Feasible },
        iterations: steps as u64,
        rows: Some(channel),
        bound: best_bound.is_finite().then_some(best_bound),
        notes: vec![format!(
            "{steps} steps ({restarts} restarts), {scans} scans of every pair, {} rows encoded of {} (local rows to {} neighbours, every column's star rows, and the violated rows found); channel {objective:.9e}, bound {best_bound:.9e}",
            rows.count(),
            n * n * (n - 1),
            neighbours(n)
        )],
        solver_objective: Some(objective),
        trace,
    })
}

/// Time for the cleanup: what is left before the deadline less one scan, at most
/// [`CLEANUP_ROUNDS`] scans.
fn cleanup_budget(run: &Run, scan: Duration) -> Duration {
    let left = run.deadline().saturating_duration_since(Instant::now());
    left.saturating_sub(scan).min(scan * CLEANUP_ROUNDS as u32)
}

/// `(objective - bound) / max(|objective|, tiny)`.
fn relative_gap(objective: f64, bound: f64) -> f64 {
    (objective - bound) / objective.abs().max(f64::MIN_POSITIVE)
}

/// PDLP's starting primal weight `||c|| / ||b||` (Applegate et al., NeurIPS 2021), with `b`
/// the row sums' right-hand side (all ones).
fn primal_weight(coefficients: &[Vec<f64>], scale: f64) -> f64 {
    let n = coefficients.len() as f64;
    let norm = coefficients
        .iter()
        .flatten()
        .map(|c| (c / scale).powi(2))
        .sum::<f64>()
        .sqrt();
    if norm > 0.0 {
        norm / n.sqrt()
    } else {
        1.0
    }
}

/// Scan every pair of every column of `q` and add the violated rows; returns how many.
fn scan(rows: &mut Rows, q: &[f64], n: usize) -> usize {
    let found: Vec<Vec<rows::Row>> = (0..n)
        .into_par_iter()
        .map(|y| rows.violated(y, &q[y * n..(y + 1) * n], ADDED_PER_SCAN))
        .collect();
    let mut added = 0;
    for (y, new) in found.into_iter().enumerate() {
        added += new.len();
        rows.added[y].extend(new);
    }
    added
}

/// The point `q` (by column) made an exact channel, with its objective.
///
/// 1. Entries are clamped at 0; then [`CLEANUP_ROUNDS`] times (fewer when `budget` runs out)
///    rows are scaled to sum 1 and each column raised to the least private column above it
///    ([`Rows::envelope`]). Every column `p_y` is then private; the row sums are
///    `S_x = 1 + e_x` with `e_x >= 0` small.
/// 2. With `T = max(max_x e_x, max_{a != b} (F_ab e_b - e_a) / (F_ab - 1))` (`F_ab =
///    e^(beta_ab) > 1`), the vector `f = T - e` is nonnegative and private: `f_a <= F_ab f_b`
///    rearranges to `T (F_ab - 1) >= F_ab e_b - e_a`. So `Q = (P + f 1_{y*}^T) / (1 + T)`, with
///    `f` added to the one output `y*` where it costs least, has private columns (sums of
///    private columns, scaled) and rows summing to `(S_x + T - e_x) / (1 + T) = 1`.
fn cleanup(
    rows: &Rows,
    q: &[f64],
    coefficients: &[Vec<f64>],
    budget: Duration,
) -> (Vec<Vec<f64>>, f64) {
    let n = rows.n;
    let began = Instant::now();
    let mut q: Vec<f64> = q.iter().map(|v| v.max(0.0)).collect();
    normalize_rows(&mut q, n);
    // The budget's fraction given up: twice the slope of the row sums of the point raised once
    // into the full cone, within [MIN_SHRINK, MAX_SHRINK].
    let mut once = q.clone();
    once.par_chunks_mut(n).for_each(|col| rows.envelope(col));
    let shrink = (2.0 * rows.log_slope(&row_sums(&once, n))).clamp(MIN_SHRINK, MAX_SHRINK);
    drop(once);
    let weights = rows.shrunk_weights(shrink);
    for _ in 0..CLEANUP_ROUNDS {
        let start = Instant::now();
        q.par_chunks_mut(n)
            .for_each(|col| rows::envelope(col, &weights));
        let need = rows.log_slope(&row_sums(&q, n));
        normalize_rows(&mut q, n);
        if need <= shrink {
            // Q_a / Q_b <= e^((1 - t) beta_ab) S_b / S_a <= e^(beta_ab).
            return with_objective(&q, n, coefficients);
        }
        if began.elapsed() + start.elapsed() > budget {
            break;
        }
    }
    q.par_chunks_mut(n).for_each(|col| rows.envelope(col));
    let sums = row_sums(&q, n);
    let e: Vec<f64> = sums.iter().map(|s| (s - 1.0).max(0.0)).collect();
    let top = (0..n)
        .into_par_iter()
        .map(|a| {
            let f = &rows.factor[a * n..(a + 1) * n];
            f.iter().zip(&e).fold(e[a], |t, (&f, &eb)| {
                if f > 1.0 {
                    t.max((f * eb - e[a]) / (f - 1.0))
                } else {
                    t
                }
            })
        })
        .reduce(|| 0.0, f64::max);
    let fill: Vec<f64> = e.iter().map(|e| top - e).collect();
    let best = (0..n)
        .min_by(|&a, &b| {
            let cost =
                |y: usize| -> f64 { fill.iter().zip(coefficients).map(|(f, c)| f * c[y]).sum() };
            cost(a).total_cmp(&cost(b))
        })
        .unwrap_or(0);
    for (v, f) in q[best * n..(best + 1) * n].iter_mut().zip(&fill) {
        *v += f;
    }
    q.iter_mut().for_each(|v| *v /= 1.0 + top);
    with_objective(&q, n, coefficients)
}

/// The channel rows of the column-major `q`, and their objective.
fn with_objective(q: &[f64], n: usize, coefficients: &[Vec<f64>]) -> (Vec<Vec<f64>>, f64) {
    let channel: Vec<Vec<f64>> = (0..n)
        .map(|x| (0..n).map(|y| q[y * n + x]).collect())
        .collect();
    let objective = channel
        .iter()
        .zip(coefficients)
        .map(|(r, c)| r.iter().zip(c).map(|(q, c)| q * c).sum::<f64>())
        .sum();
    (channel, objective)
}

/// Row sums of the column-major `q`.
fn row_sums(q: &[f64], n: usize) -> Vec<f64> {
    let mut sums = vec![0.0; n];
    for col in q.chunks(n) {
        sums.iter_mut().zip(col).for_each(|(s, v)| *s += v);
    }
    sums
}

/// Scale every row of the column-major `q` to sum 1 (a zero row becomes uniform).
fn normalize_rows(q: &mut [f64], n: usize) {
    let sums = row_sums(q, n);
    for col in q.chunks_mut(n) {
        for (v, s) in col.iter_mut().zip(&sums) {
            *v = if *s > 0.0 { *v / s } else { 1.0 / n as f64 };
        }
    }
}

/// The first-order method behind the common trait.
pub struct FirstOrderMethod;

impl super::LinearMethod for FirstOrderMethod {
    fn choice(&self) -> crate::policy::MethodChoice {
        crate::policy::MethodChoice::FirstOrder
    }

    fn refusal(&self, _: &super::Task) -> String {
        "the first-order method needs a minimized linear objective under d-privacy with every pair bounded (no approximate encoding)".into()
    }

    fn solve(
        &self,
        task: &super::Task,
        run: &Run,
    ) -> Result<Option<super::MethodOutcome>, super::SolveError> {
        let Some(coefficients) = task.coefficients else {
            return Ok(None);
        };
        // Every pair bounded (an approximate encoding leaves pairs unbounded and has its own
        // route through a restriction and a relaxation).
        let outcome = super::pair_budgets(&task.notions)
            .filter(|b| b.iter().flatten().all(|v| v.is_finite()))
            .and_then(|budgets| solve_first_order(&budgets, coefficients, task.goal, run));
        Ok(task.with_cone_encoding(
            outcome,
            "ratio rows by output column: local rows to the nearest places, each column's star rows, violated rows added after scans of every pair",
        ))
    }
}
