//! Closed-form mechanisms from the papers and the classics they build on, each with its
//! citation, the notion it claims, the objectives it claims to optimize, and the value claimed.

use crate::domain::Domain;
use crate::objective::ObjectiveSpec;
use crate::privacy::PrivacySpec;

mod binary;
mod frequency;
mod multi;

pub(crate) use binary::mangat_rows;
use binary::{
    binary_ldp_mmse, binary_lip, binary_lip_mae, bp_lip_binary, context_binary, mangat, warner,
};
use frequency::{hadamard_response, oue, rappor, subset_selection};
pub use frequency::{subset_selection_rows, unary_rows};
pub(crate) use multi::{hadamard_block, truncated_geometric_rows};
use multi::{
    hadamard_blocks, hadamard_high_low, k_rr, max_leakage_hamming, mimo_ldp, mimo_lip,
    tight_constraints, truncated_geometric,
};
pub use multi::{hadamard_blocks_rows, hadamard_high_low_rows};
pub use multi::{krr, mimo_lip_rows, tight_constraints_rows};

/// What a published mechanism claims for one problem.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Short identifier.
    pub name: &'static str,
    /// Paper, theorem or equation.
    pub citation: &'static str,
    /// The channel rows (outputs may differ from the inputs).
    pub rows: Vec<Vec<f64>>,
    /// Whether the source claims it optimal for the problem's objective.
    pub claims_optimal: bool,
    /// The objective value the source claims, when it gives one.
    pub claimed_value: Option<f64>,
    /// Claims that are out of scope here (e.g. order-optimal sample complexity).
    pub note: Option<&'static str>,
    /// Whether optimality is claimed up to post-processing: the objective of a linear loss is
    /// then taken after the best deterministic remap of the outputs.
    pub remap: bool,
}

/// The problem's single privacy constraint, objective and domain, as entries see them.
pub struct Setting<'a> {
    /// The domain (with its prior).
    pub domain: &'a Domain,
    /// The only privacy constraint.
    pub notion: &'a PrivacySpec,
    /// The objective.
    pub objective: &'a ObjectiveSpec,
}

impl Setting<'_> {
    pub(super) fn n(&self) -> usize {
        self.domain.size()
    }
    pub(super) fn uniform(&self) -> bool {
        let p = self.domain.prior();
        p.iter().all(|v| (v - p[0]).abs() <= 1e-12)
    }
    pub(super) fn hamming(&self) -> bool {
        matches!(self.objective, ObjectiveSpec::ExpectedLoss { loss: crate::objective::LossSpec::Named(l) } if l == "hamming")
    }
    /// `(weight (f1 - f0))^2` for a binary mmse-sum, the factor on the papers' X in {0, 1}.
    pub(super) fn binary_mmse_scale(&self) -> Option<f64> {
        match self.objective {
            ObjectiveSpec::MmseSum { weight, .. } if self.n() == 2 => {
                let f = self.domain.numeric_values();
                Some((weight.unwrap_or(1.0) * (f[1] - f[0])).powi(2))
            }
            _ => None,
        }
    }
    pub(super) fn is(&self, kind: &str) -> bool {
        matches!(
            (self.objective, kind),
            (ObjectiveSpec::MmseSum { .. }, "mmse-sum")
                | (ObjectiveSpec::MmseHistogram, "mmse-histogram")
                | (ObjectiveSpec::CoLocation, "co-location")
        )
    }
}

/// One registry entry: its name and how it instantiates for a setting (`None`: not applicable).
pub struct Entry {
    /// Short identifier.
    pub name: &'static str,
    /// Builder.
    pub build: fn(&Setting) -> Option<Candidate>,
}

pub(super) fn candidate(
    name: &'static str,
    citation: &'static str,
    rows: Vec<Vec<f64>>,
) -> Candidate {
    Candidate {
        name,
        citation,
        rows,
        claims_optimal: false,
        claimed_value: None,
        note: None,
        remap: false,
    }
}

pub(super) fn ldp_epsilon(s: &Setting) -> Option<f64> {
    match s.notion {
        PrivacySpec::Ldp {
            epsilon,
            delta: None,
            releases: None,
        } => Some(*epsilon),
        _ => None,
    }
}

pub(super) fn lip_epsilon(s: &Setting) -> Option<f64> {
    match s.notion {
        PrivacySpec::Lip {
            epsilon,
            prior: None,
            delta: None,
            releases: None,
        } => Some(*epsilon),
        _ => None,
    }
}

/// Every entry, in report order.
pub const REGISTRY: [Entry; 19] = [
    Entry {
        name: "warner",
        build: warner,
    },
    Entry {
        name: "binary-ldp-optimum",
        build: binary_ldp_mmse,
    },
    Entry {
        name: "k-rr",
        build: k_rr,
    },
    Entry {
        name: "mimo-ldp-optimum",
        build: mimo_ldp,
    },
    Entry {
        name: "context-binary",
        build: context_binary,
    },
    Entry {
        name: "mangat",
        build: mangat,
    },
    Entry {
        name: "binary-lip-optimum",
        build: binary_lip,
    },
    Entry {
        name: "binary-lip-mae",
        build: binary_lip_mae,
    },
    Entry {
        name: "mimo-lip",
        build: mimo_lip,
    },
    Entry {
        name: "bp-lip-binary",
        build: bp_lip_binary,
    },
    Entry {
        name: "tight-constraints",
        build: tight_constraints,
    },
    Entry {
        name: "truncated-geometric",
        build: truncated_geometric,
    },
    Entry {
        name: "hadamard-high-low",
        build: hadamard_high_low,
    },
    Entry {
        name: "hadamard-block",
        build: hadamard_blocks,
    },
    Entry {
        name: "max-leakage-hamming",
        build: max_leakage_hamming,
    },
    Entry {
        name: "subset-selection",
        build: subset_selection,
    },
    Entry {
        name: "hadamard-response",
        build: hadamard_response,
    },
    Entry {
        name: "oue",
        build: oue,
    },
    Entry {
        name: "rappor",
        build: rappor,
    },
];
