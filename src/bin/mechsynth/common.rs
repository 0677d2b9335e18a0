//! What every subcommand shares: output formats, backends, exit codes, writing results.

use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use mechsynth::{BackendKind, ProblemError, SolveError};
use std::io::Write;
use std::path::Path;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    /// Human-readable table.
    Table,
    /// One JSON document.
    Json,
    /// Comma-separated values, full precision.
    Csv,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Solver {
    /// Clarabel (pure Rust).
    Clarabel,
    /// HiGHS (cargo feature `highs`).
    Highs,
}

/// An error with the exit code it maps to.
pub struct Failure {
    pub code: u8,
    pub error: anyhow::Error,
}

pub fn classify(error: anyhow::Error) -> Failure {
    let code = if error.downcast_ref::<ProblemError>().is_some() {
        2
    } else if let Some(e) = error.downcast_ref::<mechsynth::collect::CollectError>() {
        if matches!(e, mechsynth::collect::CollectError::TimeLimit { .. }) {
            4
        } else if e.is_bad_input() {
            2
        } else {
            1
        }
    } else if let Some(e) = error.downcast_ref::<SolveError>() {
        match e {
            SolveError::CertificationFailed { .. } => 5,
            SolveError::MethodNotApplicable(_) => 2,
            SolveError::TooLarge(_) => 2,
            SolveError::Backend(mechsynth_solvers::BackendError::Unavailable(_)) => 2,
            SolveError::Backend(mechsynth_solvers::BackendError::Unsupported { .. }) => 2,
            SolveError::Backend(_) => 1,
        }
    } else if let Some(e) = error.downcast_ref::<mechsynth::curve::CurveError>() {
        use mechsynth::curve::CurveError;
        match e {
            CurveError::Invalid { .. } | CurveError::Problem(_) | CurveError::Resume { .. } => 2,
            CurveError::Io { .. } | CurveError::Plot { .. } => 1,
        }
    } else if let Some(e) = error.downcast_ref::<mechsynth::compose::ComposeError>() {
        match e {
            mechsynth::compose::ComposeError::TimeLimit(_) => 4,
            _ => 2,
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
pub struct UsageError(pub String);

/// The backend a `--solver` flag names.
pub fn backend_of(solver: Solver) -> BackendKind {
    match solver {
        Solver::Clarabel => BackendKind::Clarabel,
        Solver::Highs => BackendKind::Highs,
    }
}

/// Refuse to write over the input file, or over any existing file without `--force`.
pub fn check_output_path(out: &Path, input: &Path, force: bool) -> Result<()> {
    if out.is_dir() {
        bail!(UsageError(format!(
            "invalid `-o` = {}: that is a directory; give a file path",
            out.display()
        )));
    }
    if out.exists() {
        let same = match (out.canonicalize(), input.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if same {
            bail!(UsageError(format!(
                "invalid `-o` = {}: that is the input file; choose another path",
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

pub fn emit(text: &str, output: Option<&Path>) -> Result<()> {
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

/// Progress messages on stderr, from two seconds into the run, at most twice a second.
pub fn stderr_progress() -> mechsynth::synthesis::ProgressSink {
    use std::sync::Mutex;
    use std::time::{Duration, Instant};
    let start = Instant::now();
    let last = Mutex::new(None::<Instant>);
    std::sync::Arc::new(move |message: &str| {
        if start.elapsed() < Duration::from_secs(2) {
            return;
        }
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| t.elapsed() < Duration::from_millis(500)) {
            return;
        }
        *last = Some(Instant::now());
        eprintln!("[{:>6.1} s] {message}", start.elapsed().as_secs_f64());
    })
}
