//! Utility objectives. Linear objectives (expected loss, co-location) give LPs; the Bayesian
//! MMSE objectives and mutual information are sums of convex column functions
//! ([`ColumnConvex`]); the inversion-estimator MSE is neither. [`OBJECTIVES`] is the table
//! from which every list of objective kinds derives (see [`mod@registry`]).

mod column;
mod frequency;
mod inversion;
mod loss;
mod profile;
pub mod registry;
mod spec;

pub use column::{ColumnConvex, ColumnObjective, MmseHistogram, MmseSum, MutualInformation};
pub use frequency::{FrequencyMse, QuerySpec, Sampling, FISHER_RANK_TOLERANCE};
pub use inversion::InversionMse;
pub use loss::{LossSpec, LOSS_NAMES};
pub use profile::{
    objective_profile, objective_profile_for, objective_profile_up_to, profile_accuracy_warning,
    FISHER_CONDITION_WARNING, PROFILE_CUBIC_LIMIT,
};
pub use registry::{ObjectiveEntry, OBJECTIVES};
pub use spec::{ObjectiveSpec, MIN_MMSE_WEIGHT, OBJECTIVE_NAMES};

use crate::channel::Channel;
use serde::Serialize;

/// Whether an objective is minimized or maximized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Goal {
    /// Smaller is better (losses).
    Minimize,
    /// Larger is better (utilities).
    Maximize,
}

/// A utility objective over channels, resolved against a domain.
pub trait Objective: std::fmt::Debug + Send + Sync {
    /// A short description, e.g. `expected hamming loss`.
    fn describe(&self) -> String;
    /// Minimize or maximize.
    fn goal(&self) -> Goal;
    /// The value for `channel`.
    fn evaluate(&self, channel: &Channel) -> f64;
    /// `Some(c)` when the objective is `sum c[x][y] Q[x][y]` (an LP objective).
    fn linear_coefficients(&self) -> Option<&[Vec<f64>]>;
    /// `Some` when the objective is `offset + scale * sum_y g(q_y)` with `g` convex and
    /// positively homogeneous (see [`ColumnConvex`]).
    fn column_convex(&self) -> Option<&dyn ColumnConvex> {
        None
    }
    /// `Some` for the frequency MSE of the efficient estimator, whose optimum is an optimal
    /// design over the extreme rays of the column cone.
    fn frequency_design(&self) -> Option<&FrequencyMse> {
        None
    }
    /// The gradient with respect to every entry `Q[x][y]`, when defined at `channel`.
    fn gradient(&self, channel: &Channel) -> Option<Vec<Vec<f64>>> {
        self.linear_coefficients()
            .map(<[Vec<f64>]>::to_vec)
            .filter(|c| c.len() == channel.inputs())
    }
}

/// The registry entry of `co-location` (no keys, no profile: it needs outputs named after the
/// inputs).
pub(crate) const CO_LOCATION_ENTRY: ObjectiveEntry = ObjectiveEntry {
    takes_keys: false,
    ..ObjectiveEntry::new("co-location")
};

/// `sum_x sum_y c[x][y] Q[x][y]`, minimized or maximized.
#[derive(Debug, Clone, PartialEq)]
pub struct LinearObjective {
    description: String,
    goal: Goal,
    coefficients: Vec<Vec<f64>>,
}

impl LinearObjective {
    /// Expected loss `sum_x p_x sum_y Q[x][y] L[x][y]` (minimized).
    pub fn expected_loss(description: String, prior: &[f64], loss: &[Vec<f64>]) -> Self {
        let coefficients = prior
            .iter()
            .zip(loss)
            .map(|(p, row)| row.iter().map(|l| p * l).collect())
            .collect();
        LinearObjective {
            description,
            goal: Goal::Minimize,
            coefficients,
        }
    }

    /// Co-location `sum_x Q[x][x]` (maximized): the objective of the tight-constraints mechanism
    /// in [dP-slides].
    pub fn co_location(n: usize) -> Self {
        let coefficients = (0..n)
            .map(|x| (0..n).map(|y| f64::from(u8::from(x == y))).collect())
            .collect();
        LinearObjective {
            description: "co-location sum_x Q[x][x]".into(),
            goal: Goal::Maximize,
            coefficients,
        }
    }
}

impl Objective for LinearObjective {
    fn describe(&self) -> String {
        self.description.clone()
    }

    fn goal(&self) -> Goal {
        self.goal
    }

    /// `NaN` when the channel's shape is not the coefficients' (outputs must be the inputs).
    fn evaluate(&self, channel: &Channel) -> f64 {
        if self.coefficients.len() != channel.inputs()
            || self.coefficients.first().map(Vec::len) != Some(channel.outputs())
        {
            return f64::NAN;
        }
        self.coefficients
            .iter()
            .zip(channel.rows())
            .map(|(c, q)| c.iter().zip(q).map(|(a, b)| a * b).sum::<f64>())
            .sum()
    }

    fn linear_coefficients(&self) -> Option<&[Vec<f64>]> {
        Some(&self.coefficients)
    }
}
