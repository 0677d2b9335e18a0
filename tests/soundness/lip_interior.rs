//! The LIP interior-point method against independent references: one LP with every
//! constraint solved by the backend (a general-purpose solver), the binary optimum found by
//! vertex enumeration in `problems/derive.py`, and the channel's LIP condition recomputed
//! pair by pair here.

use mechsynth::synthesis::{Method, Status};
use mechsynth::{solve, MethodChoice, Problem, ProblemSpec, SolveOptions};
use proptest::prelude::*;
use std::path::Path;

/// Two certified optima of the same problem agree to this (relative; the report's default
/// gap tolerance is 1e-6 relative, and each side may use part of it).
const AGREEMENT: f64 = 2e-6;
/// A rigorous bound may exceed another method's certified objective only by rounding in that
/// objective's evaluation (relative).
const BOUND_ROUNDING: f64 = 1e-12;
/// The ratio `Q[x][y] / P(Y = y)` recomputed here in plain floating point may pass `e^eps` by
/// this much (relative) from the rounding of this test's own sums.
const RECOMPUTE_ROUNDING: f64 = 1e-12;

fn problem(text: &str) -> Problem {
    Problem::from_spec(ProblemSpec::from_toml(text, Path::new("test.toml")).unwrap()).unwrap()
}

fn run(p: &Problem, method: MethodChoice) -> mechsynth::report::Report {
    let mut options = SolveOptions {
        method,
        ..SolveOptions::default()
    };
    options.backend_options.time_limit_seconds = 120.0;
    solve(p, &options).unwrap()
}

fn lip_problem(prior: &[f64], eps: f64, objective: &str) -> Problem {
    problem(&format!(
        "[domain]\nsize = {}\nprior = {prior:?}\n[[privacy]]\nnotion = \"lip\"\nepsilon = {eps}\n[objective]\n{objective}\n",
        prior.len()
    ))
}

/// Every row sums to 1 and every entry lies within `[e^-eps, e^eps]` times its output's
/// probability under the prior, both recomputed here from the emitted channel.
fn assert_lip(report: &mechsynth::report::Report, prior: &[f64], eps: f64) {
    let channel = report.channel.as_ref().expect("a channel");
    let (n, outputs) = (channel.inputs(), channel.outputs());
    for x in 0..n {
        let sum: f64 = (0..outputs).map(|y| channel.get(x, y)).sum();
        assert!(
            (sum - 1.0).abs() <= RECOMPUTE_ROUNDING * n as f64,
            "row {x} sums to {sum}"
        );
    }
    let (up, down) = (
        eps.exp() * (1.0 + RECOMPUTE_ROUNDING),
        (-eps).exp() * (1.0 - RECOMPUTE_ROUNDING),
    );
    for y in 0..outputs {
        let output: f64 = (0..n).map(|x| prior[x] * channel.get(x, y)).sum();
        for x in 0..n {
            let q = channel.get(x, y);
            assert!(q >= 0.0, "Q[{x}][{y}] = {q}");
            assert!(
                q <= up * output,
                "Q[{x}][{y}] = {q} above e^eps P(Y={y}) = {}",
                eps.exp() * output
            );
            assert!(
                q >= down * output,
                "Q[{x}][{y}] = {q} below e^-eps P(Y={y}) = {}",
                (-eps).exp() * output
            );
        }
    }
}

/// The interior point's certified optimum against one LP with every constraint, its channel
/// LIP-private pair by pair and its bound on the right side of both objectives.
fn agrees_with_one_lp(
    prior: &[f64],
    eps: f64,
    objective: &str,
    maximize: bool,
) -> Result<(), TestCaseError> {
    let p = lip_problem(prior, eps, objective);
    let ip = run(&p, MethodChoice::LipInteriorPoint);
    let lp = run(&p, MethodChoice::Lp);
    prop_assert_eq!(ip.method, Method::LipInteriorPoint);
    prop_assert_eq!(&ip.status, &Status::Optimal);
    prop_assert_eq!(&lp.status, &Status::Optimal);
    prop_assert!(ip.certificate.as_ref().unwrap().all_hold);
    assert_lip(&ip, prior, eps);
    let (a, b) = (ip.objective.unwrap(), lp.objective.unwrap());
    prop_assert!(
        (a - b).abs() <= AGREEMENT * b.abs().max(1.0),
        "interior point {} vs LP {}",
        a,
        b
    );
    let bound = ip.bound.unwrap();
    let slack = BOUND_ROUNDING * b.abs().max(1.0);
    for reference in [a, b] {
        if maximize {
            prop_assert!(
                bound >= reference - slack,
                "upper bound {} below {}",
                bound,
                reference
            );
        } else {
            prop_assert!(
                bound <= reference + slack,
                "lower bound {} above {}",
                bound,
                reference
            );
        }
    }
    Ok(())
}

