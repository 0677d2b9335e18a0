//! `mechsynth plan`: users needed for an RMSE target, or the smallest epsilon for a number of
//! users, for a channel and the baselines side by side.

use crate::common::{emit, Format, UsageError};
use anyhow::{bail, Result};
use mechsynth::collect::baseline::BaselineSpec;
use mechsynth::collect::estimate::Estimand;
use mechsynth::collect::plan::{plan, PlanOptions, PlanReport, PlanTarget};
use mechsynth::collect::Model;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct PlanArgs {
    /// The channel to plan for (a solve JSON report or a TOML `[channel]`); its domain and
    /// prior are used.
    #[arg(long, value_name = "FILE")]
    channel: Option<PathBuf>,
    /// A named baseline as the mechanism to plan for (with --epsilon).
    #[arg(long, value_enum, conflicts_with = "channel")]
    baseline: Option<BaselineSpec>,
    /// Without a channel: a TOML file with a `[domain]` table (its prior is the planning prior).
    #[arg(long, value_name = "FILE", conflicts_with = "channel")]
    domain: Option<PathBuf>,
    /// Without a channel: the symbols 0..N-1, uniform prior.
    #[arg(long, value_name = "N", conflicts_with_all = ["channel", "domain"], value_parser = crate::numbers::count(2, mechsynth::domain::MAX_DOMAIN_SIZE))]
    size: Option<usize>,
    /// The planning prior: comma-separated probabilities, one per symbol, checked as a problem
    /// file's `prior`; it replaces the prior of the channel, `--domain` or `--size` (uniform).
    #[arg(long, value_name = "P,P,...")]
    prior: Option<String>,
    /// Target RMSE.
    #[arg(long, value_parser = crate::numbers::positive())]
    rmse: f64,
    /// What the RMSE is of: every frequency (the worst symbol), one symbol's prevalence, or
    /// the mean of the values.
    #[arg(long, value_enum, default_value = "frequency")]
    target: TargetArg,
    /// The symbol of a prevalence target: its label, or `#K` for the 0-based index K.
    #[arg(long, required_if_eq("target", "prevalence"))]
    symbol: Option<String>,
    /// Number of users: find the smallest epsilon of each baseline that meets the target
    /// (so it cannot be given with `--epsilon`).
    #[arg(long, conflicts_with = "epsilon", value_parser = crate::numbers::count(1, mechsynth::collect::simulate::MAX_USERS))]
    users: Option<u64>,
    /// Epsilon of the baselines (default: the channel's LDP leakage).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::numbers::in_zero_to(mechsynth::privacy::MAX_EPSILON))]
    epsilon: Option<f64>,
    /// What the RMSE is of: `sample`, the frequencies among the users (randomizer variance
    /// only, as `estimate` reports by default), or `population`, the distribution they are
    /// drawn from (adds the multinomial sampling variance).
    #[arg(long, value_enum, default_value = "sample")]
    estimand: Estimand,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Leave out the mechanisms not started after this many seconds.
    #[arg(long, default_value_t = 600.0, value_parser = crate::numbers::seconds())]
    time_limit: f64,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum TargetArg {
    Frequency,
    Prevalence,
    Mean,
}

/// Run `plan`.
pub fn run(args: PlanArgs) -> Result<u8> {
    let start = std::time::Instant::now();
    crate::input::check_time_limit(args.time_limit)?;
    if let Some(e) = args.epsilon {
        mechsynth::collect::check_epsilon("--epsilon", e)?;
    }
    if args.symbol.is_some() && args.target != TargetArg::Prevalence {
        bail!(UsageError(
            "invalid `--symbol`: it names the symbol of `--target prevalence`, and the target is not prevalence".into()
        ));
    }
    if args.users == Some(0) {
        bail!(UsageError(
            "invalid `--users` = 0: plan for at least one user".into()
        ));
    }
    if args.channel.is_none() && args.epsilon.is_none() && args.users.is_none() {
        bail!(UsageError(
            "the baselines need `--epsilon` (users needed at that level) or `--users` (smallest epsilon for that many users)".into()
        ));
    }
    crate::common::one_stdin(&[
        ("--channel", args.channel.as_deref()),
        ("--domain", args.domain.as_deref()),
    ])?;
    let domain_args = crate::mechanism::MechanismArgs {
        channel: None,
        baseline: None,
        oracle: None,
        epsilon: None,
        domain: args.domain.clone(),
        size: args.size,
        prior: args.prior.clone(),
        sensitive: None,
        blocks: None,
    };
    let model = match (&args.channel, args.baseline) {
        (Some(path), _) => {
            let mut model = Model::load(path)?;
            let value = path.display().to_string();
            crate::mechanism::check_symbols("--channel", &value, model.domain.size())?;
            model.domain = crate::mechanism::with_prior(model.domain, args.prior.as_deref())?;
            Some(model)
        }
        (None, Some(spec)) => {
            let Some(eps) = args.epsilon else {
                bail!(UsageError(
                    "a --baseline to plan for needs --epsilon".into()
                ));
            };
            Some(Model::baseline(spec, domain_args.baseline_domain()?, eps)?)
        }
        _ => None,
    };
    let domain = match &model {
        Some(m) => m.domain.clone(),
        None => domain_args.baseline_domain()?,
    };
    let target = match args.target {
        TargetArg::Frequency => PlanTarget::Frequency,
        TargetArg::Mean => PlanTarget::Mean,
        TargetArg::Prevalence => {
            let s = args.symbol.as_deref().unwrap_or_default();
            let symbol = mechsynth::collect::estimate::symbol_index(&domain, "--symbol", s, s)
                .map_err(|e| UsageError(e.to_string()))?;
            PlanTarget::Prevalence { symbol }
        }
    };
    let options = PlanOptions {
        target,
        rmse: args.rmse,
        estimand: args.estimand,
        users: args.users,
        epsilon: args.epsilon,
        deadline: Some(start + std::time::Duration::from_secs_f64(args.time_limit)),
        progress: Some(crate::common::stderr_progress()),
    };
    let report = plan(model.as_ref(), &domain, &options)?;
    for n in &report.notes {
        log_line!("warning: {n}");
    }
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Table => table(&report),
        Format::Csv => csv(&report),
    };
    emit(&text, None)?;
    // Mechanisms the time limit left out make the table incomplete.
    let cut = report.notes.iter().any(|n| n.starts_with("time limit"));
    Ok(if cut { 4 } else { 0 })
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or("-".into(), |v| v.to_string())
}

