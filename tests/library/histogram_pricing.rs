//! Exact pricing of the histogram MMSE (branch and bound, no ray list) against independent
//! references: brute force over every listed LIP vertex / LDP staircase ray, and the
//! extreme-ray LP over the enumerated rays.

use mechsynth::rays::{lip_vertices, staircase_rays};
use mechsynth::synthesis::{
    price_histogram_ldp, price_histogram_lip, solve_histogram_by_pricing, Run, SeparableUtility,
    Status,
};
use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use rand::{Rng, SeedableRng};
use std::path::Path;
use std::time::{Duration, Instant};

/// The pricer's bound may lie below the brute-force maximum by at most the brute force's own
/// rounding.
const BRUTE_ROUNDING: f64 = 1e-12;
/// With no floor the bound is tight: above the brute-force maximum by at most this.
const TIGHT_BOUND: f64 = 1e-9;
/// Optima of the two solution paths agree to this.
const OPTIMUM_AGREEMENT: f64 = 1e-7;
/// The local search's value at n = 20, uniform prior, eps 1 (before exact pricing existed).
const LOCAL_VALUE_N20: f64 = 0.89895;
/// The time limit of the interrupted solve (n = 40 takes far longer) ...
const TIME_LIMIT_SECONDS: f64 = 2.0;
/// ... and how much later it may return (a master LP, certification, a loaded machine).
const LATE_SECONDS: f64 = 5.0;

fn problem(n: usize, prior: &[f64], notion: &str, epsilon: f64) -> Problem {
    problem_of(n, prior, notion, epsilon, "mmse-histogram")
}

fn problem_of(n: usize, prior: &[f64], notion: &str, epsilon: f64, kind: &str) -> Problem {
    let prior: Vec<String> = prior.iter().map(|v| format!("{v:e}")).collect();
    let text = format!(
        "[domain]\nsize = {n}\nprior = [{}]\n[[privacy]]\nnotion = \"{notion}\"\nepsilon = {epsilon}\n[objective]\nkind = \"{kind}\"\n",
        prior.join(", ")
    );
    Problem::from_spec(ProblemSpec::from_toml(&text, Path::new("test.toml")).unwrap()).unwrap()
}

fn skewed(n: usize) -> Vec<f64> {
    let total = (n * (n + 1) / 2) as f64;
    (1..=n).map(|i| i as f64 / total).collect()
}

fn uniform(n: usize) -> Vec<f64> {
    vec![1.0 / n as f64; n]
}

/// Histogram MMSE from its definition: `sum_k p_k - sum_y sum_k (p_k Q[k][y])^2 / lambda_y`
/// (lip-data-aggregation eq. 31), after checking the rows are distributions.
fn histogram_mmse(prior: &[f64], rows: &[Vec<f64>]) -> f64 {
    for row in rows {
        assert!(row.iter().all(|&v| v >= -1e-12));
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-8);
    }
    let explained: f64 = (0..rows[0].len())
        .map(|y| {
            let mass: Vec<f64> = prior.iter().zip(rows).map(|(p, row)| p * row[y]).collect();
            let lambda: f64 = mass.iter().sum();
            if lambda > 0.0 {
                mass.iter().map(|m| m * m).sum::<f64>() / lambda
            } else {
                0.0
            }
        })
        .sum();
    prior.iter().sum::<f64>() - explained
}

/// `(g(r) - mu . r) / (p . r)` with `g(r) = sum_x (p_x r_x)^2 / (p . r)`, from the definition.
fn reduced(p: &[f64], mu: &[f64], r: &[f64]) -> f64 {
    let lambda: f64 = p.iter().zip(r).map(|(a, b)| a * b).sum();
    let g: f64 = p.iter().zip(r).map(|(a, b)| (a * b).powi(2)).sum::<f64>() / lambda;
    (g - mu.iter().zip(r).map(|(a, b)| a * b).sum::<f64>()) / lambda
}

