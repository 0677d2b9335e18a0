//! Clarabel (pure Rust, interior point) as an [`LpBackend`].
//!
//! The program `min c.x, A_eq x = b_eq, A_le x <= b_le, l <= x <= u, (x_i, x_j, x_k) in K_exp`
//! is passed as Clarabel's `min c.x, A x + s = b, s in K` with
//! `K = {0}^{eq} x R_+^{ineq} x K_exp^{cones}`; `>=` rows and finite variable bounds become `<=`
//! rows, and each exponential cone is three rows `-x_i + s = 0`.

use crate::{BackendError, LinearProgram, LpBackend, LpSolution, LpStatus, Sense, SolveOptions};
use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
};

/// The Clarabel backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClarabelBackend;

/// Interior-point iterations allowed (Clarabel's default is 200; conic problems may need more).
const MAX_ITERATIONS: u32 = 400;

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

/// Rows of `A x + s = b` as triplets, with the cone layout and, for every original constraint,
/// its conic row and the sign that turns Clarabel's dual into [`LpSolution::duals`].
struct ConicRows {
    rows: Vec<usize>,
    cols: Vec<usize>,
    vals: Vec<f64>,
    rhs: Vec<f64>,
    equalities: usize,
    inequalities: usize,
    /// `(conic row, sign)` per original constraint.
    origin: Vec<(usize, f64)>,
}

impl ConicRows {
    fn push(&mut self, terms: impl Iterator<Item = (usize, f64)>, rhs: f64) -> usize {
        let row = self.rhs.len();
        for (col, val) in terms {
            self.rows.push(row);
            self.cols.push(col);
            self.vals.push(val);
        }
        self.rhs.push(rhs);
        row
    }

    fn from_lp(lp: &LinearProgram) -> Self {
        let mut out = ConicRows {
            rows: Vec::new(),
            cols: Vec::new(),
            vals: Vec::new(),
            rhs: Vec::new(),
            equalities: 0,
            inequalities: 0,
            origin: vec![(0, 0.0); lp.num_constraints()],
        };
        // Stationarity reads c + A^T z = 0, so a row `a x (sense) b` written as `a x + s = b`
        // has dual -z, and a `>=` row written as `-a x + s = -b` has dual +z.
        for (k, c) in lp.constraints().iter().enumerate() {
            if c.sense == Sense::Eq {
                out.origin[k] = (out.push(c.terms.iter().copied(), c.rhs), -1.0);
            }
        }
        out.equalities = out.rhs.len();
        for (k, c) in lp.constraints().iter().enumerate() {
            match c.sense {
                Sense::Eq => {}
                Sense::Le => out.origin[k] = (out.push(c.terms.iter().copied(), c.rhs), -1.0),
                Sense::Ge => {
                    let row = out.push(c.terms.iter().map(|&(j, v)| (j, -v)), -c.rhs);
                    out.origin[k] = (row, 1.0);
                }
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
        out.inequalities = out.rhs.len() - out.equalities;
        for cone in lp.exp_cones() {
            for &j in cone {
                out.push(std::iter::once((j, -1.0)), 0.0);
            }
        }
        out
    }

    fn cones(&self, exp_cones: usize) -> Vec<SupportedConeT<f64>> {
        let mut cones = Vec::new();
        if self.equalities > 0 {
            cones.push(SupportedConeT::ZeroConeT(self.equalities));
        }
        if self.inequalities > 0 {
            cones.push(SupportedConeT::NonnegativeConeT(self.inequalities));
        }
        cones.extend((0..exp_cones).map(|_| SupportedConeT::ExponentialConeT()));
        cones
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
        let cones = rows.cones(lp.exp_cones().len());
        let a = CscMatrix::new_from_triplets(m, n, rows.rows, rows.cols, rows.vals);
        let p = CscMatrix::<f64>::zeros((n, n));
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
            .max_iter(MAX_ITERATIONS)
            .build()
            .map_err(|e| rejected(e.to_string()))?;
        let mut solver = DefaultSolver::new(&p, lp.cost(), &a, &rows.rhs, &cones, settings)
            .map_err(|e| rejected(e.to_string()))?;
        solver.solve();
        let solution = &solver.solution;
        let status = map_status(solution.status);
        let (x, duals, cone_duals) = if status.has_point() {
            let duals = rows
                .origin
                .iter()
                .map(|&(row, sign)| sign * solution.z[row])
                .collect();
            // The cone rows come last, three per cone, `-x + s = 0`: the reduced cost of x
            // loses exactly Clarabel's dual z on them.
            let first = m - 3 * lp.exp_cones().len();
            let cone_duals = (0..lp.exp_cones().len())
                .map(|i| {
                    let r = first + 3 * i;
                    [solution.z[r], solution.z[r + 1], solution.z[r + 2]]
                })
                .collect();
            (solution.x.clone(), duals, cone_duals)
        } else {
            (Vec::new(), Vec::new(), Vec::new())
        };
        Ok(LpSolution {
            objective: lp.objective_at(&x),
            status,
            x,
            duals,
            cone_duals,
            iterations: u64::from(solution.iterations),
        })
    }
}
