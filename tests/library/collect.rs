//! Collection: the sampler against the channel rows (chi-square), analytic variances against
//! Monte Carlo intervals, EM against a brute-force maximization of the likelihood, the
//! posterior mean against the MMSE that `solve` reports, and the oracles' unbiasedness.
//! Every reference is independent of the code under test: Monte Carlo with an interval, brute
//! force, or another module's closed form.

use mechsynth::collect::baseline::oracle::OracleSpec;
use mechsynth::collect::baseline::BaselineSpec;
use mechsynth::collect::estimate::{
    em, estimate, posterior_moments, Estimand, EstimateOptions, EstimateReport, Estimator,
    EstimatorSpec, Inversion,
};
use mechsynth::collect::privatize::{privatize, MatchBy, RecordFormat};
use mechsynth::collect::sampler::{seeded_rng, ChannelSampler};
use mechsynth::collect::simulate::{simulate, Sampling, SimulateOptions};
use mechsynth::collect::stats::{mean_var, z_value};
use mechsynth::collect::Model;
use mechsynth::{solve, Channel, Domain, Problem, ProblemSpec, SolveOptions};
use statrs::distribution::{ChiSquared, ContinuousCDF};
use std::path::Path;

/// Significance of the statistical tests: a correct implementation fails one with this
/// probability (the seeds are fixed, so the outcome is reproducible).
const ALPHA: f64 = 1e-4;

fn problem_channel(name: &str) -> Model {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("problems")
        .join(name);
    let problem = Problem::from_spec(ProblemSpec::load(&path).unwrap()).unwrap();
    let report = solve(&problem, &SolveOptions::default()).unwrap();
    let channel = Channel::new(report.channel.clone().unwrap().rows().to_vec()).unwrap();
    Model::new(channel, problem.domain.clone(), name.into()).unwrap()
}

fn krr(n: usize, eps: f64) -> Model {
    Model::baseline(BaselineSpec::KRr, Domain::sized(n).unwrap(), eps).unwrap()
}

/// Pearson's chi-square statistic of counts against probabilities, over cells with p > 0;
/// returns (statistic, degrees of freedom) and fails if a zero-probability cell is hit.
fn chi_square(counts: &[u64], p: &[f64]) -> (f64, f64) {
    let total: u64 = counts.iter().sum();
    let mut stat = 0.0;
    let mut cells = 0;
    for (c, q) in counts.iter().zip(p) {
        if *q == 0.0 {
            assert_eq!(*c, 0, "an output of probability 0 was drawn");
            continue;
        }
        let e = q * total as f64;
        stat += (*c as f64 - e).powi(2) / e;
        cells += 1;
    }
    (stat, (cells - 1) as f64)
}

fn chi_square_passes(counts: &[u64], p: &[f64]) -> bool {
    let (stat, df) = chi_square(counts, p);
    if df == 0.0 {
        return true; // a single possible output (and no impossible one drawn)
    }
    stat <= ChiSquared::new(df).unwrap().inverse_cdf(1.0 - ALPHA)
}

#[test]
fn privatized_records_follow_the_channel_rows() {
    // A 5-symbol LIP-like channel with a zero entry, Mangat's binary channel and Hadamard
    // response (non-square).
    let lip = problem_channel("mmse-sum-lip-4.toml");
    let mangat = Model::baseline(BaselineSpec::Mangat, Domain::sized(2).unwrap(), 0.7).unwrap();
    let hadamard = Model::baseline(BaselineSpec::Hadamard, Domain::sized(5).unwrap(), 1.0).unwrap();
    for (seed, model) in [lip, mangat, hadamard].iter().enumerate() {
        let per_input = 20_000;
        let mut text = String::new();
        for label in model.domain.labels() {
            for _ in 0..per_input {
                text.push_str(label);
                text.push('\n');
            }
        }
        let mut out = Vec::new();
        let mut rng = seeded_rng(seed as u64);
        let summary = privatize(
            text.as_bytes(),
            Some(&mut out),
            model,
            &RecordFormat::Lines,
            MatchBy::Label,
            &mut rng,
        )
        .unwrap();
        assert_eq!(summary.records, (per_input * model.inputs()) as u64);
        let lines: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
        for x in 0..model.inputs() {
            let mut counts = vec![0u64; model.outputs()];
            for line in &lines[x * per_input..(x + 1) * per_input] {
                let y = model.output_labels.iter().position(|l| l == line).unwrap();
                counts[y] += 1;
            }
            let row = &model.channel.rows()[x];
            assert!(
                chi_square_passes(&counts, row),
                "{} row {x}: counts {counts:?} vs {row:?}",
                model.source
            );
        }
    }
}