fn random_case(seed: u64, n: usize) -> (Vec<f64>, Vec<f64>, f64) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let w: Vec<f64> = (0..n).map(|_| rng.gen_range(0.05..1.0)).collect();
    let total: f64 = w.iter().sum();
    let p: Vec<f64> = w.iter().map(|v| v / total).collect();
    // Prices near the histogram's own scale (p_x^2 per unit of q), some negative.
    let mu: Vec<f64> = p.iter().map(|v| v * v * rng.gen_range(-0.5..2.5)).collect();
    let eps = rng.gen_range(0.2..2.5);
    (p, mu, eps)
}

fn far_deadline() -> Instant {
    Instant::now() + Duration::from_secs(600)
}

#[test]
fn lip_pricer_is_never_below_brute_force_and_tight_without_a_floor() {
    for seed in 0..60 {
        let n = 2 + (seed as usize % 9);
        let (p, mu, eps) = random_case(seed, n);
        let brute = lip_vertices(&p, eps, 1 << 16)
            .unwrap()
            .iter()
            .map(|q| reduced(&p, &mu, q))
            .fold(f64::NEG_INFINITY, f64::max);
        let (priced, stats) = price_histogram_lip(
            SeparableUtility::Histogram,
            &p,
            &mu,
            eps,
            -1e300,
            far_deadline(),
        );
        assert!(stats.complete);
        assert!(
            priced.delta >= brute - BRUTE_ROUNDING,
            "seed {seed}: {} < {brute}",
            priced.delta
        );
        assert!(
            priced.delta <= brute + TIGHT_BOUND,
            "seed {seed}: {} > {brute}",
            priced.delta
        );
        if brute > 0.0 {
            let top = reduced(&p, &mu, &priced.columns[0]);
            assert!(
                (top - brute).abs() <= TIGHT_BOUND,
                "seed {seed}: {top} vs {brute}"
            );
        }
        // With a floor the bound stays valid.
        let (floored, _) = price_histogram_lip(
            SeparableUtility::Histogram,
            &p,
            &mu,
            eps,
            brute.abs(),
            far_deadline(),
        );
        assert!(
            floored.delta >= brute - BRUTE_ROUNDING,
            "seed {seed} (floor)"
        );
    }
}

#[test]
fn ldp_pricer_is_never_below_brute_force_and_tight_without_a_floor() {
    for seed in 0..60 {
        let n = 2 + (seed as usize % 13);
        let (p, mu, eps) = random_case(seed + 1000, n);
        let brute = staircase_rays(n, eps, 1 << 16)
            .unwrap()
            .iter()
            .map(|r| reduced(&p, &mu, r))
            .fold(f64::NEG_INFINITY, f64::max);
        let (priced, stats) = price_histogram_ldp(&p, &mu, eps, -1e300, far_deadline());
        assert!(stats.complete);
        // The pricer also sees the constant pattern, which the ray list leaves out.
        let constant = reduced(&p, &mu, &vec![1.0; n]);
        let brute = brute.max(constant);
        assert!(
            priced.delta >= brute - BRUTE_ROUNDING,
            "seed {seed}: {} < {brute}",
            priced.delta
        );
        assert!(
            priced.delta <= brute + TIGHT_BOUND,
            "seed {seed}: {} > {brute}",
            priced.delta
        );
        let (floored, _) = price_histogram_ldp(&p, &mu, eps, brute.abs(), far_deadline());
        assert!(
            floored.delta >= brute - BRUTE_ROUNDING,
            "seed {seed} (floor)"
        );
    }
}

/// Solve by branch-and-bound pricing (never listing rays) and return (value, bound).
fn by_pricing(problem: &Problem) -> (f64, f64) {
    let backend = mechsynth_solvers::backend(mechsynth::BackendKind::Clarabel).unwrap();
    let run = Run::new(
        backend.as_ref(),
        mechsynth_solvers::SolveOptions::default(),
        None,
    );
    let privacy: Vec<&dyn mechsynth::privacy::PrivacyNotion> =
        problem.privacy.iter().map(|p| p.as_ref()).collect();
    let f = problem.objective.column_convex().unwrap();
    let n = problem.domain.size();
    let outcome = solve_histogram_by_pricing(&privacy, f, n, &run)
        .unwrap()
        .expect("applies");
    assert_eq!(outcome.status, Status::Optimal, "{:?}", outcome.notes);
    let value = histogram_mmse(problem.domain.prior(), outcome.rows.as_ref().unwrap());
    (value, outcome.bound.unwrap())
}

