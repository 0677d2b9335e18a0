//! How a problem is solved: as one LP (linear objectives), as a conic program (linear objectives
//! under mutual-information privacy), as an LP over extreme rays (column-convex objectives;
//! enumerated or by column generation), as an optimal design over extreme rays (frequency MSE),
//! or locally.

mod decompose;
mod design;
mod extreme;
mod first_order;
mod ldp_interior;
pub mod line;
mod lip_interior;
mod local;
mod lp;
mod master;
mod method;
mod pricing;
mod ratio_interior;
pub mod repair;
mod run;
mod symmetry;
mod tiled;

pub use crate::geo::{is_full_lattice, lattice_cells};
pub use decompose::{
    decomposition_applies, decomposition_is_faster, solve_by_decomposition, staircase_epsilon,
    RoundTrace, DECOMPOSITION_GAP_TOLERANCE,
};
pub use design::solve_symmetric_design;
pub use design::{solve_by_design, DESIGN_GAP_TOLERANCE};
pub use extreme::{
    combined_cone, solve_by_rays, solve_histogram_by_pricing, CG_GAP_TOLERANCE, ENUMERATION_LIMIT,
};
pub use first_order::{solve_first_order, FirstOrderMethod};
pub use ldp_interior::{solve_ldp_interior, LdpInteriorMethod, LDP_INTERIOR_GAP_TOLERANCE};
pub use lip_interior::{
    lip_interior_parameters, solve_lip_interior, LipInteriorMethod, LIP_INTERIOR_GAP_TOLERANCE,
};
pub use local::{solve_locally, LOCAL_RANDOM_STARTS};
pub use lp::solve_linear;
pub use lp::{
    lazy_symmetry_order, solve_with_lazy_rows, LAZY_MIN_INPUTS, LAZY_ROWS_PER_INPUT,
    LAZY_SYMMETRIC_MIN_INPUTS, LAZY_SYMMETRY_ORDER, LAZY_WARM_MIN_INPUTS,
};
pub use method::{linear_method, LinearMethod, MethodOutcome, SolveError, Task};
pub use pricing::price_histogram_ldp;
pub use pricing::SearchStats;
pub use pricing::{price_histogram_lip, SeparableUtility, HISTOGRAM_PRICING_MAX_INPUTS};
pub use pricing::{price_lip_box, price_staircase, Priced};
pub use ratio_interior::{
    ratio_interior_applies, solve_ratio_interior, RATIO_INTERIOR_GAP_TOLERANCE,
    RATIO_INTERIOR_MIN_INPUTS,
};
pub use run::{ProgressSink, Run};
pub use symmetry::point_symmetries;
pub use tiled::{solve_tiled, TEMPLATE_SIDE, TILED_MAX_INPUTS, TILED_MIN_INPUTS};

use mechsynth_solvers::LpStatus;
use serde::{Serialize, Serializer};
use std::fmt;

/// A ratio row counts as violated when `q_a - e^f q_b` exceeds this (entries are in [0, 1]).
pub(crate) const ROW_VIOLATION: f64 = 1e-9;

/// A power of two near the largest coefficient: dividing by it is exact and brings the costs
/// to order 1, whatever the units of the loss.
pub(crate) fn cost_scale(coefficients: &[Vec<f64>]) -> f64 {
    let largest = coefficients
        .iter()
        .flatten()
        .fold(0.0f64, |m, c| m.max(c.abs()));
    if largest > 0.0 && largest.is_finite() {
        2f64.powi(largest.log2().round() as i32)
    } else {
        1.0
    }
}

/// The entrywise least budgets of notions made only of pair rows, when every notion is one.
pub(crate) fn pair_budgets(all: &[&dyn crate::privacy::PrivacyNotion]) -> Option<Vec<Vec<f64>>> {
    let mut budgets: Option<Vec<Vec<f64>>> = None;
    for p in all {
        let b = p.pair_budgets()?;
        budgets = Some(match budgets {
            None => b,
            Some(mut acc) => {
                for (ra, rb) in acc.iter_mut().zip(&b) {
                    ra.iter_mut().zip(rb).for_each(|(x, &y)| *x = x.min(y));
                }
                acc
            }
        });
    }
    budgets
}

