//! `mechsynth curve`: a problem over a grid of one parameter, as CSV (and SVG), resumable.

use crate::common::{backend_of, check_outputs, domain_files, emit, Output, Solver, UsageError};
use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mechsynth::curve::{
    csv_line, curve_fingerprint, curve_svg, load_curve_file, merge_shards, parse_csv,
    parse_shard_csv, retain_mechanisms, run_curve, to_csv, Axis, Compare, CurveOptions, CurveSpec,
    Grid, PlotOptions, Row, SeriesSource, Shard, ShardHeader, CSV_HEADER, FIGURE_SIZE,
    TIME_LIMIT_NOTE,
};
use mechsynth::solve::GapTolerance;
use mechsynth::SolveOptions;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

#[derive(clap::Args)]
pub struct CurveArgs {
    /// The problem file (TOML; may carry a `[curve]` section with the grid and series).
    #[arg(required_unless_present = "merge")]
    file: Option<PathBuf>,
    /// Grid of epsilons: FROM:TO:COUNT (linear), log:FROM:TO:COUNT, or a comma list.
    #[arg(long, allow_hyphen_values = true)]
    epsilons: Option<String>,
    /// Grid of domain sizes (the file's `domain.size` or `domain.line`; uniform prior).
    #[arg(long, allow_hyphen_values = true)]
    sizes: Option<String>,
    /// Grid of P(X = 1) for a binary domain.
    #[arg(long, allow_hyphen_values = true)]
    priors: Option<String>,
    /// Grid of numbers of users (frequency objectives).
    #[arg(long, allow_hyphen_values = true)]
    users: Option<String>,
    /// Also draw the optimum under these notions: a comma list of NOTION or NOTION*FACTOR
    /// (e.g. `lip,ldp*2`: LIP, and LDP at twice the epsilon).
    #[arg(long, value_delimiter = ',')]
    compare: Vec<String>,
    /// Leave out the registry's closed forms.
    #[arg(long)]
    no_registry: bool,
    /// Only these registry mechanisms (comma list; default: all that apply).
    #[arg(long, value_delimiter = ',')]
    mechanisms: Vec<String>,
    /// Write the CSV to FILE instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Also draw the curve as SVG into FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Also write a single-file HTML page into FILE: the drawing, the data table, the
    /// statuses and the problem (inline CSS and SVG; no scripts, no external resources).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Also draw the curve as PNG into FILE (the SVG rendered with the bundled font).
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Allow -o, --svg, --png and --html to replace existing files.
    #[arg(long)]
    force: bool,
    /// Skip the points already in the -o CSV and add the others to it.
    #[arg(long)]
    resume: bool,
    /// Overall time limit in seconds: points not started by then are left out (resume later).
    #[arg(long, value_parser = crate::numbers::seconds())]
    time_limit: Option<f64>,
    /// Time limit of each point in seconds.
    #[arg(long, default_value_t = 600.0, value_parser = crate::numbers::seconds())]
    point_time_limit: f64,
    /// Relative gap below which a channel counts as optimal (plus 1e-9 absolute).
    #[arg(long, default_value_t = GapTolerance::DEFAULT.relative, value_parser = crate::numbers::unit_half_open())]
    gap: f64,
    /// LP backend.
    #[arg(long, value_enum, default_value = "clarabel")]
    solver: Solver,
    /// The plot's title (default: the `[curve]` title or the problem's name).
    #[arg(long)]
    title: Option<String>,
    /// Compute only the I-th of N shares of the grid (points dealt round-robin by grid index,
    /// 1-based I); the CSV starts with a line naming the share and the curve, for --merge.
    #[arg(long, value_name = "I/N", allow_hyphen_values = true)]
    shard: Option<String>,
    /// Join the CSVs of all shares of a curve (each written with --shard) into the CSV one
    /// run over the whole grid writes (to -o, else stdout).
    #[arg(long, value_name = "CSV", num_args = 1.., conflicts_with_all = MERGE_CONFLICTS)]
    merge: Vec<PathBuf>,
}