#[test]
fn the_sampler_detects_a_wrong_row() {
    // The test has power: k-RR counts do not pass against a slightly different row.
    let model = krr(4, 1.0);
    let sampler = ChannelSampler::new(&model.channel).unwrap();
    let mut rng = seeded_rng(9);
    let mut counts = vec![0u64; 4];
    for _ in 0..200_000 {
        counts[sampler.sample(0, &mut rng)] += 1;
    }
    assert!(chi_square_passes(&counts, &model.channel.rows()[0]));
    let wrong = [0.46, 0.18, 0.18, 0.18];
    assert!(!chi_square_passes(&counts, &wrong));
}

fn check_simulation(model: &Model, users: u64, seed: u64) {
    let options = SimulateOptions {
        users,
        trials: 4000,
        sampling: Sampling::Iid,
        estimators: vec![EstimatorSpec::Inversion, EstimatorSpec::PosteriorMean],
        groups: Vec::new(),
        noncompliance: 0.0,
        level: 1.0 - ALPHA,
        estimand: Estimand::Sample,
        deadline: None,
        progress: None,
    };
    let report = simulate(model, &options, &mut seeded_rng(seed)).unwrap();
    let mut checked = 0;
    for m in &report.metrics {
        if let Some(a) = m.analytic {
            checked += 1;
            assert!(
                m.agrees == Some(true),
                "{}: {} {} analytic {a} outside [{}, {}]",
                model.source,
                m.estimator,
                m.name,
                m.empirical.low,
                m.empirical.high
            );
        }
    }
    assert_eq!(checked, 6, "{}: {:?}", model.source, report.metrics);
}

/// Under fixed sampling the analytic inversion MSE is taken at the composition the trials use
/// (largest remainders of N pi), not at the prior: k-RR on 3 symbols, 4 users, uniform prior
/// gives the composition (2, 1, 1), and each frequency's error is the report count's variance
/// over the users divided by (p - q)^2, summed independently here.
#[test]
fn fixed_sampling_takes_the_analytic_value_at_the_composition() {
    let eps: f64 = 1.0;
    let model = krr(3, eps);
    let (p, q) = (eps.exp() / (eps.exp() + 2.0), 1.0 / (eps.exp() + 2.0));
    let users = 4u64;
    let composition = [2.0, 1.0, 1.0];
    let mut total = 0.0;
    for x in 0..3 {
        // Users with input x report x with probability p, the others with q.
        let var: f64 = (0..3)
            .map(|z| {
                let r = if z == x { p } else { q };
                composition[z] * r * (1.0 - r)
            })
            .sum::<f64>()
            / (users * users) as f64;
        total += var / (p - q).powi(2);
    }
    let options = SimulateOptions {
        users,
        trials: 20_000,
        sampling: Sampling::Fixed,
        estimators: vec![EstimatorSpec::Inversion],
        groups: Vec::new(),
        noncompliance: 0.0,
        level: 1.0 - ALPHA,
        estimand: Estimand::Sample,
        deadline: None,
        progress: None,
    };
    let report = simulate(&model, &options, &mut seeded_rng(5)).unwrap();
    let m = report
        .metrics
        .iter()
        .find(|m| m.estimator == "inversion" && m.name == "frequency-mse")
        .unwrap();
    let analytic = m.analytic.unwrap();
    assert!(
        (analytic - total).abs() <= 1e-12 * total,
        "{analytic} vs {total}"
    );
    assert_eq!(m.agrees, Some(true), "{m:?}");
}

