//! Linear objectives under notions made only of ratio rows `Q[a][y] <= f Q[b][y]` with
//! `f > 1` (d-privacy, geo-indistinguishability, context-aware LDP without zero entries,
//! eps-LDP), by a primal-dual interior-point method that works one output column at a time.
//!
//! Every ratio row lives in one column and the columns are coupled only by the row sums, so
//! the Newton system is block diagonal up to those sums: each column's block `H_y` is a dense
//! matrix over the column's entries (every pair of a Euclidean grid is a row), factored on its
//! own, and the row sums' duals solve a small Schur complement (see [`newton`]). A general sparse
//! solver factors one system over every entry and every row instead, and its fill and its
//! scalar kernels are what made geo-indistinguishability on a 20 x 20 grid take minutes.
//! With a symmetry group (see [`super::symmetry`]) there is one block per orbit of output
//! columns and one row sum per orbit of inputs, so a square grid with a uniform prior has about
//! an eighth of the blocks.
//!
//! **Start.** The uniform channel: every row holds strictly (`f > 1`) and every row sum is 1, so
//! every iterate is a channel up to rounding and a time limit still returns a feasible one.
//! A later round starts from the latest iterate of the round before at which every added row
//! holds with a margin (see [`warm`]); it keeps every row sum too. On a 20 x 20 grid the rounds
//! that add a few rows then take 5 to 15 iterations instead of 60 to 80.
//!
//! **Rows.** The first round encodes each input's tightest rows; each later round adds the rows
//! the last point violates and, with them, those within [`NEAR_BINDING`] of binding, which are
//! the ones likely to bind once the violated rows hold (a cutting-plane method's
//! epsilon-active rows). The final certificate checks every pair, encoded or not.
//!
//! **Bound.** For any `mu` and any `z >= 0`, every feasible point has
//! `c.q = r.q + mu.(B q) + z.(G q) >= r.q + sum_r mu_r` with `r = c - B^T mu - G^T z`. Every
//! variable (an orbit of entries `(x, y)`) lies in exactly one row sum, that of the orbit of its
//! inputs, with a positive count `B_rv`, so `r.q = sum_r sum_v (r_v / B_rv) B_rv q_v >= sum_r
//! min_v r_v / B_rv` (each row sum is a convex combination; weak duality as in Neumaier and
//! Shcherbina, Math. Programming 99, 2004). It is computed with its rounding error bounded
//! (Higham, Sec. 3.1), so it is rigorous at the method's inexact duals. The reduced program's
//! optimum is the full problem's (the group average of a channel is feasible with the same
//! objective), so the bound holds for the full problem.

mod bound;
mod duals;
mod factor;
mod newton;
mod path;
mod step;
mod structure;
mod warm;

use super::symmetry::{preserving, Orbits};
use super::{Method, Outcome, RoundTrace, Run, Status};
use crate::objective::Goal;
use crate::privacy::PrivacyNotion;
pub(crate) use duals::ColumnDuals;
use std::time::Instant;
use structure::Structure;

pub use crate::policy::RATIO_INTERIOR_MIN_INPUTS;
/// The method stops when the gap between its point's objective and the rigorous bound is at
/// most this relative to the objective plus `ABSOLUTE_GAP` (well inside the report's default
/// tolerance of 1e-9 plus 1e-6 relative, leaving room for the rounding of the channel).
pub const RATIO_INTERIOR_GAP_TOLERANCE: f64 = 1e-8;
/// The absolute part of the stopping gap, in units of the largest cost.
const ABSOLUTE_GAP: f64 = 1e-11;
/// Rounds that still find violated rows stop at this relative gap.
const LOOSE_GAP_TOLERANCE: f64 = 1e-4;
/// Ratio rows per input encoded in every block at first (the tightest: smallest factors).
const INITIAL_ROWS_PER_INPUT: usize = 8;
/// Most violated rows added per input and block after a round (32 took 10 rounds on a 20 x 20
/// grid, 512 took 6).
const ADDED_ROWS_PER_INPUT: usize = 512;
/// A row counts as violated when `q_a - f q_b` exceeds this relative to the larger side.
const RELATIVE_VIOLATION: f64 = 1e-9;
/// After a round that found violated rows, the rows with `q_a > (1 - NEAR_BINDING) f q_b` are
/// encoded too (on grids of 20 x 20 and 30 x 30: 143 and 267 iterations instead of 269 and
/// 401; 0.1 took 187 at 20 x 20, 0.6 took 160 with twice the rows).
const NEAR_BINDING: f64 = 0.3;
/// Rounds of row generation before giving up (each adds only violated rows).
const MAX_ROUNDS: usize = 50;

