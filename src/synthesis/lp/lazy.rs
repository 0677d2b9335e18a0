//! One LP over the channel with its ratio rows added as they are violated (constraint
//! generation), for notions made only of rows `Q[a][y] <= e^f Q[b][y]` with many of them
//! (d-privacy on a grid: every pair not implied by a collinear point).
//!
//! Each round solves the LP with, per output column, a subset of the rows: at first each
//! input's tightest few, then the ones the previous solution violated. Every round's program is
//! a relaxation of the full one, so its rigorous dual bound (see
//! [`mechsynth_solvers::rigorous_lower_bound`]) bounds the full optimum; the loop ends when the
//! solution violates no row, and certification then checks every pair of the emitted channel.

use crate::objective::Goal;
use crate::privacy::PrivacyNotion;
use crate::rays::ColumnCone;
use crate::synthesis::cost_scale;
use crate::synthesis::symmetry::{preserving, Orbits};
use crate::synthesis::ROW_VIOLATION;
use crate::synthesis::{Method, Outcome, RoundTrace, Run, Status};
use mechsynth_solvers::{rigorous_lower_bound, BackendError, LpStatus};

/// Ratio rows per input and column in the first round.
const INITIAL_ROWS_PER_INPUT: usize = 8;
pub use crate::policy::LAZY_MIN_INPUTS;
pub use crate::policy::LAZY_ROWS_PER_INPUT;
pub use crate::policy::LAZY_SYMMETRIC_MIN_INPUTS;
pub use crate::policy::LAZY_SYMMETRY_ORDER;
pub use crate::policy::LAZY_WARM_MIN_INPUTS;
/// Most violated rows added per input and column in one round.
const ADDED_ROWS_PER_INPUT: usize = 32;
/// Rounds before giving up (each adds only violated rows, so this is never reached in practice).
const MAX_ROUNDS: usize = 100;

/// `Q[a][y] <= factor Q[b][y]`.
#[derive(Debug, Clone, Copy)]
struct Ratio {
    a: usize,
    b: usize,
    factor: f64,
}

/// The cone's rows as ratio rows `(a, b, factor)`, `Q[a][y] <= factor Q[b][y]`, when every
/// row is one (no auxiliary coordinates, no coupling rows).
pub(crate) fn cone_ratio_rows(cone: &ColumnCone) -> Option<Vec<(usize, usize, f64)>> {
    if cone.aux > 0 || !cone.coupling.is_empty() {
        return None;
    }
    cone.rows
        .iter()
        .map(|row| match row.as_slice() {
            &[(b, f), (a, minus)] if minus == -1.0 && f > 0.0 && a != b => Some((a, b, f)),
            _ => None,
        })
        .collect()
}

/// The cone's rows as ratio rows, when every row is one and there are many.
fn ratio_rows(cone: &ColumnCone) -> Option<Vec<Ratio>> {
    let rows: Vec<Ratio> = cone_ratio_rows(cone)?
        .into_iter()
        .map(|(a, b, factor)| Ratio { a, b, factor })
        .collect();
    (rows.len() > LAZY_ROWS_PER_INPUT * cone.n).then_some(rows)
}

/// The order of the symmetry group the lazy LP would use (1 when none, or when the notions are
/// not ratio rows).
pub fn lazy_symmetry_order(
    privacy: &[&dyn PrivacyNotion],
    coefficients: &[Vec<f64>],
    symmetries: &[Vec<usize>],
) -> usize {
    if symmetries.len() <= 1 {
        return 1;
    }
    let Some(cone) = crate::synthesis::combined_cone(privacy, coefficients.len()) else {
        return 1;
    };
    let Some(ratios) = ratio_rows(&cone) else {
        return 1;
    };
    let triples: Vec<(usize, usize, f64)> = ratios.iter().map(|r| (r.a, r.b, r.factor)).collect();
    preserving(symmetries, coefficients, &triples).len()
}

