//! The collection subcommands of the built binary (`estimate`, `plan`, `privatize`,
//! `simulate`): range ends resolved by label, oracle estimators and warnings, domains of one
//! symbol, flag combinations that would be ignored, and the time limit while standard input
//! stalls.

use crate::bin::{command, run_in, stderr, stdout};
use crate::guards_support::{assert_refused, scratch};
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Frequencies below this are negative for the warning check (as the crate's tolerance).
const NEGATIVE: f64 = -1e-12;
/// Two linear estimates that must agree up to rounding.
const ROUNDING: f64 = 1e-9;
/// A stalled standard input must end the run within this of its one-second time limit.
const STALL_SLACK: Duration = Duration::from_secs(3);

/// The `estimate --format json` estimates as `(quantity, value)`.
fn estimates(json: &str) -> Vec<(String, f64)> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["estimates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["quantity"].as_str().unwrap().to_string(),
                e["estimate"]["value"].as_f64().unwrap(),
            )
        })
        .collect()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    std::fs::write(dir.join(name), text).unwrap();
    name.to_string()
}

#[test]
fn range_ends_are_labels_or_explicit_indices_never_a_mix() {
    let dir = scratch("range-ends");
    write(&dir, "values.toml", "[domain]\nvalues = [1, 2, 4, 8, 16]\n");
    write(&dir, "counts.csv", "1,50\n2,70\n4,90\n8,60\n16,30\n");
    let estimate = |query: &str| {
        run_in(
            &dir,
            &[
                "estimate",
                "--baseline",
                "k-rr",
                "--epsilon",
                "1",
                "--domain",
                "values.toml",
                "--counts",
                "counts.csv",
                "--format",
                "json",
                "--query",
                query,
            ],
        )
    };
    // 3 is not a label: it was read as index 3 (the symbol 8), giving range[8..8].
    let o = estimate("range:3..8");
    assert_refused(&o, "--query", "range:3..8", "`3` is not a symbol label");
    assert!(stderr(&o).contains("1, 2, 4, 8, 16"), "{}", stderr(&o));
    // 0 is not a label (it was index 0, the symbol 1) while 4 is one.
    let o = estimate("range:0..4");
    assert_refused(&o, "--query", "range:0..4", "`0` is not a symbol label");
    let o = estimate("range:#5..#1");
    assert_refused(&o, "--query", "range:#5..#1", "0 <= K < 5");
    // Labels, and `#K` indices, name the same symbols; the range is the sum of its
    // frequencies (the inversion is linear).
    let o = estimate("frequencies,range:2..8,range:#1..#3,range:#1..8");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let e = estimates(&stdout(&o));
    let frequency = |label: &str| {
        e.iter()
            .find(|(q, _)| *q == format!("frequency[{label}]"))
            .unwrap()
            .1
    };
    let expected = frequency("2") + frequency("4") + frequency("8");
    let ranges: Vec<&(String, f64)> = e.iter().filter(|(q, _)| q.starts_with("range")).collect();
    assert_eq!(ranges.len(), 3, "{e:?}");
    for (quantity, value) in ranges {
        assert_eq!(quantity, "range[2..8]");
        assert!((value - expected).abs() < ROUNDING, "{value} vs {expected}");
    }
}

