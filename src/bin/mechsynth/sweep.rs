//! `--sweep KEY=GRID` for `continuous`, `compose` and `transfer`: evaluate the command at every
//! grid value (the grid syntax of `mechsynth curve`: `FROM:TO:COUNT`, `log:FROM:TO:COUNT` or a
//! comma list), optionally once per value of a second flag (`--series-over KEY=A|B|...`),
//! and write one CSV row per point and series (the curve CSV format, full precision) and an
//! SVG drawn by the curve plotter.

use crate::common::{check_outputs, emit, Output, UsageError};
use anyhow::{bail, Result};
use mechsynth::curve::{curve_svg, to_csv, Axis, Grid, PlotOptions, PointStatus, Row};
use std::path::PathBuf;

/// Width and height of a sweep's SVG in pixels (as the figure manifests').
const SVG_SIZE: (u32, u32) = (900, 600);

/// Flags whose grid values are rounded to whole numbers (a log grid of sample sizes).
const INTEGER_KEYS: [&str; 2] = ["releases", "samples"];

/// The sweep flags shared by the three commands.
#[derive(clap::Args, Clone, Default)]
pub struct SweepArgs {
    /// Evaluate over a grid of one flag: KEY=FROM:TO:COUNT, KEY=log:FROM:TO:COUNT or KEY=A,B,...
    #[arg(long, value_name = "KEY=GRID")]
    pub sweep: Option<String>,
    /// With --sweep: repeat the sweep for each value of another flag (`LABEL=VALUE` items name
    /// the series), e.g. `notion=lip|ldp`.
    #[arg(long = "series-over", value_name = "KEY=A|B|...")]
    pub series_over: Option<String>,
    /// With --sweep: keep only the series whose name (with its `--series-over` label) contains
    /// one of these (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// With --sweep: write the CSV here (default: stdout).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// With --sweep: draw the series as an SVG here.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// With --sweep: draw the series as a PNG here (the SVG rendered with the bundled font).
    #[arg(long)]
    pub png: Option<PathBuf>,
    /// With --svg or --png: the plot's title (default: none).
    #[arg(long)]
    pub title: Option<String>,
    /// With --svg or --png: the y axis label (default: `value`).
    #[arg(long = "y-label")]
    pub y_label: Option<String>,
    /// Allow --csv, --svg and --png (and `transfer --emit-problem`) to replace existing files (never
    /// a file the run reads).
    #[arg(long)]
    pub force: bool,
}

impl SweepArgs {
    /// As [`SweepArgs::check_needed`], and refuse a `--format` other than `csv` with a sweep
    /// (a sweep writes CSV; the flag was silently ignored).
    pub fn check_needed_with_format(&self, format: Option<crate::common::Format>) -> Result<()> {
        if let (Some(_), Some(f)) = (&self.sweep, format) {
            if !matches!(f, crate::common::Format::Csv) {
                let name = match f {
                    crate::common::Format::Json => "json",
                    _ => "table",
                };
                return Err(UsageError(format!(
                    "invalid `--format` = {name}: a --sweep writes CSV (to --csv FILE or standard output)"
                ))
                .into());
            }
        }
        self.check_needed()
    }

    /// Refuse a flag that would be ignored: `--csv`, `--svg`, `--png`, `--series-over` and
    /// `--only` without `--sweep`, `--title` and `--y-label` without `--svg` or `--png`, and an
    /// `--svg` path ending in `.png` (exit 2, naming the flag, its value and the flag it
    /// needs).
    pub fn check_needed(&self) -> Result<()> {
        let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
        if self.sweep.is_none() {
            let needs_sweep = [
                ("--csv", path(&self.csv)),
                ("--svg", path(&self.svg)),
                ("--png", path(&self.png)),
                ("--series-over", self.series_over.clone()),
                (
                    "--only",
                    Some(self.only.join(",")).filter(|o| !o.is_empty()),
                ),
            ];
            needs(
                "--sweep KEY=GRID",
                "it only applies to a sweep",
                &needs_sweep,
            )?;
        }
        if self.svg.is_none() && self.png.is_none() {
            let needs_svg = [
                ("--title", self.title.clone()),
                ("--y-label", self.y_label.clone()),
            ];
            needs(
                "--svg FILE` or `--png FILE",
                "it labels the sweep's plot",
                &needs_svg,
            )?;
        }
        crate::common::check_svg_path(self.svg.as_deref())
    }

