#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod audit;
pub mod certify;
pub mod channel;
pub mod collect;
pub mod compose;
pub mod continuous;
pub mod curve;
pub mod domain;
pub mod error;
pub mod float_serde;
pub mod formulation;
pub mod geo;
pub mod html;
pub mod long_sum;
pub mod numeric;
pub mod objective;
pub mod policy;
pub mod privacy;
pub mod problem;
pub mod rays;
pub mod report;
pub mod solve;
pub mod source;
pub mod synthesis;
pub mod verify;

pub use audit::{audit, AuditReport, AuditSpec};
pub use channel::Channel;
pub use domain::Domain;
pub use error::ProblemError;
pub use mechsynth_solvers::{BackendKind, LpStatus};
pub use problem::{Problem, ProblemSpec};
pub use report::Report;
pub use solve::{solve, MethodChoice, SolveError, SolveOptions};
