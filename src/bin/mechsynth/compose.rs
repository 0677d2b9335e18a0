//! `mechsynth compose`: the exact leakage of k independent releases against the stated bounds.
//! Exit 4 when `--time-limit` runs out (with `--sweep`: the points not computed by then are
//! reported with status `no-channel:time-limit` and no value).

use crate::common::{emit, Format, UsageError};
use crate::sweep::{NotComputed, Value};
use anyhow::Result;
use mechsynth::compose::{compose, report::ComposeOptions, ComposeError, ComposeReport};
use mechsynth::AuditSpec;
use std::path::PathBuf;
use std::time::Instant;

/// Products above this many entries announce themselves on stderr (they take over a second
/// with --delta-prime).
const PROGRESS_ENTRIES: usize = 1 << 18;

#[derive(clap::Args, Clone)]
pub struct ComposeArgs {
    /// Channel files (TOML `[channel]` or solve JSON reports), one per mechanism; the prior is
    /// the first file's domain prior.
    #[arg(required = true)]
    channels: Vec<PathBuf>,
    /// Release each channel this many times (default 1; with one file, the k-fold release).
    #[arg(long, default_value_t = 1, value_parser = crate::numbers::count(1, mechsynth::privacy::MAX_RELEASES))]
    releases: usize,
    /// delta' for advanced composition (Dwork-Rothblum-Vadhan) and the exact eps at it.
    #[arg(long = "delta-prime", value_name = "DELTA", value_parser = crate::numbers::probability_open())]
    delta_prime: Option<f64>,
    /// Vertices of a prior set for BP-LIP (Cor. 4): priors separated by ';', entries by ','.
    #[arg(long = "bp-priors", value_name = "P;P;...")]
    bp_priors: Option<String>,
    /// Stop after this many seconds (exit 4); with --sweep, for the whole sweep (points not
    /// computed by then have no value and status `no-channel:time-limit`).
    #[arg(
        long = "time-limit",
        value_name = "SECONDS",
        allow_hyphen_values = true
    , value_parser = crate::numbers::seconds())]
    time_limit: Option<f64>,
    /// Output format.
    #[arg(long, value_enum)]
    format: Option<Format>,
    #[command(flatten)]
    sweep: crate::sweep::SweepArgs,
}

/// The deadline `--time-limit` sets, counted from now; bad input unless finite and > 0.
fn deadline_of(time_limit: Option<f64>) -> Result<Option<Instant>> {
    time_limit
        .map(|t| crate::input::deadline_after(Instant::now(), t))
        .transpose()
}

/// Whether `error` is the time limit running out.
fn is_time_limit(error: &anyhow::Error) -> bool {
    matches!(error.downcast_ref(), Some(ComposeError::TimeLimit(_)))
}

fn parse_priors(text: &str, n: usize) -> Result<Vec<Vec<f64>>> {
    let mut out = Vec::new();
    for (i, part) in text.split(';').enumerate() {
        let p: Vec<f64> = part
            .split(',')
            .map(|v| v.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|e| UsageError(format!("--bp-priors: prior {i} ({part:?}): {e}")))?;
        mechsynth::domain::validate_prior(&format!("--bp-priors[{i}]"), &p, n)?;
        out.push(mechsynth::domain::normalize_prior(&format!("--bp-priors[{i}]"), &p).0);
    }
    Ok(out)
}

