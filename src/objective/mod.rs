//! Utility objectives. Linear objectives (expected loss, co-location) give LPs.

mod loss;

pub use loss::{LossSpec, LOSS_NAMES};

use crate::channel::Channel;
use crate::domain::Domain;
use crate::error::ProblemError;
use serde::{Deserialize, Serialize};

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
}

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
    /// in range-and-frequency-d-privacy-slides.txt.
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

    fn evaluate(&self, channel: &Channel) -> f64 {
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

/// The `[objective]` table of a problem file. The tag `kind` selects the variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ObjectiveSpec {
    /// Expected loss under the domain prior (minimized).
    ExpectedLoss {
        /// The loss function.
        loss: LossSpec,
    },
    /// Probability of reporting the true symbol, summed over symbols (maximized).
    CoLocation,
}

/// Every accepted objective kind.
pub const OBJECTIVE_NAMES: [&str; 2] = ["expected-loss", "co-location"];

impl ObjectiveSpec {
    /// Build the objective for `domain`.
    pub fn resolve(&self, domain: &Domain) -> Result<Box<dyn Objective>, ProblemError> {
        Ok(match self {
            ObjectiveSpec::ExpectedLoss { loss } => {
                let matrix = loss.matrix("objective.loss", domain)?;
                Box::new(LinearObjective::expected_loss(
                    format!("expected {} loss", loss.name()),
                    domain.prior(),
                    &matrix,
                ))
            }
            ObjectiveSpec::CoLocation => Box::new(LinearObjective::co_location(domain.size())),
        })
    }
}
