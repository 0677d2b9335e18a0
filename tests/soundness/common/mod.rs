//! Generators and settings shared by the property tests.

use mechsynth::objective::{LossSpec, ObjectiveSpec};
use mechsynth::privacy::PrivacySpec;
use mechsynth::problem::DomainSpec;
use mechsynth::ProblemSpec;
use proptest::prelude::*;
use proptest::test_runner::{FailurePersistence, FileFailurePersistence};

/// Where a property test keeps the cases proptest once found failing: beside the test's source
/// file, as `NAME.proptest-regressions`, rerun before any new case is drawn. Proptest's default
/// (`SourceParallel`) stops at this crate's `main.rs` and would use
/// `tests/proptest-regressions/NAME.txt` instead.
pub fn persistence() -> Option<Box<dyn FailurePersistence>> {
    Some(Box::new(FileFailurePersistence::WithSource(
        "proptest-regressions",
    )))
}

/// A random prior over `n` symbols with every entry at least about 0.05 / n, summing to 1.
pub fn prior(n: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(0.05f64..1.0, n).prop_map(|w| {
        let s: f64 = w.iter().sum();
        let mut p: Vec<f64> = w.iter().map(|v| v / s).collect();
        let rest: f64 = p[1..].iter().sum();
        p[0] = 1.0 - rest;
        p
    })
}

/// A problem on the line `0..n-1` with the given prior, constraints and loss.
pub fn line_problem(
    n: usize,
    prior: Vec<f64>,
    privacy: Vec<PrivacySpec>,
    loss: LossSpec,
) -> ProblemSpec {
    ProblemSpec {
        name: None,
        description: None,
        domain: DomainSpec {
            line: Some(n),
            prior: Some(prior),
            ..DomainSpec::default()
        },
        privacy,
        objective: ObjectiveSpec::ExpectedLoss { loss },
        expected: None,
        sweep: None,
    }
}