/// Whether the method applies: every notion's column cone is made of ratio rows with factors
/// above 1 (as floating-point numbers), without auxiliary coordinates or coupling rows.
pub fn ratio_interior_applies(privacy: &[&dyn PrivacyNotion], n: usize) -> bool {
    ratio_rows(privacy, n).is_some()
}

fn ratio_rows(privacy: &[&dyn PrivacyNotion], n: usize) -> Option<Vec<(usize, usize, f64)>> {
    let cone = super::combined_cone(privacy, n)?;
    let rows = super::lp::lazy::cone_ratio_rows(&cone)?;
    (n >= 2 && rows.iter().all(|r| r.2 > 1.0 && r.2.is_finite())).then_some(rows)
}

/// Solve `min/max sum c[x][y] Q[x][y]` (`coefficients` is n x m) by the blockwise
/// interior-point method, with ratio rows added as the rounds' points violate them; `None` when
/// it does not apply (see [`ratio_interior_applies`]). `symmetries` are candidate permutations
/// of the symbols (those that preserve the problem bit for bit reduce it).
pub fn solve_ratio_interior(
    privacy: &[&dyn PrivacyNotion],
    coefficients: &[Vec<f64>],
    goal: Goal,
    symmetries: &[Vec<usize>],
    run: &Run,
) -> Option<Outcome> {
    let n = coefficients.len();
    let ratios = ratio_rows(privacy, n)?;
    Some(solve_rows(&ratios, coefficients, goal, symmetries, run).0)
}

