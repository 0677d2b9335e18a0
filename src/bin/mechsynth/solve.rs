//! `mechsynth solve`: the optimal certified channel of a problem file.

use crate::common::{
    backend_of, check_outputs, cut_table, domain_files, emit, terminal_width, Format, Output,
    Solver, UsageError,
};
use anyhow::{bail, Result};
use mechsynth::solve::{GapTolerance, ProfileLevel};
use mechsynth::synthesis::Status;
use mechsynth::{solve, LpStatus, MethodChoice, ProblemSpec, SolveOptions};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct SolveArgs {
    /// The problem file (TOML).
    file: PathBuf,
    /// Output format: a table (6 significant digits), JSON or CSV (full precision).
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Override the epsilon of every privacy constraint.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::numbers::in_zero_to(mechsynth::privacy::MAX_EPSILON))]
    epsilon: Option<f64>,
    /// LP backend.
    #[arg(long, value_enum, default_value = "clarabel")]
    solver: Solver,
    /// Method for linear objectives.
    #[arg(long, value_enum, default_value = "auto")]
    method: MethodChoice,
    /// Also say which methods were considered and why each was kept, passed over or not run
    /// (after the table; on stderr with --format csv; always in the JSON as
    /// `methods_considered`).
    #[arg(long)]
    explain: bool,
    /// Write the result to FILE instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Allow -o, --svg, --png and --html to replace existing files (never the problem file or a file
    /// it reads).
    #[arg(long)]
    force: bool,
    /// How much of the report's leakage and objective profiles to compute: every entry that
    /// costs O(n^2) by default; `full` adds the O(n^3) ones (inversion-mse, frequency-mse, and
    /// d-privacy on points that are not a line) at any size, `none` leaves the profiles out.
    #[arg(long, value_enum, default_value = "auto")]
    profile: ProfileLevel,
    /// Time limit for the whole solve, in seconds.
    #[arg(long, default_value_t = 600.0, value_parser = crate::numbers::seconds())]
    time_limit: f64,
    /// Relative gap to the rigorous bound below which the channel counts as optimal (plus
    /// 1e-9 absolute).
    #[arg(long, default_value_t = GapTolerance::DEFAULT.relative, value_parser = crate::numbers::unit_half_open())]
    gap: f64,
    /// Also draw the channel as an SVG heatmap into FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Also write a single-file HTML page of the result into FILE: status and certificate,
    /// objective, bound and gap, leakage, the channel's heatmap, the problem (inline CSS and
    /// SVG; no scripts, no external resources).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Also draw the channel as a PNG heatmap into FILE (the SVG rendered with the bundled
    /// font).
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
}

/// Run `solve`; the exit code follows the status (see the crate README).
pub fn run(args: SolveArgs) -> Result<u8> {
    let mut spec = ProblemSpec::load(&args.file)?;
    if let Some(e) = args.epsilon {
        if !(e.is_finite() && (0.0..=mechsynth::privacy::MAX_EPSILON).contains(&e)) {
            bail!(UsageError(format!(
                "invalid `--epsilon` = {e}: epsilon must be a finite number in [0, {}]",
                mechsynth::privacy::MAX_EPSILON
            )));
        }
        let file_privacy = spec.privacy.clone();
        spec.set_epsilon(e);
        // `[expected]` is the optimum at the file's epsilon: it says nothing about another one.
        if spec.privacy != file_privacy && spec.expected.take().is_some() {
            log_line!(
                "note: `--epsilon` = {e} overrides the file's epsilon; its [expected] optimum (for the file's epsilon) is not checked"
            );
        }
    }
    crate::input::check_time_limit(args.time_limit)?;
    if !(args.gap.is_finite() && (0.0..1.0).contains(&args.gap)) {
        bail!(UsageError(format!(
            "invalid `--gap` = {}: must be a relative gap in [0, 1)",
            args.gap
        )));
    }
    let mut inputs = vec![args.file.clone()];
    inputs.extend(domain_files(&spec.domain));
    crate::html::check_flag(args.html.as_deref())?;
    crate::common::check_svg_path(args.svg.as_deref())?;
    let outputs: Vec<Output> = [
        ("-o", &args.output),
        ("--svg", &args.svg),
        ("--png", &args.png),
        ("--html", &args.html),
    ]
    .into_iter()
    .filter_map(|(flag, p)| p.as_deref().map(|path| Output { flag, path }))
    .collect();
    check_outputs(&outputs, &inputs, args.force)?;
    let problem = mechsynth::problem::ProblemBuilder::from_spec(spec).build()?;
    for w in &problem.warnings {
        log_line!("warning: {w}");
    }
    let (sink, heartbeat) =
        crate::common::stderr_progress_with_heartbeat("formulating and solving");
    let mut options = SolveOptions {
        method: args.method,
        backend: backend_of(args.solver),
        gap: GapTolerance {
            relative: args.gap,
            ..GapTolerance::DEFAULT
        },
        progress: Some(sink),
        profile: args.profile,
        ..SolveOptions::default()
    };
    options.backend_options.time_limit_seconds = args.time_limit;
    let report = solve(&problem, &options);
    drop(heartbeat);
    let report = report?;
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Table => {
            let table = match args.output {
                // A file gets the whole table; the terminal gets what fits.
                Some(_) => report.to_table(),
                None => cut_table(
                    &report.to_table(),
                    terminal_width(),
                    "--format csv, --format json or -o FILE",
                ),
            };
            if args.explain {
                table + "\n" + &report.explain()
            } else {
                table
            }
        }
        Format::Csv => report.to_csv(),
    };
    if args.explain && matches!(args.format, Format::Csv) {
        eprint!("{}", report.explain());
    }
    emit(&text, args.output.as_deref())?;
    if let Some(channel) = &report.channel {
        crate::curve::write_channel_images(
            args.svg.as_deref(),
            args.png.as_deref(),
            channel.rows(),
            &report.labels,
            &report.output_labels,
            &report.name,
        )?;
    }
    if let Some(path) = &args.html {
        let page = mechsynth::html::solve_page(
            &report,
            &crate::html::source(&args.file),
            &crate::html::provenance(),
        );
        crate::html::write(path, &page)?;
    }
    let code = match &report.status {
        Status::Optimal | Status::LocalOptimum => 0,
        Status::Solver(
            LpStatus::Infeasible | LpStatus::Unbounded | LpStatus::InfeasibleOrUnbounded,
        ) => 3,
        Status::Feasible | Status::Solver(_) => 4,
    };
    match (&report.status, &report.gap) {
        (Status::Feasible, Some(g)) => log_line!(
            "status feasible: the certified channel is within {:e} ({:.2e} relative) of the optimum, which is more than the gap tolerance",
            g.absolute, g.relative
        ),
        (Status::Feasible, None) => log_line!(
            "status feasible: the channel is certified but no bound on the optimum is known"
        ),
        (Status::Solver(s), _) => log_line!("solver status: {s}; no channel"),
        (Status::LocalOptimum, _) => log_line!(
            "note: {} has no global method here; the channel is the best local optimum found",
            report.objective_description
        ),
        _ => {}
    }
    if let Some(e) = &report.expected {
        if !e.matches {
            log_line!(
                "warning: objective {} differs from the expected optimum {} by more than {:e}",
                report.objective.unwrap_or(f64::NAN),
                e.objective,
                e.tolerance
            );
        }
    }
    Ok(code)
}
