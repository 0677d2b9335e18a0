#![warn(missing_docs)]
//! LP backends for mechsynth behind one small trait.
//!
//! mechsynth formulates every mechanism-design problem as a [`LinearProgram`] and hands it to a
//! [`LpBackend`]. This crate owns every solver dependency: the pure-Rust interior-point solver
//! Clarabel (always built) and the HiGHS simplex/IPM solver (cargo feature `highs`). Every
//! backend status is mapped explicitly onto [`LpStatus`]; nothing is reported as optimal unless
//! the backend said so.
//!
//! ```
//! use mechsynth_solvers::{backend, BackendKind, LinearProgram, LpStatus, Sense, SolveOptions};
//!
//! // minimize x + 2y  subject to  x + y = 1,  x, y in [0, 1]
//! let mut lp = LinearProgram::new();
//! let x = lp.add_var(1.0, 0.0, 1.0);
//! let y = lp.add_var(2.0, 0.0, 1.0);
//! lp.add_constraint(vec![(x, 1.0), (y, 1.0)], Sense::Eq, 1.0);
//! let solution = backend(BackendKind::Clarabel)
//!     .unwrap()
//!     .solve(&lp, &SolveOptions::default())
//!     .unwrap();
//! assert_eq!(solution.status, LpStatus::Optimal);
//! assert!((solution.x[x] - 1.0).abs() < 1e-7);
//! ```

mod bound;
mod clarabel_backend;
#[cfg(feature = "highs")]
mod highs_backend;
mod model;
mod session;

pub use bound::rigorous_lower_bound;
pub use clarabel_backend::ClarabelBackend;
#[cfg(feature = "highs")]
pub use highs_backend::HighsBackend;
pub use model::{Constraint, LinearProgram, Sense, VarId};
pub use session::{session, LpSession};

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which LP backend to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum BackendKind {
    /// Clarabel, a pure-Rust interior-point conic solver (always available).
    #[default]
    Clarabel,
    /// HiGHS, a C++ simplex and interior-point solver (cargo feature `highs`).
    Highs,
}

impl BackendKind {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Clarabel => "clarabel",
            BackendKind::Highs => "highs",
        }
    }

    /// Whether this build contains the backend.
    pub fn is_available(self) -> bool {
        match self {
            BackendKind::Clarabel => true,
            BackendKind::Highs => cfg!(feature = "highs"),
        }
    }
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Options common to every backend.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveOptions {
    /// Wall-clock limit for one solve, in seconds.
    pub time_limit_seconds: f64,
    /// Feasibility and optimality tolerance asked of the backend (default 1e-10). Tight
    /// requests may end in reduced accuracy on degenerate channel LPs; mechsynth judges a
    /// point by its certified gap to a rigorous bound, not by the backend's status.
    pub tolerance: f64,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            time_limit_seconds: 600.0,
            tolerance: 1e-10,
        }
    }
}

/// What a backend reports about its run, mapped from the backend's own status codes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LpStatus {
    /// Solved to the requested tolerance.
    Optimal,
    /// A solution was returned, but only to a reduced accuracy.
    OptimalReducedAccuracy,
    /// The constraints admit no solution (a certificate was found).
    Infeasible,
    /// The objective is unbounded below.
    Unbounded,
    /// Infeasible or unbounded; the backend could not tell which.
    InfeasibleOrUnbounded,
    /// Stopped at the iteration limit.
    IterationLimit,
    /// Stopped at the time limit.
    TimeLimit,
    /// Stopped by numerical difficulties or lack of progress.
    NumericalTrouble,
    /// Any other status, with the backend's own name for it.
    Other(String),
}

impl LpStatus {
    /// True only for [`LpStatus::Optimal`].
    pub fn is_optimal(&self) -> bool {
        *self == LpStatus::Optimal
    }

