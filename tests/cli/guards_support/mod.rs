//! What the guard tests of the built binary share: a scratch folder with input files, running
//! the binary there, and the check that a run was refused naming a flag and its value.
#![allow(dead_code)] // each test file uses a part

use crate::bin::{root, stderr};
use std::path::PathBuf;
use std::process::Output;

/// A fresh folder for one test, holding a 2-RR channel file `ch.toml` and copies of the
/// problem files the tests use.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mechsynth-guards-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("ch.toml"),
        "[channel]\nrows = [[0.75, 0.25], [0.25, 0.75]]\n",
    )
    .unwrap();
    for name in ["ldp-hamming-5.toml", "continuous-gaussian-lip.toml"] {
        std::fs::copy(root().join("problems").join(name), dir.join(name)).unwrap();
    }
    std::fs::write(dir.join("records.txt"), "0\n1\n1\n0\n").unwrap();
    dir
}

/// The run exited 2 with an error naming `flag` and `value` (as "invalid `FLAG` = VALUE")
/// and containing `reason`.
pub fn assert_refused(o: &Output, flag: &str, value: &str, reason: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let named = format!("invalid `{flag}` = {value}");
    assert!(err.contains(&named), "expected {named:?}: {err}");
    assert!(err.contains(reason), "expected {reason:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}