/// On a domain of labels the posterior mean's MMSE of the sum (over the labels' indices, which
/// the trials use) has its analytic value: per user `sum_y P(y) Var(X | y)`, computed here from
/// Bayes' rule for a binary survey.
#[test]
fn labels_domains_get_the_analytic_mmse_of_the_sum() {
    let domain = Domain::labeled(vec!["no".into(), "yes".into()])
        .unwrap()
        .with_prior(vec![0.7, 0.3])
        .unwrap();
    let rows = vec![vec![0.75, 0.25], vec![0.25, 0.75]];
    let model = Model::new(Channel::new(rows.clone()).unwrap(), domain, "survey".into()).unwrap();
    let prior = [0.7, 0.3];
    let expected: f64 = (0..2)
        .map(|y| {
            let p_y = prior[0] * rows[0][y] + prior[1] * rows[1][y];
            let yes = prior[1] * rows[1][y] / p_y;
            p_y * yes * (1.0 - yes)
        })
        .sum();
    let options = SimulateOptions {
        users: 1000,
        trials: 2000,
        sampling: Sampling::Iid,
        estimators: vec![EstimatorSpec::PosteriorMean],
        groups: Vec::new(),
        noncompliance: 0.0,
        level: 1.0 - ALPHA,
        estimand: Estimand::Sample,
        deadline: None,
        progress: None,
    };
    let report = simulate(&model, &options, &mut seeded_rng(11)).unwrap();
    let m = report
        .metrics
        .iter()
        .find(|m| m.name == "mmse-sum")
        .unwrap();
    let analytic = m.analytic.unwrap();
    assert!(
        (analytic - expected).abs() <= 1e-12,
        "{analytic} vs {expected}"
    );
    assert_eq!(m.agrees, Some(true), "{m:?}");
}

#[test]
fn analytic_variances_lie_in_the_monte_carlo_intervals() {
    check_simulation(&krr(6, 1.0), 5_000, 1);
    check_simulation(&problem_channel("mmse-sum-lip-4.toml"), 2_000, 2);
    check_simulation(&problem_channel("dprivacy-line-8.toml"), 100_000, 3);
}

#[test]
fn inversion_mse_matches_what_solve_reports_and_a_per_user_simulation() {
    // solve's `inversion-mse` (one user, fixed counts at the prior) over N users is the
    // analytic frequency MSE; a simulation that draws every user with the alias sampler
    // (independent of the multinomial path) agrees with it.
    let model = problem_channel("dprivacy-line-8.toml");
    let objectives = mechsynth::objective::objective_profile(&model.channel, &model.domain);
    let per_user = objectives["inversion-mse"];
    let users = 4_000u64;
    let sampler = ChannelSampler::new(&model.channel).unwrap();
    let prior_sampler = mechsynth::collect::sampler::AliasTable::new(model.domain.prior()).unwrap();
    let inversion = Inversion::default();
    let mut rng = seeded_rng(11);
    let errors: Vec<f64> = (0..3000)
        .map(|_| {
            let mut nx = vec![0u64; model.inputs()];
            let mut c = vec![0.0; model.outputs()];
            for _ in 0..users {
                let x = prior_sampler.sample(&mut rng);
                nx[x] += 1;
                c[sampler.sample(x, &mut rng)] += 1.0 / users as f64;
            }
            let pi = inversion.frequencies(&model, &c).unwrap();
            pi.iter()
                .zip(&nx)
                .map(|(p, k)| (p - *k as f64 / users as f64).powi(2))
                .sum()
        })
        .collect();
    let (mean, var) = mean_var(&errors);
    let half = z_value(1.0 - ALPHA) * (var / errors.len() as f64).sqrt();
    let analytic = per_user / users as f64;
    assert!(
        (mean - analytic).abs() <= half,
        "per-user simulation {mean} +- {half} vs solve's inversion-mse / N = {analytic}"
    );
}

#[test]
fn em_agrees_with_a_brute_force_maximization_of_the_likelihood() {
    // Counts for which the inversion estimate is negative, so the maximum is on the boundary.
    let model = krr(3, 0.8);
    let counts = [0.40, 0.37, 0.23];
    let inv = Inversion::default().frequencies(&model, &counts).unwrap();
    assert!(inv.iter().any(|v| *v < 0.0), "{inv:?}");
    let ll = |pi: &[f64]| -> f64 {
        let lambda = model.channel.output_marginal(pi);
        counts.iter().zip(&lambda).map(|(c, l)| c * l.ln()).sum()
    };
    // Grid over the simplex at 1/2000, then a finer grid around the best point.
    let mut best = (f64::NEG_INFINITY, [0.0; 3]);
    let steps = 2000;
    for i in 0..=steps {
        for j in 0..=(steps - i) {
            let p = [
                i as f64 / steps as f64,
                j as f64 / steps as f64,
                (steps - i - j) as f64 / steps as f64,
            ];
            let v = ll(&p);
            if v > best.0 {
                best = (v, p);
            }
        }
    }
    let centre = best.1;
    for i in -200..=200 {
        for j in -200..=200 {
            let p0 = centre[0] + i as f64 * 5e-6;
            let p1 = centre[1] + j as f64 * 5e-6;
            let p = [p0, p1, 1.0 - p0 - p1];
            if p.iter().all(|v| *v >= 0.0) {
                let v = ll(&p);
                if v > best.0 {
                    best = (v, p);
                }
            }
        }
    }
    let r = em(&model, &counts, 1e-12, 1_000_000);
    assert!(r.converged);
    assert!(
        r.log_likelihood >= best.0 - 1e-9,
        "EM {} < grid {}",
        r.log_likelihood,
        best.0
    );
    for (a, b) in r.frequencies.iter().zip(&best.1) {
        assert!(
            (a - b).abs() < 1e-3,
            "EM {:?} vs grid {:?}",
            r.frequencies,
            best.1
        );
    }
}

