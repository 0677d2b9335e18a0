//! How a problem is solved: as one LP (linear objectives), as a conic program (linear objectives
//! under mutual-information privacy), as an LP over extreme rays (column-convex objectives;
//! enumerated or by column generation), or locally.

mod extreme;
mod local;
mod master;
mod pricing;

pub use extreme::{combined_cone, solve_by_rays, CG_GAP_TOLERANCE, ENUMERATION_LIMIT};
pub use local::{solve_locally, LOCAL_RANDOM_STARTS};
pub use pricing::{price_lip_box, price_staircase, Priced};

use mechsynth_solvers::LpStatus;
use serde::{Serialize, Serializer};
use std::fmt;

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
            Method::Local => "local",
        }
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
    /// Globally optimal: the backend proved optimality of an exact formulation.
    Optimal,
    /// The best of several local optima; no global guarantee.
    LocalOptimum,
    /// The backend's status when it is anything but optimal.
    Solver(LpStatus),
}

impl Status {
    /// Whether the channel is proven globally optimal.
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
            Status::LocalOptimum => false,
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
}
