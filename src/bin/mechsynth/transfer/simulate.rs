//! `transfer --simulate`: Fig. 6(c), the leakage discrepancy of eq. (19) designed for the
//! empirical prior of n samples.

use super::*;
use mechsynth::continuous::transfer_sim::{
    simulate_within, SimulationLimits, MAX_SAMPLES, MAX_TRIALS,
};
use mechsynth::continuous::ContinuousError;
use std::time::Instant;

/// Seconds a simulation runs before it reports progress on stderr.
const PROGRESS_AFTER_SECONDS: f64 = 2.0;

/// Seconds between two progress lines.
const PROGRESS_EVERY_SECONDS: f64 = 0.5;

/// Check `--simulate` (1 to [`MAX_TRIALS`]) and `--time-limit` (only with `--simulate`,
/// validated like every other subcommand's); the deadline it sets, counted from now.
pub fn check_limits(args: &TransferArgs) -> Result<Option<Instant>> {
    if let Some(trials) = args.simulate {
        if trials == 0 || trials > MAX_TRIALS {
            bail!(UsageError(format!(
                "invalid `--simulate` = {trials}: give 1 to {MAX_TRIALS} trials per sample size"
            )));
        }
    }
    if args.simulate.is_none() {
        crate::sweep::needs(
            "--simulate TRIALS",
            "only the simulation runs long enough to need a limit",
            &[("--time-limit", args.time_limit.map(|t| t.to_string()))],
        )?;
    }
    args.time_limit
        .map(|t| crate::input::deadline_after(Instant::now(), t))
        .transpose()
}

/// Whether `error` is the simulation's time limit running out.
pub fn is_time_limit(error: &anyhow::Error) -> bool {
    matches!(
        error.downcast_ref(),
        Some(ContinuousError::SimulationTimeLimit { .. })
    )
}

pub fn simulation(args: &TransferArgs, trials: u32) -> Result<Vec<Discrepancy>> {
    let truth_text = args
        .true_prior
        .as_deref()
        .ok_or_else(|| UsageError("--simulate needs --true-prior".into()))?;
    let size = truth_text.split(',').count();
    let truth = pmf("--true-prior", truth_text, size)?;
    if !(args.sim_epsilon.is_finite() && args.sim_epsilon > 0.0) {
        bail!(UsageError(format!(
            "invalid `--sim-epsilon` = {}: must be > 0",
            args.sim_epsilon
        )));
    }
    let ns: Vec<u64> = args
        .sim_samples
        .split(',')
        .map(|t| {
            t.trim()
                .parse::<u64>()
                .ok()
                .filter(|&n| (1..=MAX_SAMPLES).contains(&n))
        })
        .collect::<Option<_>>()
        .ok_or_else(|| {
            UsageError(format!(
                "invalid `--sim-samples` = {}: integers from 1 to {MAX_SAMPLES}",
                args.sim_samples
            ))
        })?;
    let started = Instant::now();
    let last = std::cell::Cell::new(0.0f64);
    let progress = |n: u64, done: u32| {
        let t = started.elapsed().as_secs_f64();
        if t > PROGRESS_AFTER_SECONDS && t - last.get() > PROGRESS_EVERY_SECONDS {
            last.set(t);
            log_line!("simulating: n = {n}, {done} of {trials} trials, {t:.1} s");
        }
    };
    let limits = SimulationLimits {
        deadline: args.deadline,
        progress: Some(&progress),
    };
    let mut rows = Vec::with_capacity(ns.len());
    for &n in &ns {
        let row = simulate_within(&truth, args.sim_epsilon, n, trials, args.beta, n, &limits)?;
        rows.push(row);
    }
    Ok(rows)
}

pub fn simulate(args: &TransferArgs, trials: u32) -> Result<u8> {
    let rows = match simulation(args, trials) {
        Ok(rows) => rows,
        Err(e) if is_time_limit(&e) => {
            log_line!(
                "error: {e} (`--time-limit` {} s); give more time, fewer trials or smaller --sim-samples",
                args.time_limit.unwrap_or_default()
            );
            return Ok(4);
        }
        Err(e) => return Err(e),
    };
    let text = match args.format.unwrap_or(Format::Table) {
        Format::Json => serde_json::to_string_pretty(&rows)? + "\n",
        Format::Csv => {
            let mut s = "n,trials,skipped,mean,quantile,eta_mean,failures\n".to_string();
            for r in &rows {
                s += &format!(
                    "{},{},{},{},{},{},{}\n",
                    r.n, r.trials, r.skipped, r.mean, r.quantile, r.eta_mean, r.failures
                );
            }
            s
        }
        Format::Table => {
            let mut s = format!(
                "{:>8} {:>7} {:>7} {:>12} {:>12} {:>12} {:>8}\n",
                "n", "trials", "skipped", "mean Delta", "quantile", "Cor.7 eta", "failures"
            );
            for r in &rows {
                s += &format!(
                    "{:>8} {:>7} {:>7} {:>12.6} {:>12.6} {:>12.6} {:>8}\n",
                    r.n, r.trials, r.skipped, r.mean, r.quantile, r.eta_mean, r.failures
                );
            }
            s
        }
    };
    emit(&text, None)?;
    Ok(0)
}
