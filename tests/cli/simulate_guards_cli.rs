//! `simulate` of the built binary: sizes beyond its documented maxima are refused naming the
//! flag and value (never a panic, overflow or abort), and a closed stderr does not crash it.

use crate::bin::{command, run_in, stderr, stdout};
use crate::guards_support::{assert_refused, scratch};
use std::io::Write;
use std::process::{Output, Stdio};

/// The documented maxima of `simulate` (10^15 users, 10^6 trials): beyond them the run is
/// refused naming the flag and value (it panicked, overflowed or aborted allocating);
/// at them it runs.
#[test]
fn simulate_sizes_beyond_the_maxima_are_refused_not_panics() {
    let dir = scratch("simulate");
    let krr = [
        "simulate",
        "--baseline",
        "k-rr",
        "--epsilon",
        "1",
        "--size",
        "4",
    ];
    let with = |extra: &[&str]| -> Output {
        let args: Vec<&str> = krr.iter().chain(extra).copied().collect();
        run_in(&dir, &args)
    };
    let u64_max = u64::MAX.to_string();
    let o = with(&["--users", &u64_max, "--trials", "10"]);
    assert_refused(&o, "--users", &u64_max, "at most 1000000000000000");
    let o = with(&["--users", "1000000000000001", "--trials", "10"]);
    assert_refused(&o, "--users", "1000000000000001", "at most");
    let o = with(&["--users", "1000000000000000", "--trials", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = with(&["--users", "10", "--trials", &u64_max]);
    assert_refused(&o, "--trials", &u64_max, "at most 1000000");
    let o = with(&[
        "--users",
        "10",
        "--trials",
        "10000000000",
        "--time-limit",
        "2",
    ]);
    assert_refused(&o, "--trials", "10000000000", "at most 1000000");
    let o = with(&["--users", "10", "--trials", "1000001"]);
    assert_refused(&o, "--trials", "1000001", "at most");
    // Groups whose users add up beyond u64 (they wrapped around).
    let half = (u64::MAX / 2 + 1).to_string();
    let mut priors = std::fs::File::create(dir.join("priors.csv")).unwrap();
    writeln!(
        priors,
        "{half},0.25,0.25,0.25,0.25\n{half},0.25,0.25,0.25,0.25"
    )
    .unwrap();
    let o = run_in(
        &dir,
        &[
            "simulate",
            "--baseline",
            "k-rr",
            "--epsilon",
            "1",
            "--size",
            "4",
            "--priors",
            "priors.csv",
            "--trials",
            "10",
        ],
    );
    assert_refused(&o, "--priors", "groups of", "at most 1000000000000000");
    // The maxima are in --help.
    let help = stdout(&run_in(&dir, &["simulate", "--help"]));
    assert!(help.contains("at most 10^15"), "{help}");
    assert!(help.contains("2 to 1,000,000"), "{help}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Seconds the closed-stderr run is given: progress starts at 2 s, so it prints (into the
/// closed pipe) before the limit stops it.
const CLOSED_STDERR_TIME_LIMIT: &str = "4";

/// A closed stderr (`2>&1 | head -2`) does not crash `simulate`: its progress lines and
/// warnings are dropped and the run ends normally (it panicked with exit 101).
#[test]
fn simulate_survives_a_closed_stderr() {
    let mut child = command()
        .args([
            "simulate",
            "--baseline",
            "k-rr",
            "--epsilon",
            "1",
            "--size",
            "16",
            "--users",
            "1000000",
            "--trials",
            "1000000",
            "--estimator",
            "em",
            "--time-limit",
            CLOSED_STDERR_TIME_LIMIT,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take()); // close the read end: every write to stderr fails
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("frequency-mse"), "{text}");
}

/// `--priors`: a first line with numbers in it is data, not a header, so a malformed count is
/// refused naming the line and the field (it was dropped silently with its users); a header of
/// names is skipped.
#[test]
fn a_malformed_first_group_is_refused_not_taken_for_a_header() {
    let dir = scratch("priors-header");
    let args = |file: &'static str| -> Vec<&'static str> {
        vec![
            "simulate",
            "--baseline",
            "k-rr",
            "--epsilon",
            "1",
            "--size",
            "2",
            "--priors",
            file,
            "--trials",
            "10",
        ]
    };
    std::fs::write(dir.join("bad.csv"), "50x0,0.5,0.5\n5000,0.9,0.1\n").unwrap();
    let o = run_in(&dir, &args("bad.csv"));
    assert_refused(&o, "--priors", "bad.csv", "line 1: `50x0,0.5,0.5`");
    assert!(stderr(&o).contains("not `50x0`"), "{}", stderr(&o));
    std::fs::write(
        dir.join("good.csv"),
        "users,yes,no\n50,0.5,0.5\n5000,0.9,0.1\n",
    )
    .unwrap();
    let o = run_in(&dir, &args("good.csv"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("5050 users"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
