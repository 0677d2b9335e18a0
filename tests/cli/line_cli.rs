//! `mechsynth solve` on a long equally spaced line, through the built binary.

use crate::bin::command;
use serde_json::Value;
use std::path::PathBuf;

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mechsynth-line-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn line_file(n: usize, eps: f64) -> PathBuf {
    write(
        &format!("line-{n}.toml"),
        &format!("[domain]\nline = {n}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"line\"\nepsilon = {eps}\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n"),
    )
}

#[test]
fn a_300_point_line_is_certified_optimal_by_the_line_method() {
    let file = line_file(300, 0.5);
    let out = command()
        .args(["solve", file.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["status"], "optimal");
    assert_eq!(
        report["method"],
        "geometric + remap, certified by exact line pricing"
    );
    // No program is solved, and the report does not name a backend as if one were.
    assert_eq!(report["solver"]["name"], "none");
    let (objective, bound) = (
        report["objective"].as_f64().unwrap(),
        report["bound"].as_f64().unwrap(),
    );
    assert!(bound <= objective && objective - bound < 1e-6 * objective);
    assert_eq!(report["channel"].as_array().unwrap().len(), 300);
    assert!(report["certificate"]["all_hold"].as_bool().unwrap());
}

#[test]
fn method_line_on_a_problem_it_does_not_fit_exits_with_a_message() {
    let file = write(
        "uneven.toml",
        "[domain]\nvalues = [0.0, 1.0, 3.0]\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"line\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n",
    );
    let out = command()
        .args(["solve", file.to_str().unwrap(), "--method", "line"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("equally spaced"), "{stderr}");
}
