//! What every subcommand shares: output formats, backends, exit codes, writing results.

use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use mechsynth::source::is_stdio;
use mechsynth::{BackendKind, ProblemError, SolveError};
use std::io::Write;
use std::path::{Path, PathBuf};

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

/// One file a run will write: the flag that named it and the path.
#[derive(Clone, Copy)]
pub struct Output<'a> {
    /// The flag as the user wrote it (`-o`, `--svg`, `--png`, `--csv`, `--emit-problem`).
    pub flag: &'static str,
    /// Where the file goes.
    pub path: &'a Path,
}

/// What makes two paths the same file: (device, inode) of an existing file on unix (so a hard
/// link or a symlink to a file is that file), else the canonical path (for a file not yet
/// there: its canonical folder and its name).
#[derive(PartialEq, Eq, Debug)]
enum Identity {
    #[cfg(unix)]
    Inode(u64, u64),
    Path(PathBuf),
}

fn identity(path: &Path) -> Option<Identity> {
    if let Ok(meta) = std::fs::metadata(path) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            return Some(Identity::Inode(meta.dev(), meta.ino()));
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            return path.canonicalize().ok().map(Identity::Path);
        }
    }
    let name = path.file_name()?;
    folder_of(path)
        .canonicalize()
        .ok()
        .map(|dir| Identity::Path(dir.join(name)))
}

/// The folder a file path writes into (`.` for a bare file name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Check every file a run will write before anything is computed: none may be a folder, lie
/// in a folder that does not exist (or is not a folder), be one of the run's `inputs`
/// (compared as files, not as spellings: a hard link or symlink to an input is that input), or
/// the same file as another output; an existing file is replaced only with `force`. Errors
/// name the flag and its value (exit 2).
///
/// An output named `-` is standard output. A report flag (`-o`, `--csv`: the flags whose
/// absence prints the report on stdout) may be `-`; any other output may be `-` only when the
/// report goes to a file, so that stdout carries one document.
pub fn check_outputs(outputs: &[Output], inputs: &[PathBuf], force: bool) -> Result<()> {
    check_stdout(outputs)?;
    let input_ids: Vec<(&PathBuf, Identity)> = inputs
        .iter()
        .filter(|p| !is_stdio(p))
        .filter_map(|p| identity(p).map(|id| (p, id)))
        .collect();
    let mut seen: Vec<(&Output, Identity)> = Vec::new();
    for out in outputs.iter().filter(|o| !is_stdio(o.path)) {
        let shown = out.path.display();
        if out.path.is_dir() {
            bail!(UsageError(format!(
                "invalid `{}` = {shown}: that is a directory; give a file path",
                out.flag
            )));
        }
        let folder = folder_of(out.path);
        if !folder.is_dir() {
            let why = if folder.exists() {
                "is not a directory"
            } else {
                "does not exist"
            };
            bail!(UsageError(format!(
                "invalid `{}` = {shown}: its folder {} {why}; create it first or choose another path",
                out.flag,
                folder.display()
            )));
        }
        let Some(id) = identity(out.path) else {
            continue; // no file name (a path ending in `..`): writing reports the error
        };
        if let Some((input, _)) = input_ids.iter().find(|(_, i)| *i == id) {
            bail!(UsageError(format!(
                "invalid `{}` = {shown}: that is the input file {}; choose another path",
                out.flag,
                input.display()
            )));
        }
        if let Some((other, _)) = seen.iter().find(|(_, i)| *i == id) {
            bail!(UsageError(format!(
                "invalid `{}` = {shown}: `{}` = {} writes the same file; give each output its own path",
                out.flag,
                other.flag,
                other.path.display()
            )));
        }
        if out.path.exists() && !force {
            bail!(UsageError(format!(
                "invalid `{}` = {shown}: the file exists; pass --force to replace it",
                out.flag
            )));
        }
        seen.push((out, id));
    }
    Ok(())
}

/// The flags whose absence prints the report on standard output.
const REPORT_FLAGS: [&str; 2] = ["-o", "--csv"];