#[test]
fn priced_optimum_matches_the_enumerated_extreme_ray_lp() {
    for notion in ["lip", "ldp"] {
        for n in [6, 9, 12] {
            for (prior_name, prior) in [("uniform", uniform(n)), ("skewed", skewed(n))] {
                for eps in [0.5, 1.0, 2.5] {
                    let problem = problem(n, &prior, notion, eps);
                    let report = solve(&problem, &SolveOptions::default()).unwrap();
                    assert!(
                        report.status.is_optimal(),
                        "{notion} {n} {prior_name} {eps}"
                    );
                    let enumerated = report.objective.unwrap();
                    let (value, bound) = by_pricing(&problem);
                    let what = format!("{notion} n={n} {prior_name} eps={eps}");
                    assert!(
                        (value - enumerated).abs() <= OPTIMUM_AGREEMENT,
                        "{what}: priced {value} vs enumerated {enumerated}"
                    );
                    assert!(bound <= value + OPTIMUM_AGREEMENT, "{what}: bound {bound}");
                    assert!(
                        bound <= enumerated + OPTIMUM_AGREEMENT,
                        "{what}: bound {bound} above the enumerated optimum {enumerated}"
                    );
                }
            }
        }
    }
}

#[test]
fn lip_twenty_symbols_is_certified_and_beats_the_local_search() {
    for (prior_name, prior) in [("uniform", uniform(20)), ("skewed", skewed(20))] {
        let problem = problem(20, &prior, "lip", 1.0);
        let report = solve(&problem, &SolveOptions::default()).unwrap();
        assert!(
            report.status.is_optimal(),
            "{prior_name}: {}",
            report.status
        );
        let value = report.objective.unwrap();
        let bound = report.bound.unwrap();
        assert!(bound <= value, "{prior_name}: bound {bound} > {value}");
        let channel = report.channel.as_ref().unwrap();
        let direct = histogram_mmse(&prior, channel.rows());
        assert!(
            (direct - value).abs() < 1e-9,
            "{prior_name}: {direct} vs {value}"
        );
        if prior_name == "uniform" {
            assert!(value <= LOCAL_VALUE_N20, "{value}");
        }
        assert!(
            report
                .method_notes
                .iter()
                .any(|n| n.contains("branch-and-bound pricing")),
            "{:?}",
            report.method_notes
        );
    }
}

#[test]
fn time_limit_returns_the_master_channel_with_an_honest_status() {
    let problem = problem(40, &skewed(40), "lip", 1.0);
    let mut options = SolveOptions::default();
    options.backend_options.time_limit_seconds = TIME_LIMIT_SECONDS;
    let started = Instant::now();
    let report = solve(&problem, &options).unwrap();
    let elapsed = started.elapsed().as_secs_f64();
    assert!(elapsed < TIME_LIMIT_SECONDS + LATE_SECONDS, "{elapsed} s");
    assert!(!report.status.is_optimal(), "{}", report.status);
    let channel = report.channel.as_ref().expect("the master's channel");
    let value = histogram_mmse(&skewed(40), channel.rows());
    assert!((value - report.objective.unwrap()).abs() < 1e-9);
    assert!(
        report
            .method_notes
            .iter()
            .any(|n| n.contains("stopped at the time limit")),
        "{:?}",
        report.method_notes
    );
}

#[test]
fn zero_epsilon_gives_the_constant_channel() {
    for notion in ["lip", "ldp"] {
        let problem = problem(20, &skewed(20), notion, 0.0);
        let report = solve(&problem, &SolveOptions::default()).unwrap();
        assert!(report.status.is_optimal(), "{notion}: {}", report.status);
        // Nothing is learned: the MMSE is sum_k p_k (1 - p_k).
        let prior = skewed(20);
        let nothing: f64 = prior.iter().map(|p| p * (1.0 - p)).sum();
        assert!(
            (report.objective.unwrap() - nothing).abs() < 1e-9,
            "{notion}"
        );
    }
}

