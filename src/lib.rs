//! mechsynth: synthesize and certify optimal local privacy mechanisms.
//!
//! A problem is a finite input domain with a prior, one or more privacy constraint sets (LDP,
//! context-aware LDP, high-low and block LDP, local d-privacy, LIP, bounded-prior LIP, maximal
//! leakage, identifiability) and a utility objective. mechsynth formulates the design of the
//! channel `Q[x][y] = P(Y = y | X = x)` as a linear program, solves it, and certifies the
//! result by recomputing every leakage from the emitted numbers with outward rounding.
//!
//! ```
//! use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
//! use std::path::Path;
//!
//! let spec = ProblemSpec::from_toml(
//!     r#"
//!     name = "5-ary LDP, Hamming loss"
//!     [domain]
//!     size = 5
//!     [[privacy]]
//!     notion = "ldp"
//!     epsilon = 1.0
//!     [objective]
//!     kind = "expected-loss"
//!     loss = "hamming"
//!     "#,
//!     Path::new("inline.toml"),
//! )?;
//! let problem = Problem::from_spec(spec)?;
//! let report = solve(&problem, &SolveOptions::default())?;
//!
//! // k-randomized response is optimal here: expected loss (k - 1) / (e^eps + k - 1).
//! let expected = 4.0 / (1f64.exp() + 4.0);
//! assert!(report.status.is_optimal());
//! assert!((report.objective.unwrap() - expected).abs() < 1e-6);
//! // The emitted channel is certified 1-LDP from its own numbers.
//! assert!(report.leakage["ldp"] <= 1.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod audit;
pub mod certify;
pub mod channel;
pub mod domain;
pub mod error;
pub mod formulation;
pub mod numeric;
pub mod objective;
pub mod privacy;
pub mod problem;
pub mod report;
pub mod solve;

pub use audit::{audit, AuditReport, AuditSpec};
pub use channel::Channel;
pub use domain::Domain;
pub use error::ProblemError;
pub use mechsynth_solvers::{BackendKind, LpStatus};
pub use problem::{Problem, ProblemSpec};
pub use report::Report;
pub use solve::{solve, SolveError, SolveOptions};