/// The flags that make no sense with --merge, which reads no problem and computes nothing.
const MERGE_CONFLICTS: [&str; 15] = [
    "file",
    "epsilons",
    "sizes",
    "priors",
    "users",
    "compare",
    "no_registry",
    "mechanisms",
    "svg",
    "resume",
    "time_limit",
    "title",
    "shard",
    "png",
    "html",
];

fn positive(flag: &str, v: f64) -> Result<()> {
    crate::input::check_seconds(flag, v)
}

/// The grid from the flags (at most one) or the `[curve]` section.
fn grid_of(args: &CurveArgs, curve: &CurveSpec) -> Result<Grid> {
    let given: Vec<(Axis, &String)> = [
        (Axis::Epsilon, &args.epsilons),
        (Axis::DomainSize, &args.sizes),
        (Axis::Prior, &args.priors),
        (Axis::Users, &args.users),
    ]
    .into_iter()
    .filter_map(|(a, v)| v.as_ref().map(|v| (a, v)))
    .collect();
    match given.as_slice() {
        [(axis, spec)] => Ok(Grid::parse(*axis, axis.flag(), spec)?),
        [] => curve.grid("curve")?.ok_or_else(|| {
            UsageError("no grid: give one of --epsilons, --sizes, --priors, --users, or `grid` in a [curve] section".into()).into()
        }),
        _ => bail!(UsageError(format!(
            "invalid `{}` = {}: give only one grid flag",
            given[1].0.flag(),
            given[1].1
        ))),
    }
}

/// Seconds after which each finished point is reported on stderr when it is not a terminal.
const PROGRESS_AFTER_SECONDS: f64 = 2.0;