    /// Whether the backend returned a primal point worth inspecting.
    pub fn has_point(&self) -> bool {
        matches!(
            self,
            LpStatus::Optimal
                | LpStatus::OptimalReducedAccuracy
                | LpStatus::IterationLimit
                | LpStatus::TimeLimit
        )
    }
}

impl fmt::Display for LpStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            LpStatus::Optimal => "optimal",
            LpStatus::OptimalReducedAccuracy => "optimal-reduced-accuracy",
            LpStatus::Infeasible => "infeasible",
            LpStatus::Unbounded => "unbounded",
            LpStatus::InfeasibleOrUnbounded => "infeasible-or-unbounded",
            LpStatus::IterationLimit => "iteration-limit",
            LpStatus::TimeLimit => "time-limit",
            LpStatus::NumericalTrouble => "numerical-trouble",
            LpStatus::Other(name) => return write!(f, "other ({name})"),
        };
        f.write_str(text)
    }
}

/// A backend's answer: its status and, when [`LpStatus::has_point`], its primal point.
#[derive(Debug, Clone)]
pub struct LpSolution {
    /// The mapped status.
    pub status: LpStatus,
    /// The primal point (empty when the backend returned none).
    pub x: Vec<f64>,
    /// The backend's objective value at `x`.
    pub objective: f64,
    /// One dual value per constraint, in the order they were added (empty when the backend
    /// returned no point). Convention: `cost - sum_k duals[k] * a_k` is the vector of reduced
    /// costs that the variable bounds absorb, so `duals[k] >= 0` for `>=` rows and `<= 0` for
    /// `<=` rows at an optimum of the minimization. Dual values of exponential cones are not
    /// reported here but in `cone_duals`.
    pub duals: Vec<f64>,
    /// One multiplier triple per exponential cone, in the order the cones were added, in the
    /// dual cone (up to the solver's accuracy): `c - A^T duals - sum_cones cone_duals` is the
    /// reduced-cost vector. Empty when the backend returned no point or the model has no cones.
    pub cone_duals: Vec<[f64; 3]>,
    /// Iterations used (simplex or interior-point, as the backend counts them).
    pub iterations: u64,
}

/// Failures to run a backend at all (as opposed to statuses of a run).
#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    /// The backend is not compiled into this build.
    #[error("solver `{0}` is not available in this build; rebuild with `--features {0}`")]
    Unavailable(&'static str),
    /// The backend cannot represent the model (e.g. exponential cones in an LP-only backend).
    #[error("solver `{backend}` cannot solve this model: {reason}")]
    Unsupported {
        /// Backend name.
        backend: &'static str,
        /// What the model needs that the backend lacks.
        reason: String,
    },
    /// The backend rejected the model.
    #[error("solver `{backend}` rejected the model: {message}")]
    Rejected {
        /// Backend name.
        backend: &'static str,
        /// The backend's message.
        message: String,
    },
}

/// One LP solver.
pub trait LpBackend {
    /// Short name, as in [`BackendKind::name`].
    fn name(&self) -> &'static str;
    /// Solve `lp` (a minimization).
    fn solve(&self, lp: &LinearProgram, options: &SolveOptions)
        -> Result<LpSolution, BackendError>;

    /// A session that re-optimizes from the last basis when a program grows by appended
    /// constraints, or `None` when the backend cannot (use [`session`], which falls back to
    /// solving from scratch).
    fn warm_session(&self) -> Option<Box<dyn LpSession + '_>> {
        None
    }
}

/// The backend for `kind`, or [`BackendError::Unavailable`] when this build lacks it.
pub fn backend(kind: BackendKind) -> Result<Box<dyn LpBackend>, BackendError> {
    match kind {
        BackendKind::Clarabel => Ok(Box::new(ClarabelBackend)),
        #[cfg(feature = "highs")]
        BackendKind::Highs => Ok(Box::new(HighsBackend)),
        #[cfg(not(feature = "highs"))]
        BackendKind::Highs => Err(BackendError::Unavailable("highs")),
    }
}