/// Solve `min/max sum c[x][y] Q[x][y]` with lazily added ratio rows; `None` when the notions
/// are not all ratio rows or there are few of them (one LP with all rows is then the method).
/// `symmetries` are candidate permutations of the symbols (see
/// [`crate::synthesis::symmetry::point_symmetries`]); those that preserve the problem bit for bit reduce
/// the program to one variable per orbit.
pub fn solve_with_lazy_rows(
    privacy: &[&dyn PrivacyNotion],
    coefficients: &[Vec<f64>],
    goal: Goal,
    symmetries: &[Vec<usize>],
    run: &Run,
) -> Result<Option<Outcome>, BackendError> {
    let n = coefficients.len();
    let Some(cone) = crate::synthesis::combined_cone(privacy, n) else {
        return Ok(None);
    };
    let Some(ratios) = ratio_rows(&cone) else {
        return Ok(None);
    };
    let m = coefficients.first().map_or(0, Vec::len);
    let sign = match goal {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let scale = cost_scale(coefficients);
    let triples: Vec<(usize, usize, f64)> = ratios.iter().map(|r| (r.a, r.b, r.factor)).collect();
    let group = preserving(symmetries, coefficients, &triples);
    let orbits = Orbits::new(&group, n, m);
    let costs: Vec<Vec<f64>> = coefficients
        .iter()
        .map(|row| row.iter().map(|c| sign * c / scale).collect())
        .collect();
    let mut by_input: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, r) in ratios.iter().enumerate() {
        by_input[r.a].push(k);
    }
    let initial: Vec<usize> = by_input
        .into_iter()
        .flat_map(|mut ks| {
            ks.sort_by(|&i, &j| ratios[i].factor.total_cmp(&ratios[j].factor));
            ks.truncate(INITIAL_ROWS_PER_INPUT);
            ks
        })
        .collect();
    // Rows per column (to skip those present) and in the order they were added, so that each
    // round's program extends the previous one and a warm-starting backend re-optimizes.
    let mut active: Vec<Vec<usize>> = vec![initial.clone(); m];
    let mut order: Vec<(usize, usize)> = (0..m)
        .flat_map(|y| initial.iter().map(move |&k| (k, y)))
        .collect();
    let mut session = mechsynth_solvers::session(run.backend);
    let mut warm_rounds = 0;
    let mut best_bound = f64::NEG_INFINITY;
    let mut iterations = 0;
    let mut notes = Vec::new();
    if orbits.order > 1 {
        notes.push(format!(
            "symmetry: {} permutations of the symbols (maps of the points' bounding box) preserve the prior-weighted loss and every privacy row bit for bit, so the program keeps one variable per orbit of entries ({} of {}) and its optimum is the full problem's",
            orbits.order,
            orbits.variables(),
            n * m
        ));
    }
    let mut rows_out = None;
    let mut solver_objective = None;
    let mut trace = Vec::new();
    let start = std::time::Instant::now();
    let mut status = Status::Feasible;
    let mut stopped = false;
    for round in 1..=MAX_ROUNDS {
        let ratios = &ratios;
        let program = orbits.program(
            &costs,
            order.iter().map(|&(k, y)| {
                let r = ratios[k];
                (r.a, r.b, y, r.factor)
            }),
        );
        let s = session.solve(&program, &run.backend_options())?;
        warm_rounds += usize::from(session.last_was_warm());
        iterations += s.iterations;
        if !s.status.has_point() {
            notes.push(format!(
                "round {round}: the LP ended without a point ({})",
                s.status
            ));
            status = Status::Solver(s.status);
            break;
        }
        if let Some(b) = rigorous_lower_bound(&program, &s) {
            best_bound = best_bound.max(b);
        }
        let q = orbits.expand(&s.x);
        let added = add_violated(ratios, &q, &mut active, &mut order);
        let encoded: usize = active.iter().map(Vec::len).sum();
        let objective = sign * s.objective * scale;
        trace.push(RoundTrace {
            round,
            columns: m,
            rows: Some(order.len() - added),
            objective,
            bound: sign * best_bound * scale,
            gap: (objective - sign * best_bound * scale).abs(),
            seconds: start.elapsed().as_secs_f64(),
        });
        run.progress(&format!(
            "lazy rows round {round}: objective {:.9e}, bound {:.9e}, {added} violated rows added, {encoded} encoded",
            sign * s.objective * scale,
            sign * best_bound * scale
        ));
        rows_out = Some(q);
        solver_objective = Some(sign * s.objective * scale);
        if matches!(s.status, LpStatus::TimeLimit | LpStatus::IterationLimit) {
            notes.push(format!(
                "round {round}: the LP stopped early ({}), so its point may violate rows and row sums; certification repairs it",
                s.status
            ));
            stopped = s.status == LpStatus::TimeLimit;
            status = Status::from_lp(s.status);
            break;
        }
        if added == 0 {
            notes.push(format!(
                "ratio rows added as violated: {round} rounds ({warm_rounds} re-optimized from the previous basis), {encoded} of {} rows encoded",
                ratios.len() * m
            ));
            status = Status::from_lp(s.status);
            break;
        }
        if run.expired() {
            notes.push(format!("the time limit ended the row generation after {round} rounds; the point violates some rows"));
            stopped = true;
            break;
        }
    }
    if stopped {
        // The last point keeps only the rows encoded so far: raised and normalized into the
        // cone (see `repair`), it is a channel at about its own cost, where mixing with a
        // constant channel would cost several times it.
        if let Some(r) = rows_out
            .as_ref()
            .and_then(|r| crate::synthesis::repair::repair_ratio_iterate(&triples, r, Some(&costs)))
        {
            notes.push("the stopped point was made a channel that keeps every ratio row by raising each column to the least private column above it and normalizing in the cone".into());
            rows_out = Some(r);
        }
    }
    Ok(Some(Outcome {
        method: Method::LazyRows,
        status,
        iterations,
        rows: rows_out,
        bound: best_bound.is_finite().then_some(sign * best_bound * scale),
        notes,
        solver_objective,
        trace,
    }))
}