    /// The files `--csv`, `--svg` and `--png` name, with their flags.
    pub fn outputs(&self) -> Vec<Output<'_>> {
        [
            ("--csv", &self.csv),
            ("--svg", &self.svg),
            ("--png", &self.png),
        ]
        .into_iter()
        .filter_map(|(flag, p)| p.as_deref().map(|path| Output { flag, path }))
        .collect()
    }
}

/// What a command's point evaluation returns when the time limit ran out before the point was
/// computed: the sweep reports the point as not computed (no value and the curve CSV's status
/// of a point stopped by its time limit, `no-channel:time-limit`, in every series seen at
/// other points), carries on, and exits 4.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotComputed(pub String);

/// One series' value at one point, as a command reports it.
pub struct Value {
    /// The series' name.
    pub series: String,
    /// The value (absent when the command has none at this point).
    pub value: Option<f64>,
}

/// Refuse the first of `flags` (with its value, when given) that is given without `needed`.
pub fn needs(needed: &str, why: &str, flags: &[(&str, Option<String>)]) -> Result<()> {
    if let Some((flag, Some(value))) = flags.iter().find(|(_, v)| v.is_some()) {
        bail!(UsageError(format!(
            "invalid `{flag}` = {value}: needs `{needed}` ({why})"
        )));
    }
    Ok(())
}

fn split_key<'a>(flag: &str, text: &'a str, keys: &[&str]) -> Result<(&'a str, &'a str)> {
    let (key, rest) = text
        .split_once('=')
        .ok_or_else(|| UsageError(format!("invalid `{flag}` = {text}: expected KEY=...")))?;
    if !keys.contains(&key) {
        return Err(UsageError(format!(
            "invalid `{flag}` = {text}: `{key}` is not one of {}",
            keys.join(", ")
        ))
        .into());
    }
    Ok((key, rest))
}