/// The same over explicit ratio rows `(a, b, f)` (`Q[a][y] <= f Q[b][y]` in every column,
/// every `f > 1`), with the duals of the last point's encoded rows in every output column of
/// the full program (see [`duals`]), in the objective's units.
pub(crate) fn solve_rows(
    ratios: &[(usize, usize, f64)],
    coefficients: &[Vec<f64>],
    goal: Goal,
    symmetries: &[Vec<usize>],
    run: &Run,
) -> (Outcome, Option<ColumnDuals>) {
    let start = Instant::now();
    let n = coefficients.len();
    let m = coefficients.first().map_or(0, Vec::len);
    let sign = match goal {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let scale = super::cost_scale(coefficients);
    let to_problem = |v: f64| sign * v * scale;
    let costs: Vec<Vec<f64>> = coefficients
        .iter()
        .map(|row| row.iter().map(|c| sign * c / scale).collect())
        .collect();
    let mut group = preserving(symmetries, coefficients, ratios);
    let orbits = Orbits::new(&group, n, m);
    if orbits.order == 1 {
        group.truncate(1);
    }
    let mut structure = Structure::new(&costs, ratios, &orbits);
    structure.encode(&tightest_rows(ratios, n));
    let mut notes = Vec::new();
    let mut trace = Vec::new();
    let mut best_bound = f64::NEG_INFINITY;
    let mut point = None;
    let mut iterations = 0;
    let mut rounds = 0;
    let mut warm_starts = 0;
    let mut complete = false;
    let mut out_of_time = false;
    // Rounds stop at a loose gap while they still find violated rows; once one finds none, the
    // same run goes on to the tight gap.
    let mut loose = true;
    let mut previous: Option<path::Solved> = None;
    for round in 1..=MAX_ROUNDS {
        rounds = round;
        let encoded = structure.active_rows();
        let relative = if loose {
            LOOSE_GAP_TOLERANCE
        } else {
            RATIO_INTERIOR_GAP_TOLERANCE
        };
        let tolerance = |objective: f64| relative * objective.abs() + ABSOLUTE_GAP;
        let from = previous.take();
        let before = from.as_ref().map_or(0, |f| f.iterations);
        let solved = path::interior_point(&structure, run, from, tolerance, |s, mu| {
            run.progress(&format!(
                "ratio interior point, round {round} ({encoded} rows), iteration {}: objective {:.9e}, bound {:.9e}, mu {mu:.1e}",
                s.iterations,
                to_problem(s.objective),
                to_problem(best_bound.max(s.bound)),
            ));
        });
        iterations += solved.iterations - before;
        best_bound = best_bound.max(solved.bound);
        let added = structure.add_violated(&solved.q, RELATIVE_VIOLATION, ADDED_ROWS_PER_INPUT);
        trace.push(RoundTrace {
            round,
            columns: m,
            rows: Some(encoded),
            objective: to_problem(solved.objective),
            bound: to_problem(best_bound),
            gap: ((solved.objective - best_bound) * scale).abs(),
            seconds: start.elapsed().as_secs_f64(),
        });
        run.progress(&format!(
            "ratio interior point, round {round}: {} iterations, objective {:.9e}, bound {:.9e}, {added} violated rows added",
            solved.iterations,
            to_problem(solved.objective),
            to_problem(best_bound)
        ));
        if let Some(why) = &solved.stopped {
            notes.push(format!("round {round}: {why}"));
        }
        out_of_time |= solved.out_of_time;
        if added == 0 && loose && solved.stopped.is_none() {
            loose = false;
            previous = Some(solved);
            continue;
        }
        let mut solved = solved;
        let checkpoints = std::mem::take(&mut solved.checkpoints);
        if added == 0 {
            point = Some(solved);
            complete = true;
            break;
        }
        // Rows close to binding at this point are likely to bind once the violated ones hold:
        // encoding them now saves rounds (each round costs tens of iterations).
        if run.expired() || solved.out_of_time {
            out_of_time = true;
            point = Some(solved);
            let s = if round == 1 { "" } else { "s" };
            notes.push(format!("the time limit ended the row generation after {round} round{s}; the point violates some rows"));
            break;
        }
        let near = structure.add_violated(&solved.q, -NEAR_BINDING, ADDED_ROWS_PER_INPUT);
        run.progress(&format!(
            "ratio interior point, round {round}: {near} rows within {NEAR_BINDING} of binding added"
        ));
        point = Some(solved);
        previous = warm::resume(&structure, checkpoints);
        if previous.is_some() {
            warm_starts += 1;
        }
    }
    if !complete && rounds == MAX_ROUNDS {
        notes.push(format!(
            "row generation stopped at its cap of {MAX_ROUNDS} rounds"
        ));
    }
    notes.insert(
        0,
        format!(
            "interior point by output column: {} blocks of at most {} entries, {} row sums; {rounds} round{} of row generation ({} of {} ratio rows encoded; {warm_starts} warm-started from a checkpoint of the previous round), {iterations} iterations, {:.2} s; bound from weak duality at its duals",
            structure.blocks.len(),
            structure.blocks.iter().map(|b| b.size).max().unwrap_or(0),
            structure.sums,
            if rounds == 1 { "" } else { "s" },
            structure.active_rows(),
            structure.ratios.len() * structure.blocks.len(),
            start.elapsed().as_secs_f64()
        ),
    );
    if orbits.order > 1 {
        notes.push(format!(
            "symmetry: {} permutations of the symbols preserve the prior-weighted loss and every privacy row bit for bit, so the program keeps one variable per orbit of entries ({} of {})",
            orbits.order,
            orbits.variables(),
            n * m
        ));
    }
    let duals = point
        .as_ref()
        .map(|s| structure.column_duals(&group, &s.last.z, scale));
    let mut rows = point.as_ref().map(|s| structure.expand(&orbits, &s.q));
    if out_of_time {
        rows = rows.map(|r| repaired(ratios, coefficients, sign, r, &mut notes));
    }
    let outcome = Outcome {
        method: Method::RatioInteriorPoint,
        status: Status::Feasible,
        iterations: iterations as u64,
        rows,
        bound: best_bound.is_finite().then(|| to_problem(best_bound)),
        notes,
        solver_objective: point.map(|s| to_problem(s.objective)),
        trace,
    };
    (outcome, duals)
}

/// The iterate a time limit stopped, made a channel that keeps every ratio row by
/// [`super::repair::repair_ratio_iterate`] (envelope, then normalization in the cone), with a
/// note of what that cost; the iterate itself when the repair does not apply.
fn repaired(
    ratios: &[(usize, usize, f64)],
    coefficients: &[Vec<f64>],
    sign: f64,
    iterate: Vec<Vec<f64>>,
    notes: &mut Vec<String>,
) -> Vec<Vec<f64>> {
    let costs: Vec<Vec<f64>> = coefficients
        .iter()
        .map(|row| row.iter().map(|c| sign * c).collect())
        .collect();
    let value = |rows: &[Vec<f64>]| -> f64 {
        rows.iter()
            .zip(coefficients)
            .map(|(r, c)| r.iter().zip(c).map(|(q, c)| q * c).sum::<f64>())
            .sum()
    };
    match super::repair::repair_ratio_iterate(ratios, &iterate, Some(&costs)) {
        Some(channel) => {
            notes.push(format!(
                "the stopped iterate (objective {:.9e}) was made a channel that keeps every ratio row by raising each column to the least private column above it and normalizing in the cone (objective {:.9e})",
                value(&iterate),
                value(&channel)
            ));
            channel
        }
        None => iterate,
    }
}

/// Each input's [`INITIAL_ROWS_PER_INPUT`] tightest rows (smallest factors).
fn tightest_rows(ratios: &[(usize, usize, f64)], n: usize) -> Vec<usize> {
    let mut by_input: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, r) in ratios.iter().enumerate() {
        by_input[r.0].push(k);
    }
    by_input
        .into_iter()
        .flat_map(|mut ks| {
            ks.sort_by(|&i, &j| ratios[i].2.total_cmp(&ratios[j].2));
            ks.truncate(INITIAL_ROWS_PER_INPUT);
            ks
        })
        .collect()
}

/// The interior point by output column behind the common trait.
pub struct RatioInteriorMethod;

impl super::LinearMethod for RatioInteriorMethod {
    fn choice(&self) -> crate::policy::MethodChoice {
        crate::policy::MethodChoice::RatioInteriorPoint
    }

    fn refusal(&self, _: &super::Task) -> String {
        "the ratio-interior-point method needs notions made only of ratio rows Q[a][y] <= f Q[b][y] with every factor above 1 (d-privacy between distinct points, context-ldp without zero entries, ldp with eps > 0), without (eps, delta) or coupling rows".into()
    }

    fn solve(
        &self,
        task: &super::Task,
        run: &Run,
    ) -> Result<Option<super::MethodOutcome>, super::SolveError> {
        let Some(coefficients) = task.coefficients else {
            return Ok(None);
        };
        let outcome = solve_ratio_interior(
            &task.notions,
            coefficients,
            task.goal,
            task.symmetries(),
            run,
        );
        Ok(task.with_cone_encoding(outcome, "ratio rows, one dense block per output column"))
    }
}
