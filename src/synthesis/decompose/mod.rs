//! Linear objectives by decomposition over outputs (Dantzig-Wolfe column generation).
//!
//! A linear objective `sum_{x,y} c[x][y] Q[x][y]` is a sum of per-column costs `c_y . q_y`, and a
//! polyhedral notion without coupling rows confines each column to a cone C; the columns meet
//! only in the `n` row sums. The restricted master (`master.rs`) chooses weights over
//! generated columns; pricing (`pricing.rs`) finds, for every output, the column of
//! least reduced cost. For any prices `p`, every channel satisfies
//!
//! ```text
//! sum_y c_y . q_y = sum_x p_x + sum_y (c_y - p) . q_y >= sum_x p_x + sum_y min(0, m_y(p)),
//! m_y(p) = min { (c_y - p) . q : q in C, 0 <= q <= 1 },
//! ```
//!
//! because the row sums are 1 and each column's entries are probabilities (Lagrangian
//! relaxation of the row sums). With rigorous lower bounds on every `m_y` this bound is rigorous
//! at every round, so the gap is known throughout and the loop stops when it closes or the time
//! runs out (returning the master's channel, its bound and its gap).

pub(crate) mod master;
pub(crate) mod pricing;

use super::{Method, Outcome, Run, Status};
use crate::objective::Goal;
use crate::privacy::PrivacyNotion;
use crate::rays::RayFamily;
use master::{channel_rows, solve_master, Column, MasterPoint};
use mechsynth_solvers::{backend, BackendError, LpBackend};
use pricing::{lagrangian_bound, Pricer};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// The loop stops when the gap is at most this, relative to `max(1, |objective|)` in the scaled
/// units (well inside the report's default tolerance of 1e-6 relative).
pub const DECOMPOSITION_GAP_TOLERANCE: f64 = 1e-8;
/// A column enters the master only with a reduced cost below `-this` (scaled units).
const ENTERING_REDUCED_COST: f64 = 1e-10;
/// Weight of the best-bound prices in the smoothed pricing point (Wentges smoothing).
const SMOOTHING: f64 = 0.5;
/// Rounds before giving up (each adds up to one column per output).
const MAX_ROUNDS: usize = 2000;

/// A pricing pass: the Lagrangian bound and the columns found, by output.
type PricedRound = (f64, Vec<(usize, Vec<f64>)>);

/// One round of an iterative method (a decomposition round, an interior-point iteration, a
/// lazy-rows round), for the report's trace.
#[derive(Debug, Clone, Serialize)]
pub struct RoundTrace {
    /// Round number (from 1).
    pub round: usize,
    /// Columns in the master (the interior-point method and lazy rows: the channel's outputs).
    pub columns: usize,
    /// Ratio rows encoded in the round's program (lazy rows only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    /// The master's objective (the interior-point method: its best channel's; lazy rows: the
    /// round's program, a relaxation until no row is violated), in the problem's units.
    pub objective: f64,
    /// The best rigorous bound so far (in the problem's units).
    pub bound: f64,
    /// `|objective - bound|`.
    pub gap: f64,
    /// Seconds since the start.
    pub seconds: f64,
}

/// Whether the decomposition applies: every notion polyhedral and column-wise, without
/// auxiliary coordinates or coupling rows.
pub fn decomposition_applies(privacy: &[&dyn PrivacyNotion], n: usize) -> bool {
    staircase_epsilon(privacy).is_some()
        || super::combined_cone(privacy, n).is_some_and(|c| c.aux == 0 && c.coupling.is_empty())
}

/// Whether the decomposition is the faster method (measured: with closed-form pricing, i.e. a
/// lone LDP constraint; with pricing LPs one LP over the channel is faster up to the sizes
/// where either finishes).
pub fn decomposition_is_faster(privacy: &[&dyn PrivacyNotion]) -> bool {
    staircase_epsilon(privacy).is_some()
}

/// The epsilon of a lone LDP constraint (priced in closed form, without building its cone).
pub fn staircase_epsilon(privacy: &[&dyn PrivacyNotion]) -> Option<f64> {
    match privacy {
        [single] => match single.ray_family() {
            Some(RayFamily::Staircase { epsilon }) => Some(epsilon),
            _ => None,
        },
        _ => None,
    }
}

