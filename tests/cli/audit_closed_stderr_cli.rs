//! The built binary with a closed stderr (`mechsynth audit ... 2>&1 | head -1`, or a log
//! reader that went away: its warnings are dropped and the report still comes out), and with a
//! closed stdout (the run stops quietly).

use crate::bin::command;
use std::process::Stdio;

/// A channel audited against d-privacy under a distance matrix that breaks the triangle
/// inequality: `audit` warns ("is not a metric") on stderr.
const WARNING_AUDIT: &str = "[channel]\nrows = [[0.4, 0.3, 0.3], [0.3, 0.4, 0.3], [0.3, 0.3, 0.4]]\n[[privacy]]\nnotion = \"d-privacy\"\nepsilon = 1.0\nmetric = [[0.0, 1.0, 5.0], [1.0, 0.0, 1.0], [5.0, 1.0, 0.0]]\n";

fn audit_file(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mechsynth-audit-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("warn.toml");
    std::fs::write(&path, WARNING_AUDIT).unwrap();
    path
}

/// With stderr open the warning is printed (so the closed-stderr run below does write to it).
#[test]
fn audit_warns_on_stderr() {
    let path = audit_file("open");
    let o = command()
        .args(["audit", path.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning:") && err.contains("not a metric"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// The read end of stderr is closed before `audit` writes its warning: the run exits 0 with
/// its report on stdout (it panicked with exit 101 writing the warning).
#[test]
fn audit_survives_a_closed_stderr() {
    let path = audit_file("closed");
    for format in ["table", "json", "csv"] {
        let mut child = command()
            .args(["audit", path.to_str().unwrap(), "--format", format])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take()); // close the read end: every write to stderr fails
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("d-privacy"), "{format}: {text}");
    }
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// The reader of stdout goes away (`mechsynth solve p.toml --format json | head -c 10`): the
/// run stops quietly with exit 0 instead of printing "error: Broken pipe" and exiting 1. The
/// report of a 10 x 10 grid (about 200 KB) is larger than a pipe's buffer, so the write fails.
#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let dir = std::env::temp_dir().join(format!("mechsynth-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("grid.toml");
    std::fs::write(
        &path,
        "[domain]\ngrid = { rows = 10, cols = 10 }\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.5\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n",
    )
    .unwrap();
    let mut child = command()
        .args(["solve", path.to_str().unwrap(), "--format", "json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // close the read end: every write to stdout fails
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("error"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