/// Run the sweep: `set` writes a flag's value into a copy of the arguments (it validates the
/// key), `eval` runs the command at those arguments, `inputs` names the files the command
/// reads at given arguments (`--csv` and `--svg` are checked against them, for every series,
/// before anything is computed).
pub fn run<A: Clone>(
    sweep: &SweepArgs,
    args: &A,
    keys: &[&str],
    set: impl Fn(&mut A, &str, &str) -> Result<()>,
    eval: impl Fn(&A) -> Result<Vec<Value>>,
    inputs: impl Fn(&A) -> Vec<PathBuf>,
) -> Result<u8> {
    sweep.check_needed()?;
    let text = sweep.sweep.as_deref().unwrap_or_default();
    let (key, spec) = split_key("--sweep", text, keys)?;
    let axis = if key == "epsilon" {
        Axis::Epsilon
    } else {
        Axis::Users // any positive finite value; the command checks its own range
    };
    let mut grid = Grid::parse(axis, "--sweep", spec).map_err(|e| {
        UsageError(format!(
            "{e}; a key whose values are not numbers (a file, a prior, a notion) can only be given to --series-over KEY=A|B|..."
        ))
    })?;
    if INTEGER_KEYS.contains(&key) {
        grid.values.iter_mut().for_each(|v| *v = v.round());
        grid.values.dedup();
    }
    let groups: Vec<(String, Option<(&str, String)>)> = match &sweep.series_over {
        None => vec![(String::new(), None)],
        Some(t) => {
            let (k, items) = split_key("--series-over", t, keys)?;
            items
                .split('|')
                .map(|item| match item.rsplit_once('=') {
                    Some((label, v)) => (format!("{label}: "), Some((k, v.to_string()))),
                    None => (format!("{k}={item}: "), Some((k, item.to_string()))),
                })
                .collect()
        }
    };
    let mut bases = Vec::with_capacity(groups.len());
    let mut files = inputs(args);
    for (prefix, over) in &groups {
        let mut base = args.clone();
        if let Some((k, v)) = over {
            set(&mut base, k, v)?;
        }
        files.extend(inputs(&base));
        bases.push((prefix, base));
    }
    check_outputs(&sweep.outputs(), &files, sweep.force)?;
    // (series prefix, x, the values or `None` when the point was not computed), in grid order.
    let mut points: Vec<(&str, f64, Option<Vec<Value>>)> = Vec::new();
    for (prefix, base) in &bases {
        for &x in &grid.values {
            let mut at = base.clone();
            let text = if INTEGER_KEYS.contains(&key) {
                format!("{x}")
            } else {
                format!("{x:?}")
            };
            set(&mut at, key, &text)?;
            log_line!("sweep: {prefix}{key} = {x}");
            match eval(&at) {
                Ok(values) => points.push((prefix, x, Some(values))),
                Err(e) if e.downcast_ref::<NotComputed>().is_some() => {
                    log_line!("sweep: {prefix}{key} = {x} not computed: {e}");
                    points.push((prefix, x, None));
                }
                Err(e) => return Err(e),
            }
        }
    }
    let mut known: Vec<&str> = Vec::new();
    for v in points.iter().filter_map(|p| p.2.as_ref()).flatten() {
        if !known.contains(&v.series.as_str()) {
            known.push(&v.series);
        }
    }
    let mut rows = Vec::new();
    let mut missed = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for (prefix, x, values) in &points {
        let found: Vec<(&str, Option<f64>, PointStatus)> = match values {
            Some(values) => values
                .iter()
                .map(|v| (v.series.as_str(), v.value, PointStatus::Computed))
                .collect(),
            None => {
                missed.push(format!("{prefix}{x}"));
                let status = || PointStatus::NoChannel("time-limit".into());
                known.iter().map(|s| (*s, None, status())).collect()
            }
        };
        for (name, value, status) in found {
            let series = format!("{prefix}{name}");
            if !names.contains(&series) {
                names.push(series.clone());
            }
            if !sweep.only.is_empty() && !sweep.only.iter().any(|s| series.contains(s)) {
                continue;
            }
            rows.push(Row {
                series,
                x: *x,
                value,
                status,
                bound: None,
                leakage: None,
                notes: String::new(),
            });
        }
    }
    if rows.is_empty() && !names.is_empty() && !sweep.only.is_empty() {
        return Err(UsageError(format!(
            "invalid `--only` = {}: no series matches; the series are: {}",
            sweep.only.join(","),
            names.join(", ")
        ))
        .into());
    }
    emit(&to_csv(&rows), sweep.csv.as_deref())?;
    if sweep.svg.is_some() || sweep.png.is_some() {
        let options = PlotOptions {
            title: sweep.title.clone().unwrap_or_default(),
            x_label: key.to_string(),
            y_label: sweep.y_label.clone().unwrap_or_else(|| "value".into()),
            size: SVG_SIZE,
        };
        crate::common::write_images(sweep.svg.as_deref(), sweep.png.as_deref(), || {
            Ok(curve_svg(&rows, &options)?)
        })?;
    }
    if !missed.is_empty() {
        log_line!(
            "time limit: {} point(s) not computed ({key} = {}); their rows have no value and status no-channel:time-limit",
            missed.len(),
            missed.join(", ")
        );
        return Ok(4);
    }
    Ok(0)
}

/// The numeric top-level fields of a JSON object as series (nulls and the swept keys left out).
pub fn numeric_fields(value: &serde_json::Value, skip: &[&str]) -> Vec<Value> {
    value
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !skip.contains(&k.as_str()))
        .filter_map(|(k, v)| {
            v.as_f64().map(|x| Value {
                series: k.clone(),
                value: Some(x),
            })
        })
        .collect()
}
