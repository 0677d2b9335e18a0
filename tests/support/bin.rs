//! Running the built `mechsynth` binary from the integration tests: its path, the working
//! directory, standard input, and scratch folders, in one place.
//!
//! - [`run`]`(args)`: run with `args`, standard input empty, in the crate's folder (where
//!   `cargo test` runs the tests anyway), and return the [`Output`] (exit status, stdout,
//!   stderr).
//! - [`run_in`]`(dir, args)`: the same with `dir` as the working directory.
//! - [`run_with_stdin`]`(args, input)` / [`run_in_with_stdin`]`(dir, args, input)`: the same
//!   with `input` written to standard input.
//! - [`command`]`()`: a [`Command`] for the binary, for tests that spawn it and handle its
//!   pipes themselves (closed pipes, stalled input, time limits).
//! - [`stdout`] / [`stderr`]: a run's output as text.
//! - [`root`]: the crate's folder; [`TempDir`]: a scratch folder removed on drop.
//!
//! Each test crate includes this file (`#[path = "../support/bin.rs"] mod bin;`) and uses a
//! part of it, so the items a crate does not use would warn as dead code there.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The path of the built binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_mechsynth");

/// The crate's folder (holding `problems/`).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A command for the binary, with nothing set but `COLUMNS` removed (a terminal's width would
/// cut its tables).
pub fn command() -> Command {
    let mut command = Command::new(BIN);
    command.env_remove("COLUMNS");
    command
}

/// Run the binary with `args` in the crate's folder, standard input empty, and wait for it.
pub fn run(args: &[&str]) -> Output {
    run_in(&root(), args)
}

/// [`run`] with `dir` as the working directory.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    command()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// Run the binary with `args` in the crate's folder and `input` on standard input (closed
/// after it), and wait for it.
pub fn run_with_stdin(args: &[&str], input: &str) -> Output {
    run_in_with_stdin(&root(), args, input)
}

/// [`run_with_stdin`] with `dir` as the working directory.
pub fn run_in_with_stdin(dir: &Path, args: &[&str], input: &str) -> Output {
    with_stdin(command().current_dir(dir).args(args), input)
}

fn with_stdin(command: &mut Command, input: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A run that stops before reading its input (a refused flag) closes the pipe: that is
    // its answer, not the test's failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// A run's stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A run's stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch folder, removed on drop. Its name holds the tag, the process id and a
/// counter, so two tests of one crate (one process) never share a folder.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new empty folder under the system's temporary folder.
    pub fn new(tag: &str) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("mechsynth-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Write `text` as the file `name` in the folder and return its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    /// [`TempDir::write`], the path returned as text (for argument lists of `&str`).
    pub fn write_arg(&self, name: &str, text: &str) -> String {
        self.write(name, text).to_str().unwrap().to_string()
    }

    /// The path of the file `name` in the folder, as text (for argument lists of `&str`).
    pub fn arg(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
