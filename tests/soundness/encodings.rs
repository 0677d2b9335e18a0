//! The compact encodings (envelopes, implied-pair pruning, auxiliary output probabilities,
//! column maxima) are exact: on random problems they reach the same optimum as a naive
//! formulation written here straight from each notion's definition, with every pair of inputs
//! (and, for maximal leakage, every choice function y -> x).

use mechsynth::objective::LossSpec;
use mechsynth::privacy::{MetricSpec, PrivacySpec, Symbol};
use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use mechsynth_solvers::{backend, BackendKind, LinearProgram, Sense};
use proptest::prelude::*;

use crate::common;

/// Two exact formulations solved by an interior-point method agree to this.
const FORMULATION_AGREEMENT: f64 = 1e-6;

/// Naive LP: variables Q[x][y] = x * n + y, rows sum to 1, then the definition of each notion.
fn naive_optimum(problem: &Problem) -> f64 {
    let n = problem.domain.size();
    let q = |x: usize, y: usize| x * n + y;
    let mut lp = LinearProgram::new();
    let c = problem.objective.linear_coefficients().unwrap();
    for row in c.iter() {
        for &v in row.iter() {
            lp.add_var(v, 0.0, 1.0);
        }
    }
    for x in 0..n {
        lp.add_constraint((0..n).map(|y| (q(x, y), 1.0)).collect(), Sense::Eq, 1.0);
    }
    let ratio = |lp: &mut LinearProgram, a: usize, b: usize, e: f64| {
        if e.is_finite() && a != b {
            for y in 0..n {
                lp.add_constraint(vec![(q(a, y), 1.0), (q(b, y), -e.exp())], Sense::Le, 0.0);
            }
        }
    };
    let prior = problem.domain.prior().to_vec();
    for spec in &problem.spec.privacy {
        match spec {
            PrivacySpec::Ldp { epsilon, .. } => {
                for a in 0..n {
                    for b in 0..n {
                        ratio(&mut lp, a, b, *epsilon);
                    }
                }
            }
            PrivacySpec::ContextLdp { epsilon, matrix } => {
                for (a, row) in matrix.iter().enumerate() {
                    for (b, &unit) in row.iter().enumerate() {
                        ratio(&mut lp, a, b, epsilon.unwrap_or(1.0) * unit);
                    }
                }
            }
            PrivacySpec::DPrivacy { epsilon, .. } => {
                for a in 0..n {
                    for b in 0..n {
                        ratio(&mut lp, a, b, epsilon * (a as f64 - b as f64).abs());
                    }
                }
            }
            PrivacySpec::HighLow { epsilon, sensitive } => {
                for s in sensitive {
                    let Symbol::Index(s) = s else { unreachable!() };
                    for b in 0..n {
                        ratio(&mut lp, *s, b, *epsilon);
                    }
                }
            }
            PrivacySpec::Block {
                epsilon,
                blocks,
                epsilon_across,
            } => {
                let block_of = |x: usize| {
                    blocks
                        .iter()
                        .position(|b| b.contains(&Symbol::Index(x)))
                        .unwrap()
                };
                for a in 0..n {
                    for b in 0..n {
                        let e = if block_of(a) == block_of(b) {
                            *epsilon
                        } else {
                            epsilon_across.unwrap_or(f64::INFINITY)
                        };
                        ratio(&mut lp, a, b, e);
                    }
                }
            }
            PrivacySpec::Lip {
                epsilon,
                prior: own,
                ..
            } => lip_rows(&mut lp, n, *epsilon, own.as_ref().unwrap_or(&prior)),
            PrivacySpec::BpLip { epsilon, priors } => {
                for p in priors {
                    lip_rows(&mut lp, n, *epsilon, p);
                }
            }
            PrivacySpec::MaxLeakage { epsilon } => {
                // sum_y Q[f(y)][y] <= e^eps for every function f: outputs -> inputs.
                for code in 0..n.pow(n as u32) {
                    let terms = (0..n)
                        .map(|y| (q(code / n.pow(y as u32) % n, y), 1.0))
                        .collect();
                    lp.add_constraint(terms, Sense::Le, epsilon.exp());
                }
            }
            PrivacySpec::Identifiability { epsilon } => {
                for a in 0..n {
                    for b in 0..n {
                        if a != b {
                            for y in 0..n {
                                lp.add_constraint(
                                    vec![(q(a, y), prior[a]), (q(b, y), -epsilon.exp() * prior[b])],
                                    Sense::Le,
                                    0.0,
                                );
                            }
                        }
                    }
                }
            }
            PrivacySpec::MutualInformation { .. } => unreachable!(),
        }
    }
    let solution = backend(BackendKind::Clarabel)
        .unwrap()
        .solve(&lp, &Default::default())
        .unwrap();
    assert!(
        solution.status.is_optimal(),
        "naive LP: {}",
        solution.status
    );
    solution.objective
}

