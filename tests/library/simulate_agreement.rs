//! `simulate`'s `agrees` flag on correct runs: over many seeds, the share of runs with any row
//! flagged stays within the binomial band of at most `1 - level` (a z interval of the mean
//! with the trials' own variance flagged 40% of seeds at 2 trials and 21% at 5).

use mechsynth::collect::baseline::oracle::OracleSpec;
use mechsynth::collect::baseline::BaselineSpec;
use mechsynth::collect::estimate::{Estimand, EstimatorSpec};
use mechsynth::collect::sampler::seeded_rng;
use mechsynth::collect::simulate::{simulate, simulate_oracle, Sampling, SimulateOptions};
use mechsynth::collect::Model;
use mechsynth::Domain;

/// Seeds per configuration.
const SEEDS: u64 = 300;
/// Confidence level of the runs.
const LEVEL: f64 = 0.95;
/// Width of the binomial band, in standard deviations.
const BAND_SIGMAS: f64 = 3.0;

fn bound() -> f64 {
    let a = 1.0 - LEVEL;
    a + BAND_SIGMAS * (a * (1.0 - a) / SEEDS as f64).sqrt()
}

fn options(trials: usize, estimand: Estimand) -> SimulateOptions<'static> {
    SimulateOptions {
        users: 2000,
        trials,
        sampling: Sampling::Iid,
        estimators: vec![EstimatorSpec::Inversion],
        groups: Vec::new(),
        noncompliance: 0.0,
        level: LEVEL,
        estimand,
        deadline: None,
        progress: None,
    }
}

#[test]
fn correct_channel_runs_are_flagged_at_most_at_one_minus_the_level() {
    let model = Model::baseline(BaselineSpec::KRr, Domain::sized(4).unwrap(), 1.0).unwrap();
    for estimand in [Estimand::Sample, Estimand::Population] {
        for trials in [2, 5, 30] {
            let flagged = (0..SEEDS)
                .filter(|&seed| {
                    let r = simulate(&model, &options(trials, estimand), &mut seeded_rng(seed))
                        .unwrap();
                    r.metrics.iter().any(|m| m.agrees == Some(false))
                })
                .count() as f64
                / SEEDS as f64;
            assert!(
                flagged <= bound(),
                "{estimand:?} {trials} trials: {flagged}"
            );
        }
    }
}

#[test]
fn correct_oracle_runs_are_flagged_at_most_at_one_minus_the_level() {
    let oracle = OracleSpec::Oue.build(4, 1.0).unwrap();
    let prior = [0.25; 4];
    for estimand in [Estimand::Sample, Estimand::Population] {
        for trials in [2, 5, 30] {
            let flagged = (0..SEEDS)
                .filter(|&seed| {
                    let r = simulate_oracle(
                        oracle.as_ref(),
                        &prior,
                        &options(trials, estimand),
                        &mut seeded_rng(seed),
                    )
                    .unwrap();
                    r.metrics.iter().any(|m| m.agrees == Some(false))
                })
                .count() as f64
                / SEEDS as f64;
            assert!(
                flagged <= bound(),
                "{estimand:?} {trials} trials: {flagged}"
            );
        }
    }
}