/// `(g(q) - mu . q) / (p . q)` with `g(q) = sum_x p_x q_x ln(q_x / (p . q))`, from the
/// definition of mutual information.
fn reduced_information(p: &[f64], mu: &[f64], q: &[f64]) -> f64 {
    let lambda: f64 = p.iter().zip(q).map(|(a, b)| a * b).sum();
    let g: f64 = p
        .iter()
        .zip(q)
        .map(|(a, b)| a * b * (b / lambda).ln())
        .sum();
    (g - mu.iter().zip(q).map(|(a, b)| a * b).sum::<f64>()) / lambda
}

#[test]
fn information_pricer_is_never_below_brute_force_over_lip_vertices() {
    for seed in 0..60 {
        let n = 2 + (seed as usize % 9);
        let (p, _, eps) = random_case(seed + 2000, n);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        // Prices near the information's own scale (p_x ln q_x per unit of q).
        let mu: Vec<f64> = p.iter().map(|v| v * rng.gen_range(-1.0..1.5)).collect();
        let brute = lip_vertices(&p, eps, 1 << 16)
            .unwrap()
            .iter()
            .map(|q| reduced_information(&p, &mu, q))
            .fold(f64::NEG_INFINITY, f64::max);
        let (priced, stats) = price_histogram_lip(
            SeparableUtility::Information,
            &p,
            &mu,
            eps,
            -1e300,
            far_deadline(),
        );
        assert!(stats.complete);
        assert!(
            priced.delta >= brute - BRUTE_ROUNDING,
            "seed {seed}: {} < {brute}",
            priced.delta
        );
        assert!(
            priced.delta <= brute + TIGHT_BOUND,
            "seed {seed}: {} > {brute}",
            priced.delta
        );
    }
}

/// Mutual information of a channel from its definition, in nats.
fn information(prior: &[f64], rows: &[Vec<f64>]) -> f64 {
    (0..rows[0].len())
        .map(|y| {
            let lambda: f64 = prior.iter().zip(rows).map(|(p, row)| p * row[y]).sum();
            prior
                .iter()
                .zip(rows)
                .filter(|(p, row)| **p > 0.0 && row[y] > 0.0)
                .map(|(p, row)| p * row[y] * (row[y] / lambda).ln())
                .sum::<f64>()
        })
        .sum()
}

#[test]
fn priced_information_matches_the_enumerated_extreme_ray_lp_under_lip() {
    for n in [6, 9, 12] {
        for (prior_name, prior) in [("uniform", uniform(n)), ("skewed", skewed(n))] {
            for eps in [0.5, 1.0, 2.5] {
                let problem = problem_of(n, &prior, "lip", eps, "mutual-information");
                let report = solve(&problem, &SolveOptions::default()).unwrap();
                let what = format!("n={n} {prior_name} eps={eps}");
                assert!(report.status.is_optimal(), "{what}: {}", report.status);
                let enumerated = report.objective.unwrap();
                let backend = mechsynth_solvers::backend(mechsynth::BackendKind::Clarabel).unwrap();
                let run = Run::new(
                    backend.as_ref(),
                    mechsynth_solvers::SolveOptions::default(),
                    None,
                );
                let privacy: Vec<&dyn mechsynth::privacy::PrivacyNotion> =
                    problem.privacy.iter().map(|p| p.as_ref()).collect();
                let f = problem.objective.column_convex().unwrap();
                let outcome = solve_histogram_by_pricing(&privacy, f, n, &run)
                    .unwrap()
                    .expect("applies");
                assert_eq!(
                    outcome.status,
                    Status::Optimal,
                    "{what}: {:?}",
                    outcome.notes
                );
                let value = information(&prior, outcome.rows.as_ref().unwrap());
                assert!(
                    (value - enumerated).abs() <= OPTIMUM_AGREEMENT,
                    "{what}: priced {value} vs enumerated {enumerated}"
                );
                let bound = outcome.bound.unwrap();
                assert!(
                    bound >= enumerated - OPTIMUM_AGREEMENT,
                    "{what}: bound {bound}"
                );
            }
        }
    }
}
