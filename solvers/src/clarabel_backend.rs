//! Clarabel (pure Rust, interior point) as an [`LpBackend`].
//!
//! The LP `min c.x, A_eq x = b_eq, A_le x <= b_le, l <= x <= u` is passed as Clarabel's
//! `min c.x, A x + s = b, s in K` with `K = {0}^{eq} x R_+^{ineq}`; `>=` rows and finite
//! variable bounds become `<=` rows.

use crate::{BackendError, LinearProgram, LpBackend, LpSolution, LpStatus, Sense, SolveOptions};
use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
};

/// The Clarabel backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClarabelBackend;

/// Clarabel's status mapped onto [`LpStatus`], one arm per status.
fn map_status(status: SolverStatus) -> LpStatus {
    match status {
        SolverStatus::Solved => LpStatus::Optimal,
        SolverStatus::AlmostSolved => LpStatus::OptimalReducedAccuracy,
        SolverStatus::PrimalInfeasible | SolverStatus::AlmostPrimalInfeasible => {
            LpStatus::Infeasible
        }
        SolverStatus::DualInfeasible | SolverStatus::AlmostDualInfeasible => LpStatus::Unbounded,
        SolverStatus::MaxIterations => LpStatus::IterationLimit,
        SolverStatus::MaxTime => LpStatus::TimeLimit,
        SolverStatus::NumericalError | SolverStatus::InsufficientProgress => {
            LpStatus::NumericalTrouble
        }
        SolverStatus::Unsolved => LpStatus::Other("unsolved".into()),
        SolverStatus::CallbackTerminated => LpStatus::Other("callback-terminated".into()),
    }
}

/// Rows of `A x + s = b` as triplets, with the number of leading equality rows.
struct ConicRows {
    rows: Vec<usize>,
    cols: Vec<usize>,
    vals: Vec<f64>,
    rhs: Vec<f64>,
    equalities: usize,
}

impl ConicRows {
    fn push(&mut self, terms: impl Iterator<Item = (usize, f64)>, rhs: f64) {
        let row = self.rhs.len();
        for (col, val) in terms {
            self.rows.push(row);
            self.cols.push(col);
            self.vals.push(val);
        }
        self.rhs.push(rhs);
    }

    fn from_lp(lp: &LinearProgram) -> Self {
        let mut out = ConicRows {
            rows: Vec::new(),
            cols: Vec::new(),
            vals: Vec::new(),
            rhs: Vec::new(),
            equalities: 0,
        };
        for c in lp.constraints().iter().filter(|c| c.sense == Sense::Eq) {
            out.push(c.terms.iter().copied(), c.rhs);
        }
        out.equalities = out.rhs.len();
        for c in lp.constraints() {
            match c.sense {
                Sense::Eq => {}
                Sense::Le => out.push(c.terms.iter().copied(), c.rhs),
                Sense::Ge => out.push(c.terms.iter().map(|&(j, v)| (j, -v)), -c.rhs),
            }
        }
        for (j, (&lo, &hi)) in lp.lower().iter().zip(lp.upper()).enumerate() {
            if lo.is_finite() {
                out.push(std::iter::once((j, -1.0)), -lo);
            }
            if hi.is_finite() {
                out.push(std::iter::once((j, 1.0)), hi);
            }
        }
        out
    }
}

impl LpBackend for ClarabelBackend {
    fn name(&self) -> &'static str {
        "clarabel"
    }

    fn solve(
        &self,
        lp: &LinearProgram,
        options: &SolveOptions,
    ) -> Result<LpSolution, BackendError> {
        let n = lp.num_vars();
        let rows = ConicRows::from_lp(lp);
        let m = rows.rhs.len();
        let a = CscMatrix::new_from_triplets(m, n, rows.rows, rows.cols, rows.vals);
        let p = CscMatrix::<f64>::zeros((n, n));
        let mut cones = Vec::new();
        if rows.equalities > 0 {
            cones.push(SupportedConeT::ZeroConeT(rows.equalities));
        }
        if m > rows.equalities {
            cones.push(SupportedConeT::NonnegativeConeT(m - rows.equalities));
        }
        let rejected = |message: String| BackendError::Rejected {
            backend: "clarabel",
            message,
        };
        let settings = DefaultSettingsBuilder::default()
            .verbose(false)
            .time_limit(options.time_limit_seconds)
            .tol_gap_abs(options.tolerance)
            .tol_gap_rel(options.tolerance)
            .tol_feas(options.tolerance)
            .max_iter(400)
            .build()
            .map_err(|e| rejected(e.to_string()))?;
        let mut solver = DefaultSolver::new(&p, lp.cost(), &a, &rows.rhs, &cones, settings)
            .map_err(|e| rejected(e.to_string()))?;
        solver.solve();
        let solution = &solver.solution;
        let status = map_status(solution.status);
        let x = if status.has_point() {
            solution.x.clone()
        } else {
            Vec::new()
        };
        Ok(LpSolution {
            objective: lp.objective_at(&x),
            status,
            x,
            iterations: u64::from(solution.iterations),
        })
    }
}
