//! `transfer --simulate`: Fig. 6(c), the leakage discrepancy of eq. (19) designed for the
//! empirical prior of n samples.

use super::*;

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
        .map(|t| t.trim().parse::<u64>().ok().filter(|&n| n > 0))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            UsageError(format!(
                "invalid `--sim-samples` = {}: positive integers",
                args.sim_samples
            ))
        })?;
    Ok(ns
        .iter()
        .map(|&n| {
            mechsynth::continuous::transfer_sim::simulate(
                &truth,
                args.sim_epsilon,
                n,
                trials,
                args.beta,
                n,
            )
        })
        .collect())
}

pub fn simulate(args: &TransferArgs, trials: u32) -> Result<u8> {
    let rows = simulation(args, trials)?;
    let text = match args.format {
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
