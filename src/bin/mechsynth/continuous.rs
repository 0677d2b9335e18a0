//! `mechsynth continuous`: calibrate Gaussian, Laplace or sampling noise for continuous data
//! under (eps, delta)-LIP or LDP, numerically and by the published closed forms.

use crate::common::{emit, Format, UsageError};
use anyhow::{bail, Result};
use mechsynth::continuous::calibrate::{calibrate_within, Limits};
use mechsynth::continuous::problem::{self, bin_counts, read_column};
use mechsynth::continuous::{ContinuousError, Prior, Report, Request};
use std::path::PathBuf;

mod noise;
mod sweep;

#[derive(clap::Args, Clone)]
pub struct ContinuousArgs {
    /// A problem file with a `[continuous]` table; flags override its values.
    file: Option<PathBuf>,
    /// Prior: normal(M,S), uniform(L,H), laplace(M,B), discrete(X:P,...), or W*A+W*B mixtures
    /// (weights summing to 1).
    #[arg(long, allow_hyphen_values = true)]
    prior: Option<String>,
    /// Histogram prior from this CSV (with --column and --edges).
    #[arg(long)]
    data: Option<PathBuf>,
    /// The CSV column of --data.
    #[arg(long)]
    column: Option<String>,
    /// Histogram bin edges, comma-separated.
    #[arg(long, allow_hyphen_values = true)]
    edges: Option<String>,
    /// gaussian, laplace or sampling.
    #[arg(long)]
    mechanism: Option<String>,
    /// lip or ldp.
    #[arg(long)]
    notion: Option<String>,
    /// Target eps.
    #[arg(long, value_parser = crate::numbers::positive_at_most(mechsynth::continuous::request::MAX_EPSILON))]
    epsilon: Option<f64>,
    /// Target delta.
    #[arg(long, value_parser = crate::numbers::unit_half_open())]
    delta: Option<f64>,
    /// Data range LO,HI.
    #[arg(long, allow_hyphen_values = true)]
    range: Option<String>,
    /// LDP sensitivity (default: the range's width).
    #[arg(long, value_parser = crate::numbers::positive())]
    sensitivity: Option<f64>,
    /// One data point: instance-dependent calibration.
    #[arg(long, allow_hyphen_values = true, value_parser = crate::numbers::finite())]
    at: Option<f64>,
    /// definition (Def. 5) or corollary-9.
    #[arg(long)]
    criterion: Option<String>,
    /// Exit 6 when a published closed form fails to meet the target.
    #[arg(long)]
    verify: bool,
    /// Stop after this many seconds (exit 4).
    #[arg(long, value_parser = crate::numbers::seconds())]
    time_limit: Option<f64>,
    /// Output format.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Evaluate this noise parameter (sigma, b or lambda) instead of calibrating: the delta (or
    /// eps when --delta is 0) it achieves under LIP and LDP.
    #[arg(long, value_parser = crate::numbers::non_negative())]
    noise: Option<f64>,
    /// With --sweep: the column plotted (parameter, achieved, release-mse or posterior-mse;
    /// default parameter).
    #[arg(long)]
    plot: Option<String>,
    #[command(flatten)]
    sweep: crate::sweep::SweepArgs,
}

fn bad(e: ContinuousError) -> anyhow::Error {
    if e.is_bad_input() {
        UsageError(e.to_string()).into()
    } else {
        anyhow::Error::new(e)
    }
}

fn pair(key: &str, text: &str) -> Result<(f64, f64)> {
    let v: Vec<f64> = text
        .split(',')
        .map(|t| t.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| UsageError(format!("invalid `{key}` = {text}: expected LO,HI")))?;
    if v.len() != 2 || !v.iter().all(|x| x.is_finite()) || v[0] > v[1] {
        bail!(UsageError(format!(
            "invalid `{key}` = {text}: expected LO,HI, finite numbers with LO <= HI"
        )));
    }
    Ok((v[0], v[1]))
}

fn request(args: &ContinuousArgs) -> Result<Request> {
    let mut req = match &args.file {
        Some(path) => Some(problem::load(path).map_err(bad)?),
        None => None,
    };
    let prior: Option<Prior> = match (&args.prior, &args.data) {
        (Some(_), Some(_)) => bail!(UsageError("give --prior or --data, not both".into())),
        (Some(p), None) => Some(problem::parse_prior(p).map_err(bad)?),
        (None, Some(path)) => {
            let column = args
                .column
                .as_deref()
                .ok_or_else(|| UsageError("--data needs --column".into()))?;
            let edges_text = args
                .edges
                .as_deref()
                .ok_or_else(|| UsageError("--data needs --edges".into()))?;
            let edges: Vec<f64> = edges_text
                .split(',')
                .map(|t| t.trim().parse::<f64>())
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    UsageError(format!("invalid `--edges` = {edges_text}: not numbers"))
                })?;
            let data = read_column(path, column).map_err(bad)?;
            Some(Prior::histogram(&edges, &bin_counts(&data, &edges).map_err(bad)?).map_err(bad)?)
        }
        (None, None) => None,
    };
    let mut r = match (req.take(), prior) {
        (Some(mut r), p) => {
            if let Some(p) = p {
                r.prior = p;
            }
            r
        }
        (None, Some(p)) => Request {
            prior: p,
            mechanism: problem::mechanism(args.mechanism.as_deref().unwrap_or("gaussian"))
                .map_err(bad)?,
            notion: problem::notion(args.notion.as_deref().unwrap_or("lip")).map_err(bad)?,
            epsilon: args
                .epsilon
                .ok_or_else(|| UsageError("--epsilon is required without a file".into()))?,
            delta: args.delta.unwrap_or(0.0),
            range: None,
            sensitivity: None,
            at: None,
            criterion: mechsynth::continuous::Criterion::Definition,
        },
        (None, None) => bail!(UsageError("give a problem file, --prior or --data".into())),
    };
    if let Some(m) = &args.mechanism {
        r.mechanism = problem::mechanism(m).map_err(bad)?;
    }
    if let Some(n) = &args.notion {
        r.notion = problem::notion(n).map_err(bad)?;
    }
    if let Some(c) = &args.criterion {
        r.criterion = problem::criterion(c).map_err(bad)?;
    }
    r.epsilon = args.epsilon.unwrap_or(r.epsilon);
    r.delta = args.delta.unwrap_or(r.delta);
    if let Some(t) = &args.range {
        r.range = Some(pair("--range", t)?);
    }
    r.sensitivity = args.sensitivity.or(r.sensitivity);
    r.at = args.at.or(r.at);
    r.validate().map_err(bad)?;
    Ok(r)
}

