//! Property: every channel that `solve` emits passes `audit` at its requested epsilon, for random
//! problems of every notion, and it is no worse than the constant channel (always feasible when
//! the problem is).

use crate::common;
use mechsynth::objective::Goal;
use mechsynth::objective::{LossSpec, ObjectiveSpec};
use mechsynth::privacy::{MetricSpec, PrivacySpec, Symbol};
use mechsynth::synthesis::Status;
use mechsynth::{audit, solve, AuditSpec, Channel, LpStatus, Problem, ProblemSpec, SolveOptions};
use proptest::prelude::*;

use std::path::Path;

/// A certified repair may cost at most this much objective (it only undoes solver noise).
const REPAIR_COST_LIMIT: f64 = 1e-6;
/// Slack when comparing the optimum with the constant channel's objective.
const OBJECTIVE_SLACK: f64 = 1e-7;
/// Relative slack of a bound against the certified value (solver tolerance is 1e-8).
const BOUND_SLACK: f64 = 1e-6;

fn matrix(n: usize) -> impl Strategy<Value = Vec<Vec<f64>>> {
    prop::collection::vec(
        prop::collection::vec(prop_oneof![Just(f64::INFINITY), 0.2f64..3.0], n),
        n,
    )
}

fn notion(n: usize) -> impl Strategy<Value = PrivacySpec> {
    let eps = 0.05f64..3.0;
    prop_oneof![
        eps.clone().prop_map(|epsilon| PrivacySpec::Ldp {
            epsilon,
            delta: None,
            releases: None
        }),
        (eps.clone(), matrix(n)).prop_map(|(e, matrix)| PrivacySpec::ContextLdp {
            epsilon: Some(e),
            matrix
        }),
        (eps.clone(), prop::collection::vec(any::<bool>(), n)).prop_map(move |(epsilon, pick)| {
            PrivacySpec::HighLow {
                epsilon,
                sensitive: (0..n)
                    .filter(|&i| pick[i] || i == 0)
                    .map(Symbol::Index)
                    .collect(),
            }
        }),
        (
            eps.clone(),
            prop::collection::vec(0usize..3, n),
            prop::option::of(0.05f64..4.0)
        )
            .prop_map(|(epsilon, owner, epsilon_across)| {
                let blocks: Vec<Vec<Symbol>> = (0..3)
                    .map(|b| {
                        (0..owner.len())
                            .filter(|&x| owner[x] == b)
                            .map(Symbol::Index)
                            .collect::<Vec<_>>()
                    })
                    .filter(|b| !b.is_empty())
                    .collect();
                PrivacySpec::Block {
                    epsilon,
                    blocks,
                    epsilon_across,
                }
            }),
        (eps.clone(), any::<bool>()).prop_map(|(epsilon, line)| PrivacySpec::DPrivacy {
            epsilon,
            metric: MetricSpec::Named(if line { "line" } else { "euclidean" }.into()),
            approximate: None,
        }),
        (eps.clone(), common::prior(n)).prop_map(|(epsilon, p)| PrivacySpec::Lip {
            epsilon,
            prior: Some(p),
            delta: None,
            releases: None
        }),
        eps.clone().prop_map(|epsilon| PrivacySpec::Lip {
            epsilon,
            prior: None,
            delta: None,
            releases: None
        }),
        (eps.clone(), common::prior(n), common::prior(n)).prop_map(|(epsilon, a, b)| {
            PrivacySpec::BpLip {
                epsilon,
                priors: vec![a, b],
            }
        }),
        eps.clone()
            .prop_map(|epsilon| PrivacySpec::MaxLeakage { epsilon }),
        (0.05f64..4.0).prop_map(|epsilon| PrivacySpec::Identifiability { epsilon }),
        (0.05f64..1.0).prop_map(|epsilon| PrivacySpec::MutualInformation { epsilon }),
    ]
}

