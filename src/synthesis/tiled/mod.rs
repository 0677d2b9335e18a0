//! Large lattices whose problem looks the same from every cell (a uniform prior, a loss and
//! ratio rows that depend only on the displacement between points: geo-indistinguishability on
//! a grid), by a template: the same problem on a smaller lattice, solved to its certified
//! optimum, carried to every output of the large one.
//!
//! **Why it works.** Under d-privacy an optimal column decays like `e^(-eps d)` away from its
//! output, so what happens more than a few `1 / eps` from an output barely matters to it: an
//! output of the large lattice sees the same edges, within reach, as the template output at
//! the same distance from them (see [`lattice::Placement`]).
//!
//! **Channel.** Each output gets its template column, carried by the shift and extended to the
//! rest of the lattice by the least values the ratio rows allow ([`shapes`]); a master program
//! ([`master`]) weighs these columns, the columns `e^(-eps d(y, x))` and the constant column
//! (which keep it feasible) so that every row sums to 1. Every column lies in the cone, so the
//! channel is private before certification rechecks it.
//!
//! **Bound.** The template's duals of its ratio rows, carried the same way, give the large
//! problem a first Lagrangian bound ([`bound`]), rigorous but loose. Column generation on the
//! large lattice itself then tightens it ([`ascent`]): Lasdon's bound at row prices from the
//! master program, with each output's pricing bounded from below on a window around it
//! ([`window`]). The report's gap is the distance between the channel and the best bound:
//! certified, though not closed to the tolerance of the exact methods (on a 50 x 50 grid it
//! ends near 0.6%).

mod ascent;
mod bound;
mod lattice;
mod master;
mod shapes;
#[cfg(test)]
mod tests;
mod window;

use super::ratio_interior::solve_rows;
use super::symmetry::point_symmetries;
use super::{Method, Outcome, RoundTrace, Run, Status};
use crate::objective::Goal;
use lattice::{Lattice, Placement};
use master::{Candidate, Group};
use shapes::Factors;
use std::time::Instant;

pub use crate::policy::TEMPLATE_SIDE;
pub use crate::policy::TILED_MAX_INPUTS;
pub use crate::policy::TILED_MIN_INPUTS;
/// The channel's columns lie in the cone of `eps (1 - MARGIN)` (see [`solve_tiled`]).
const MARGIN: f64 = 1e-10;
/// Costs and factors count as the same for two pairs with the same displacement when they
/// differ by at most this, relative to the largest.
const SAME_VALUE: f64 = 1e-12;

/// Solve `min sum c[x][y] Q[x][y]` subject to `Q[a][y] <= e^(budgets[a][b]) Q[b][y]` over a
/// large lattice from a template (module docs);
/// `None` when it does not apply: fewer than [`TILED_MIN_INPUTS`] points, not a full lattice,
/// a maximization, budgets that are not those of a metric or that vary with position, or
/// costs that change with position.
pub fn solve_tiled(
    budgets: &[Vec<f64>],
    coefficients: &[Vec<f64>],
    goal: Goal,
    points: &[[f64; 2]],
    run: &Run,
) -> Option<Outcome> {
    solve_with_side(budgets, coefficients, goal, points, TEMPLATE_SIDE, run)
}

