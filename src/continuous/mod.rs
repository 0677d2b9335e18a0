//! Continuous data under (eps, delta)-LIP and LDP (B. Jiang, M. Seif, R. Tandon, M. Li,
//! "Context-Aware Local Information Privacy", IEEE Trans. Inf. Forensics Security, 2021,
//! Sec. IV-C), and the transferability of LIP between priors (same paper, Sec. III-C).
//!
//! Additive noise `Y = X + N` (Gaussian or Laplace) and the sampling mechanism (eq. (20)) are
//! calibrated two ways: numerically, the smallest noise whose privacy loss, computed from the
//! definition by quadrature with an error estimate, meets the target; and by the closed forms
//! the paper states or compares against. See `docs/continuous.md` for the formulas.

pub mod calibrate;
pub mod closed_form;
pub mod convolution;
pub mod discrete_laplace;
pub mod edges;
pub mod error;
pub mod hockey;
pub mod lip;
pub mod noise;
pub mod normal;
pub mod prior;
mod prior_build;
pub mod prior_syntax;
pub mod problem;
pub mod quadrature;
pub mod request;
pub mod sampling;
pub mod transfer;
pub mod transfer_sim;
pub mod utility;

pub use calibrate::{calibrate, Report, Row};
pub use error::ContinuousError;
pub use lip::Criterion;
pub use noise::Noise;
pub use prior::Prior;
pub use request::{MechanismKind, Notion, Request};