#[test]
fn oracles_refuse_estimators_they_do_not_have() {
    let dir = scratch("oracle-estimators");
    let o = run_in(
        &dir,
        &[
            "privatize",
            "--oracle",
            "oue",
            "--epsilon",
            "2",
            "--size",
            "2",
            "--seed",
            "1",
            "-o",
            "reports.txt",
            "records.txt",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let oue = ["--oracle", "oue", "--epsilon", "2", "--size", "2"];
    let estimate = |estimators: &str| {
        let mut args = vec!["estimate"];
        args.extend(oue);
        args.extend(["--estimator", estimators, "reports.txt"]);
        run_in(&dir, &args)
    };
    let o = estimate("em,posterior-mean");
    assert_refused(&o, "--estimator", "em,posterior-mean", "one estimator");
    let o = estimate("inversion");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let simulate = |estimators: &str| {
        let mut args = vec!["simulate"];
        args.extend(oue);
        args.extend([
            "--users",
            "100",
            "--trials",
            "10",
            "--estimator",
            estimators,
        ]);
        run_in(&dir, &args)
    };
    let o = simulate("inversion,em");
    assert_refused(&o, "--estimator", "inversion,em", "one estimator");
    let o = simulate("inversion");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Reports of OUE at eps 2, estimated at eps 1: the support of the absent symbols (about
/// q(2) = 0.12) is below q(1) = 0.27, so their estimates are about -0.65, far outside the
/// noise of 3000 reports (standard error about 0.03). The warning is given exactly when an
/// estimate printed is negative.
#[test]
fn oracle_estimates_warn_about_negative_frequencies() {
    let dir = scratch("oracle-negative");
    write(&dir, "zeros.txt", &"0\n".repeat(3000));
    let o = run_in(
        &dir,
        &[
            "privatize",
            "--oracle",
            "oue",
            "--epsilon",
            "2",
            "--size",
            "4",
            "--seed",
            "5",
            "-o",
            "reports.txt",
            "zeros.txt",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for epsilon in ["1", "2"] {
        let o = run_in(
            &dir,
            &[
                "estimate",
                "--oracle",
                "oue",
                "--epsilon",
                epsilon,
                "--size",
                "4",
                "--format",
                "json",
                "reports.txt",
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let e = estimates(&stdout(&o));
        let negative = e.iter().any(|(_, v)| *v < NEGATIVE);
        let warned = stderr(&o).contains("negative frequencies");
        assert_eq!(negative, warned, "eps {epsilon}: {e:?} {}", stderr(&o));
        if epsilon == "1" {
            assert!(negative, "{e:?}");
        }
    }
}

#[test]
fn a_domain_of_one_symbol_is_refused_naming_its_flag() {
    let dir = scratch("one-symbol");
    let o = run_in(
        &dir,
        &["plan", "--size", "1", "--rmse", "0.01", "--epsilon", "1"],
    );
    assert_refused(&o, "--size", "1", "at least 2");
    write(&dir, "one.toml", "[domain]\nlabels = [\"only\"]\n");
    let o = run_in(
        &dir,
        &[
            "plan",
            "--domain",
            "one.toml",
            "--rmse",
            "0.01",
            "--epsilon",
            "1",
        ],
    );
    assert_refused(&o, "--domain", "one.toml", "at least 2");
    write(&dir, "one-row.toml", "[channel]\nrows = [[0.5, 0.5]]\n");
    let o = run_in(
        &dir,
        &["plan", "--channel", "one-row.toml", "--rmse", "0.01"],
    );
    assert_refused(&o, "--channel", "one-row.toml", "at least 2");
    let sue = ["--oracle", "sue", "--epsilon", "1", "--size", "1"];
    for extra in [["privatize", "records.txt"], ["simulate", "--users=10"]] {
        let args: Vec<&str> = [extra[0]]
            .into_iter()
            .chain(sue)
            .chain([extra[1]])
            .collect();
        let o = run_in(&dir, &args);
        assert_refused(&o, "--size", "1", "at least 2");
        assert!(!stderr(&o).contains("--epsilon"), "{}", stderr(&o));
    }
    let o = run_in(
        &dir,
        &[
            "privatize",
            "--baseline",
            "k-rr",
            "--epsilon",
            "1",
            "--size",
            "1",
            "records.txt",
        ],
    );
    assert_refused(&o, "--size", "1", "at least 2");
}

#[test]
fn flags_that_would_be_ignored_or_misread_are_refused() {
    let dir = scratch("ignored-flags");
    write(&dir, "cnt.csv", "0,40\n1,60\n");
    let o = run_in(
        &dir,
        &[
            "estimate",
            "--channel",
            "ch.toml",
            "--counts",
            "cnt.csv",
            "--column",
            "x",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--column") && stderr(&o).contains("--counts"),
        "{}",
        stderr(&o)
    );
    write(&dir, "priors.csv", "5,0.5,0.5\n0,0.25,0.75\n");
    let o = run_in(
        &dir,
        &[
            "simulate",
            "--channel",
            "ch.toml",
            "--priors",
            "priors.csv",
            "--trials",
            "10",
        ],
    );
    assert_refused(&o, "--priors", "priors.csv", "a group of 0 users");
    assert!(stderr(&o).contains("line 2"), "{}", stderr(&o));
    // Records matched by value on a domain of labels: the labels matched silently.
    write(
        &dir,
        "answers.toml",
        "[domain]\nlabels = [\"no\", \"yes\"]\n",
    );
    write(&dir, "answers.txt", "no\nyes\n");
    let o = run_in(
        &dir,
        &[
            "privatize",
            "--baseline",
            "k-rr",
            "--epsilon",
            "1",
            "--domain",
            "answers.toml",
            "--match",
            "value",
            "answers.txt",
        ],
    );
    assert_refused(&o, "--match", "value", "no numeric values");
    // On a line, values match.
    write(&dir, "line.toml", "[domain]\nvalues = [0.5, 1.5]\n");
    write(&dir, "halves.txt", "0.5\n1.5\n");
    let o = run_in(
        &dir,
        &[
            "privatize",
            "--baseline",
            "k-rr",
            "--epsilon",
            "1",
            "--domain",
            "line.toml",
            "--match",
            "value",
            "halves.txt",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Run `args` with a standard input that is held open and never written: the run must stop at
/// its one-second time limit with exit 4, not wait for the input to end.
fn stalls_no_longer_than_the_time_limit(dir: &Path, args: &[&str]) {
    let start = Instant::now();
    let mut child = command()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = child.stdin.take();
    let limit = Duration::from_secs(1) + STALL_SLACK;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > limit {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(input);
    let output = child.wait_with_output().unwrap();
    let status = status.unwrap_or_else(|| {
        panic!(
            "{args:?} still running after {:?} with a time limit of 1 s",
            start.elapsed()
        )
    });
    assert_eq!(status.code(), Some(4), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("time limit"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_stalled_standard_input_stops_at_the_time_limit() {
    let dir = scratch("stdin-stall");
    for command in ["privatize", "estimate"] {
        stalls_no_longer_than_the_time_limit(
            &dir,
            &[command, "--channel", "ch.toml", "--time-limit", "1", "-"],
        );
    }
    // Standard input that ends is read whole.
    let mut child = command()
        .current_dir(&dir)
        .args(["estimate", "--channel", "ch.toml", "--format", "json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let reports = "0\n".repeat(300_000) + &"1\n".repeat(100_000);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(reports.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["users"].as_u64(), Some(400_000));
}