/// Run `compose`, or with --sweep over releases or delta-prime (series over `channel` too):
/// the exact leakage (`NOTION exact`) and the bound (`NOTION bound`) of every notion. Exit 4
/// when `--time-limit` runs out first.
pub fn run(args: ComposeArgs) -> Result<u8> {
    args.sweep.check_needed_with_format(args.format)?;
    let named: Vec<(&str, Option<&std::path::Path>)> = args
        .channels
        .iter()
        .map(|c| ("CHANNEL", Some(c.as_path())))
        .collect();
    crate::common::one_stdin(&named)?;
    let deadline = deadline_of(args.time_limit)?;
    if args.sweep.sweep.is_some() {
        let inputs = |a: &ComposeArgs| {
            let files = a.channels.iter().map(|c| crate::common::channel_files(c));
            files.flatten().collect::<Vec<_>>()
        };
        let eval = |a: &ComposeArgs| {
            let report = match report(a, deadline) {
                Ok(r) => r,
                Err(e) if is_time_limit(&e) => return Err(NotComputed(e.to_string()).into()),
                Err(e) => return Err(e),
            };
            let mut out = Vec::new();
            for r in report.rows {
                out.push(Value {
                    series: format!("{} exact", r.notion),
                    value: Some(r.exact),
                });
                out.push(Value {
                    series: format!("{} bound", r.notion),
                    value: r.bound,
                });
            }
            Ok(out)
        };
        return crate::sweep::run(&args.sweep, &args, &SWEEP_KEYS, set, eval, inputs);
    }
    let report = match report(&args, deadline) {
        Ok(r) => r,
        Err(e) if is_time_limit(&e) => {
            log_line!(
                "error: {e} (`--time-limit` {} s); give more time or fewer releases",
                args.time_limit.unwrap_or_default()
            );
            return Ok(4);
        }
        Err(e) => return Err(e),
    };
    let text = match args.format.unwrap_or(Format::Table) {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Table => report.to_table(),
        Format::Csv => report.to_csv(),
    };
    emit(&text, None)?;
    Ok(0)
}

/// The flags `--sweep` and `--series-over` may vary.
const SWEEP_KEYS: [&str; 3] = ["releases", "delta-prime", "channel"];

fn set(args: &mut ComposeArgs, key: &str, value: &str) -> Result<()> {
    match key {
        "releases" => {
            let max = mechsynth::privacy::MAX_RELEASES;
            args.releases = crate::numbers::count(1, max).parse_as("--releases", value)?
        }
        "delta-prime" => {
            let d = crate::numbers::probability_open().parse_as("--delta-prime", value)?;
            args.delta_prime = Some(d)
        }
        _ => args.channels = value.split(',').map(PathBuf::from).collect(),
    }
    Ok(())
}

fn report(args: &ComposeArgs, deadline: Option<Instant>) -> Result<ComposeReport> {
    if args.releases == 0 {
        return Err(UsageError("--releases 0: give at least 1 release".into()).into());
    }
    if let Some(d) = args.delta_prime {
        if !(d > 0.0 && d < 1.0) {
            return Err(UsageError(format!("--delta-prime {d}: must be in (0, 1)")).into());
        }
    }
    let mut loaded = Vec::new();
    for path in &args.channels {
        loaded.push(AuditSpec::load(path)?.channel_and_domain()?);
    }
    let prior = loaded[0].1.prior().to_vec();
    for (path, (_, domain)) in args.channels.iter().zip(&loaded).skip(1) {
        if domain.prior() != prior.as_slice() {
            log_line!(
                "warning: {} has a different prior; the first file's prior is used",
                path.display()
            );
        }
    }
    let bp_priors = match &args.bp_priors {
        Some(text) => Some(parse_priors(text, prior.len())?),
        None => None,
    };
    let channels: Vec<&mechsynth::Channel> = (0..args.releases)
        .flat_map(|_| loaded.iter().map(|(c, _)| c))
        .collect();
    if deadline.is_some_and(|d| Instant::now() >= d) {
        return Err(ComposeError::TimeLimit("loading the channels".into()).into());
    }
    let (outputs, entries) = mechsynth::compose::product_size(&channels);
    if entries > PROGRESS_ENTRIES && entries <= mechsynth::compose::MAX_PRODUCT_ENTRIES {
        log_line!(
            "composing: product channel with {outputs} outputs ({entries} entries); this can take a few seconds"
        );
    }
    let report = compose(
        &channels,
        &prior,
        &ComposeOptions {
            bp_priors,
            delta_prime: args.delta_prime,
            deadline,
        },
    )?;
    Ok(report)
}
