//! Tiny parameters print compactly (`1e-300`, not 300 decimals) in the names of leakages,
//! constraints and objectives, and values that already print well are unchanged.

use crate::bin::run;

/// Longest name or description accepted for the parameters below: a compact number is a few
/// characters, the plain decimal of 1e-120 alone has 122.
const MAX_LINE: usize = 120;

fn scratch(tag: &str, name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mechsynth-numbers-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn longest_line(text: &str) -> usize {
    text.lines().map(str::len).max().unwrap_or(0)
}

#[test]
fn audit_names_tiny_delta_and_epsilon_compactly() {
    let path = scratch(
        "audit",
        "ch.toml",
        "[channel]\nrows = [[0.75, 0.25], [0.25, 0.75]]\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1e-200\ndelta = 1e-300\n",
    );
    let file = path.to_str().unwrap();
    let args = ["audit", file, "--delta", "1e-300", "--epsilon", "1e-200"];
    let table = run(&args);
    // The stated constraint is violated (2-RR at eps = ln 3 has delta 1/2 at eps ~ 0): exit 5.
    assert_eq!(table.status.code(), Some(5));
    let text = String::from_utf8_lossy(&table.stdout).into_owned();
    for name in [
        "ldp delta at eps = 1e-200",
        "lip delta at eps = 1e-200",
        "ldp eps at delta = 1e-300",
        "lip eps at delta = 1e-300",
        "requested 1e-300",
    ] {
        assert!(text.contains(name), "{name:?} in {text}");
    }
    assert!(longest_line(&text) < MAX_LINE, "{text}");
    let mut json_args = args.to_vec();
    json_args.extend_from_slice(&["--format", "json"]);
    let json = String::from_utf8_lossy(&run(&json_args).stdout).into_owned();
    assert!(json.contains("\"ldp eps at delta = 1e-300\""), "{json}");
    assert!(longest_line(&json) < MAX_LINE, "{json}");
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn ordinary_values_print_as_before() {
    let path = scratch(
        "plain",
        "ch.toml",
        "[channel]\nrows = [[0.75, 0.25], [0.25, 0.75]]\n",
    );
    let o = run(&[
        "audit",
        path.to_str().unwrap(),
        "--delta",
        "0.05",
        "--epsilon",
        "0.5",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("ldp eps at delta = 0.05 "), "{text}");
    assert!(text.contains("lip delta at eps = 0.5 "), "{text}");
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

const MMSE: &str = "[domain]\nvalues = [0, 1, 2]\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"mmse-sum\"\n";

#[test]
fn a_tiny_mmse_weight_is_described_compactly() {
    let path = scratch(
        "mmse",
        "w.toml",
        &format!("{MMSE}weight = 1e-120\noffset = 2.5\n"),
    );
    let o = run(&["solve", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["objective_description"],
        "Bayesian MMSE of 1e-120 * f(X) + 2.5 (posterior-mean estimator)"
    );
    // Still a minimization: the MSE is weight^2 = 1e-240 times a variance, a normal double.
    assert_eq!(v["goal"], "minimize");
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// At 1e-200 the weight's square underflows to 0: the objective would be 0 for every channel
/// and the minimization would turn into a maximization (`-weight^2` is -0). Refused, naming
/// the key and value compactly.
#[test]
fn an_mmse_weight_whose_square_underflows_is_refused() {
    for weight in ["1e-200", "-1e-160"] {
        let path = scratch("underflow", "w.toml", &format!("{MMSE}weight = {weight}\n"));
        let o = run(&["solve", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{weight}: {err}");
        assert!(
            err.contains("objective.weight") && err.contains(weight),
            "{err}"
        );
        assert!(err.contains("weight^2"), "{err}");
        assert!(longest_line(&err) < 2 * MAX_LINE + 200, "{err}");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}

/// The identifiability warning names a tiny epsilon compactly.
#[test]
fn identifiability_warning_names_a_tiny_epsilon_compactly() {
    let path = scratch(
        "identifiability",
        "id.toml",
        "prior = [0.3, 0.7]\n[channel]\nrows = [[0.5, 0.5], [0.5, 0.5]]\n[[privacy]]\nnotion = \"identifiability\"\nepsilon = 1e-200\n",
    );
    let o = run(&["audit", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(5));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("identifiability at epsilon 1e-200 is infeasible"),
        "{err}"
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("requested 1e-200 "), "{out}");
    let table: String = out
        .lines()
        .filter(|l| !l.starts_with("warning:"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(longest_line(&table) < MAX_LINE, "{out}");
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
