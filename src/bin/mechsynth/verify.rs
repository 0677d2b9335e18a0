//! `mechsynth verify`: published mechanisms against certified optima, sweeps and theorems.

use crate::common::{backend_of, emit, Format, Solver};
use anyhow::Result;
use mechsynth::{Problem, ProblemSpec, SolveOptions};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The problem file (TOML); optional with --theorems.
    #[arg(required_unless_present = "theorems")]
    pub file: Option<PathBuf>,
    /// Also run the registry over a grid of epsilons and priors (the file's `[sweep]`, else
    /// defaults).
    #[arg(long)]
    pub sweep: bool,
    /// Check the relations between notions stated in the papers.
    #[arg(long)]
    theorems: bool,
    /// Random cases per theorem (with --theorems).
    #[arg(long, default_value_t = mechsynth::verify::theorems::DEFAULT_CASES, requires = "theorems", value_parser = crate::numbers::count(1, mechsynth::verify::theorems::MAX_CASES))]
    cases: usize,
    /// Seed of the theorem cases (with --theorems).
    #[arg(long, default_value_t = 1, requires = "theorems", value_parser = crate::numbers::seed())]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// LP backend for the optima.
    #[arg(long, value_enum, default_value = "clarabel")]
    solver: Solver,
    /// Time limit for the optimum, for the whole sweep with --sweep, and for the theorem
    /// checks with --theorems (counted from the start), in seconds (exit 4 when a sweep or the
    /// theorem checks run out; the theorems' partial result is printed).
    #[arg(long, default_value_t = 600.0, value_parser = crate::numbers::seconds())]
    time_limit: f64,
    /// Also write a single-file HTML page of the verdicts into FILE (inline CSS; no scripts,
    /// no external resources).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Allow --html to replace an existing file (never the problem file).
    #[arg(long)]
    force: bool,
}

/// Run `verify`; exit code 0 when every claim holds, 6 otherwise, 4 when a sweep, or the
/// theorem checks (printed partial, with progress on stderr), run out of time.
pub fn run(args: VerifyArgs) -> Result<u8> {
    use mechsynth::verify::{sweep, theorems, verify};
    let started = std::time::Instant::now();
    crate::input::check_time_limit(args.time_limit)?;
    crate::html::check_flag(args.html.as_deref())?;
    if let Some(path) = &args.html {
        let inputs: Vec<PathBuf> = args.file.iter().cloned().collect();
        let output = crate::common::Output {
            flag: "--html",
            path,
        };
        crate::common::check_outputs(&[output], &inputs, args.force)?;
    }
    let mut timed_out = false;
    let (sink, heartbeat) = crate::common::stderr_progress_with_heartbeat("verifying");
    let mut options = SolveOptions {
        backend: backend_of(args.solver),
        progress: Some(sink),
        ..SolveOptions::default()
    };
    options.backend_options.time_limit_seconds = args.time_limit;
    let mut all_hold = true;
    let mut out = serde_json::Map::new();
    let mut text = String::new();
    let (mut claims, mut swept, mut checked) = (None, None, None);
    if let Some(file) = &args.file {
        let spec = ProblemSpec::load(file)?;
        let problem = Problem::from_spec(spec.clone())?;
        for w in &problem.warnings {
            log_line!("warning: {w}");
        }
        let report = verify(&problem, &options)?;
        all_hold &= report.all_hold;
        text += &report.to_table();
        if let serde_json::Value::Object(m) = serde_json::to_value(&report)? {
            out.extend(m);
        }
        claims = Some((report, crate::html::source(file)));
        if args.sweep || spec.sweep.is_some() {
            log_line!("sweeping epsilons and priors...");
            let grid = spec.sweep.clone().unwrap_or_default();
            let s = match sweep(&spec, &grid, &options) {
                Ok(s) => s,
                Err(e @ mechsynth::verify::SweepError::TimeLimit { .. }) => {
                    drop(heartbeat);
                    log_line!("error: {e}; raise --time-limit or narrow the sweep's grid");
                    return Ok(4);
                }
                Err(mechsynth::verify::SweepError::Problem(p)) => return Err(p.into()),
                Err(mechsynth::verify::SweepError::Solve(s)) => return Err(s.into()),
            };
            all_hold &= s.all_hold;
            text += "\nsweep\n";
            text += &s.to_table();
            out.insert("sweep".into(), serde_json::to_value(&s)?);
            swept = Some(s);
        }
    }
    if args.theorems {
        if args.cases == 0 {
            anyhow::bail!(crate::common::UsageError(
                "invalid `--cases` = 0: check each theorem on at least one case (with none, every theorem would be reported as holding)".into()
            ));
        }
        log_line!("checking theorems ({} cases each)...", args.cases);
        let limits = theorems::TheoremLimits {
            deadline: Some(started + std::time::Duration::from_secs_f64(args.time_limit)),
            progress: options.progress.clone(),
        };
        let t = theorems::check_theorems_within(args.seed, args.cases, &limits);
        if !t.complete {
            log_line!(
                "error: the time limit of {} s ran out during the theorem checks; the result below is partial (each theorem's cases done are shown); raise --time-limit or lower --cases",
                args.time_limit
            );
            timed_out = true;
        }
        all_hold &= t.all_hold;
        text += "\ntheorems\n";
        text += &t.to_table();
        out.insert("theorems".into(), serde_json::to_value(&t)?);
        checked = Some(t);
    }
    drop(heartbeat);
    out.insert("all_hold".into(), serde_json::Value::Bool(all_hold));
    let rendered = match args.format {
        Format::Json => serde_json::to_string_pretty(&serde_json::Value::Object(out))? + "\n",
        Format::Table => text,
        Format::Csv => anyhow::bail!(crate::common::UsageError(
            "invalid `--format` = csv: verify prints a table or JSON".into()
        )),
    };
    emit(&rendered, None)?;
    if let Some(path) = &args.html {
        let parts = mechsynth::html::VerifyParts {
            problem: claims.as_ref().map(|(r, s)| (r, s)),
            sweep: swept.as_ref(),
            theorems: checked.as_ref(),
            all_hold,
        };
        let page = mechsynth::html::verify_page(&parts, &crate::html::provenance());
        crate::html::write(path, &page)?;
    }
    // A counterexample is final; a partial run that found none ends with the time limit's 4.
    Ok(match (all_hold, timed_out) {
        (false, _) => 6,
        (true, true) => 4,
        (true, false) => 0,
    })
}
