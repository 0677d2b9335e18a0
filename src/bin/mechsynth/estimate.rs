//! `mechsynth estimate`: frequencies, ranges, means and sums with intervals, from reports or
//! output counts.

use crate::common::{emit, Format, UsageError};
use crate::input::{check_time_limit, deadline_after, materialize, open};
use crate::mechanism::{Mechanism, MechanismArgs};
use anyhow::{bail, Result};
use mechsynth::collect::baseline::oracle::{
    legacy_hash_warning, oracle_estimates, oracle_warnings,
};
use mechsynth::collect::estimate::{
    estimate, Estimand, EstimateOptions, EstimateReport, EstimatorSpec, IntervalKind, Query,
    DEFAULT_BOOTSTRAP,
};
use mechsynth::collect::privatize::RecordFormat;
use mechsynth::collect::reports::{count_oracle_reports, count_reports, read_counts};
use mechsynth::collect::sampler::{secure_rng, seeded_rng};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct EstimateArgs {
    #[command(flatten)]
    mechanism: MechanismArgs,
    /// The reports: one output label per line (or a CSV column with --column); `-` reads
    /// standard input.
    #[arg(required_unless_present = "counts")]
    reports: Option<PathBuf>,
    /// Output counts instead of reports: `label,count` lines; `-` reads standard input.
    #[arg(long, value_name = "FILE", conflicts_with = "reports")]
    counts: Option<PathBuf>,
    /// The CSV column holding the reports (not with --counts).
    #[arg(long, conflicts_with = "counts")]
    column: Option<String>,
    /// Estimators to run (repeat or separate by commas). An --oracle has one estimator, its
    /// unbiased estimate: give `inversion` (the default) or nothing.
    #[arg(
        long = "estimator",
        value_enum,
        value_delimiter = ',',
        default_value = "inversion"
    )]
    estimators: Vec<EstimatorSpec>,
    /// What to estimate: `frequencies`, `mean`, `sum` or `range:FROM..TO` (repeat or separate
    /// by commas). FROM and TO are symbol labels, or `#K` for the symbol of 0-based index K.
    #[arg(long = "query", value_delimiter = ',', default_value = "frequencies")]
    queries: Vec<String>,
    /// Confidence level of the intervals.
    #[arg(long, default_value_t = 0.95, value_parser = crate::numbers::level())]
    level: f64,
    /// What the intervals are for: `sample`, the frequencies among the users who reported
    /// (randomizer variance only), or `population`, the distribution they were drawn from
    /// (adds the multinomial sampling variance `f (1 - f) / N`).
    #[arg(long, value_enum, default_value = "sample")]
    estimand: Estimand,
    /// Bootstrap replicates (accepted for compatibility and ignored with a warning: the
    /// projected and EM intervals are the inversion's, clipped to the quantity's range).
    #[arg(long, value_parser = crate::numbers::count(0, mechsynth::collect::estimate::MAX_BOOTSTRAP))]
    bootstrap: Option<usize>,
    /// Seed of the bootstrap (accepted for compatibility and ignored with a warning).
    #[arg(long, value_parser = crate::numbers::seed())]
    seed: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Give up reading the reports after this many seconds; an EM fit stops there too.
    #[arg(long, default_value_t = 3600.0, value_parser = crate::numbers::seconds())]
    time_limit: f64,
    /// Also write a single-file HTML page of the estimates into FILE: the inputs, each
    /// estimate with its standard error and interval, the counts (inline CSS; no scripts, no
    /// external resources).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Allow --html to replace an existing file (never an input).
    #[arg(long)]
    force: bool,
}