fn random_prior(rng: &mut impl rand::Rng, n: usize) -> Vec<f64> {
    let w: Vec<f64> = (0..n).map(|_| rng.gen_range(0.01..1.0)).collect();
    let total: f64 = w.iter().sum();
    w.iter().map(|v| v / total).collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: crate::common::persistence(),
        ..ProptestConfig::default()
    })]

    /// Random loss matrices (minimized) or co-location (maximized), random priors and eps.
    #[test]
    fn lip_interior_point_agrees_with_one_lp_on_random_losses(
        n in 2usize..12,
        eps in 0.05f64..3.0,
        maximize in any::<bool>(),
        seed in any::<u64>(),
    ) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let prior = random_prior(&mut rng, n);
        let rows: Vec<String> = (0..n)
            .map(|_| {
                let r: Vec<String> = (0..n).map(|_| format!("{:?}", rng.gen_range(0.0..10.0))).collect();
                format!("[{}]", r.join(", "))
            })
            .collect();
        let objective = if maximize {
            "kind = \"co-location\"".to_string()
        } else {
            format!("kind = \"expected-loss\"\nloss = {{ matrix = [{}] }}", rows.join(", "))
        };
        agrees_with_one_lp(&prior, eps, &objective, maximize)?;
    }

    /// Absolute loss on 0..n-1 under random priors.
    #[test]
    fn lip_interior_point_agrees_with_one_lp_on_absolute_loss(
        n in 2usize..30,
        eps in 0.05f64..4.0,
        seed in any::<u64>(),
    ) {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let prior = random_prior(&mut rng, n);
        agrees_with_one_lp(&prior, eps, "kind = \"expected-loss\"\nloss = \"absolute\"", false)?;
    }
}

/// The binary survey of `problems/lip-binary-survey.toml` (prior 0.7 / 0.3, eps = 1, Hamming
/// loss): its optimum 0.154509365292006 comes from vertex enumeration in `problems/derive.py`.
#[test]
fn lip_interior_point_reaches_the_binary_vertex_optimum() {
    const VERTEX_OPTIMUM: f64 = 0.154_509_365_292_006;
    let prior = [0.7, 0.3];
    let p = lip_problem(&prior, 1.0, "kind = \"expected-loss\"\nloss = \"hamming\"");
    let r = run(&p, MethodChoice::LipInteriorPoint);
    assert_eq!(r.status, Status::Optimal);
    assert_lip(&r, &prior, 1.0);
    let (v, b) = (r.objective.unwrap(), r.bound.unwrap());
    assert!(
        (v - VERTEX_OPTIMUM).abs() <= AGREEMENT * VERTEX_OPTIMUM,
        "{v}"
    );
    assert!(b <= VERTEX_OPTIMUM, "bound {b} above the optimum");
}

/// n = 200, absolute loss, uniform and skewed priors: `auto` picks the LIP interior point and
/// its certified optimum equals one LP's.
#[test]
fn auto_solves_lip_at_200_inputs_as_one_lp_does() {
    let n = 200;
    let skewed: Vec<f64> = {
        let total = (n * (n + 1) / 2) as f64;
        (1..=n).map(|i| i as f64 / total).collect()
    };
    for prior in [vec![1.0 / n as f64; n], skewed] {
        let p = lip_problem(&prior, 1.0, "kind = \"expected-loss\"\nloss = \"absolute\"");
        let auto = run(&p, MethodChoice::Auto);
        assert_eq!(auto.method, Method::LipInteriorPoint);
        assert_eq!(auto.status, Status::Optimal);
        assert_lip(&auto, &prior, 1.0);
        let lp = run(&p, MethodChoice::Lp);
        assert_eq!(lp.status, Status::Optimal);
        let (a, b) = (auto.objective.unwrap(), lp.objective.unwrap());
        assert!((a - b).abs() <= AGREEMENT * b, "{a} vs {b}");
        let bound = auto.bound.unwrap();
        assert!(
            bound <= a && bound <= b * (1.0 + BOUND_ROUNDING),
            "bound {bound}"
        );
    }
}