/// At most one output is `-` (standard output), and only the report's, or another when the
/// report goes to a file.
fn check_stdout(outputs: &[Output]) -> Result<()> {
    let mut dashes = outputs.iter().filter(|o| is_stdio(o.path));
    let Some(first) = dashes.next() else {
        return Ok(());
    };
    if let Some(second) = dashes.next() {
        bail!(UsageError(format!(
            "invalid `{}` = -: `{}` = - writes standard output already; give one of them a file path",
            second.flag, first.flag
        )));
    }
    let report_to_file = outputs
        .iter()
        .any(|o| REPORT_FLAGS.contains(&o.flag) && !is_stdio(o.path));
    if !REPORT_FLAGS.contains(&first.flag) && !report_to_file {
        bail!(UsageError(format!(
            "invalid `{}` = -: standard output carries the report; give `{}` a file path, or send the report to a file (`-o FILE`, or `--csv FILE` with --sweep) where the subcommand has one",
            first.flag, first.flag
        )));
    }
    Ok(())
}

/// Refuse `-` for `flag`, a path where standard input or output does not apply (`what` says
/// why).
pub fn refuse_stdio(flag: &str, path: &Path, what: &str) -> Result<()> {
    if is_stdio(path) {
        bail!(UsageError(format!(
            "invalid `{flag}` = -: {what}; standard input and output do not apply here"
        )));
    }
    Ok(())
}

/// Refuse a run in which two arguments read standard input (`-`): it can be read only once.
/// `args` are the flags (or argument names) with the paths they were given.
pub fn one_stdin(args: &[(&str, Option<&Path>)]) -> Result<()> {
    let mut dashes = args
        .iter()
        .filter(|(_, p)| p.is_some_and(is_stdio))
        .map(|(flag, _)| *flag);
    if let (Some(first), Some(second)) = (dashes.next(), dashes.next()) {
        bail!(UsageError(format!(
            "invalid `{second}` = -: `{first}` = - reads standard input already, and it can be read once; give one of them a file path"
        )));
    }
    Ok(())
}

/// The files a problem's `[domain]` reads (the `domain.points` CSV), as the loader resolved them.
pub fn domain_files(domain: &mechsynth::problem::DomainSpec) -> Vec<PathBuf> {
    domain.points.iter().map(|p| p.file.clone()).collect()
}

/// A channel file (TOML `[channel]` or a solve JSON report) and the files its domain reads.
/// A file that cannot be parsed contributes itself only (loading it reports the error).
pub fn channel_files(path: &Path) -> Vec<PathBuf> {
    let mut files = vec![path.to_path_buf()];
    if let Ok(spec) = mechsynth::AuditSpec::load(path) {
        if let Some(domain) = &spec.domain {
            files.extend(domain_files(domain));
        }
    }
    files
}

/// Write `text` to `output` (saying so on stderr), or to stdout when it is `None` or `-`.
pub fn emit(text: &str, output: Option<&Path>) -> Result<()> {
    match output.filter(|p| !is_stdio(p)) {
        Some(path) => {
            std::fs::write(path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
            log_line!("wrote {}", path.display());
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(text.as_bytes())?;
        }
    }
    Ok(())
}

/// The narrowest width a table is cut to (narrower terminals get lines of this width).
const MIN_TABLE_WIDTH: usize = 40;

/// The width tables on stdout are cut to: `COLUMNS` when it is set to a number, else the
/// terminal's when stdout is one; `None` (nothing is cut) for a pipe or a file.
pub fn terminal_width() -> Option<usize> {
    if let Some(columns) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
    {
        return Some(columns.max(MIN_TABLE_WIDTH));
    }
    let term = console::Term::stdout();
    term.is_term()
        .then(|| term.size_checked())
        .flatten()
        .map(|(_, cols)| usize::from(cols).max(MIN_TABLE_WIDTH))
}

/// `table` with every line wider than `width` cut to it (ending in `…`), and then a line
/// saying so and where the whole table is (`full`, e.g. "--format csv or -o FILE").
pub fn cut_table(table: &str, width: Option<usize>, full: &str) -> String {
    let Some(width) = width else {
        return table.to_string();
    };
    let mut cut = 0;
    let mut out = String::with_capacity(table.len());
    for line in table.lines() {
        if line.chars().count() > width {
            cut += 1;
            out.extend(line.chars().take(width - 1));
            out.push('…');
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    if cut > 0 {
        out.push_str(&format!(
            "({cut} line(s) cut at {width} columns; the whole table: {full})\n"
        ));
    }
    out
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
        log_line!("[{:>6.1} s] {message}", start.elapsed().as_secs_f64());
    })
}

/// Seconds of silence after which [`Heartbeat`] repeats the current phase on stderr.
const HEARTBEAT_SECONDS: f64 = 2.0;

/// Repeats the last progress message on stderr while a long step (one backend call, which
/// reports nothing until it returns) keeps the run silent; stops when dropped.
pub struct Heartbeat {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(handle) = self.handle.take() {
            // Wake the thread from its wait, so that a short run does not end up to 100 ms late.
            handle.thread().unpark();
            let _ = handle.join();
        }
    }
}

