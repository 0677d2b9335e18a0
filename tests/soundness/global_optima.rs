//! The extreme-ray methods return global optima: never worse than an independent dense
//! multistart search over the channel polytope, nor than any published mechanism that is
//! feasible for the same problem (k-RR, Warner, Mangat, lip-data-aggregation Theorem 3).

use mechsynth::objective::{Goal, LossSpec, ObjectiveSpec};
use mechsynth::privacy::{lip_leakage, MetricSpec, PrivacySpec, Symbol};
use mechsynth::problem::DomainSpec;
use mechsynth::{solve, Channel, Problem, ProblemSpec, SolveOptions};
use rand::{Rng, SeedableRng};

/// The certified optimum may trail a search result by at most this (solver accuracy).
const OPTIMUM_SLACK: f64 = 1e-6;
/// Theorem 3's mechanism meets its LIP constraints with equality; outward rounding of its
/// leakage may exceed eps by this much.
const TIGHT_ROUNDING: f64 = 1e-9;
/// Random linear costs tried by the independent search.
const SEARCH_STARTS: usize = 40;
/// Full Frank-Wolfe steps after each start (for a convex maximization each is an ascent).
const SEARCH_STEPS: usize = 3;

fn spec(
    n: usize,
    prior: &[f64],
    privacy: Vec<PrivacySpec>,
    objective: ObjectiveSpec,
) -> ProblemSpec {
    ProblemSpec {
        name: None,
        description: None,
        domain: DomainSpec {
            line: Some(n),
            prior: Some(prior.to_vec()),
            ..DomainSpec::default()
        },
        privacy,
        objective,
        expected: None,
        sweep: None,
    }
}

fn random_prior(rng: &mut impl Rng, n: usize) -> Vec<f64> {
    let w: Vec<f64> = (0..n).map(|_| rng.gen_range(0.1..1.0)).collect();
    let s: f64 = w.iter().sum();
    let mut p: Vec<f64> = w.iter().map(|v| v / s).collect();
    let rest: f64 = p[1..].iter().sum();
    p[0] = 1.0 - rest;
    p
}

/// The channel minimizing `sum c[x][y] Q[x][y]` over the feasible set, through the public API
/// (an expected loss with `L[x][y] = c[x][y] / p_x`).
fn vertex(n: usize, prior: &[f64], privacy: &[PrivacySpec], cost: &[Vec<f64>]) -> Channel {
    let matrix = (0..n)
        .map(|x| cost[x].iter().map(|c| c / prior[x]).collect())
        .collect();
    let s = spec(
        n,
        prior,
        privacy.to_vec(),
        ObjectiveSpec::ExpectedLoss {
            loss: LossSpec::Matrix { matrix },
        },
    );
    let report = solve(&Problem::from_spec(s).unwrap(), &SolveOptions::default()).unwrap();
    report.channel.expect("the feasible set is non-empty")
}

