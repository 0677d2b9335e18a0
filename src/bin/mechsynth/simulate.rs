//! `mechsynth simulate`: a seeded Monte Carlo of a collection, empirical errors beside the
//! analytic ones.

use crate::common::{emit, Format, UsageError};
use crate::input::check_time_limit;
use crate::mechanism::{Mechanism, MechanismArgs};
use anyhow::{bail, Context, Result};
use mechsynth::collect::estimate::{Estimand, EstimatorSpec};
use mechsynth::collect::sampler::seeded_rng;
use mechsynth::collect::simulate::{
    simulate, simulate_oracle, Sampling, SimulateOptions, SimulationReport, UserGroup,
};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    mechanism: MechanismArgs,
    /// Users per trial (at most 10^15).
    #[arg(long, required_unless_present = "priors", conflicts_with = "priors", value_parser = crate::numbers::count(1, mechsynth::collect::simulate::MAX_USERS))]
    users: Option<u64>,
    /// Number of trials (2 to 1,000,000; memory grows with the trials run, 8 bytes per trial
    /// and measured error).
    #[arg(long, default_value_t = 1000, value_parser = crate::numbers::count(2, mechsynth::collect::simulate::MAX_TRIALS))]
    trials: usize,
    /// Seed of the simulation.
    #[arg(long, default_value_t = 1, value_parser = crate::numbers::seed())]
    seed: u64,
    /// How inputs are drawn: independently from the prior, or a fixed composition.
    #[arg(long, value_enum, default_value = "iid")]
    sampling: Sampling,
    /// Estimators whose error is measured (repeat or separate by commas).
    #[arg(
        long = "estimator",
        value_enum,
        value_delimiter = ',',
        default_value = "inversion"
    )]
    estimators: Vec<EstimatorSpec>,
    /// Per-user priors: a CSV of `users,p_0,...,p_{n-1}` lines, one per group of users
    /// (replaces --users; at most 10^15 users in all).
    #[arg(long, value_name = "FILE")]
    priors: Option<PathBuf>,
    /// Fraction of users who report a uniformly random output instead.
    #[arg(long, default_value_t = 0.0, value_parser = crate::numbers::probability())]
    noncompliance: f64,
    /// Confidence level of the empirical intervals.
    #[arg(long, default_value_t = 0.95, value_parser = crate::numbers::level())]
    level: f64,
    /// What the errors are measured against: `sample`, each trial's realized frequencies, or
    /// `population`, the distribution the users are drawn from (the analytic values add the
    /// composition's variance).
    #[arg(long, value_enum, default_value = "sample")]
    estimand: Estimand,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Stop starting trials after this many seconds.
    #[arg(long, default_value_t = 600.0, value_parser = crate::numbers::seconds())]
    time_limit: f64,
}

fn read_groups(path: &Path, n: usize) -> Result<Vec<UserGroup>> {
    let text = mechsynth::source::read_text(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let mut groups = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let bad = |reason: &str| {
            UsageError(format!(
                "invalid `--priors` = {}: line {}: `{line}`: {reason}",
                path.display(),
                i + 1
            ))
        };
        let Ok(users) = fields[0].parse::<u64>() else {
            // A header names its columns: no field of it is a number.
            let header = fields.iter().all(|f| f.parse::<f64>().is_err());
            if groups.is_empty() && i == 0 && header {
                continue;
            }
            bail!(bad(&format!(
                "the first field must be a whole number of users, not `{}`",
                fields[0]
            )));
        };
        if users == 0 {
            bail!(UsageError(format!(
                "invalid `--priors` = {}: line {}: `{line}`: a group of 0 users (every group needs at least one user)",
                path.display(),
                i + 1
            )));
        }
        let prior: Vec<f64> = fields[1..]
            .iter()
            .map(|f| f.parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad("the prior must be numbers"))?;
        if prior.len() != n {
            bail!(bad(&format!(
                "expected {n} prior entries after the number of users"
            )));
        }
        groups.push(UserGroup { users, prior });
    }
    if groups.is_empty() {
        bail!(UsageError(format!(
            "invalid `--priors` = {}: no groups",
            path.display()
        )));
    }
    Ok(groups)
}

