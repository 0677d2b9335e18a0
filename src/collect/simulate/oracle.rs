//! Simulation of a frequency oracle: support counts drawn per symbol.

use super::population::{check, composition, composition_covariance, population};
use super::{finish, Metric, SimulateOptions, SimulationReport};
use crate::collect::baseline::oracle::FrequencyOracle;
use crate::collect::estimate::Estimand;
use crate::collect::stats::{binomial, covariance_shape, squared_error_agrees, Interval};
use crate::collect::CollectError;
use rand::RngCore;
use std::time::Instant;

/// Run the simulation for a frequency oracle with the domain prior (`frequency-mse` of its
/// unbiased estimator against `oracle-mse`, plus the composition's variance for the
/// population estimand). Unary encodings draw each symbol's support count
/// exactly (`Bin(N_v, p) + Bin(N - N_v, q)`, independent across symbols); OLH's supports are
/// drawn from the same exact marginals, but OLH's supports of different symbols are only
/// uncorrelated, not independent, so its trial-to-trial spread (not its mean) is approximate.
pub fn simulate_oracle(
    oracle: &dyn FrequencyOracle,
    prior: &[f64],
    options: &SimulateOptions,
    rng: &mut dyn RngCore,
) -> Result<SimulationReport, CollectError> {
    let n = oracle.symbols();
    check(options, n)?;
    let (groups, pi) = population(prior, options);
    let users: u64 = groups.iter().map(|g| g.users).sum();
    let nu = users as f64;
    let mut samples = Vec::with_capacity(options.trials.min(super::INITIAL_SAMPLE_CAPACITY));
    let mut warnings = Vec::new();
    let mut trials = 0;
    let (p, q) = (oracle.p(), oracle.q());
    let r = options.noncompliance;
    for t in 0..options.trials {
        if options.deadline.is_some_and(|d| Instant::now() > d) {
            warnings.push(format!(
                "time limit reached: {t} of {} trials run",
                options.trials
            ));
            break;
        }
        let nx = composition(&groups, options.sampling, rng);
        // A non-compliant user supports each symbol with probability 1/2 (random bits) or
        // 1/g (a random bucket) whatever its value.
        let noise = oracle.noise_support();
        let (pv, qv) = ((1.0 - r) * p + r * noise, (1.0 - r) * q + r * noise);
        let support: Vec<u64> = (0..n)
            .map(|v| binomial(nx[v], pv, rng) + binomial(users - nx[v], qv, rng))
            .collect();
        let est = oracle.estimate(&support, users);
        let truth = |v: usize| match options.estimand {
            Estimand::Sample => nx[v] as f64 / nu,
            Estimand::Population => pi[v],
        };
        samples.push(
            est.iter()
                .enumerate()
                .map(|(v, e)| (e - truth(v)).powi(2))
                .sum::<f64>(),
        );
        trials = t + 1;
        if let Some(cb) = options.progress {
            cb(trials);
        }
    }
    // The error covariance: uncorrelated supports, plus the composition's for the population.
    let mut cov = nalgebra::DMatrix::from_diagonal(&nalgebra::DVector::from_iterator(
        n,
        pi.iter().map(|f| oracle.variance(*f, nu)),
    ));
    if options.estimand == Estimand::Population {
        cov += composition_covariance(&groups, options.sampling, n);
    }
    let analytic = cov.trace();
    let empirical = Interval::of_mean(&samples, options.level);
    let metric = Metric {
        name: "frequency-mse".into(),
        estimator: oracle.name().into(),
        empirical,
        analytic: Some(analytic),
        agrees: Some(squared_error_agrees(
            &samples,
            analytic,
            covariance_shape(&cov),
            options.level,
        )),
    };
    finish(users, trials, vec![metric], warnings, options)
}
