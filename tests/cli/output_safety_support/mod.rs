//! Helpers shared by the output-safety tests of the built binary (`output_safety_cli.rs`,
//! `output_safety_inputs_cli.rs`); each test file uses a part of them.

#![allow(dead_code)]

use crate::bin::{root, stderr};
use std::path::{Path, PathBuf};
use std::process::Output;

/// A fresh folder for one test.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mechsynth-safety-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Copy `problems/NAME` into `dir` as `to`.
pub fn copy_problem(name: &str, dir: &Path, to: &str) -> PathBuf {
    let path = dir.join(to);
    std::fs::copy(root().join("problems").join(name), &path).unwrap();
    path
}

/// The run exited 2 with an error naming `flag` (as "invalid `FLAG` = ...").
pub fn assert_refused(o: &Output, flag: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
    let named = format!("invalid `{flag}` = ");
    assert!(
        stderr(o).contains(&named),
        "expected {named}: {}",
        stderr(o)
    );
}

/// A channel file for compose, transfer and privatize: 2-RR at eps = ln 3 on a binary domain.
pub fn write_channel(dir: &Path) -> PathBuf {
    let path = dir.join("ch.toml");
    std::fs::write(&path, "[channel]\nrows = [[0.75, 0.25], [0.25, 0.75]]\n").unwrap();
    path
}