/// Run `curve`: 0 when every point ran, 4 when the overall time limit left points out.
pub fn run(mut args: CurveArgs) -> Result<u8> {
    if !args.merge.is_empty() {
        return merge(&args);
    }
    let shard = args
        .shard
        .as_deref()
        .map(|s| Shard::parse("--shard", s))
        .transpose()?;
    let Some(problem_file) = args.file.clone() else {
        bail!(UsageError(
            "give the problem FILE (or --merge with the shares' CSVs)".into()
        ));
    };
    positive("--point-time-limit", args.point_time_limit)?;
    if let Some(t) = args.time_limit {
        positive("--time-limit", t)?;
    }
    if !(args.gap.is_finite() && (0.0..1.0).contains(&args.gap)) {
        bail!(UsageError(format!(
            "invalid `--gap` = {}: must be a relative gap in [0, 1)",
            args.gap
        )));
    }
    // `-o -` is standard output, where the CSV goes without -o.
    if args
        .output
        .as_deref()
        .is_some_and(mechsynth::source::is_stdio)
    {
        if args.resume {
            bail!(UsageError(
                "invalid `-o` = -: --resume continues the CSV in a file; give -o FILE".into()
            ));
        }
        args.output = None;
    }
    if args.resume && args.output.is_none() {
        bail!(UsageError(
            "invalid `--resume`: it needs -o FILE, the CSV to continue".into()
        ));
    }
    let file = load_curve_file(&problem_file)?;
    let curve = file.curve.clone().unwrap_or_default();
    let grid = grid_of(&args, &curve)?;
    let mut sources = vec![SeriesSource::Optimum];
    let compare = if args.compare.is_empty() {
        curve.compare.clone()
    } else {
        args.compare.clone()
    };
    let compare_key = if args.compare.is_empty() {
        "curve.compare"
    } else {
        "--compare"
    };
    for c in &compare {
        sources.push(SeriesSource::Compare(Compare::parse(compare_key, c)?));
    }
    if !args.no_registry && curve.registry.unwrap_or(true) {
        sources.push(SeriesSource::Registry);
    }
    let mechanisms = if args.mechanisms.is_empty() {
        curve.mechanisms.clone()
    } else {
        args.mechanisms.clone()
    };
    let known: Vec<&str> = mechsynth::verify::REGISTRY.iter().map(|e| e.name).collect();
    if let Some(unknown) = mechanisms.iter().find(|m| !known.contains(&m.as_str())) {
        let key = if args.mechanisms.is_empty() {
            "curve.mechanisms"
        } else {
            "--mechanisms"
        };
        bail!(UsageError(format!(
            "invalid `{key}` = {unknown}: not a registry mechanism; the registry has {}",
            known.join(", ")
        )));
    }

    crate::html::check_flag(args.html.as_deref())?;
    crate::common::check_svg_path(args.svg.as_deref())?;
    let mut inputs = vec![problem_file.clone()];
    inputs.extend(domain_files(&file.problem.domain));
    let mut outputs: Vec<Output> = Vec::new();
    if let Some(path) = &args.output {
        outputs.push(Output { flag: "-o", path });
    }
    // Only -o may already exist when resuming; these never may without --force.
    let drawn: Vec<Output> = [
        ("--svg", &args.svg),
        ("--png", &args.png),
        ("--html", &args.html),
    ]
    .into_iter()
    .filter_map(|(flag, p)| p.as_deref().map(|path| Output { flag, path }))
    .collect();
    outputs.extend(drawn.iter().copied());
    // With --resume, -o is the CSV to continue: it may exist (it is still never an input).
    let resumed = args.resume && args.output.as_ref().is_some_and(|p| p.exists());
    check_outputs(&outputs, &inputs, args.force || resumed)?;
    if resumed && !args.force {
        check_outputs(&drawn, &inputs, false)?;
    }
    let mut options = CurveOptions {
        solve: SolveOptions {
            backend: backend_of(args.solver),
            gap: GapTolerance {
                relative: args.gap,
                ..GapTolerance::DEFAULT
            },
            ..SolveOptions::default()
        },
        point_time_limit: Some(args.point_time_limit),
        time_limit: args.time_limit,
        shard,
        ..CurveOptions::default()
    };
    // A share's CSV starts with the line naming it and the curve.
    let shard_header = match shard {
        Some(s) => {
            let fingerprint =
                curve_fingerprint(&file.problem, &grid, &sources, &mechanisms, &options.solve);
            Some(ShardHeader::new("--shard", s, &grid, fingerprint)?)
        }
        None => None,
    };
    let prefix = shard_header
        .as_ref()
        .map(|h| h.line() + "\n")
        .unwrap_or_default();
    let mut previous: Vec<Row> = Vec::new();
    if let (true, Some(out)) = (resumed, &args.output) {
        let text = std::fs::read_to_string(out)
            .with_context(|| format!("cannot read {}", out.display()))?;
        let origin = out.display().to_string();
        previous = match &shard_header {
            Some(header) => resumed_share(header, &text, &origin)?,
            None => parse_csv(&text, &origin)?,
        };
    }
    if let Some(out) = &args.output {
        mechsynth::curve::check_resumable(
            &previous,
            &sources,
            &file.problem,
            &out.display().to_string(),
        )?;
    }
    if let Some(out) = &args.output {
        mechsynth::curve::check_reproduces(
            &previous,
            &file.problem,
            &grid,
            &options,
            &out.display().to_string(),
        )?;
    }
    // Points their time limit cut short are computed again.
    let cut = |r: &Row| r.notes.contains(TIME_LIMIT_NOTE);
    let redo: Vec<u64> = previous
        .iter()
        .filter(|r| cut(r) && grid.values.iter().any(|x| x.to_bits() == r.x.to_bits()))
        .map(|r| r.x.to_bits())
        .collect();
    previous.retain(|r| !redo.contains(&r.x.to_bits()));
    options.done = previous.iter().map(|r| r.x.to_bits()).collect();
    let todo = grid
        .values
        .iter()
        .enumerate()
        .filter(|(j, x)| shard.is_none_or(|s| s.owns(*j)) && !options.done.contains(&x.to_bits()))
        .count();
    let bar = ProgressBar::with_draw_target(
        Some(todo as u64),
        if std::io::stderr().is_terminal() && !crate::quiet() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} points, {elapsed} elapsed, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // With -o, every finished point is appended at once, so a stopped run can be resumed.
    let journal = match &args.output {
        Some(out) => {
            let mut f = std::fs::File::create(out)
                .with_context(|| format!("cannot write {}", out.display()))?;
            f.write_all((prefix.clone() + &to_csv(&previous)).as_bytes())?;
            Some(Arc::new(Mutex::new(f)))
        }
        None => None,
    };
    let sink_bar = bar.clone();
    let sink_journal = journal.clone();
    let sink_mechanisms = mechanisms.clone();
    // Without a terminal (a log, a pipe) the bar is hidden: a line per finished point instead,
    // once the run has taken a couple of seconds.
    let lines = !std::io::stderr().is_terminal();
    let started = std::time::Instant::now();
    options.on_point = Some(Arc::new(move |rows: &[Row]| {
        sink_bar.inc(1);
        let seconds = started.elapsed().as_secs_f64();
        if lines && seconds >= PROGRESS_AFTER_SECONDS {
            log_line!(
                "[{seconds:6.1} s] curve: {} of {todo} points done",
                sink_bar.position()
            );
        }
        if let Some(j) = &sink_journal {
            let mut rows = rows.to_vec();
            retain_mechanisms(&mut rows, &sink_mechanisms);
            let text: String = rows.iter().map(|r| csv_line(r) + "\n").collect();
            let mut f = j.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                log_line!("warning: cannot append to the CSV: {e}");
            }
        }
    }));
    let result = run_curve(&file.problem, &grid, &sources, &options);
    bar.finish_and_clear();
    let result = result?;
    let mut new_rows = result.rows;
    retain_mechanisms(&mut new_rows, &mechanisms);
    // Final order: grid order, then the order within each point (old rows keep theirs).
    let mut rows = Vec::with_capacity(previous.len() + new_rows.len());
    for &x in &grid.values {
        let bits = x.to_bits();
        rows.extend(
            previous
                .iter()
                .chain(&new_rows)
                .filter(|r| r.x.to_bits() == bits)
                .cloned(),
        );
    }
    rows.extend(
        previous
            .iter()
            .filter(|r| !grid.values.iter().any(|x| x.to_bits() == r.x.to_bits()))
            .cloned(),
    );
    let csv = to_csv(&rows);
    debug_assert!(csv.starts_with(CSV_HEADER));
    let csv = prefix + &csv;
    drop(journal);
    emit(&csv, args.output.as_deref())?;
    if !result.resumed.is_empty() {
        log_line!(
            "resumed: {} point(s) already in the CSV were skipped",
            result.resumed.len()
        );
    }
    let plot = PlotOptions {
        title: args
            .title
            .clone()
            .or_else(|| curve.title.clone())
            .or_else(|| file.problem.name.clone())
            .unwrap_or_else(|| "curve".into()),
        x_label: grid.axis.label().into(),
        y_label: curve.y_label.clone().unwrap_or_else(|| "objective".into()),
        size: FIGURE_SIZE,
    };
    // --svg and --png fail the run when the curve cannot be drawn; --html alone writes a page
    // without the drawing (and says so).
    let drawing = if args.svg.is_some() || args.png.is_some() {
        Some(curve_svg(&rows, &plot)?)
    } else if args.html.is_some() {
        curve_svg(&rows, &plot)
            .map_err(|e| log_line!("warning: the page has no drawing: {e}"))
            .ok()
    } else {
        None
    };
    if let Some(svg) = &drawing {
        crate::common::write_images(args.svg.as_deref(), args.png.as_deref(), || Ok(svg.clone()))?;
    }
    if let Some(html_path) = &args.html {
        let problem = crate::html::source(&problem_file);
        let page = mechsynth::html::curve_page(
            &mechsynth::html::CurveInputs {
                title: &plot.title,
                axis: grid.axis.label(),
                problem: &problem,
                rows: &rows,
                svg: drawing.as_deref(),
                left_out: result.timed_out.len(),
            },
            &crate::html::provenance(),
        );
        crate::html::write(html_path, &page)?;
    }
    let cut_points: std::collections::BTreeSet<u64> = new_rows
        .iter()
        .filter(|r| cut(r))
        .map(|r| r.x.to_bits())
        .collect();
    if !cut_points.is_empty() {
        log_line!(
            "time limit: {} point(s) stopped at their time limit (kept, with `{TIME_LIMIT_NOTE}` in the notes); run again with --resume and a larger --point-time-limit to compute them",
            cut_points.len()
        );
    }
    if !result.timed_out.is_empty() {
        log_line!(
            "time limit: {} point(s) not computed; run again with --resume to add them",
            result.timed_out.len()
        );
    }
    Ok(if result.timed_out.is_empty() && cut_points.is_empty() {
        0
    } else {
        4
    })
}

