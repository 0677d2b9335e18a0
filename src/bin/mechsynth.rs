//! The `mechsynth` command line: `solve` a problem file, `audit` a channel.
//!
//! Exit codes: 0 success (optimal, or local-optimum for objectives without a global method);
//! 1 runtime failure (I/O, backend crash); 2 bad input (file, key,
//! value or flag); 3 the problem is infeasible or unbounded; 4 the solver stopped without
//! proving optimality (a certified channel is still printed when it returned one); 5 no
//! certified channel (solve) or a stated constraint does not hold (audit); 6 a published claim
//! or theorem does not hold (verify).

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use mechsynth::synthesis::Status;
use mechsynth::{
    audit, solve, AuditSpec, BackendKind, LpStatus, Problem, ProblemError, ProblemSpec, SolveError,
    SolveOptions,
};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "mechsynth",
    version,
    about = "Synthesize and certify optimal local privacy mechanisms"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a problem file: the optimal certified channel and its leakage.
    Solve(SolveArgs),
    /// Report the leakage of a channel (a TOML `[channel] rows = ...` file or a solve JSON report).
    Audit(AuditArgs),
    /// Check published mechanisms against a problem (feasible? optimal? as claimed?), over a
    /// grid with --sweep, or the relations between notions with --theorems.
    Verify(VerifyArgs),
}

#[derive(clap::Args)]
struct VerifyArgs {
    /// The problem file (TOML); optional with --theorems.
    #[arg(required_unless_present = "theorems")]
    file: Option<PathBuf>,
    /// Also run the registry over a grid of epsilons and priors (the file's `[sweep]`, else
    /// defaults).
    #[arg(long)]
    sweep: bool,
    /// Check the relations between notions stated in the papers.
    #[arg(long)]
    theorems: bool,
    /// Random cases per theorem.
    #[arg(long, default_value_t = mechsynth::verify::theorems::DEFAULT_CASES)]
    cases: usize,
    /// Seed of the theorem cases.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// LP backend for the optima.
    #[arg(long, value_enum, default_value = "clarabel")]
    solver: Solver,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Table,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum Solver {
    Clarabel,
    Highs,
}

#[derive(clap::Args)]
struct SolveArgs {
    /// The problem file (TOML).
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Override the epsilon of every privacy constraint.
    #[arg(long, allow_negative_numbers = true)]
    epsilon: Option<f64>,
    /// LP backend.
    #[arg(long, value_enum, default_value = "clarabel")]
    solver: Solver,
    /// Write the result to FILE instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Allow -o to replace an existing file (never the problem file itself).
    #[arg(long)]
    force: bool,
    /// Time limit for the backend, in seconds.
    #[arg(long, default_value_t = 600.0)]
    time_limit: f64,
}

#[derive(clap::Args)]
struct AuditArgs {
    /// The channel file.
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
}

/// An error with the exit code it maps to.
struct Failure {
    code: u8,
    error: anyhow::Error,
}

fn classify(error: anyhow::Error) -> Failure {
    let code = if error.downcast_ref::<ProblemError>().is_some() {
        2
    } else if let Some(e) = error.downcast_ref::<SolveError>() {
        match e {
            SolveError::CertificationFailed { .. } => 5,
            SolveError::Backend(mechsynth_solvers::BackendError::Unavailable(_)) => 2,
            SolveError::Backend(mechsynth_solvers::BackendError::Unsupported { .. }) => 2,
            SolveError::Backend(_) => 1,
        }
    } else if error.downcast_ref::<UsageError>().is_some() {
        2
    } else {
        1
    };
    Failure { code, error }
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct UsageError(String);

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            let f = classify(error);
            eprintln!("error: {:#}", f.error);
            ExitCode::from(f.code)
        }
    }
}

fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Solve(args) => run_solve(args),
        Command::Audit(args) => run_audit(args),
        Command::Verify(args) => run_verify(args),
    }
}

fn backend_of(solver: Solver) -> BackendKind {
    match solver {
        Solver::Clarabel => BackendKind::Clarabel,
        Solver::Highs => BackendKind::Highs,
    }
}