/// The best objective found by random vertices plus a few full Frank-Wolfe ascent steps.
fn multistart(problem: &Problem, privacy: &[PrivacySpec], seed: u64) -> f64 {
    let n = problem.domain.size();
    let prior = problem.domain.prior();
    let sign = match problem.objective.goal() {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut best = f64::INFINITY;
    for _ in 0..SEARCH_STARTS {
        let cost: Vec<Vec<f64>> = (0..n)
            .map(|_| (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect())
            .collect();
        let mut q = vertex(n, prior, privacy, &cost);
        best = best.min(sign * problem.objective.evaluate(&q));
        for _ in 0..SEARCH_STEPS {
            let Some(g) = problem.objective.gradient(&q) else {
                break;
            };
            let cost: Vec<Vec<f64>> = g
                .iter()
                .map(|r| r.iter().map(|v| sign * v).collect())
                .collect();
            q = vertex(n, prior, privacy, &cost);
            best = best.min(sign * problem.objective.evaluate(&q));
        }
    }
    sign * best
}

fn notions(n: usize, rng: &mut impl Rng) -> Vec<(&'static str, PrivacySpec)> {
    let eps = rng.gen_range(0.3..2.0);
    let inf = f64::INFINITY;
    let matrix = (0..n)
        .map(|a| {
            (0..n)
                .map(|b| {
                    if a == b {
                        0.0
                    } else if rng.gen_bool(0.3) {
                        inf
                    } else {
                        rng.gen_range(0.5..2.0)
                    }
                })
                .collect()
        })
        .collect();
    let prior_a = random_prior(rng, n);
    let prior_b = random_prior(rng, n);
    vec![
        (
            "ldp",
            PrivacySpec::Ldp {
                epsilon: eps,
                delta: None,
                releases: None,
            },
        ),
        (
            "context-ldp",
            PrivacySpec::ContextLdp {
                epsilon: Some(eps),
                matrix,
            },
        ),
        (
            "high-low",
            PrivacySpec::HighLow {
                epsilon: eps,
                sensitive: vec![Symbol::Index(0)],
            },
        ),
        (
            "block",
            PrivacySpec::Block {
                epsilon: eps,
                blocks: vec![
                    (0..n / 2).map(Symbol::Index).collect(),
                    (n / 2..n).map(Symbol::Index).collect(),
                ],
                epsilon_across: Some(2.0 * eps),
            },
        ),
        (
            "d-privacy",
            PrivacySpec::DPrivacy {
                epsilon: eps,
                metric: MetricSpec::Named("line".into()),
                approximate: None,
            },
        ),
        (
            "lip",
            PrivacySpec::Lip {
                epsilon: eps,
                prior: None,
                delta: None,
                releases: None,
            },
        ),
        (
            "bp-lip",
            PrivacySpec::BpLip {
                epsilon: eps,
                priors: vec![prior_a, prior_b],
            },
        ),
        ("max-leakage", PrivacySpec::MaxLeakage { epsilon: eps }),
        (
            "identifiability",
            PrivacySpec::Identifiability { epsilon: 3.0 },
        ),
    ]
}

#[test]
fn never_worse_than_an_independent_multistart_search_for_every_notion() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let objectives = [
        ObjectiveSpec::MmseSum {
            weight: None,
            offset: None,
        },
        ObjectiveSpec::MmseHistogram,
        ObjectiveSpec::MutualInformation,
    ];
    for n in [3usize, 4] {
        let prior = random_prior(&mut rng, n);
        for (name, notion) in notions(n, &mut rng) {
            for (k, objective) in objectives.iter().enumerate() {
                let s = spec(n, &prior, vec![notion.clone()], objective.clone());
                let problem = Problem::from_spec(s).unwrap();
                let report = solve(&problem, &SolveOptions::default()).unwrap();
                assert!(report.status.is_optimal(), "{name}: {}", report.status);
                // A basic solution: at most one output per row-sum equality and coupling row.
                let outputs = report.channel.as_ref().unwrap().outputs();
                let coupling = usize::from(name == "max-leakage");
                assert!(
                    outputs <= n + coupling,
                    "{name}: {outputs} outputs for n = {n}"
                );
                let ours = report.objective.unwrap();
                let found = multistart(&problem, std::slice::from_ref(&notion), 100 + k as u64);
                let worse = match problem.objective.goal() {
                    Goal::Minimize => ours - found,
                    Goal::Maximize => found - ours,
                };
                assert!(
                    worse <= OPTIMUM_SLACK,
                    "n = {n}, {name}, {}: ours {ours}, search {found}",
                    problem.objective.describe()
                );
            }
        }
    }
}

fn krr(n: usize, eps: f64) -> Channel {
    let e = eps.exp();
    let d = e + n as f64 - 1.0;
    Channel::new(
        (0..n)
            .map(|x| {
                (0..n)
                    .map(|y| if x == y { e / d } else { 1.0 / d })
                    .collect()
            })
            .collect(),
    )
    .unwrap()
}

/// [LIP-agg] Theorem 3: q_mm = 1 - (1 - P_m) e^-eps, q_mk = P_k e^-eps.
fn theorem3(prior: &[f64], eps: f64) -> Option<Channel> {
    let r = (-eps).exp();
    let n = prior.len();
    Channel::new(
        (0..n)
            .map(|m| {
                (0..n)
                    .map(|k| {
                        if m == k {
                            1.0 - (1.0 - prior[m]) * r
                        } else {
                            prior[k] * r
                        }
                    })
                    .collect()
            })
            .collect(),
    )
    .ok()
}

#[test]
fn never_worse_than_feasible_published_mechanisms() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut theorem3_feasible = 0;
    for case in 0..30 {
        let n = 2 + case % 4;
        let eps: f64 = rng.gen_range(0.2..3.0);
        // Theorem 3's mechanism is eps-LIP only when every P_m >= 1 / (e^eps + 1); uniform
        // priors at larger eps exercise it where it holds.
        let (prior, eps) = if case % 3 == 0 {
            (vec![1.0 / n as f64; n], eps + 1.5)
        } else {
            (random_prior(&mut rng, n), eps)
        };
        for objective in [
            ObjectiveSpec::MmseSum {
                weight: None,
                offset: None,
            },
            ObjectiveSpec::MmseHistogram,
            ObjectiveSpec::MutualInformation,
        ] {
            let better = |p: &Problem, v: f64, mechanism: &Channel| match p.objective.goal() {
                Goal::Minimize => v <= p.objective.evaluate(mechanism) + OPTIMUM_SLACK,
                Goal::Maximize => v >= p.objective.evaluate(mechanism) - OPTIMUM_SLACK,
            };
            // k-RR (Warner at n = 2) is eps-LDP, hence also eps-LIP.
            for notion in [
                PrivacySpec::Ldp {
                    epsilon: eps,
                    delta: None,
                    releases: None,
                },
                PrivacySpec::Lip {
                    epsilon: eps,
                    prior: None,
                    delta: None,
                    releases: None,
                },
            ] {
                let p =
                    Problem::from_spec(spec(n, &prior, vec![notion.clone()], objective.clone()))
                        .unwrap();
                let r = solve(&p, &SolveOptions::default()).unwrap();
                let v = r.objective.unwrap();
                assert!(
                    better(&p, v, &krr(n, eps)),
                    "case {case} {notion:?}: {v} vs k-RR"
                );
                if let (PrivacySpec::Lip { .. }, Some(t3)) = (&notion, theorem3(&prior, eps)) {
                    if lip_leakage(&t3, std::slice::from_ref(&prior)) <= eps + TIGHT_ROUNDING {
                        theorem3_feasible += 1;
                        assert!(better(&p, v, &t3), "case {case}: {v} vs Theorem 3");
                    }
                }
            }
            if n == 2 {
                // Mangat's scheme for E = [[0, inf], [eps, 0]]: row 0 = (1 - e^-eps, e^-eps), row 1 = (0, 1).
                let notion = PrivacySpec::ContextLdp {
                    epsilon: Some(eps),
                    matrix: vec![vec![0.0, f64::INFINITY], vec![1.0, 0.0]],
                };
                let p =
                    Problem::from_spec(spec(n, &prior, vec![notion], objective.clone())).unwrap();
                let v = solve(&p, &SolveOptions::default())
                    .unwrap()
                    .objective
                    .unwrap();
                let r = (-eps).exp();
                let mangat = Channel::new(vec![vec![1.0 - r, r], vec![0.0, 1.0]]).unwrap();
                assert!(better(&p, v, &mangat), "case {case}: {v} vs Mangat");
            }
        }
    }
    assert!(
        theorem3_feasible > 0,
        "no case exercised Theorem 3 where it is feasible"
    );
}