/// The method that produced a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// One linear program (linear objective).
    Lp,
    /// One convex conic program (linear objective, mutual-information privacy).
    ConicProgram,
    /// An LP over every extreme ray of the column cone.
    ExtremeRayLp,
    /// An LP over extreme rays priced in by exact column generation.
    ColumnGeneration,
    /// An optimal design (frequency MSE) over extreme rays, by column generation.
    OptimalDesign,
    /// The optimal design in closed form, by symmetry (uniform distribution under LDP).
    SymmetricDesign,
    /// Column generation over outputs for a linear objective (Dantzig-Wolfe decomposition).
    Decomposition,
    /// One LP with ratio rows added as they are violated.
    LazyRows,
    /// A structured interior-point method for a linear objective under eps-LDP alone.
    LdpInteriorPoint,
    /// A primal-dual interior-point method by output column for a linear objective under
    /// ratio rows (d-privacy, context-aware LDP, LDP).
    RatioInteriorPoint,
    /// A first-order primal-dual method by output column over the rows locality says matter,
    /// with every pair scanned (d-privacy over irregular places).
    FirstOrder,
    /// A structured interior-point method for a linear objective under eps-LIP alone (one
    /// full-support prior).
    LipInteriorPoint,
    /// A template lattice's certified optimum carried to every output of a large lattice,
    /// with the template's duals carried as a bound (geo-indistinguishability on large grids).
    Tiled,
    /// The truncated geometric mechanism remapped to Bayes outputs, certified by exact
    /// pricing on an equally spaced line (d-privacy, linear objective).
    GeometricRemap,
    /// A proof from the parameters alone that no channel exists (no program is solved).
    InfeasibilityProof,
    /// A local method (no global guarantee).
    Local,
}

impl Method {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Method::Lp => "LP",
            Method::ConicProgram => "conic program",
            Method::ExtremeRayLp => "extreme-ray LP",
            Method::ColumnGeneration => "column generation",
            Method::OptimalDesign => "optimal design",
            Method::SymmetricDesign => "optimal design, by symmetry",
            Method::Decomposition => "decomposition",
            Method::LazyRows => "LP, lazy rows",
            Method::LdpInteriorPoint => "interior point, LDP envelope",
            Method::RatioInteriorPoint => "interior point by output column",
            Method::FirstOrder => "first-order primal-dual by output column",
            Method::LipInteriorPoint => "interior point, LIP top form",
            Method::Tiled => "tiled from a template",
            Method::GeometricRemap => "geometric + remap, certified by exact line pricing",
            Method::InfeasibilityProof => "infeasibility proof",
            Method::Local => "local",
        }
    }

    /// The solver the method brings (the report names it instead of the backend).
    pub fn own_solver(self) -> Option<&'static str> {
        match self {
            Method::LdpInteriorPoint | Method::RatioInteriorPoint | Method::LipInteriorPoint => {
                Some("built-in interior point")
            }
            _ => None,
        }
    }

    /// Whether the method runs the backend (the report then names it as the solver).
    pub fn uses_backend(self) -> bool {
        !matches!(self, Method::GeometricRemap | Method::InfeasibilityProof)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Method {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// What a solve proved about its channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// A certified channel whose objective is within the stated gap of a rigorous bound on
    /// the optimum.
    Optimal,
    /// A certified channel, but the gap to the bound is not closed (or there is no bound).
    Feasible,
    /// The best of several local optima (a certified channel, gap not closed); the method
    /// has no global guarantee.
    LocalOptimum,
    /// No channel: the backend's status (infeasible, unbounded, stopped without a point).
    Solver(LpStatus),
}

impl Status {
    /// Whether the channel is certified optimal within the stated gap.
    pub fn is_optimal(&self) -> bool {
        *self == Status::Optimal
    }

    /// From a backend status of an exact formulation.
    pub fn from_lp(status: LpStatus) -> Self {
        if status.is_optimal() {
            Status::Optimal
        } else {
            Status::Solver(status)
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Optimal => f.write_str("optimal"),
            Status::Feasible => f.write_str("feasible"),
            Status::LocalOptimum => f.write_str("local-optimum"),
            Status::Solver(s) => write!(f, "{s}"),
        }
    }
}

impl Serialize for Status {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl PartialEq<LpStatus> for Status {
    fn eq(&self, other: &LpStatus) -> bool {
        match self {
            Status::Optimal => other.is_optimal(),
            Status::Feasible | Status::LocalOptimum => false,
            Status::Solver(s) => s == other,
        }
    }
}

/// A method's raw result, before certification.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The method.
    pub method: Method,
    /// What it proved.
    pub status: Status,
    /// Backend iterations (local: starts).
    pub iterations: u64,
    /// The channel rows as computed (not yet cleaned or certified).
    pub rows: Option<Vec<Vec<f64>>>,
    /// A bound on the optimal objective (lower for minimization, upper for maximization).
    pub bound: Option<f64>,
    /// What the method did, for the report.
    pub notes: Vec<String>,
    /// The backend's own objective value for its point (single-program methods).
    pub solver_objective: Option<f64>,
    /// The rounds of an iterative method (decomposition), for the report.
    pub trace: Vec<RoundTrace>,
}
