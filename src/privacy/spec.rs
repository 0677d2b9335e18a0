//! `[[privacy]]` entries as written in problem files, and their resolution against a domain.

use super::symbol::Symbol;
use super::{MetricSpec, PrivacyNotion};
use crate::domain::Domain;
use crate::error::ProblemError;
use serde::{Deserialize, Serialize};

/// One `[[privacy]]` entry. The tag `notion` selects the variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "notion", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PrivacySpec {
    /// eps-LDP.
    #[serde(alias = "local-dp")]
    Ldp {
        /// Privacy parameter.
        #[serde(alias = "eps")]
        epsilon: f64,
        /// Failure probability of (eps, delta)-LDP (context-aware-lip Def. 1); default 0.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        delta: Option<f64>,
        /// Independent releases that must meet eps together (default 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        releases: Option<usize>,
    },
    /// Context-aware LDP with privacy matrix `epsilon * matrix` (epsilon defaults to 1).
    #[serde(alias = "context-aware-ldp")]
    ContextLdp {
        /// Scale of the matrix (default 1).
        #[serde(default, alias = "eps", skip_serializing_if = "Option::is_none")]
        epsilon: Option<f64>,
        /// n x n privacy matrix; `inf` entries leave the pair unconstrained.
        #[serde(
            serialize_with = "crate::float_serde::serialize_matrix",
            deserialize_with = "crate::float_serde::deserialize_matrix"
        )]
        matrix: Vec<Vec<f64>>,
    },
    /// High-low LDP: only the sensitive symbols are protected.
    #[serde(alias = "high-low-ldp")]
    HighLow {
        /// Privacy parameter.
        #[serde(alias = "eps")]
        epsilon: f64,
        /// Sensitive symbols (indices or labels).
        sensitive: Vec<Symbol>,
    },
    /// Block-structured LDP.
    #[serde(alias = "block-ldp", alias = "block-structured")]
    Block {
        /// Within-block parameter.
        #[serde(alias = "eps")]
        epsilon: f64,
        /// A partition of the domain (indices or labels).
        blocks: Vec<Vec<Symbol>>,
        /// Across-block parameter (default: unconstrained).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        epsilon_across: Option<f64>,
    },
    /// Local d-privacy.
    #[serde(alias = "metric-ldp", alias = "geo-indistinguishability")]
    DPrivacy {
        /// Privacy parameter per unit distance.
        #[serde(alias = "eps")]
        epsilon: f64,
        /// The metric.
        metric: MetricSpec,
        /// Encode approximately over a spanner (`approximate = { spanner = t }`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        approximate: Option<ApproximateSpec>,
    },
    /// Local Information Privacy under the domain prior or its own.
    #[serde(alias = "local-information-privacy")]
    Lip {
        /// Privacy parameter.
        #[serde(alias = "eps")]
        epsilon: f64,
        /// Prior (default: the domain prior).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prior: Option<Vec<f64>>,
        /// Failure probability of (eps, delta)-LIP (context-aware-lip Def. 5); default 0.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        delta: Option<f64>,
        /// Independent releases that must meet eps together (default 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        releases: Option<usize>,
    },
    /// Bounded-prior LIP over the convex hull of `priors`.
    #[serde(alias = "bounded-prior-lip")]
    BpLip {
        /// Privacy parameter.
        #[serde(alias = "eps")]
        epsilon: f64,
        /// Vertices of the prior set.
        priors: Vec<Vec<f64>>,
    },
    /// Maximal leakage at most epsilon nats.
    #[serde(alias = "maximal-leakage")]
    MaxLeakage {
        /// Bound in nats.
        #[serde(alias = "eps")]
        epsilon: f64,
    },
    /// Differential identifiability under the domain prior.
    #[serde(alias = "differential-identifiability")]
    Identifiability {
        /// Privacy parameter.
        #[serde(alias = "eps")]
        epsilon: f64,
    },
    /// Mutual-information privacy: `I(X;Y) <= epsilon` nats under the domain prior.
    MutualInformation {
        /// Bound in nats.
        #[serde(alias = "eps")]
        epsilon: f64,
    },
}

/// What a resolved constraint is for: a program to solve (epsilon at most [`MAX_EPSILON`],
/// domain sizes the solvers handle) or checking a given channel (any finite epsilon >= 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Purpose {
    Solve,
    Check,
}

/// `approximate = { spanner = t }` on a d-privacy entry: encode only the edges of a greedy
/// t-spanner, at `epsilon / t` (see [`crate::privacy::SpannerEncoding`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApproximateSpec {
    /// The dilation t >= 1 (1: exact).
    pub spanner: f64,
}

/// Every accepted notion name, in the order of [`super::NOTIONS`] (the variants' order).
pub const NOTION_NAMES: [&str; super::NOTIONS.len()] = super::registry::keys();

impl PrivacySpec {
    /// The notion's name as in problem files.
    pub fn notion(&self) -> &'static str {
        match self {
            PrivacySpec::Ldp { .. } => "ldp",
            PrivacySpec::ContextLdp { .. } => "context-ldp",
            PrivacySpec::HighLow { .. } => "high-low",
            PrivacySpec::Block { .. } => "block",
            PrivacySpec::DPrivacy { .. } => "d-privacy",
            PrivacySpec::Lip { .. } => "lip",
            PrivacySpec::BpLip { .. } => "bp-lip",
            PrivacySpec::MaxLeakage { .. } => "max-leakage",
            PrivacySpec::Identifiability { .. } => "identifiability",
            PrivacySpec::MutualInformation { .. } => "mutual-information",
        }
    }

    /// Replace the (main) epsilon; `epsilon_across` of block LDP is kept.
    pub fn set_epsilon(&mut self, value: f64) {
        match self {
            PrivacySpec::ContextLdp { epsilon, .. } => *epsilon = Some(value),
            PrivacySpec::Ldp { epsilon, .. }
            | PrivacySpec::HighLow { epsilon, .. }
            | PrivacySpec::Block { epsilon, .. }
            | PrivacySpec::DPrivacy { epsilon, .. }
            | PrivacySpec::Lip { epsilon, .. }
            | PrivacySpec::BpLip { epsilon, .. }
            | PrivacySpec::MaxLeakage { epsilon }
            | PrivacySpec::Identifiability { epsilon }
            | PrivacySpec::MutualInformation { epsilon } => *epsilon = value,
        }
    }

    /// Validate against `domain` and build the constraint set for a program to solve: every
    /// epsilon must be in `[0, MAX_EPSILON]` (`check_epsilon`). `key` is the entry's path
    /// (`privacy[0]`); non-fatal findings are appended to `warnings`.
    pub fn resolve(
        &self,
        key: &str,
        domain: &Domain,
        warnings: &mut Vec<String>,
    ) -> Result<Box<dyn PrivacyNotion>, ProblemError> {
        self.resolve_for(Purpose::Solve, key, domain, warnings)
    }

    /// As [`PrivacySpec::resolve`], for checking a given channel against the constraint (as
    /// `audit` does) rather than solving a program: epsilon may be any finite number >= 0
    /// (`check_epsilon_finite`), since no solver has to resolve `e^epsilon`.
    pub fn resolve_to_check(
        &self,
        key: &str,
        domain: &Domain,
        warnings: &mut Vec<String>,
    ) -> Result<Box<dyn PrivacyNotion>, ProblemError> {
        self.resolve_for(Purpose::Check, key, domain, warnings)
    }
}