/// [`solve_tiled`] with a template of at most `side` cells along each axis.
fn solve_with_side(
    budgets: &[Vec<f64>],
    coefficients: &[Vec<f64>],
    goal: Goal,
    points: &[[f64; 2]],
    side: usize,
    run: &Run,
) -> Option<Outcome> {
    let start = Instant::now();
    let n = coefficients.len();
    if goal != Goal::Minimize || points.len() != n {
        return None;
    }
    if coefficients.iter().any(|r| r.len() != n) {
        return None;
    }
    let large = Lattice::detect(points)?;
    let (t_rows, t_cols) = (large.rows.min(side), large.cols.min(side));
    if (t_rows, t_cols) == (large.rows, large.cols) {
        return None;
    }
    let factors = Factors::on_lattice(&large, budgets, SAME_VALUE)?;
    if !invariant(&large, coefficients) {
        return None;
    }
    // The template: the problem restricted to the lattice's corner.
    let symbols: Vec<usize> = (0..t_rows)
        .flat_map(|i| (0..t_cols).map(move |j| (i, j)))
        .map(|(i, j)| large.at(i, j))
        .collect();
    let t = symbols.len();
    let small_points: Vec<[f64; 2]> = symbols.iter().map(|&s| points[s]).collect();
    let small = Lattice::detect(&small_points)?;
    let small_costs: Vec<Vec<f64>> = symbols
        .iter()
        .map(|&x| symbols.iter().map(|&y| coefficients[x][y]).collect())
        .collect();
    let small_ratios: Vec<(usize, usize, f64)> = (0..t)
        .flat_map(|a| (0..t).map(move |b| (a, b)))
        .filter(|&(a, b)| a != b)
        .map(|(a, b)| (a, b, factors.get(symbols[a], symbols[b])))
        .filter(|r| r.2.is_finite())
        .collect();
    run.progress(&format!(
        "tiled: solving the {t_rows} x {t_cols} template of the {} x {} lattice",
        large.rows, large.cols
    ));
    let (template, duals) = solve_rows(
        &small_ratios,
        &small_costs,
        goal,
        &point_symmetries(&small_points),
        run,
    );
    let (Some(template_rows), Some(duals)) = (template.rows.as_ref(), duals) else {
        return None;
    };
    let template_seconds = start.elapsed().as_secs_f64();
    run.progress("tiled: carrying the template's columns and duals to every output");
    let placement = Placement::new(large.rows, large.cols, t_rows, t_cols);
    let bound = bound::carried_bound(coefficients, &large, &small, &placement, &duals, &factors);
    let group = Group::new(preserving(
        &point_symmetries(points),
        coefficients,
        &factors,
    ));
    // The columns are built in the cone of eps (1 - MARGIN): rounding then cannot push the
    // channel past eps, and certification needs no repair (a repair costs two more O(n^3)
    // scans: 100 s at 2,500 points).
    let inner = factors.shrunk(MARGIN);
    let mut candidates = Vec::new();
    for y in group.representatives() {
        let carried = shapes::carried_column(y, &large, &small, &placement, template_rows, &inner);
        for column in [carried, shapes::star(n, y, &inner), vec![1.0; n]] {
            candidates.push(Candidate {
                output: y,
                column: group.symmetrize(y, &column),
            });
        }
    }
    if run.expired() {
        // The master program is one backend call that does not stop at the deadline (on a
        // 40 x 40 grid it ran 47 s past a 3 s limit): no channel from this method.
        return Some(Outcome {
            method: Method::Tiled,
            status: Status::Solver(mechsynth_solvers::LpStatus::TimeLimit),
            iterations: template.iterations,
            rows: None,
            bound: Some(bound),
            notes: vec![format!("tiled from a {t_rows} x {t_cols} template: the time limit came before the master program")],
            solver_objective: None,
            trace: Vec::new(),
        });
    }
    run.progress(&format!(
        "tiled: master program over {} candidate columns, bound {bound:.9e}",
        candidates.len()
    ));
    let solved = match master::solve_master(&group, &candidates, coefficients, true, None, run) {
        Ok(s) => s,
        Err(why) => {
            // No channel from this method; the bound still holds for the large problem.
            return Some(Outcome {
                method: Method::Tiled,
                status: Status::Feasible,
                iterations: template.iterations,
                rows: None,
                bound: Some(bound),
                notes: vec![format!("tiled from a {t_rows} x {t_cols} template: {why}")],
                solver_objective: None,
                trace: Vec::new(),
            });
        }
    };
    let master_seconds = start.elapsed().as_secs_f64() - template_seconds;
    let column_count = candidates.len();
    let first = RoundTrace {
        round: 1,
        columns: column_count,
        rows: None,
        objective: solved.objective,
        bound,
        gap: (solved.objective - bound).abs(),
        seconds: start.elapsed().as_secs_f64(),
    };
    let ascent = ascent::Ascent {
        costs: coefficients,
        lattice: &large,
        factors: &factors,
        group: &group,
        objective: solved.objective,
        start,
    };
    // Each input's expected loss under the channel: smooth, and summing to its objective.
    let losses: Vec<f64> = solved
        .rows
        .iter()
        .zip(coefficients)
        .map(|(q, c)| q.iter().zip(c).map(|(a, b)| a * b).sum())
        .collect();
    let tightened = ascent.tighten(bound, candidates, &losses, run);
    let carried = bound;
    let bound = tightened.bound;
    let mut notes = vec![format!(
        "tiled from a {t_rows} x {t_cols} template ({template_seconds:.1} s; its own gap {}), carried to the {} x {} lattice: {} candidate columns for {} output orbits, master program {:.1} s; bound {carried:.9e} from the template's duals carried to every output (Lagrangian relaxation of the ratio rows), then {bound:.9e} after {} rounds of column generation on the large lattice (Lasdon bound, windows of e^{} decay priced by Clarabel)",
        template
            .bound
            .zip(template.solver_objective)
            .map_or("unknown".to_string(), |(b, v)| format!("{:.1e} relative", (v - b) / v.abs().max(f64::MIN_POSITIVE))),
        large.rows,
        large.cols,
        column_count,
        group.representatives().len(),
        master_seconds,
        tightened.rounds,
        window::WINDOW_DECAY,
    )];
    notes.extend(template.notes.iter().map(|s| format!("template: {s}")));
    Some(Outcome {
        method: Method::Tiled,
        status: Status::Feasible,
        iterations: template.iterations + solved.iterations,
        rows: Some(solved.rows),
        bound: Some(bound),
        notes,
        solver_objective: Some(solved.objective),
        trace: std::iter::once(first).chain(tightened.trace).collect(),
    })
}

