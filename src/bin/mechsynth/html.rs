//! `--html FILE`: a shareable single-file page of a run (solve, audit, verify, curve,
//! estimate), written after the run's other output.

use crate::common::UsageError;
use anyhow::{bail, Result};
use mechsynth::html::{Provenance, Source};
use std::path::Path;

/// Refuse `--html -`: the page is a file (standard output carries the report).
pub fn check_flag(path: Option<&Path>) -> Result<()> {
    if path.is_some_and(|p| p.as_os_str() == "-") {
        bail!(UsageError(
            "invalid `--html` = -: the page is written to a file; give a file path (standard output carries the report)".into()
        ));
    }
    Ok(())
}

/// The command line of this run.
pub fn provenance() -> Provenance {
    Provenance::new(std::env::args_os().map(|a| a.to_string_lossy().into_owned()))
}

/// An input file for the page: its name and text (none for standard input or a file that
/// cannot be read as text now).
pub fn source(path: &Path) -> Source {
    let text = if path.as_os_str() == "-" {
        None
    } else {
        std::fs::read_to_string(path).ok()
    };
    Source {
        name: path.display().to_string(),
        text,
    }
}

/// Write the page to `path` and say so on stderr.
pub fn write(path: &Path, page: &str) -> Result<()> {
    crate::curve::write_file(path, page)
}
