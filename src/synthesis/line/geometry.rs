//! When the line method applies: one eps-d-privacy constraint with `metric = "line"` over
//! points of the real line that are equally spaced (see [`crate::geo::line`]).

pub use crate::geo::line::{
    equally_spaced, EquallySpacedLine, PRIMAL_BUDGET_MARGIN, SPACING_TOLERANCE,
};
use crate::privacy::{MetricSpec, PrivacySpec};
use crate::problem::Problem;

impl EquallySpacedLine {
    /// The structure of `problem` when the method applies: one privacy constraint, d-privacy
    /// with the named metric `line` and no spanner, at least two points, equal gaps.
    pub fn of(problem: &Problem) -> Option<Self> {
        let ([spec], [notion]) = (&problem.spec.privacy[..], &problem.privacy[..]) else {
            return None;
        };
        if notion.key() != "d-privacy" {
            return None;
        }
        let PrivacySpec::DPrivacy {
            epsilon,
            metric: MetricSpec::Named(name),
            approximate: None,
        } = spec
        else {
            return None;
        };
        if name != "line" {
            return None;
        }
        let values: Vec<f64> = problem.domain.coordinates().iter().map(|c| c[0]).collect();
        Self::new(&values, *epsilon)
    }
}