fn run_verify(args: VerifyArgs) -> Result<u8> {
    use mechsynth::verify::{sweep, theorems, verify};
    let options = SolveOptions {
        backend: backend_of(args.solver),
        ..SolveOptions::default()
    };
    let mut all_hold = true;
    let mut out = serde_json::Map::new();
    let mut text = String::new();
    if let Some(file) = &args.file {
        let spec = ProblemSpec::load(file)?;
        let problem = Problem::from_spec(spec.clone())?;
        for w in &problem.warnings {
            eprintln!("warning: {w}");
        }
        let report = verify(&problem, &options)?;
        all_hold &= report.all_hold;
        text += &report.to_table();
        if let serde_json::Value::Object(m) = serde_json::to_value(&report)? {
            out.extend(m);
        }
        if args.sweep || spec.sweep.is_some() {
            eprintln!("sweeping epsilons and priors...");
            let grid = spec.sweep.clone().unwrap_or_default();
            let s = sweep(&spec, &grid, &options).map_err(|e| match e {
                mechsynth::verify::SweepError::Problem(p) => anyhow::Error::new(p),
                mechsynth::verify::SweepError::Solve(s) => anyhow::Error::new(s),
            })?;
            all_hold &= s.all_hold;
            text += "\nsweep\n";
            text += &s.to_table();
            out.insert("sweep".into(), serde_json::to_value(&s)?);
        }
    }
    if args.theorems {
        eprintln!("checking theorems ({} cases each)...", args.cases);
        let t = theorems::check_theorems(args.seed, args.cases);
        all_hold &= t.all_hold;
        text += "\ntheorems\n";
        text += &t.to_table();
        out.insert("theorems".into(), serde_json::to_value(&t)?);
    }
    out.insert("all_hold".into(), serde_json::Value::Bool(all_hold));
    let rendered = match args.format {
        Format::Json => serde_json::to_string_pretty(&serde_json::Value::Object(out))? + "\n",
        Format::Table => text,
    };
    emit(&rendered, None)?;
    Ok(if all_hold { 0 } else { 6 })
}

fn run_solve(args: SolveArgs) -> Result<u8> {
    let mut spec = ProblemSpec::load(&args.file)?;
    if let Some(e) = args.epsilon {
        if !(e.is_finite() && e >= 0.0) {
            bail!(UsageError(format!(
                "invalid `--epsilon` = {e}: epsilon must be a finite number >= 0"
            )));
        }
        spec.set_epsilon(e);
    }
    if !(args.time_limit.is_finite() && args.time_limit > 0.0) {
        bail!(UsageError(format!(
            "invalid `--time-limit` = {}: must be a positive number of seconds",
            args.time_limit
        )));
    }
    if let Some(out) = &args.output {
        check_output_path(out, &args.file, args.force)?;
    }
    let problem = Problem::from_spec(spec)?;
    for w in &problem.warnings {
        eprintln!("warning: {w}");
    }
    let backend = backend_of(args.solver);
    let mut options = SolveOptions {
        backend,
        ..SolveOptions::default()
    };
    options.backend_options.time_limit_seconds = args.time_limit;
    let report = solve(&problem, &options)?;
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Table => report.to_table(),
    };
    emit(&text, args.output.as_deref())?;
    let code = match &report.status {
        Status::Optimal | Status::LocalOptimum => 0,
        Status::Solver(
            LpStatus::Infeasible | LpStatus::Unbounded | LpStatus::InfeasibleOrUnbounded,
        ) => 3,
        Status::Solver(_) => 4,
    };
    if code != 0 {
        eprintln!("solver status: {} (not optimal)", report.status);
    } else if report.status == Status::LocalOptimum {
        eprintln!(
            "note: {} has no global method here; the channel is the best local optimum found",
            report.objective_description
        );
    }
    if let Some(e) = &report.expected {
        if !e.matches {
            eprintln!(
                "warning: objective {} differs from the expected optimum {} by more than {:e}",
                report.objective.unwrap_or(f64::NAN),
                e.objective,
                e.tolerance
            );
        }
    }
    Ok(code)
}

fn run_audit(args: AuditArgs) -> Result<u8> {
    let spec = AuditSpec::load(&args.file)?;
    let report = audit(&spec)?;
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Table => report.to_table(),
    };
    emit(&text, None)?;
    Ok(if report.all_hold { 0 } else { 5 })
}

/// Refuse to write over the problem file, or over any existing file without `--force`.
fn check_output_path(out: &Path, input: &Path, force: bool) -> Result<()> {
    if out.exists() {
        let same = match (out.canonicalize(), input.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if same {
            bail!(UsageError(format!(
                "invalid `-o` = {}: that is the problem file; choose another path",
                out.display()
            )));
        }
        if !force {
            bail!(UsageError(format!(
                "invalid `-o` = {}: the file exists; pass --force to replace it",
                out.display()
            )));
        }
    }
    Ok(())
}

fn emit(text: &str, output: Option<&Path>) -> Result<()> {
    match output {
        Some(path) => {
            std::fs::write(path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(text.as_bytes())?;
        }
    }
    Ok(())
}