fn loss(n: usize) -> impl Strategy<Value = LossSpec> {
    prop_oneof![
        Just(LossSpec::Named("hamming".into())),
        Just(LossSpec::Named("absolute".into())),
        Just(LossSpec::Named("squared".into())),
        (0.0f64..2.0).prop_map(|range| LossSpec::Range { range }),
        prop::collection::vec(prop::collection::vec(0.0f64..2.0, n), n)
            .prop_map(|matrix| LossSpec::Matrix { matrix }),
    ]
}

fn objective(n: usize) -> impl Strategy<Value = ObjectiveSpec> {
    prop_oneof![
        3 => loss(n).prop_map(|loss| ObjectiveSpec::ExpectedLoss { loss }),
        1 => (0.1f64..3.0).prop_map(|w| ObjectiveSpec::MmseSum { weight: Some(w), offset: None }),
        1 => Just(ObjectiveSpec::MmseHistogram),
        1 => Just(ObjectiveSpec::MutualInformation),
    ]
}

fn problem() -> impl Strategy<Value = ProblemSpec> {
    (2usize..=5).prop_flat_map(|n| {
        (
            common::prior(n),
            prop::collection::vec(notion(n), 1..=2),
            objective(n),
        )
            .prop_map(move |(p, privacy, objective)| {
                let mut spec =
                    common::line_problem(n, p, privacy, LossSpec::Named("hamming".into()));
                spec.objective = objective;
                spec
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 128,
        failure_persistence: common::persistence(),
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_emitted_channel_passes_audit_at_its_requested_epsilon(spec in problem()) {
        let problem = Problem::from_spec(spec.clone()).expect("generated problems are valid");
        let report = solve(&problem, &SolveOptions::default()).expect("solve runs");
        if report.status == LpStatus::Infeasible {
            // Only identifiability can be infeasible: it needs max p / min p <= e^eps.
            let p = problem.domain.prior();
            let ratio = p.iter().cloned().fold(0.0, f64::max) / p.iter().cloned().fold(1.0, f64::min);
            let tight = spec.privacy.iter().any(|s| matches!(s, PrivacySpec::Identifiability { epsilon } if ratio.ln() > *epsilon - 1e-9));
            prop_assert!(tight, "infeasible without an infeasible identifiability constraint");
            return Ok(());
        }
        let local = report.status == Status::LocalOptimum;
        prop_assert!(report.status.is_optimal() || local, "status {}", report.status);
        let json = serde_json::to_string(&report).unwrap();
        let audited = audit(&AuditSpec::parse(&json, Path::new("report.json")).unwrap()).unwrap();
        prop_assert!(audited.all_hold, "{:?}", audited.checks);
        prop_assert_eq!(audited.checks.len(), report.certificate.as_ref().unwrap().checks.len());
        for check in &audited.checks {
            prop_assert!(check.check.holds(), "{:?}", check);
        }
        if let Some(r) = &report.certificate.as_ref().unwrap().repair {
            prop_assert!((r.objective_after - r.objective_before).abs() <= REPAIR_COST_LIMIT, "{:?}", r);
        }
        // The uniform constant channel is feasible for every notion whenever the problem is.
        let n = problem.domain.size();
        let constant = Channel::new(vec![vec![1.0 / n as f64; n]; n]).unwrap();
        let baseline = problem.objective.evaluate(&constant);
        let value = report.objective.unwrap();
        match problem.objective.goal() {
            Goal::Minimize => prop_assert!(value <= baseline + OBJECTIVE_SLACK, "{value} > {baseline}"),
            Goal::Maximize => prop_assert!(value >= baseline - OBJECTIVE_SLACK, "{value} < {baseline}"),
        }
        // A certified bound is on the right side of the value, up to solver accuracy.
        if let (Some(bound), false) = (report.bound, local) {
            let gap = match problem.objective.goal() {
                Goal::Minimize => bound - value,
                Goal::Maximize => value - bound,
            };
            prop_assert!(gap <= BOUND_SLACK * (1.0 + value.abs()), "bound {bound} vs value {value}");
        }
    }
}
