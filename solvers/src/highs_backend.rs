//! HiGHS (C++, simplex and interior point) as an [`LpBackend`]; cargo feature `highs`.

use crate::session::Fingerprint;
use crate::{
    BackendError, Constraint, LinearProgram, LpBackend, LpSession, LpSolution, LpStatus, Sense,
    SolveOptions,
};
use highs::{Col, HighsModelStatus, Model, RowProblem, SolvedModel};
use std::time::Instant;

/// The HiGHS backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct HighsBackend;

/// HiGHS's model status mapped onto [`LpStatus`], one arm per status.
fn map_status(status: HighsModelStatus) -> LpStatus {
    match status {
        HighsModelStatus::Optimal => LpStatus::Optimal,
        HighsModelStatus::Infeasible => LpStatus::Infeasible,
        HighsModelStatus::Unbounded => LpStatus::Unbounded,
        HighsModelStatus::UnboundedOrInfeasible => LpStatus::InfeasibleOrUnbounded,
        HighsModelStatus::ReachedIterationLimit => LpStatus::IterationLimit,
        HighsModelStatus::ReachedTimeLimit => LpStatus::TimeLimit,
        HighsModelStatus::SolveError
        | HighsModelStatus::PresolveError
        | HighsModelStatus::PostsolveError => LpStatus::NumericalTrouble,
        HighsModelStatus::NotSet => LpStatus::Other("not-set".into()),
        HighsModelStatus::LoadError => LpStatus::Other("load-error".into()),
        HighsModelStatus::ModelError => LpStatus::Other("model-error".into()),
        HighsModelStatus::ModelEmpty => LpStatus::Other("model-empty".into()),
        HighsModelStatus::ObjectiveBound => LpStatus::Other("objective-bound".into()),
        HighsModelStatus::ObjectiveTarget => LpStatus::Other("objective-target".into()),
        HighsModelStatus::Unknown => LpStatus::Other("unknown".into()),
        HighsModelStatus::ReachedSolutionLimit => LpStatus::Other("solution-limit".into()),
        HighsModelStatus::ReachedInterrupt => LpStatus::Other("interrupted".into()),
        HighsModelStatus::ReachedMemoryLimit => LpStatus::Other("memory-limit".into()),
        other => LpStatus::Other(format!("{other:?}")),
    }
}

impl LpBackend for HighsBackend {
    fn name(&self) -> &'static str {
        "highs"
    }

    fn solve(
        &self,
        lp: &LinearProgram,
        options: &SolveOptions,
    ) -> Result<LpSolution, BackendError> {
        let (model, _) = load(lp)?;
        let solved = run(model, options, 0.0)?;
        Ok(read(&solved, lp))
    }

    fn warm_session(&self) -> Option<Box<dyn LpSession + '_>> {
        Some(Box::new(HighsSession::default()))
    }
}

fn rejected(status: highs::HighsStatus) -> BackendError {
    BackendError::Rejected {
        backend: "highs",
        message: format!("{status:?}"),
    }
}

/// `lp` as a HiGHS model, with the handles of its columns.
fn load(lp: &LinearProgram) -> Result<(Model, Vec<Col>), BackendError> {
    if !lp.exp_cones().is_empty() {
        return Err(BackendError::Unsupported {
            backend: "highs",
            reason: "it solves linear programs only and this model has exponential cones \
                     (mutual-information privacy); use the clarabel backend"
                .into(),
        });
    }
    let mut problem = RowProblem::default();
    let cols: Vec<Col> = (0..lp.num_vars())
        .map(|j| problem.add_column(lp.cost()[j], lp.lower()[j]..=lp.upper()[j]))
        .collect();
    for c in lp.constraints() {
        let terms = c.terms.iter().map(|&(j, v)| (cols[j], v));
        match c.sense {
            Sense::Eq => problem.add_row(c.rhs..=c.rhs, terms),
            Sense::Le => problem.add_row(..=c.rhs, terms),
            Sense::Ge => problem.add_row(c.rhs.., terms),
        }
    }
    let model = problem
        .try_optimise(highs::Sense::Minimise)
        .map_err(rejected)?;
    Ok((model, cols))
}

/// Append `rows` to a loaded model.
fn append(model: &mut Model, cols: &[Col], rows: &[Constraint]) -> Result<(), BackendError> {
    for c in rows {
        let terms = c.terms.iter().map(|&(j, v)| (cols[j], v));
        match c.sense {
            Sense::Eq => model.try_add_row(c.rhs..=c.rhs, terms),
            Sense::Le => model.try_add_row(..=c.rhs, terms),
            Sense::Ge => model.try_add_row(c.rhs.., terms),
        }
        .map_err(rejected)?;
    }
    Ok(())
}

/// Solve a loaded model under `options`. HiGHS compares its `time_limit` with the time of every
/// run on the same model added up (HiGHS issues 1331 and 1477), so a model solved before for
/// `spent` seconds gets the limit `spent + options.time_limit_seconds`.
fn run(mut model: Model, options: &SolveOptions, spent: f64) -> Result<SolvedModel, BackendError> {
    model.make_quiet();
    model.set_option("time_limit", spent + options.time_limit_seconds);
    model.set_option("primal_feasibility_tolerance", options.tolerance.max(1e-10));
    model.set_option("dual_feasibility_tolerance", options.tolerance.max(1e-10));
    model.try_solve().map_err(rejected)
}

/// The solution of a solved model of `lp`.
fn read(solved: &SolvedModel, lp: &LinearProgram) -> LpSolution {
    let status = map_status(solved.status());
    let (x, duals) = if status.has_point() {
        let solution = solved.get_solution();
        (solution.columns().to_vec(), solution.dual_rows().to_vec())
    } else {
        (Vec::new(), Vec::new())
    };
    let iterations =
        solved.simplex_iteration_count().max(0) as u64 + solved.ipm_iteration_count().max(0) as u64;
    LpSolution {
        objective: lp.objective_at(&x),
        status,
        x,
        duals,
        cone_duals: Vec::new(),
        iterations,
    }
}

/// The model of the last program, kept to re-optimize an extension of it.
struct Held {
    model: Model,
    cols: Vec<Col>,
    print: Fingerprint,
    /// Seconds spent in runs on this model so far (HiGHS's clock for its time limit).
    spent: f64,
}

/// A HiGHS session: appended rows are added to the solved model, and HiGHS re-optimizes from
/// its basis (dual simplex: the old basis stays dual feasible when rows are added).
#[derive(Default)]
struct HighsSession {
    held: Option<Held>,
    warm: bool,
}

impl LpSession for HighsSession {
    fn solve(
        &mut self,
        lp: &LinearProgram,
        options: &SolveOptions,
    ) -> Result<LpSolution, BackendError> {
        let (model, cols, spent, warm) = match self.held.take() {
            Some(mut held) if held.print.is_extended_by(lp) => {
                append(
                    &mut held.model,
                    &held.cols,
                    &lp.constraints()[held.print.constraints..],
                )?;
                (held.model, held.cols, held.spent, true)
            }
            _ => {
                let (model, cols) = load(lp)?;
                (model, cols, 0.0, false)
            }
        };
        let started = Instant::now();
        let solved = run(model, options, spent)?;
        let spent = spent + started.elapsed().as_secs_f64();
        let solution = read(&solved, lp);
        self.held = Some(Held {
            model: Model::from(solved),
            cols,
            print: Fingerprint::of(lp),
            spent,
        });
        self.warm = warm;
        Ok(solution)
    }

    fn last_was_warm(&self) -> bool {
        self.warm
    }
}
