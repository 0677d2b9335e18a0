//! The `mechsynth` command line: `main -> run -> Result`, one module per subcommand.
//!
//! Exit codes: 0 success (optimal, or local-optimum for objectives without a global method);
//! 1 runtime failure (I/O, backend crash); 2 bad input (file, key,
//! value or flag); 3 the problem is infeasible or unbounded; 4 the solver stopped without
//! proving optimality (a certified channel is still printed when it returned one; for `curve`,
//! the overall time limit left points out); 5 no
//! certified channel (solve) or a stated constraint does not hold (audit; privatize for the
//! channel its sampler realizes); 6 a published claim
//! or theorem does not hold (verify; 4 when `--time-limit` ends a sweep or the theorem checks, whose
//! partial result is printed). The collection subcommands (privatize, estimate,
//! simulate, plan) exit 0, 1 or 2, and 4 when `--time-limit` runs out (privatize and estimate
//! while reading their input, estimate in EM or its bootstrap); `continuous` exits 3 when no noise meets the target, 4 at
//! its time limit, 6 with `--verify` when a closed form of the paper fails; `compose` exits 4
//! at its time limit; `transfer` exits 0, 1 or 2, and 4 when `--simulate` reaches
//! `--time-limit`. A closed stdout (`mechsynth solve p.toml | head`) ends any run quietly with 0.

/// `eprintln!` for progress, notes and warnings: silent under `--quiet`, and a failed write
/// is ignored (a closed stderr, `2>&1 | head`, must neither stop nor crash the run). Errors
/// are printed by `main` itself, also under `--quiet`. Defined before the modules so that
/// every one can use it.
macro_rules! log_line {
    ($($arg:tt)*) => {{
        if !$crate::quiet() {
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), $($arg)*);
        }
    }};
}

mod audit;
mod common;
mod completions;
mod compose;
mod continuous;
mod curve;
mod estimate;
mod figures;
mod html;
mod input;
mod mechanism;
mod numbers;
mod plan;
mod privatize;
mod simulate;
mod solve;
mod sweep;
mod transfer;
mod verify;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use common::classify;
use std::io::Write as _;
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
    /// Print no progress, notes or warnings on stderr (errors are still printed).
    #[arg(long, short = 'q', global = true)]
    quiet: bool,
    /// Worker threads of the parallel steps (curve and sweep points, tiled and decomposed
    /// solves, simulation trials). Default: all cores (or `RAYON_NUM_THREADS` when set).
    #[arg(long, global = true, value_name = "N", allow_hyphen_values = true, value_parser = numbers::count(1usize, MAX_THREADS))]
    threads: Option<usize>,
}

/// The most worker threads `--threads` takes.
const MAX_THREADS: usize = 1024;

/// Set by `--quiet`: [`log_line!`] prints nothing.
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(std::sync::atomic::Ordering::Relaxed)
}

#[derive(Subcommand)]
enum Command {
    /// Solve a problem file: the optimal certified channel and its leakage.
    Solve(solve::SolveArgs),
    /// Report the leakage of a channel (a TOML `[channel] rows = ...` file or a solve JSON report).
    Audit(audit::AuditArgs),
    /// Check published mechanisms against a problem (feasible? optimal? as claimed?), over a
    /// grid with --sweep, or the relations between notions with --theorems.
    Verify(verify::VerifyArgs),
    /// Randomize records (one value per line, or a CSV column) through a channel, a baseline
    /// or a frequency oracle.
    Privatize(privatize::PrivatizeArgs),
    /// Estimate frequencies, ranges, means and sums, with intervals, from reports or counts.
    Estimate(estimate::EstimateArgs),
    /// Monte Carlo of N users through a channel and the estimators: empirical errors beside
    /// the analytic values.
    Simulate(simulate::SimulateArgs),
    /// Users needed for a target RMSE, or the smallest epsilon for a number of users, for a
    /// channel and the baselines.
    Plan(plan::PlanArgs),
    /// Solve a problem over a grid of epsilon, domain size, prior or users: CSV and SVG of the
    /// certified optimum, other notions' optima and the registry's closed forms, with statuses.
    Curve(curve::CurveArgs),
    /// Exact leakage of k independent releases (the product channel) under every notion,
    /// beside the composition bounds (basic, advanced, Thm 4, Cor. 4); over a grid with --sweep.
    Compose(compose::ComposeArgs),
    /// Regenerate every figure manifest's CSV and SVG (default: figures/ into figures/out/).
    Figures(figures::FiguresArgs),
    /// Calibrate Gaussian, Laplace or sampling noise for continuous data under (eps, delta)-LIP
    /// or LDP: numerically from the definition and by the published closed forms; over a grid
    /// with --sweep.
    Continuous(continuous::ContinuousArgs),
    /// The LIP a channel guarantees for the true prior when designed for an estimated one
    /// (transferability bounds), and a bounded-prior design over the confidence set; over a
    /// grid with --sweep.
    Transfer(transfer::TransferArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish) on stdout.
    Completions(completions::CompletionsArgs),
    /// Write the man pages (mechsynth.1 and one per subcommand) into a folder, or print one
    /// page on stdout.
    Man(completions::ManArgs),
}

fn main() -> ExitCode {
    // Negative numbers are values (`--time-limit -1` gets the check's message naming the flag,
    // not clap's "unexpected argument"), and so is anything after a numeric flag
    // (`--epsilon -inf` is refused by `numbers` naming `--epsilon`).
    let command = cli_command();
    let cli = Cli::from_arg_matches(&command.get_matches()).unwrap_or_else(|e| e.exit());
    QUIET.store(cli.quiet, std::sync::atomic::Ordering::Relaxed);
    if let Some(threads) = cli.threads {
        // Before any parallel work: the global pool is built once.
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
        {
            let _ = writeln!(
                std::io::stderr(),
                "error: cannot start {threads} threads: {e}"
            );
            return ExitCode::from(1);
        }
    }
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        // A reader that closed the pipe (`mechsynth solve p.toml | head`) wanted no more
        // output: stop quietly, as ripgrep does.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            let f = classify(error);
            let _ = writeln!(std::io::stderr(), "error: {:#}", f.error);
            ExitCode::from(f.code)
        }
    }
}

/// The command line's definition, as `main` parses it (also for completions and man pages).
pub fn cli_command() -> clap::Command {
    Cli::command().mut_subcommands(|sub| {
        sub.mut_args(|arg| {
            if numbers::is_numeric(&arg) {
                arg.allow_hyphen_values(true)
            } else if arg.get_action().takes_values() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
    })
}

/// Whether the error comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Privatize(args) => privatize::run(args),
        Command::Estimate(args) => estimate::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Curve(args) => curve::run(args),
        Command::Figures(args) => figures::run(args),
        Command::Continuous(args) => continuous::run(args),
        Command::Transfer(args) => transfer::run(args),
        Command::Compose(args) => compose::run(args),
        Command::Completions(args) => completions::run_completions(args),
        Command::Man(args) => completions::run_man(args),
    }
}