/// A progress sink as [`stderr_progress`], and a [`Heartbeat`] that prints
/// `[  t s] <last message> (still running)` whenever nothing was printed for
/// [`HEARTBEAT_SECONDS`], starting `first` (the phase before any message).
pub fn stderr_progress_with_heartbeat(
    first: &str,
) -> (mechsynth::synthesis::ProgressSink, Heartbeat) {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};
    struct State {
        phase: String,
        last_print: Option<Instant>,
    }
    let start = Instant::now();
    let state = Arc::new(Mutex::new(State {
        phase: first.to_string(),
        last_print: None,
    }));
    let quiet = Duration::from_secs_f64(HEARTBEAT_SECONDS);
    let sink_state = Arc::clone(&state);
    let sink: mechsynth::synthesis::ProgressSink = Arc::new(move |message: &str| {
        let mut s = sink_state.lock().unwrap_or_else(|e| e.into_inner());
        s.phase = message.to_string();
        if start.elapsed() < quiet
            || s.last_print
                .is_some_and(|t| t.elapsed() < Duration::from_millis(500))
        {
            return;
        }
        s.last_print = Some(Instant::now());
        log_line!("[{:>6.1} s] {message}", start.elapsed().as_secs_f64());
    });
    let stop = Arc::new(AtomicBool::new(false));
    let thread_stop = Arc::clone(&stop);
    let handle = std::thread::spawn(move || {
        while !thread_stop.load(Ordering::Relaxed) {
            std::thread::park_timeout(Duration::from_millis(100));
            if thread_stop.load(Ordering::Relaxed) {
                break;
            }
            let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
            let silent = s.last_print.map_or(start.elapsed(), |t| t.elapsed());
            if start.elapsed() >= quiet && silent >= quiet {
                s.last_print = Some(Instant::now());
                log_line!(
                    "[{:>6.1} s] {} (still running)",
                    start.elapsed().as_secs_f64(),
                    s.phase
                );
            }
        }
    });
    (
        sink,
        Heartbeat {
            stop,
            handle: Some(handle),
        },
    )
}

/// Pixels per SVG unit of the PNG images `--png` writes (twice the SVG's size: crisp on
/// high-density screens and in print).
pub const PNG_SCALE: f32 = 2.0;

/// Refuse an `--svg` path ending in `.png` (any case): `--svg` writes SVG text, `--png` a
/// PNG image (exit 2, naming the flag, the value and the flag to use).
pub fn check_svg_path(path: Option<&Path>) -> Result<()> {
    if let Some(p) = path {
        let png = p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"));
        if png {
            bail!(UsageError(format!(
                "invalid `--svg` = {}: --svg writes SVG text; use `--png {}` for a PNG image",
                p.display(),
                p.display()
            )));
        }
    }
    Ok(())
}

/// Write the picture `svg` (drawn only when one of the paths is given) as SVG to `svg_path`
/// and as PNG ([`PNG_SCALE`], the bundled font) to `png_path`, saying so on stderr.
pub fn write_images(
    svg_path: Option<&Path>,
    png_path: Option<&Path>,
    svg: impl FnOnce() -> Result<String>,
) -> Result<()> {
    if svg_path.is_none() && png_path.is_none() {
        return Ok(());
    }
    let text = svg()?;
    if let Some(path) = svg_path {
        emit(&text, Some(path))?;
    }
    if let Some(path) = png_path {
        // A picture too large for PNG_SCALE is drawn at one pixel per SVG unit.
        let png = match mechsynth::curve::svg_to_png(&text, PNG_SCALE) {
            Err(mechsynth::curve::CurveError::Invalid { .. }) => {
                mechsynth::curve::svg_to_png(&text, 1.0).map_err(|e| {
                    UsageError(format!(
                        "invalid `--png` = {}: cannot render the picture: {e}",
                        path.display()
                    ))
                })?
            }
            other => other?,
        };
        if is_stdio(path) {
            std::io::stdout().lock().write_all(&png)?;
        } else {
            std::fs::write(path, png)
                .with_context(|| format!("cannot write {}", path.display()))?;
            log_line!("wrote {}", path.display());
        }
    }
    Ok(())
}