/// Whether every cost depends only on the displacement between its points.
fn invariant(large: &Lattice, costs: &[Vec<f64>]) -> bool {
    let (rows, cols) = (large.rows, large.cols);
    let width = 2 * cols - 1;
    let key = |x: usize, y: usize| {
        let ((a, b), (c, d)) = (large.cell(x), large.cell(y));
        (c + rows - 1 - a) * width + (d + cols - 1 - b)
    };
    let n = large.len();
    let largest = costs.iter().flatten().fold(0.0f64, |m, c| m.max(c.abs()));
    let mut cost_of = vec![f64::NAN; (2 * rows - 1) * width];
    (0..n).all(|x| {
        (0..n).all(|y| {
            let k = key(x, y);
            if cost_of[k].is_nan() {
                cost_of[k] = costs[x][y];
            }
            let (a, b) = (costs[x][y], cost_of[k]);
            a == b || (a - b).abs() <= SAME_VALUE * largest
        })
    })
}

/// The candidate permutations that keep every cost and every factor bit for bit, with the
/// identity first.
fn preserving(candidates: &[Vec<usize>], costs: &[Vec<f64>], factors: &Factors) -> Vec<Vec<usize>> {
    let n = costs.len();
    let identity: Vec<usize> = (0..n).collect();
    let mut group = vec![identity.clone()];
    for g in candidates {
        if g.len() != n || *g == identity {
            continue;
        }
        let kept = (0..n).all(|x| {
            (0..n).all(|y| {
                costs[g[x]][g[y]].to_bits() == costs[x][y].to_bits()
                    && factors.get(g[x], g[y]).to_bits() == factors.get(x, y).to_bits()
            })
        });
        if kept {
            group.push(g.clone());
        }
    }
    group
}

/// The tiled method behind the common trait.
pub struct TiledMethod;

impl super::LinearMethod for TiledMethod {
    fn choice(&self) -> crate::policy::MethodChoice {
        crate::policy::MethodChoice::Tiled
    }

    fn refusal(&self, _: &super::Task) -> String {
        format!("the tiled method needs a minimized linear objective under notions made only of ratio rows (d-privacy) over a full grid of at least {TILED_MIN_INPUTS} points, larger than {TEMPLATE_SIDE} cells along some axis, whose costs and factors depend only on the displacement between points (a uniform prior)")
    }

    fn solve(
        &self,
        task: &super::Task,
        run: &Run,
    ) -> Result<Option<super::MethodOutcome>, super::SolveError> {
        let Some(coefficients) = task.coefficients else {
            return Ok(None);
        };
        if !task.problem.domain.has_geometry() {
            return Ok(None);
        }
        let outcome = super::pair_budgets(&task.notions).and_then(|budgets| {
            solve_tiled(
                &budgets,
                coefficients,
                task.goal,
                &task.problem.domain.coordinates(),
                run,
            )
        });
        Ok(task.with_cone_encoding(
            outcome,
            "ratio rows of a template lattice, carried to every output",
        ))
    }
}