/// The rows of a share's CSV to resume, which must be the same share of the same curve.
fn resumed_share(header: &ShardHeader, text: &str, origin: &str) -> Result<Vec<Row>> {
    let refuse = |reason: String| mechsynth::curve::CurveError::Resume {
        path: origin.into(),
        reason,
    };
    let (found, rows) = parse_shard_csv("-o", text, origin).map_err(|e| refuse(e.to_string()))?;
    if found != *header {
        return Err(refuse(format!(
            "it is share {} of the curve {}, this run is share {} of the curve {}; it was written for another share, problem, grid or options",
            found.shard, found.fingerprint, header.shard, header.fingerprint
        ))
        .into());
    }
    Ok(rows)
}

/// `curve --merge`: join the shares' CSVs into the CSV of one run over the whole grid. Exit 0,
/// or 4 when a point in them was cut by its time limit (as the run over the grid would).
fn merge(args: &CurveArgs) -> Result<u8> {
    let output = args
        .output
        .as_deref()
        .filter(|p| !mechsynth::source::is_stdio(p));
    let outputs: Vec<Output> = output
        .map(|path| Output { flag: "-o", path })
        .into_iter()
        .collect();
    check_outputs(&outputs, &args.merge, args.force)?;
    let mut parts = Vec::with_capacity(args.merge.len());
    for path in &args.merge {
        let text = mechsynth::source::read_text(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        parts.push((path.display().to_string(), text));
    }
    let rows = merge_shards("--merge", &parts)?;
    emit(&to_csv(&rows), output)?;
    let cut: std::collections::BTreeSet<u64> = rows
        .iter()
        .filter(|r| r.notes.contains(TIME_LIMIT_NOTE))
        .map(|r| r.x.to_bits())
        .collect();
    if cut.is_empty() {
        return Ok(0);
    }
    log_line!(
        "time limit: {} point(s) stopped at their time limit (kept, with `{TIME_LIMIT_NOTE}` in the notes); run their share again with --resume and a larger --point-time-limit, then merge again",
        cut.len()
    );
    Ok(4)
}

/// Write `text` to `path` and say so on stderr (to stdout for `-`).
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    emit(text, Some(path))
}

/// Write the channel heatmap of `rows` as SVG to `svg` and as PNG to `png` (for `solve` and
/// `audit`'s `--svg` and `--png`); nothing without either.
pub fn write_channel_images(
    svg: Option<&Path>,
    png: Option<&Path>,
    rows: &[Vec<f64>],
    inputs: &[String],
    outputs: &[String],
    title: &str,
) -> Result<()> {
    crate::common::write_images(svg, png, || {
        Ok(mechsynth::curve::channel_svg(rows, inputs, outputs, title)?)
    })
}