#[test]
fn em_equals_the_inversion_inside_the_simplex() {
    // When the inversion estimate is a distribution it maximizes the likelihood (it makes the
    // output distribution equal the report frequencies).
    let model = problem_channel("mmse-sum-lip-4.toml");
    let c = model.channel.output_marginal(&[0.2, 0.3, 0.1, 0.4]);
    let r = em(&model, &c, 1e-13, 1_000_000);
    for (a, b) in r.frequencies.iter().zip([0.2, 0.3, 0.1, 0.4]) {
        assert!((a - b).abs() < 1e-8, "{:?}", r.frequencies);
    }
}

#[test]
fn the_posterior_mean_reproduces_the_mmse_that_solve_reports() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/mmse-sum-lip-4.toml");
    let problem = Problem::from_spec(ProblemSpec::load(&path).unwrap()).unwrap();
    let report = solve(&problem, &SolveOptions::default()).unwrap();
    let mmse = report.objective.unwrap();
    let model = Model::new(
        Channel::new(report.channel.unwrap().rows().to_vec()).unwrap(),
        problem.domain.clone(),
        "lip".into(),
    )
    .unwrap();
    // Exactly: the expected posterior variance of the estimator, sum_y lambda_y Var(f | y).
    let lambda = model.channel.output_marginal(model.domain.prior());
    let expected: f64 = posterior_moments(&model, &model.values())
        .iter()
        .zip(&lambda)
        .filter(|(_, l)| **l > 0.0)
        .map(|((_, v), l)| l * v)
        .sum();
    assert!(
        (expected - mmse).abs() < 1e-9 * mmse.max(1.0),
        "{expected} vs {mmse}"
    );
    // Empirically: users drawn one by one, the squared error of the posterior-mean sum.
    let sampler = ChannelSampler::new(&model.channel).unwrap();
    let prior = mechsynth::collect::sampler::AliasTable::new(model.domain.prior()).unwrap();
    let means: Vec<f64> = posterior_moments(&model, &model.values())
        .iter()
        .map(|m| m.0)
        .collect();
    let values = model.values();
    let mut rng = seeded_rng(5);
    let users = 500;
    let errors: Vec<f64> = (0..4000)
        .map(|_| {
            let mut err = 0.0;
            for _ in 0..users {
                let x = prior.sample(&mut rng);
                err += means[sampler.sample(x, &mut rng)] - values[x];
            }
            err * err / users as f64
        })
        .collect();
    let (mean, var) = mean_var(&errors);
    let half = z_value(1.0 - ALPHA) * (var / errors.len() as f64).sqrt();
    assert!((mean - mmse).abs() <= half, "{mean} +- {half} vs {mmse}");
}

