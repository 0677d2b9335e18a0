//! The common shape of the synthesis methods for linear objectives: one small trait, one
//! implementation in each method family's folder, and [`linear_method`] to find the one a
//! [`MethodChoice`] names. `solve` runs them, in `auto`'s order ([`crate::policy::AUTO_ORDER`])
//! or the one the user asked for.

use super::{Outcome, Run};
use crate::objective::Goal;
use crate::policy::MethodChoice;
use crate::privacy::PrivacyNotion;
use crate::problem::Problem;
use std::sync::OnceLock;

/// Failures of the pipeline (bad input is a [`crate::ProblemError`] and never gets here).
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The backend could not run.
    #[error(transparent)]
    Backend(#[from] mechsynth_solvers::BackendError),
    /// The problem is too large for the method that would solve it.
    #[error("too large: {0}")]
    TooLarge(String),
    /// The requested method does not apply to the problem.
    #[error("the requested method does not apply: {0}")]
    MethodNotApplicable(String),
    /// The solver's channel violates a request and no mixture repairs it.
    #[error("the solver's channel violates `{constraint}` (requested {requested}, achieved {achieved}) and mixing with a constant channel cannot repair it; no channel is emitted")]
    CertificationFailed {
        /// The violated constraint.
        constraint: String,
        /// Requested bound.
        requested: f64,
        /// Achieved leakage.
        achieved: f64,
    },
}

/// What a method is given: the problem, its notions and, for a linear objective, its costs.
pub struct Task<'a> {
    /// The problem.
    pub problem: &'a Problem,
    /// Its privacy notions.
    pub notions: Vec<&'a dyn PrivacyNotion>,
    /// `c[x][y]` of a linear objective `sum c[x][y] Q[x][y]`; `None` for other objectives.
    pub coefficients: Option<&'a [Vec<f64>]>,
    /// Minimize or maximize.
    pub goal: Goal,
    symmetries: OnceLock<Vec<Vec<usize>>>,
}

impl<'a> Task<'a> {
    /// The task of `problem`.
    pub fn new(problem: &'a Problem) -> Self {
        Task {
            problem,
            notions: problem.privacy.iter().map(|p| p.as_ref()).collect(),
            coefficients: problem.objective.linear_coefficients(),
            goal: problem.objective.goal(),
            symmetries: OnceLock::new(),
        }
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.problem.domain.size()
    }

    /// Permutations of the points that keep their distances (empty without geometry),
    /// computed once.
    pub fn symmetries(&self) -> &[Vec<usize>] {
        self.symmetries.get_or_init(|| {
            if self.problem.domain.has_geometry() {
                super::point_symmetries(&self.problem.domain.coordinates())
            } else {
                Vec::new()
            }
        })
    }

    /// A method's `outcome` (if it applied) with the encoding lines of [`Task::cone_encoding`].
    pub fn with_cone_encoding(
        &self,
        outcome: Option<Outcome>,
        what: &str,
    ) -> Option<MethodOutcome> {
        outcome.map(|outcome| MethodOutcome {
            outcome,
            encoding: self.cone_encoding(what),
        })
    }

    /// The encoding lines of a method that encodes the notions' column cones itself: `what`
    /// it does with them, and what an approximate cone keeps (a spanner's edges).
    pub fn cone_encoding(&self, what: &str) -> Vec<String> {
        self.notions
            .iter()
            .map(|p| {
                let kept = p.cone_note().map(|n| format!("; {n}")).unwrap_or_default();
                format!("{}: {what}{kept}", p.key())
            })
            .collect()
    }
}

/// A method's result before certification: its outcome and how it encoded each notion.
#[derive(Debug, Clone)]
pub struct MethodOutcome {
    /// What the method computed and proved.
    pub outcome: Outcome,
    /// One line per notion: how the method encoded it.
    pub encoding: Vec<String>,
}

/// A synthesis method for linear objectives.
pub trait LinearMethod: Sync {
    /// The `--method` value that selects it.
    fn choice(&self) -> MethodChoice;

    /// Why the method does not apply to `task`, when it does not (the message of a refused
    /// `--method`). Some methods learn it only while solving: then [`LinearMethod::solve`]
    /// returns `None` and this is the message.
    fn refusal(&self, task: &Task) -> String;

    /// Run the method; `None` when it does not apply.
    fn solve(&self, task: &Task, run: &Run) -> Result<Option<MethodOutcome>, SolveError>;
}

/// The method `choice` names (`None` for `auto`, which is an order, not a method).
pub fn linear_method(choice: MethodChoice) -> Option<&'static dyn LinearMethod> {
    LINEAR_METHODS
        .iter()
        .copied()
        .find(|m| m.choice() == choice)
}

/// Every method for linear objectives, one line each.
static LINEAR_METHODS: [&dyn LinearMethod; 9] = [
    &super::line::LineMethod,
    &super::tiled::TiledMethod,
    &super::first_order::FirstOrderMethod,
    &super::decompose::DecompositionMethod,
    &super::ldp_interior::LdpInteriorMethod,
    &super::ratio_interior::RatioInteriorMethod,
    &super::lip_interior::LipInteriorMethod,
    &super::lp::lazy::LazyRowsMethod,
    &super::lp::OneLp,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_but_auto_names_exactly_one_method() {
        use clap::ValueEnum;
        for choice in MethodChoice::value_variants() {
            let found = LINEAR_METHODS
                .iter()
                .filter(|m| m.choice() == *choice)
                .count();
            let expected = usize::from(*choice != MethodChoice::Auto);
            assert_eq!(found, expected, "{choice:?}");
        }
    }
}
