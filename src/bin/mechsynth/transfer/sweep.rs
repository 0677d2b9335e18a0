//! `transfer --sweep`: the flags a sweep may vary and one point's series.

use super::*;

/// The flags `--sweep` and `--series-over` may vary.
pub const KEYS: [&str; 5] = ["samples", "beta", "sim-epsilon", "prior", "true-prior"];

pub fn set(args: &mut TransferArgs, key: &str, value: &str) -> Result<()> {
    use crate::numbers;
    match key {
        "samples" if args.simulate.is_some() => args.sim_samples = value.to_string(),
        "samples" => {
            let max = mechsynth::continuous::transfer_sim::MAX_SAMPLES;
            args.samples = Some(numbers::count(1, max).parse_as("--samples", value)?)
        }
        "beta" => args.beta = numbers::probability_open().parse_as("--beta", value)?,
        "sim-epsilon" => {
            let max = mechsynth::privacy::MAX_EPSILON;
            args.sim_epsilon = numbers::positive_at_most(max).parse_as("--sim-epsilon", value)?
        }
        "prior" => args.prior = Some(value.to_string()),
        _ => args.true_prior = Some(value.to_string()),
    }
    Ok(())
}

/// One point of a sweep: the numeric results (the simulation's with --simulate).
pub fn point(args: &TransferArgs) -> Result<Vec<crate::sweep::Value>> {
    if !(args.beta > 0.0 && args.beta < 1.0) {
        bail!(UsageError(format!(
            "invalid `--beta` = {}: must be in (0, 1)",
            args.beta
        )));
    }
    let skip = ["samples", "beta", "n", "trials", "skipped", "failures"];
    let value = match args.simulate {
        Some(trials) => match super::simulate::simulation(args, trials) {
            Ok(rows) => serde_json::to_value(&rows[0])?,
            Err(e) if super::simulate::is_time_limit(&e) => {
                return Err(crate::sweep::NotComputed(e.to_string()).into())
            }
            Err(e) => return Err(e),
        },
        None => serde_json::to_value(&compute(args)?.0)?,
    };
    Ok(crate::sweep::numeric_fields(&value, &skip))
}
