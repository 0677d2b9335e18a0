//! HiGHS (C++, simplex and interior point) as an [`LpBackend`]; cargo feature `highs`.

use crate::{BackendError, LinearProgram, LpBackend, LpSolution, LpStatus, Sense, SolveOptions};
use highs::{HighsModelStatus, RowProblem};

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
        if !lp.exp_cones().is_empty() {
            return Err(BackendError::Unsupported {
                backend: "highs",
                reason: "it solves linear programs only and this model has exponential cones \
                         (mutual-information privacy); use the clarabel backend"
                    .into(),
            });
        }
        let mut problem = RowProblem::default();
        let cols: Vec<_> = (0..lp.num_vars())
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
        let rejected = |status: highs::HighsStatus| BackendError::Rejected {
            backend: "highs",
            message: format!("{status:?}"),
        };
        let mut model = problem
            .try_optimise(highs::Sense::Minimise)
            .map_err(rejected)?;
        model.make_quiet();
        model.set_option("time_limit", options.time_limit_seconds);
        model.set_option("primal_feasibility_tolerance", options.tolerance.max(1e-10));
        model.set_option("dual_feasibility_tolerance", options.tolerance.max(1e-10));
        let solved = model.try_solve().map_err(rejected)?;
        let status = map_status(solved.status());
        let (x, duals) = if status.has_point() {
            let solution = solved.get_solution();
            (solution.columns().to_vec(), solution.dual_rows().to_vec())
        } else {
            (Vec::new(), Vec::new())
        };
        let iterations = solved.simplex_iteration_count().max(0) as u64
            + solved.ipm_iteration_count().max(0) as u64;
        Ok(LpSolution {
            objective: lp.objective_at(&x),
            status,
            x,
            duals,
            cone_duals: Vec::new(),
            iterations,
        })
    }
}