/// Solve `min/max sum c[x][y] Q[x][y]` by decomposition, in at most `max_rounds` rounds (at
/// most `MAX_ROUNDS`); `None` when it does not apply.
pub fn solve_by_decomposition(
    privacy: &[&dyn PrivacyNotion],
    coefficients: &[Vec<f64>],
    goal: Goal,
    max_rounds: Option<usize>,
    run: &Run,
) -> Result<Option<Outcome>, BackendError> {
    let n = coefficients.len();
    let staircase = staircase_epsilon(privacy);
    let cone = match staircase {
        Some(_) => None,
        None => match super::combined_cone(privacy, n) {
            Some(c) if c.aux == 0 && c.coupling.is_empty() => Some(c),
            _ => return Ok(None),
        },
    };
    let start = Instant::now();
    let sign = match goal {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let scale = super::cost_scale(coefficients);
    let to_problem = |v: f64| sign * v * scale;
    let outputs = coefficients.first().map_or(0, Vec::len);
    let costs: Vec<Vec<f64>> = (0..outputs)
        .map(|y| (0..n).map(|x| sign * coefficients[x][y] / scale).collect())
        .collect();
    let pricer = Pricer::new(n, cone.as_ref(), staircase);
    let active: Vec<Vec<usize>> = vec![pricer.initial_rows(); outputs];
    let cost_of = |y: usize, q: &[f64]| -> f64 { costs[y].iter().zip(q).map(|(c, v)| c * v).sum() };
    // The all-ones column makes the master feasible (the constant channel meets every notion);
    // one spike column per output (k-RR's columns under LDP) gives it something to choose.
    let mut columns: Vec<Column> = std::iter::once((0, vec![1.0; n]))
        .chain(
            (0..outputs).filter_map(|y| Some((y, spike_column(n, cone.as_ref(), staircase, y)?))),
        )
        .map(|(y, q)| Column {
            output: y,
            cost: cost_of(y, &q),
            q,
        })
        .collect();
    let kind = super::run::backend_kind(run.backend);
    // Non-negative costs: no channel costs less than 0, a bound that holds from the start.
    let mut best_bound = if costs.iter().flatten().all(|c| *c >= 0.0) {
        0.0
    } else {
        f64::NEG_INFINITY
    };
    let mut trace = Vec::new();
    let mut notes = Vec::new();
    let mut last: Option<MasterPoint> = None;
    let mut iterations = 0;
    let mut converged = false;
    let active = std::sync::Mutex::new(active);
    // Price every output at `prices`: the Lagrangian bound (rounded down) and the columns.
    let price_all = |prices: &[f64]| -> Result<PricedRound, BackendError> {
        let options = run.backend_options();
        let mut rows = active.lock().unwrap_or_else(|e| e.into_inner());
        let priced: Vec<_> = (0..outputs)
            .into_par_iter()
            .zip(rows.par_iter_mut())
            .map_init(
                || kind.and_then(|k| backend(k).ok()),
                |own, (y, rows)| {
                    let d: Vec<f64> = costs[y].iter().zip(prices).map(|(c, p)| c - p).collect();
                    let b: &dyn LpBackend = match own.as_deref() {
                        Some(b) => b,
                        None => &mechsynth_solvers::ClarabelBackend,
                    };
                    pricer.price(&d, rows, b, &options)
                },
            )
            .collect::<Result<_, _>>()?;
        let mut lowers = Vec::with_capacity(outputs);
        let mut found = Vec::new();
        for (y, p) in priced.into_iter().enumerate() {
            lowers.push(p.lower);
            if let Some(q) = p.column {
                found.push((y, q));
            }
        }
        Ok((lagrangian_bound(prices, &lowers), found))
    };
    let mut best_prices: Option<Vec<f64>> = None;
    let cap = max_rounds.unwrap_or(MAX_ROUNDS).min(MAX_ROUNDS);
    for round in 1..=cap {
        let master = solve_master(n, &columns, run.backend, &run.backend_options())?;
        iterations += master.solution.iterations;
        if master.weights.is_empty() {
            notes.push(format!(
                "the master LP ended without a point ({})",
                master.solution.status
            ));
            break;
        }
        // A master stopped early (time limit) can end worse than the last round's.
        if matches!(
            master.solution.status,
            mechsynth_solvers::LpStatus::TimeLimit | mechsynth_solvers::LpStatus::IterationLimit
        ) {
            if let Some(previous) = last.as_ref().filter(|p| p.objective <= master.objective) {
                notes.push(format!(
                    "round {round}: the master LP stopped early ({}) at a worse point than round {}'s ({:.9e} against {:.9e}); that round's channel is kept",
                    master.solution.status,
                    round - 1,
                    to_problem(master.objective),
                    to_problem(previous.objective)
                ));
                break;
            }
        }
        let prices = master.prices.clone();
        let objective = master.objective;
        last = Some(master);
        // Wentges smoothing: price at a point between the prices of the best bound so far and
        // the master's; when that finds no column that improves the master, price at the
        // master's prices themselves.
        let centers = match &best_prices {
            Some(best) if SMOOTHING > 0.0 => vec![blend(best, &prices), prices.clone()],
            _ => vec![prices.clone()],
        };
        let mut added = 0;
        for center in centers {
            let (bound, found) = price_all(&center)?;
            if bound > best_bound {
                best_bound = bound;
                best_prices = Some(center.clone());
            }
            for (y, q) in found {
                let cost = cost_of(y, &q);
                let reduced = cost - q.iter().zip(&prices).map(|(a, b)| a * b).sum::<f64>();
                if reduced < -ENTERING_REDUCED_COST {
                    columns.push(Column { output: y, cost, q });
                    added += 1;
                }
            }
            if added > 0 {
                break;
            }
        }
        let gap = objective - best_bound;
        trace.push(RoundTrace {
            round,
            columns: columns.len(),
            rows: None,
            objective: to_problem(objective),
            bound: to_problem(best_bound),
            gap: (gap * scale).abs(),
            seconds: start.elapsed().as_secs_f64(),
        });
        run.progress(&format!(
            "decomposition round {round}: {} columns, objective {:.9e}, bound {:.9e}, gap {:.2e}",
            columns.len(),
            to_problem(objective),
            to_problem(best_bound),
            (gap * scale).abs()
        ));
        if gap <= DECOMPOSITION_GAP_TOLERANCE * objective.abs().max(1.0) {
            converged = true;
            break;
        }
        if added == 0 {
            notes.push(
                "pricing found no improving column but the gap is open (solver accuracy)".into(),
            );
            break;
        }
        if run.expired() {
            notes.push("the time limit ended the decomposition; the channel is the last master's, with the best bound so far".into());
            break;
        }
        if round == cap {
            notes.push(format!(
                "the decomposition stopped at its cap of {cap} round{}",
                if cap == 1 { "" } else { "s" }
            ));
        }
    }
    let rows = last
        .as_ref()
        .map(|m| channel_rows(n, outputs, &columns, &m.weights));
    let used = last
        .as_ref()
        .map_or(0, |m| m.weights.iter().filter(|w| **w > 0.0).count());
    notes.insert(
        0,
        format!(
            "decomposition over outputs: {} round{}, {} columns generated, {used} used; {}",
            trace.len(),
            if trace.len() == 1 { "" } else { "s" },
            columns.len(),
            match &pricer {
                Pricer::Staircase { .. } => "closed-form staircase pricing".to_string(),
                Pricer::Cone { lazy: true, .. } =>
                    "pricing LPs with ratio rows added as violated".to_string(),
                Pricer::Cone { .. } => "pricing LPs over the column cone".to_string(),
            }
        ),
    );
    Ok(Some(Outcome {
        method: Method::Decomposition,
        status: if converged {
            Status::Optimal
        } else {
            Status::Feasible
        },
        iterations,
        rows,
        bound: best_bound.is_finite().then(|| to_problem(best_bound)),
        notes,
        solver_objective: last.as_ref().map(|m| to_problem(m.objective)),
        trace,
    }))
}

/// Below this fraction of the largest admissible spike, the spike column is shrunk (rounding
/// margin for the cone's rows).
const SPIKE_MARGIN: f64 = 1e-9;

/// The column `(1 + a e_y) / (1 + a)` of the cone with the largest spike `a` at `y` (k-RR's
/// column under LDP); `None` when the cone allows no spike.
fn spike_column(
    n: usize,
    cone: Option<&crate::rays::ColumnCone>,
    staircase: Option<f64>,
    y: usize,
) -> Option<Vec<f64>> {
    // Each row r . z >= 0 at z = 1 + a e_y reads sum(r) + a r_y >= 0.
    let mut a = f64::INFINITY;
    if let Some(eps) = staircase {
        a = eps.exp_m1();
    }
    for row in cone.map_or(&[][..], |c| &c.rows[..]) {
        let r_y: f64 = row.iter().filter(|t| t.0 == y).map(|t| t.1).sum();
        if r_y < 0.0 {
            let total: f64 = row.iter().map(|t| t.1).sum();
            a = a.min(total.max(0.0) / -r_y);
        }
    }
    if !a.is_finite() {
        a = 1e6;
    }
    let a = a * (1.0 - SPIKE_MARGIN);
    (a > 0.0).then(|| {
        let mut q = vec![1.0 / (1.0 + a); n];
        q[y] = 1.0;
        q
    })
}

/// `SMOOTHING * best + (1 - SMOOTHING) * current`.
fn blend(best: &[f64], current: &[f64]) -> Vec<f64> {
    best.iter()
        .zip(current)
        .map(|(b, c)| SMOOTHING * b + (1.0 - SMOOTHING) * c)
        .collect()
}

/// Decomposition over outputs behind the common trait (run to its own end; `auto` runs it
/// differently under a lone LDP constraint, see `solve`).
pub struct DecompositionMethod;

impl super::LinearMethod for DecompositionMethod {
    fn choice(&self) -> crate::policy::MethodChoice {
        crate::policy::MethodChoice::Decomposition
    }

    fn refusal(&self, _: &super::Task) -> String {
        "decomposition needs polyhedral notions without coupling rows (not max-leakage, mutual-information or (eps, delta) notions)".into()
    }

    fn solve(
        &self,
        task: &super::Task,
        run: &Run,
    ) -> Result<Option<super::MethodOutcome>, super::SolveError> {
        let Some(coefficients) = task.coefficients else {
            return Ok(None);
        };
        let outcome = solve_by_decomposition(&task.notions, coefficients, task.goal, None, run)?;
        Ok(task.with_cone_encoding(outcome, "column cone for pricing"))
    }
}
