//! Reading record files for the collection subcommands: standard input spooled to a temporary
//! file (so that a file can be checked before anything is written), progress on stderr after
//! two seconds, and a time limit.

use anyhow::{Context, Result};
use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A file removed when dropped.
pub struct TempFile(pub PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Bytes per read of standard input.
const STDIN_CHUNK: usize = 1 << 20;
/// Chunks of standard input read ahead of the spool file (bounds the memory used).
const STDIN_CHUNKS_AHEAD: usize = 4;

/// The path to read `input` from: itself, or for `-` a temporary copy of standard input, made
/// before `deadline`. Standard input is read on a helper thread that hands over chunks, so
/// that a writer that stalls (`sleep 6 | mechsynth ...`) cannot hold the run past its time
/// limit: at the deadline the run stops with a time-limit error (exit 4), the thread left
/// blocked in its read until the process exits.
pub fn materialize(input: &Path, deadline: Instant) -> Result<(PathBuf, Option<TempFile>)> {
    if input != Path::new("-") {
        return Ok((input.to_path_buf(), None));
    }
    let path = std::env::temp_dir().join(format!("mechsynth-stdin-{}", std::process::id()));
    let guard = TempFile(path.clone());
    let mut file =
        File::create(&path).with_context(|| format!("cannot write {}", path.display()))?;
    let (sender, receiver) = mpsc::sync_channel::<std::io::Result<Vec<u8>>>(STDIN_CHUNKS_AHEAD);
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        loop {
            let mut chunk = vec![0; STDIN_CHUNK];
            let sent = match stdin.read(&mut chunk) {
                Ok(0) => break, // end of input: dropping the sender says so
                Ok(k) => {
                    chunk.truncate(k);
                    sender.send(Ok(chunk))
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    let _ = sender.send(Err(e));
                    break;
                }
            };
            if sent.is_err() {
                break; // the run stopped reading
            }
        }
    });
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match receiver.recv_timeout(left) {
            Ok(Ok(chunk)) => file
                .write_all(&chunk)
                .with_context(|| format!("cannot write {}", path.display()))?,
            Ok(Err(e)) => return Err(e).context("cannot read standard input"),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                return Err(mechsynth::collect::CollectError::TimeLimit {
                    what:
                        "reading standard input: it did not end before the deadline of --time-limit"
                            .into(),
                }
                .into())
            }
        }
    }
    file.flush()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok((path, Some(guard)))
}

/// A reader that reports progress on stderr (from two seconds on, twice a second) and fails
/// with `TimedOut` once the deadline has passed.
pub struct Progress<R> {
    inner: R,
    read: u64,
    total: u64,
    start: Instant,
    last: Instant,
    limit: Duration,
    label: &'static str,
}

/// How often progress is reported once it is shown.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(500);
/// Progress appears only for runs longer than this.
const PROGRESS_AFTER: Duration = Duration::from_secs(2);

impl<R: Read> Read for Progress<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.read += k as u64;
        let elapsed = self.start.elapsed();
        if elapsed > self.limit {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("time limit of {} s reached", self.limit.as_secs_f64()),
            ));
        }
        if elapsed > PROGRESS_AFTER && self.last.elapsed() > PROGRESS_INTERVAL {
            self.last = Instant::now();
            log_line!(
                "[{:>6.1} s] {}: {:.0}% of the input",
                elapsed.as_secs_f64(),
                self.label,
                100.0 * self.read as f64 / self.total.max(1) as f64
            );
        }
        Ok(k)
    }
}

/// Open `path` buffered, with progress and the deadline `start + limit`.
pub fn open(
    path: &Path,
    label: &'static str,
    start: Instant,
    limit: f64,
) -> Result<BufReader<Progress<File>>> {
    let file = File::open(path).map_err(|e| {
        crate::common::UsageError(format!(
            "invalid input {}: cannot read it: {e}",
            path.display()
        ))
    })?;
    let total = file.metadata().map(|m| m.len()).unwrap_or(0);
    Ok(BufReader::with_capacity(
        1 << 20,
        Progress {
            inner: file,
            read: 0,
            total,
            start,
            last: start,
            limit: Duration::from_secs_f64(limit),
            label,
        },
    ))
}

/// The largest time limit accepted, in seconds (about 31 years): beyond it a deadline is no
/// longer representable on every platform, and no run needs one.
pub const MAX_TIME_LIMIT_SECONDS: f64 = 1e9;

/// Check a time-limit value given with `flag`: a positive number of seconds, at most
/// [`MAX_TIME_LIMIT_SECONDS`].
pub fn check_seconds(flag: &str, limit: f64) -> Result<()> {
    if !(limit.is_finite() && limit > 0.0 && limit <= MAX_TIME_LIMIT_SECONDS) {
        anyhow::bail!(crate::common::UsageError(format!(
            "invalid `{flag}` = {}: must be a positive number of seconds, at most {MAX_TIME_LIMIT_SECONDS:e}",
            mechsynth::error::show_number(limit)
        )));
    }
    Ok(())
}

/// Check a `--time-limit` value.
pub fn check_time_limit(limit: f64) -> Result<()> {
    check_seconds("--time-limit", limit)
}

/// The deadline `limit` seconds after `start`, once `limit` passes [`check_time_limit`].
pub fn deadline_after(start: Instant, limit: f64) -> Result<Instant> {
    check_time_limit(limit)?;
    Ok(start + Duration::from_secs_f64(limit))
}