/// Run `simulate`; exit 0 (disagreements are flagged on stderr and in the output).
pub fn run(args: SimulateArgs) -> Result<u8> {
    check_time_limit(args.time_limit)?;
    let mut files = args.mechanism.files().to_vec();
    files.push(("--priors", args.priors.as_deref()));
    crate::common::one_stdin(&files)?;
    if !(args.level > 0.0 && args.level < 1.0) {
        bail!(UsageError(format!(
            "invalid `--level` = {}: must be in (0, 1)",
            args.level
        )));
    }
    let start = Instant::now();
    let mechanism = args.mechanism.load()?;
    mechanism.check_estimators(&args.estimators)?;
    let groups = match &args.priors {
        Some(p) => read_groups(p, mechanism.domain().size())?,
        None => Vec::new(),
    };
    let users = args
        .users
        .unwrap_or_else(|| groups.iter().fold(0, |n, g| n.saturating_add(g.users)));
    let last = std::cell::Cell::new(start);
    let total = args.trials;
    let progress = |done: usize| {
        if start.elapsed() > Duration::from_secs(2)
            && last.get().elapsed() > Duration::from_millis(500)
        {
            last.set(Instant::now());
            log_line!(
                "[{:>6.1} s] simulate: {done} of {total} trials",
                start.elapsed().as_secs_f64()
            );
        }
    };
    let options = SimulateOptions {
        users,
        trials: args.trials,
        sampling: args.sampling,
        estimators: args.estimators.clone(),
        groups,
        noncompliance: args.noncompliance,
        level: args.level,
        estimand: args.estimand,
        deadline: Some(start + Duration::from_secs_f64(args.time_limit)),
        progress: Some(&progress),
    };
    let mut rng = seeded_rng(args.seed);
    let report = match &mechanism {
        Mechanism::Channel(model) => simulate(model, &options, &mut rng)?,
        Mechanism::Oracle(oracle, domain) => {
            simulate_oracle(oracle.as_ref(), domain.prior(), &options, &mut rng)?
        }
    };
    for w in &report.warnings {
        log_line!("warning: {w}");
    }
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Table => table(&report, args.level),
        Format::Csv => csv(&report),
    };
    emit(&text, None)?;
    Ok(0)
}

fn table(r: &SimulationReport, level: f64) -> String {
    use std::fmt::Write;
    let mut s = format!(
        "{} users x {} trials; errors against the {} estimand; empirical mean with its {:.0}% interval\n{:<16} {:<20} {:>13} {:>13} {:>13} {:>13}  agrees\n",
        r.users, r.trials, r.estimand.name(), 100.0 * level, "estimator", "metric", "empirical", "low", "high", "analytic"
    );
    for m in &r.metrics {
        let analytic = m.analytic.map_or("-".to_string(), |a| format!("{a:.6e}"));
        let agrees = match m.agrees {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "-",
        };
        let _ = writeln!(
            s,
            "{:<16} {:<20} {:>13.6e} {:>13.6e} {:>13.6e} {:>13}  {agrees}",
            m.estimator, m.name, m.empirical.value, m.empirical.low, m.empirical.high, analytic
        );
    }
    s
}

fn csv(r: &SimulationReport) -> String {
    use std::fmt::Write;
    let mut s =
        String::from("estimator,metric,empirical,std_error,low,high,analytic,agrees,estimand\n");
    for m in &r.metrics {
        let _ = writeln!(
            s,
            "{},{},{:?},{:?},{:?},{:?},{},{},{}",
            m.estimator,
            m.name,
            m.empirical.value,
            m.empirical.std_error,
            m.empirical.low,
            m.empirical.high,
            m.analytic.map_or(String::new(), |a| format!("{a:?}")),
            m.agrees.map_or(String::new(), |a| a.to_string()),
            r.estimand.name()
        );
    }
    s
}