/// Run `estimate`.
pub fn run(args: EstimateArgs) -> Result<u8> {
    let start = Instant::now();
    check_time_limit(args.time_limit)?;
    let mut files = args.mechanism.files().to_vec();
    files.extend([
        ("REPORTS", args.reports.as_deref()),
        ("--counts", args.counts.as_deref()),
    ]);
    crate::common::one_stdin(&files)?;
    if !(args.level > 0.0 && args.level < 1.0) {
        bail!(UsageError(format!(
            "invalid `--level` = {}: must be in (0, 1)",
            args.level
        )));
    }
    let queries = args
        .queries
        .iter()
        .map(|q| Query::parse(q))
        .collect::<Result<Vec<_>, _>>()?;
    crate::html::check_flag(args.html.as_deref())?;
    if let Some(path) = &args.html {
        let mut inputs = args.mechanism.input_files();
        inputs.extend(args.reports.iter().chain(&args.counts).cloned());
        let output = crate::common::Output {
            flag: "--html",
            path,
        };
        crate::common::check_outputs(&[output], &inputs, args.force)?;
    }
    let mechanism = args.mechanism.load()?;
    mechanism.check_estimators(&args.estimators)?;
    let format = match &args.column {
        Some(c) => RecordFormat::Csv { column: c.clone() },
        None => RecordFormat::Lines,
    };
    let report = match &mechanism {
        Mechanism::Channel(model) => {
            let counts = match (&args.counts, &args.reports) {
                (Some(path), _) => {
                    let (path, _spool) =
                        materialize(path, deadline_after(start, args.time_limit)?)?;
                    read_counts(open(&path, "estimate", start, args.time_limit)?, model)?
                }
                (None, Some(path)) => {
                    let (path, _spool) =
                        materialize(path, deadline_after(start, args.time_limit)?)?;
                    count_reports(
                        open(&path, "estimate", start, args.time_limit)?,
                        model,
                        &format,
                    )?
                }
                (None, None) => unreachable!("clap requires reports or counts"),
            };
            let options = EstimateOptions {
                estimators: args.estimators.clone(),
                queries,
                level: args.level,
                estimand: args.estimand,
                bootstrap: args.bootstrap.unwrap_or(DEFAULT_BOOTSTRAP),
                deadline: Some(start + std::time::Duration::from_secs_f64(args.time_limit)),
                progress: Some(crate::common::stderr_progress()),
            };
            let mut rng = args.seed.map_or_else(secure_rng, seeded_rng);
            estimate(model, &counts, &options, &mut rng)?
        }
        Mechanism::Oracle(oracle, domain) => {
            let Some(path) = &args.reports else {
                bail!(UsageError(
                    "invalid `--counts`: an oracle's reports are not counts of outputs; give the reports".into()
                ));
            };
            let (path, _spool) = materialize(path, deadline_after(start, args.time_limit)?)?;
            let (support, users, legacy) = count_oracle_reports(
                open(&path, "estimate", start, args.time_limit)?,
                oracle.as_ref(),
                &format,
            )?;
            EstimateReport {
                users,
                estimates: oracle_estimates(
                    oracle.as_ref(),
                    domain,
                    &support,
                    users,
                    &queries,
                    args.level,
                    args.estimand,
                )?,
                warnings: oracle_warnings(oracle.as_ref(), domain, &support, users)
                    .into_iter()
                    .chain(legacy_hash_warning(legacy, users))
                    .collect(),
                counts: support,
                output_labels: domain.labels().to_vec(),
                level: args.level,
                estimand: args.estimand,
            }
        }
    };
    if args.bootstrap.is_some() || args.seed.is_some() {
        log_line!("warning: --bootstrap and --seed are ignored: no interval is bootstrapped (the projected and EM intervals are the inversion's for the same quantity, clipped to its range, which keeps their coverage)");
    }
    for w in &report.warnings {
        log_line!("warning: {w}");
    }
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Table => table(&report),
        Format::Csv => csv(&report),
    };
    emit(&text, None)?;
    if let Some(path) = &args.html {
        let page = mechsynth::html::estimate_page(
            &report,
            &page_inputs(&args),
            &crate::html::provenance(),
        );
        crate::html::write(path, &page)?;
    }
    Ok(0)
}

/// What `estimate` read and how, for its page.
fn page_inputs(args: &EstimateArgs) -> Vec<(String, String)> {
    let mut out = args.mechanism.describe();
    let mut push = |k: &str, v: String| out.push((k.to_string(), v));
    if let Some(r) = &args.reports {
        push("reports", crate::mechanism::shown(r));
    }
    if let Some(c) = &args.counts {
        push("counts", crate::mechanism::shown(c));
    }
    if let Some(c) = &args.column {
        push("column", c.clone());
    }
    let estimators: Vec<String> = args
        .estimators
        .iter()
        .map(crate::mechanism::value_name)
        .collect();
    push("estimators", estimators.join(", "));
    push("queries", args.queries.join(", "));
    out
}

fn table(r: &EstimateReport) -> String {
    use std::fmt::Write;
    let mut s = format!(
        "{} reports; {}% intervals for the {} estimand\n{:<16} {:<24} {:>13} {:>12} {:>13} {:>13}  {:<10}  interval\n",
        r.users,
        100.0 * r.level,
        r.estimand.name(),
        "estimator",
        "quantity",
        "estimate",
        "std error",
        "low",
        "high",
        "estimand"
    );
    for e in &r.estimates {
        match (&e.estimate, e.interval) {
            (Some(i), Some(kind)) => {
                let kind = interval_name(Some(kind));
                let _ = writeln!(
                    s,
                    "{:<16} {:<24} {:>13.6} {:>12.3e} {:>13.6} {:>13.6}  {:<10}  {kind}",
                    e.estimator,
                    e.quantity,
                    i.value,
                    i.std_error,
                    i.low,
                    i.high,
                    e.estimand.map_or("-", |x| x.name())
                );
            }
            _ => {
                let _ = writeln!(s, "{:<16} {:<24} {:>13}", e.estimator, e.quantity, "n/a");
            }
        }
    }
    s
}

/// The interval kind as the JSON names it (empty when there is none).
fn interval_name(kind: Option<IntervalKind>) -> String {
    kind.and_then(|k| serde_json::to_value(k).ok())
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

fn csv(r: &EstimateReport) -> String {
    use std::fmt::Write;
    let mut s = String::from("estimator,quantity,estimate,std_error,low,high,interval,estimand\n");
    for e in &r.estimates {
        let kind = interval_name(e.interval);
        match &e.estimate {
            Some(i) => {
                let _ = writeln!(
                    s,
                    "{},{},{:?},{:?},{:?},{:?},{kind},{}",
                    e.estimator,
                    e.quantity,
                    i.value,
                    i.std_error,
                    i.low,
                    i.high,
                    e.estimand.map_or("", |x| x.name())
                );
            }
            None => {
                let _ = writeln!(s, "{},{},,,,,,", e.estimator, e.quantity);
            }
        }
    }
    s
}