fn lip_rows(lp: &mut LinearProgram, n: usize, epsilon: f64, p: &[f64]) {
    for y in 0..n {
        for x in 0..n {
            // Q[x][y] <= e^eps sum_x' p_x' Q[x'][y]  and  Q[x][y] >= e^-eps sum_x' p_x' Q[x'][y]
            let mut up: Vec<(usize, f64)> = (0..n)
                .map(|x2| (x2 * n + y, -epsilon.exp() * p[x2]))
                .collect();
            up[x].1 += 1.0;
            lp.add_constraint(up, Sense::Le, 0.0);
            let mut down: Vec<(usize, f64)> = (0..n)
                .map(|x2| (x2 * n + y, -(-epsilon).exp() * p[x2]))
                .collect();
            down[x].1 += 1.0;
            lp.add_constraint(down, Sense::Ge, 0.0);
        }
    }
}

fn notion(n: usize) -> impl Strategy<Value = PrivacySpec> {
    let eps = 0.1f64..2.5;
    prop_oneof![
        eps.clone().prop_map(|epsilon| PrivacySpec::Ldp {
            epsilon,
            delta: None,
            releases: None
        }),
        (
            eps.clone(),
            prop::collection::vec(
                prop::collection::vec(prop_oneof![Just(f64::INFINITY), 0.2f64..3.0], n),
                n
            )
        )
            .prop_map(|(e, matrix)| PrivacySpec::ContextLdp {
                epsilon: Some(e),
                matrix
            }),
        eps.clone().prop_map(|epsilon| PrivacySpec::DPrivacy {
            epsilon,
            metric: MetricSpec::Named("line".into()),
            approximate: None,
        }),
        (eps.clone(), 1usize..n).prop_map(|(epsilon, k)| PrivacySpec::HighLow {
            epsilon,
            sensitive: (0..k).map(Symbol::Index).collect()
        }),
        (eps.clone(), prop::option::of(0.1f64..3.0), 1usize..n).prop_map(
            move |(epsilon, epsilon_across, cut)| PrivacySpec::Block {
                epsilon,
                blocks: vec![
                    (0..cut).map(Symbol::Index).collect(),
                    (cut..n).map(Symbol::Index).collect()
                ],
                epsilon_across,
            }
        ),
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
        (0.05f64..1.2).prop_map(|epsilon| PrivacySpec::MaxLeakage { epsilon }),
        (1.5f64..3.0).prop_map(|epsilon| PrivacySpec::Identifiability { epsilon }),
    ]
}

fn problem() -> impl Strategy<Value = ProblemSpec> {
    (2usize..=4).prop_flat_map(|n| {
        let loss = prop_oneof![
            Just(LossSpec::Named("hamming".into())),
            Just(LossSpec::Named("squared".into())),
            prop::collection::vec(prop::collection::vec(0.0f64..2.0, n), n)
                .prop_map(|matrix| LossSpec::Matrix { matrix }),
        ];
        (
            common::prior(n),
            prop::collection::vec(notion(n), 1..=2),
            loss,
        )
            .prop_map(move |(p, privacy, loss)| common::line_problem(n, p, privacy, loss))
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: crate::common::persistence(),
        ..ProptestConfig::default()
    })]

    #[test]
    fn compact_encodings_reach_the_naive_optimum(spec in problem()) {
        let problem = Problem::from_spec(spec).unwrap();
        let report = solve(&problem, &SolveOptions::default()).unwrap();
        prop_assume!(report.status.is_optimal());
        let compact = report.objective.unwrap();
        let naive = naive_optimum(&problem);
        prop_assert!((compact - naive).abs() <= FORMULATION_AGREEMENT, "compact {compact} vs naive {naive}");
    }
}