fn table(r: &PlanReport) -> String {
    use std::fmt::Write;
    let mut s = format!(
        "target RMSE {} ({}, {} estimand){}\n{:<32} {:>10} {:>10} {:>14} {:>14} {:>12}\n",
        r.rmse,
        serde_json::to_value(r.target)
            .ok()
            .and_then(|v| v.get("kind").and_then(|k| k.as_str().map(String::from)))
            .unwrap_or_default(),
        r.estimand.name(),
        r.users
            .map_or(String::new(), |n| format!(" with {n} users")),
        "mechanism",
        "parameter",
        "LDP eps",
        "per-user var",
        "users needed",
        "rmse at N"
    );
    for row in &r.rows {
        let _ = writeln!(
            s,
            "{:<32} {:>10} {:>10} {:>14.6e} {:>14} {:>12}",
            row.mechanism,
            row.epsilon.map_or("-".into(), |e| format!("{e:.4}")),
            row.ldp.map_or("-".into(), |e| format!("{e:.4}")),
            row.per_user_variance,
            opt(row.users_needed),
            row.rmse_at_users.map_or("-".into(), |e| format!("{e:.3e}")),
        );
    }
    s
}

fn csv(r: &PlanReport) -> String {
    use std::fmt::Write;
    let mut s = String::from(
        "mechanism,epsilon,ldp,per_user_variance,users_needed,rmse_at_users,estimand\n",
    );
    for row in &r.rows {
        let f = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:?}"));
        let _ = writeln!(
            s,
            "{},{},{},{:?},{},{},{}",
            row.mechanism,
            f(row.epsilon),
            f(row.ldp),
            row.per_user_variance,
            row.users_needed.map_or(String::new(), |v| v.to_string()),
            f(row.rmse_at_users),
            r.estimand.name()
        );
    }
    s
}