fn table(report: &Report) -> String {
    let mut out = format!(
        "{:?} mechanism under {:?} (criterion {:?}), eps = {}, delta = {}; `achieved` is {}\n",
        report.mechanism,
        report.notion,
        report.criterion,
        report.epsilon,
        report.delta,
        report.measure
    );
    out += &format!(
        "{:<30} {:>13} {:>12} {:>9} {:>7} {:>8} {:>12} {:>12}\n",
        "method", "parameter", "achieved", "error", "verdict", "ratio", "release MSE", "E[X|Y] MSE"
    );
    for r in &report.rows {
        out += &format!(
            "{:<30} {:>13.6} {:>12.4e} {:>9.1e} {:>7} {:>8.4} {:>12.6} {:>12.6}\n",
            r.method,
            r.parameter,
            r.achieved,
            r.error,
            r.verdict,
            r.ratio,
            r.release_mse,
            r.posterior_mse
        );
    }
    for n in &report.notes {
        out += &format!("note: {n}\n");
    }
    out
}

fn csv(report: &Report) -> String {
    let mut out =
        "method,source,parameter,achieved,error,verdict,ratio,release_mse,posterior_mse\n"
            .to_string();
    for r in &report.rows {
        out += &format!(
            "{},\"{}\",{},{},{},{},{},{},{}\n",
            r.method,
            r.source,
            r.parameter,
            r.achieved,
            r.error,
            r.verdict,
            r.ratio,
            r.release_mse,
            r.posterior_mse
        );
    }
    out
}

/// Run `continuous`; exit 3 when no noise meets the target, 4 when the time limit runs out, 6
/// with --verify when a published closed form fails.
/// With --sweep, evaluate over a grid instead (see [`crate::sweep`]).
pub fn run(args: ContinuousArgs) -> Result<u8> {
    args.sweep.check_needed_with_format(args.format)?;
    if args.sweep.sweep.is_none() {
        let plot = [("--plot", args.plot.clone())];
        crate::sweep::needs(
            "--sweep KEY=GRID",
            "it picks the column a sweep plots",
            &plot,
        )?;
    }
    if args.sweep.sweep.is_some() {
        return crate::sweep::run(
            &args.sweep,
            &args,
            &sweep::KEYS,
            sweep::set,
            sweep::point,
            sweep::inputs,
        );
    }
    let req = request(&args)?;
    if let Some(noise) = args.noise {
        let rows = noise::at_noise(&req, noise)?;
        let text = match args.format.unwrap_or(Format::Table) {
            Format::Json => {
                let map: serde_json::Map<String, serde_json::Value> =
                    rows.iter().map(|(k, v)| (k.clone(), (*v).into())).collect();
                serde_json::to_string_pretty(&map)? + "\n"
            }
            f => noise::render(&rows, matches!(f, Format::Csv)),
        };
        emit(&text, None)?;
        return Ok(0);
    }
    let started = std::time::Instant::now();
    let deadline = match args.time_limit {
        Some(t) => Some((crate::input::deadline_after(started, t)?, t)),
        None => None,
    };
    let last = std::cell::Cell::new(0.0f64);
    let progress = |n: usize, s: f64| {
        let t = started.elapsed().as_secs_f64();
        if t > 2.0 && t - last.get() > 0.5 {
            last.set(t);
            log_line!("calibrating: {n} evaluations, {t:.1} s, trying {s:.6}");
        }
    };
    let limits = Limits {
        deadline,
        progress: Some(&progress),
    };
    let report = match calibrate_within(&req, &limits) {
        Ok(r) => r,
        Err(ContinuousError::Infeasible(m)) => {
            log_line!("error: no noise level meets the target: {m}");
            return Ok(3);
        }
        Err(e @ ContinuousError::TimeLimit(_)) => {
            log_line!("error: {e}");
            return Ok(4);
        }
        Err(e) => return Err(bad(e)),
    };
    log_line!("calibrated in {:.2} s", started.elapsed().as_secs_f64());
    let text = match args.format.unwrap_or(Format::Table) {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Table => table(&report),
        Format::Csv => csv(&report),
    };
    emit(&text, None)?;
    let paper_fails = report
        .rows
        .iter()
        .any(|r| (r.source.starts_with("context-aware-lip")) && r.verdict == "fails");
    Ok(if args.verify && paper_fails { 6 } else { 0 })
}
