//! Certified optimal eps-d-privacy on an equally spaced line, for linear objectives.
//!
//! Primal (`primal.rs`): the truncated geometric mechanism followed by the Bayes remap, which
//! Ghosh, Roughgarden and Sundararajan ("Universally utility-maximizing privacy mechanisms",
//! STOC 2009; SIAM J. Comput. 41(6):1673-1693, 2012) prove optimal for every prior and every
//! loss non-decreasing in `|x - y|`. Bound (`pricing.rs`): for any prices `u`, every channel
//! satisfies
//!
//! ```text
//! sum_y c_y . q_y >= sum_x u_x + sum_y min(0, m_y(u)),
//! m_y(u) = min { (c_y - u) . q : q in C, 0 <= q <= 1 }
//! ```
//!
//! (Lagrangian relaxation of the row sums, as in the decomposition), and on a line `m_y` is a
//! shortest path computed exactly by dynamic programming, with outward rounding. The prices
//! `u = K^-1 b` are the unique optimal dual when the primal is optimal, so the bound then meets
//! the primal; when the loss is not monotone the gap says so honestly. O(n m) for the primal's
//! remap, O(n^2) for its channel and O(n m K) for the bound (K <= n levels, at most
//! `LEVEL_CUTOFF / t`).

mod geometry;
mod pricing;
mod primal;

pub use geometry::{equally_spaced, EquallySpacedLine, PRIMAL_BUDGET_MARGIN, SPACING_TOLERANCE};
pub use pricing::{capped_minimum, line_pricing_lower_bound, Levels, LEVEL_CUTOFF};
pub use primal::{geometric_remap, kms_inverse_times, tent_products, GeometricRemap};

use super::{Method, Outcome, Run, Status};
use crate::objective::Goal;
use std::time::Instant;

pub use crate::policy::LINE_MAX_INPUTS;

pub use crate::policy::LINE_GAP_TOLERANCE;

/// Solve `min/max sum c[x][y] Q[x][y]` (`coefficients[x][y]`, original input order) under the
/// d-privacy constraint of `line`: the remapped geometric channel and the rigorous bound.
pub fn solve_on_line(
    line: &EquallySpacedLine,
    coefficients: &[Vec<f64>],
    goal: Goal,
    run: &Run,
) -> Outcome {
    let start = Instant::now();
    let n = line.len();
    let sign = match goal {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let outputs = coefficients.first().map_or(0, Vec::len);
    // Costs by output, inputs in line order (negation is exact).
    let costs: Vec<Vec<f64>> = (0..outputs)
        .map(|y| {
            line.order
                .iter()
                .map(|&x| sign * coefficients[x][y])
                .collect()
        })
        .collect();
    let primal = geometric_remap(&costs, line.primal_log_ratio);
    let line_rows = primal.rows(outputs);
    let mut rows = vec![Vec::new(); n];
    for (i, row) in line_rows.into_iter().enumerate() {
        rows[line.order[i]] = row;
    }
    let used = {
        let mut seen = vec![false; outputs];
        primal.output_of_tent.iter().for_each(|&y| seen[y] = true);
        seen.iter().filter(|s| **s).count()
    };
    run.progress(&format!(
        "line: remapped geometric mechanism over {n} points ({used} outputs used), objective {:.9e}; pricing {outputs} outputs",
        sign * primal.objective
    ));
    let deadline = run.deadline();
    let stop = move || Instant::now() >= deadline;
    let sink = run.progress_sink();
    let done = move |k: usize| {
        if let Some(sink) = &sink {
            sink(&format!("line: priced {k} of {outputs} outputs"));
        }
    };
    let priced =
        pricing::price_all_outputs(&costs, &primal.prices, line.bound_log_ratio, &stop, &done);
    let mut notes = vec![format!(
        "truncated geometric mechanism (per-step ratio e^{:.6e}) remapped to the Bayes output of each of its {n} outputs ({used} distinct); bound by exact dynamic-programming pricing on the line ({} levels)",
        line.primal_log_ratio,
        Levels::new(n, line.bound_log_ratio).count()
    )];
    let bound = match priced {
        Some(lower) => Some(lagrangian_bound(&primal.prices, &lower)),
        None => {
            notes.push("the time limit ended the pricing; the channel has no bound".into());
            None
        }
    };
    let closed = bound.is_some_and(|b| {
        primal.objective - b <= LINE_GAP_TOLERANCE * primal.objective.abs().max(1.0)
    });
    if let (Some(b), false) = (bound, closed) {
        notes.push(format!(
            "the bound does not meet the remapped geometric mechanism (gap {:.3e}): the loss is not non-decreasing in the distance, or the optimum needs other columns",
            primal.objective - b
        ));
    }
    run.progress(&format!(
        "line: bound {} after {:.2} s",
        bound.map_or("none".to_string(), |b| format!("{:.9e}", sign * b)),
        start.elapsed().as_secs_f64()
    ));
    Outcome {
        method: Method::GeometricRemap,
        status: if closed {
            Status::Optimal
        } else {
            Status::Feasible
        },
        iterations: 0,
        rows: Some(rows),
        bound: bound.map(|b| sign * b),
        notes,
        solver_objective: Some(sign * primal.objective),
        trace: Vec::new(),
    }
}

/// `sum_x u_x + sum_y min(0, lower_y)`, rounded down with the error bound of the sum.
fn lagrangian_bound(prices: &[f64], lower: &[f64]) -> f64 {
    let terms = prices
        .iter()
        .copied()
        .chain(lower.iter().map(|l| l.min(0.0)));
    let (total, magnitude) = terms.fold((0.0, 0.0), |(s, m), v| (s + v, m + v.abs()));
    let count = prices.len() + lower.len();
    let error = pricing::gamma(count + 4) * magnitude;
    (total - error).next_down()
}

/// The line method behind the common trait.
pub struct LineMethod;

impl super::LinearMethod for LineMethod {
    fn choice(&self) -> crate::policy::MethodChoice {
        crate::policy::MethodChoice::Line
    }

    fn refusal(&self, _: &super::Task) -> String {
        "the line method needs a linear objective and one d-privacy constraint with metric = \"line\" over equally spaced points".into()
    }

    fn solve(
        &self,
        task: &super::Task,
        run: &Run,
    ) -> Result<Option<super::MethodOutcome>, super::SolveError> {
        let (Some(coefficients), Some(line)) =
            (task.coefficients, EquallySpacedLine::of(task.problem))
        else {
            return Ok(None);
        };
        let outcome = solve_on_line(&line, coefficients, task.goal, run);
        let encoding = vec![format!(
            "d-privacy: equally spaced line, {} adjacent pairs (they imply the rest); no program is built",
            2 * (task.inputs() - 1)
        )];
        Ok(Some(super::MethodOutcome { outcome, encoding }))
    }
}