/// Add to each column's active rows the ones `q` violates (the worst few per input); how many.
fn add_violated(
    ratios: &[Ratio],
    q: &[Vec<f64>],
    active: &mut [Vec<usize>],
    order: &mut Vec<(usize, usize)>,
) -> usize {
    let n = q.len();
    let mut added = 0;
    for (y, rows) in active.iter_mut().enumerate() {
        let mut present = vec![false; ratios.len()];
        rows.iter().for_each(|&k| present[k] = true);
        let mut worst: Vec<Vec<(f64, usize)>> = vec![Vec::new(); n];
        for (k, r) in ratios.iter().enumerate() {
            let excess = q[r.a][y] - r.factor * q[r.b][y];
            if !present[k] && excess > ROW_VIOLATION {
                worst[r.a].push((excess, k));
            }
        }
        for mut list in worst {
            list.sort_by(|x, y| y.0.total_cmp(&x.0));
            let take = list.len().min(ADDED_ROWS_PER_INPUT);
            for (_, k) in list.into_iter().take(take) {
                rows.push(k);
                order.push((k, y));
            }
            added += take;
        }
    }
    added
}

/// One LP with ratio rows added as violated, behind the common trait.
pub struct LazyRowsMethod;

impl crate::synthesis::LinearMethod for LazyRowsMethod {
    fn choice(&self) -> crate::policy::MethodChoice {
        crate::policy::MethodChoice::LazyRows
    }

    fn refusal(&self, _: &crate::synthesis::Task) -> String {
        format!("lazy rows need notions made only of ratio rows, more than {LAZY_ROWS_PER_INPUT} per input (d-privacy, context-ldp)")
    }

    fn solve(
        &self,
        task: &crate::synthesis::Task,
        run: &Run,
    ) -> Result<Option<crate::synthesis::MethodOutcome>, crate::synthesis::SolveError> {
        let Some(coefficients) = task.coefficients else {
            return Ok(None);
        };
        let outcome = solve_with_lazy_rows(
            &task.notions,
            coefficients,
            task.goal,
            task.symmetries(),
            run,
        )?;
        Ok(task.with_cone_encoding(
            outcome,
            "ratio rows added as violated (see the method notes)",
        ))
    }
}
