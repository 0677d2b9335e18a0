//! Monte Carlo of the leakage discrepancy of context-aware-lip Fig. 6(c): the eq. (19)
//! mechanism designed for the empirical prior of n samples, used under the true prior.

use super::error::ContinuousError;
use super::transfer::{corollary7_eta, equation19, p_min};
use crate::channel::Channel;
use crate::privacy::lip_leakage;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Most trials per sample size a simulation accepts (`transfer --simulate`): a trial draws n
/// samples at about 8 ns each, so at n = 10,000 the maximum is about 12 minutes of work (the
/// time limit bounds longer runs).
pub const MAX_TRIALS: u32 = 10_000_000;

/// Largest sample size n a simulation accepts (`transfer --sim-samples`): one trial draws n
/// samples, about 10 ns each.
pub const MAX_SAMPLES: u64 = 1_000_000_000;

/// Samples drawn (counting a trial's leakage evaluation as a few) between two looks at the
/// clock: about a millisecond of work.
const SAMPLES_PER_CLOCK_CHECK: u64 = 1 << 16;

/// When a simulation stops and whom it tells how far it is.
#[derive(Default)]
pub struct SimulationLimits<'a> {
    /// Stop with [`ContinuousError::SimulationTimeLimit`] once this instant has passed.
    pub deadline: Option<Instant>,
    /// Called about every millisecond of work with (n, trials done at n).
    pub progress: Option<&'a dyn Fn(u64, u32)>,
}

/// Summary of the simulated `Delta_n = |L(M(Phat), Phat) - L(M(Phat), P)|`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Discrepancy {
    /// Samples per empirical prior.
    pub n: u64,
    /// Trials with every symbol seen (the others have no eq. (19) LIP design and are skipped).
    pub trials: u32,
    /// Trials skipped because a symbol was never seen.
    pub skipped: u32,
    /// Mean of `Delta_n` (NaN when every trial was skipped).
    pub mean: f64,
    /// The `1 - beta` empirical quantile of `Delta_n` (NaN when every trial was skipped).
    pub quantile: f64,
    /// Mean of Cor. 7's `eta` (it depends on `Phat` through `c`; NaN when every trial was
    /// skipped).
    pub eta_mean: f64,
    /// Trials where `Delta_n > eta`.
    pub failures: u32,
}

/// Simulate `trials` empirical priors of `n` samples from `truth` (seeded).
pub fn simulate(truth: &[f64], eps: f64, n: u64, trials: u32, beta: f64, seed: u64) -> Discrepancy {
    simulate_within(
        truth,
        eps,
        n,
        trials,
        beta,
        seed,
        &SimulationLimits::default(),
    )
    .expect("without a deadline the simulation always finishes")
}

/// As [`simulate`], stopping at `limits.deadline` (the same seed gives the same result when it
/// finishes). Errors only with [`ContinuousError::SimulationTimeLimit`].
pub fn simulate_within(
    truth: &[f64],
    eps: f64,
    n: u64,
    trials: u32,
    beta: f64,
    seed: u64,
    limits: &SimulationLimits<'_>,
) -> Result<Discrepancy, ContinuousError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut gaps, mut etas, mut failures, mut skipped) = (Vec::new(), Vec::new(), 0u32, 0u32);
    let trial_work = (truth.len() * truth.len()) as u64 + 1;
    let mut work_since_check = 0u64;
    let check = |done: u32, work: &mut u64| -> Result<(), ContinuousError> {
        if *work < SAMPLES_PER_CLOCK_CHECK {
            return Ok(());
        }
        *work = 0;
        if let Some(progress) = limits.progress {
            progress(n, done);
        }
        match limits.deadline {
            Some(d) if Instant::now() >= d => {
                Err(ContinuousError::SimulationTimeLimit { n, done, trials })
            }
            _ => Ok(()),
        }
    };
    for done in 0..trials {
        let mut counts = vec![0u64; truth.len()];
        for _ in 0..n {
            let u: f64 = rng.gen();
            let mut acc = 0.0;
            let k = truth
                .iter()
                .position(|&p| {
                    acc += p;
                    u < acc
                })
                .unwrap_or(truth.len() - 1);
            counts[k] += 1;
            work_since_check += 1;
            check(done, &mut work_since_check)?;
        }
        work_since_check += trial_work;
        check(done, &mut work_since_check)?;
        if counts.contains(&0) {
            skipped += 1;
            continue;
        }
        let phat: Vec<f64> = counts.iter().map(|&c| c as f64 / n as f64).collect();
        let channel = Channel::new(equation19(&phat, eps)).expect("eq. (19) rows are stochastic");
        let gap = (lip_leakage(&channel, std::slice::from_ref(&phat))
            - lip_leakage(&channel, &[truth.to_vec()]))
        .abs();
        let eta = corollary7_eta(n, truth.len(), beta, p_min(&phat).min(p_min(truth)));
        if gap > eta {
            failures += 1;
        }
        gaps.push(gap);
        etas.push(eta);
    }
    // With every trial skipped there is nothing to average: NaN (null in JSON), not -0.
    let count = gaps.len() as f64;
    let mean = gaps.iter().sum::<f64>() / count;
    let eta_mean = etas.iter().sum::<f64>() / count;
    gaps.sort_by(f64::total_cmp);
    let quantile = if gaps.is_empty() {
        f64::NAN
    } else {
        let i = (((1.0 - beta) * gaps.len() as f64).ceil() as usize).clamp(1, gaps.len()) - 1;
        gaps[i]
    };
    Ok(Discrepancy {
        n,
        trials: gaps.len() as u32,
        skipped,
        mean,
        quantile,
        eta_mean,
        failures,
    })
}