#[test]
fn oracle_estimators_are_unbiased_with_the_stated_variance() {
    let truth = [0.4, 0.25, 0.15, 0.1, 0.05, 0.05];
    let n = truth.len();
    let users_per = truth.map(|f| (f * 2000.0) as usize);
    let users: usize = users_per.iter().sum();
    for (seed, spec) in [OracleSpec::Sue, OracleSpec::Oue, OracleSpec::Olh]
        .into_iter()
        .enumerate()
    {
        let oracle = spec.build(n, 1.2).unwrap();
        let mut rng = seeded_rng(100 + seed as u64);
        let trials = 600;
        let mut estimates = vec![Vec::with_capacity(trials); n];
        for _ in 0..trials {
            let mut support = vec![0u64; n];
            for (x, &k) in users_per.iter().enumerate() {
                for _ in 0..k {
                    let r = oracle.randomize(x, &mut rng);
                    let parsed = oracle.parse(&oracle.format(&r), 1).unwrap();
                    oracle.add_support(&parsed, &mut support);
                }
            }
            for (v, f) in oracle
                .estimate(&support, users as u64)
                .into_iter()
                .enumerate()
            {
                estimates[v].push(f);
            }
        }
        let z = z_value(1.0 - ALPHA / n as f64);
        for v in 0..n {
            let (mean, var) = mean_var(&estimates[v]);
            let half = z * (var / trials as f64).sqrt();
            assert!(
                (mean - truth[v]).abs() <= half,
                "{spec:?} symbol {v}: {mean} +- {half} vs {}",
                truth[v]
            );
            // The stated variance lies within the sampling spread of the empirical variance
            // (relative standard error of a variance ~ sqrt(2 / trials)).
            let stated = oracle.variance(truth[v], users as f64);
            let rel = z * (2.0 / trials as f64).sqrt();
            assert!(
                (var / stated - 1.0).abs() <= rel,
                "{spec:?} symbol {v}: variance {var} vs {stated}"
            );
        }
    }
}

#[test]
fn planar_laplace_matches_a_monte_carlo_of_the_continuous_mechanism() {
    let domain = Domain::grid(3, 4).unwrap();
    let model = Model::baseline(BaselineSpec::PlanarLaplace, domain, 0.9).unwrap();
    let mut rng = seeded_rng(21);
    use rand::Rng;
    let (r0, c0) = (1.0f64, 2.0f64);
    let mut counts = vec![0u64; 12];
    for _ in 0..200_000 {
        // Radius ~ Gamma(2, 1/eps): the sum of two exponentials; angle uniform.
        let r = -(rng.gen::<f64>().ln() + rng.gen::<f64>().ln()) / 0.9;
        let t = rng.gen::<f64>() * std::f64::consts::TAU;
        let snap = |v: f64, size: usize| (v.round().max(0.0) as usize).min(size - 1);
        counts[snap(r0 + r * t.cos(), 3) * 4 + snap(c0 + r * t.sin(), 4)] += 1;
    }
    assert!(
        chi_square_passes(&counts, &model.channel.rows()[6]),
        "{counts:?} vs {:?}",
        model.channel.rows()[6]
    );
}

#[test]
fn geometric_rows_match_the_two_sided_geometric_distribution() {
    let model = Model::baseline(BaselineSpec::Geometric, Domain::sized(3).unwrap(), 0.5).unwrap();
    let a = (-0.5f64).exp();
    // Output labels are integers between the tails; check P(x + Z = y) by its definition.
    for x in 0..3i64 {
        for (y, label) in model.output_labels.iter().enumerate() {
            if let Ok(v) = label.parse::<i64>() {
                let expected = (1.0 - a) / (1.0 + a) * a.powi((v - x).abs() as i32);
                assert!((model.channel.get(x as usize, y) - expected).abs() < 1e-15);
            }
        }
    }
}

/// One trial's output counts and the true frequencies they estimate.
type Draw<'a> = dyn FnMut(&mut rand_chacha::ChaCha20Rng) -> (Vec<u64>, Vec<f64>) + 'a;

/// Share of `trials` intervals for frequency[k], over all k, that contain `truth(trial)[k]`.
fn coverage(
    model: &Model,
    estimator: EstimatorSpec,
    trials: usize,
    draw: &mut Draw<'_>,
    seed: u64,
) -> (f64, usize) {
    use mechsynth::collect::estimate::{estimate, EstimateOptions, Query};
    let mut rng = seeded_rng(seed);
    let options = EstimateOptions {
        estimators: vec![estimator],
        queries: vec![Query::Frequencies],
        level: 0.95,
        bootstrap: 200,
        ..EstimateOptions::default()
    };
    let (mut hit, mut total) = (0, 0);
    for _ in 0..trials {
        let (counts, truth) = draw(&mut rng);
        let report = estimate(model, &counts, &options, &mut rng).unwrap();
        for (e, t) in report.estimates.iter().zip(&truth) {
            let i = e.estimate.unwrap();
            hit += usize::from(i.low <= *t && *t <= i.high);
            total += 1;
        }
    }
    (hit as f64 / total as f64, total)
}

fn assert_coverage(name: &str, (share, total): (f64, usize), slack: f64) {
    // Within the sampling band of a 95% coverage, plus `slack` for the approximation the
    // interval makes (normal, or bootstrap percentiles).
    let band = z_value(1.0 - ALPHA) * (0.95 * 0.05 / total as f64).sqrt() + slack;
    assert!(
        (share - 0.95).abs() <= band,
        "{name}: coverage {share} over {total} intervals"
    );
}

#[test]
fn intervals_cover_the_truth_at_their_level() {
    use mechsynth::collect::stats::multinomial;
    let model = krr(4, 1.5);
    let truth = vec![0.4, 0.3, 0.2, 0.1];
    let lambda = model.channel.output_marginal(&truth);
    let users = 3000;
    let mut reports =
        |rng: &mut rand_chacha::ChaCha20Rng| (multinomial(users, &lambda, rng), truth.clone());
    assert_coverage(
        "inversion",
        coverage(&model, EstimatorSpec::Inversion, 1000, &mut reports, 31),
        0.01,
    );
    assert_coverage(
        "em",
        coverage(&model, EstimatorSpec::Em, 150, &mut reports, 32),
        0.03,
    );
    // The posterior-mean interval is a credible interval: it covers the realized frequencies
    // of users drawn from the domain prior.
    let mut bayes = |rng: &mut rand_chacha::ChaCha20Rng| {
        let nx = multinomial(users, model.domain.prior(), rng);
        let mut c = vec![0u64; model.outputs()];
        for (x, k) in nx.iter().enumerate() {
            for (y, v) in multinomial(*k, &model.channel.rows()[x], rng)
                .into_iter()
                .enumerate()
            {
                c[y] += v;
            }
        }
        (c, nx.iter().map(|k| *k as f64 / users as f64).collect())
    };
    assert_coverage(
        "posterior-mean",
        coverage(&model, EstimatorSpec::PosteriorMean, 1000, &mut bayes, 33),
        0.01,
    );
}

fn estimate_with(model: &Model, counts: &[u64], estimators: Vec<EstimatorSpec>) -> EstimateReport {
    let options = EstimateOptions {
        estimators,
        bootstrap: 40,
        ..EstimateOptions::default()
    };
    estimate(model, counts, &options, &mut seeded_rng(3)).unwrap()
}

#[test]
fn em_reports_frequencies_the_channel_cannot_identify_as_not_available() {
    // Inputs a and b have the same row: any split of their total mass between them gives the
    // same output distribution, so neither frequency is identifiable; c's is (its indicator
    // is Q v for v = (0, -5/2, 5/2), in the span of the columns).
    let rows = vec![
        vec![0.6, 0.2, 0.2],
        vec![0.6, 0.2, 0.2],
        vec![0.2, 0.2, 0.6],
    ];
    let model = Model::new(
        Channel::new(rows).unwrap(),
        Domain::sized(3).unwrap(),
        "twin rows".into(),
    )
    .unwrap();
    let report = estimate_with(&model, &[500, 200, 300], vec![EstimatorSpec::Em]);
    let labels = model.domain.labels().to_vec();
    for (k, e) in report.estimates.iter().enumerate() {
        assert_eq!(e.quantity, format!("frequency[{}]", labels[k]));
        assert_eq!(e.estimate.is_none(), k < 2, "{e:?}");
    }
    for label in &labels[..2] {
        assert!(
            report
                .warnings
                .iter()
                .any(|w| w.starts_with(&format!("em frequency[{label}]")) && w.contains("rank 2")),
            "{:?}",
            report.warnings
        );
    }
}

#[test]
fn the_posterior_mean_warns_when_the_reports_contradict_the_prior() {
    // Uniform prior through 3-ary randomized response: every output has probability 1/3.
    let model = krr(3, 2.0);
    let warned = |counts: &[u64]| {
        estimate_with(&model, counts, vec![EstimatorSpec::PosteriorMean])
            .warnings
            .iter()
            .any(|w| w.contains("contradict the domain prior"))
    };
    // Chi-square 2 * 300^2 / 300 + 600^2 / 300 = 1800 on 2 degrees of freedom: p ~ 0.
    assert!(warned(&[900, 0, 100]));
    // Chi-square (4 + 16 + 4) / 300 = 0.08: p ~ 0.96.
    assert!(!warned(&[302, 296, 302]));
    let report = estimate_with(&model, &[302, 296, 302], vec![EstimatorSpec::PosteriorMean]);
    let json = serde_json::to_value(&report.estimates[0]).unwrap();
    assert_eq!(json["interval"], "credible (domain prior)");
}
