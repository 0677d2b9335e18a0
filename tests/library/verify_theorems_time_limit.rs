//! `verify --theorems` honours `--time-limit`: the case loops stop at the deadline, the partial
//! result is printed with the cases done, progress goes to stderr, and the exit code is the
//! time limit's 4 (the library: `check_theorems_within`).

use crate::bin::command;
use mechsynth::verify::theorems::{check_theorems, check_theorems_within, TheoremLimits};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The time limit given to the binary, in seconds (progress lines start after 2 s of a run).
const LIMIT_SECONDS: &str = "3";
/// The run must end within the limit plus this much (process start, the case in progress,
/// printing); before the fix 10^7 cases per theorem ran for hours.
const SLACK: Duration = Duration::from_secs(20);

#[test]
fn the_theorem_checks_stop_at_the_time_limit_with_a_partial_result() {
    let start = Instant::now();
    let mut child = command()
        .args(["verify", "--theorems", "--cases", "10000000"])
        .args(["--time-limit", LIMIT_SECONDS, "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let limit = Duration::from_secs_f64(LIMIT_SECONDS.parse().unwrap());
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit + SLACK {
            let _ = child.kill();
            let _ = child.wait();
            panic!("verify --theorems ran past its time limit of {LIMIT_SECONDS} s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains("time limit"), "{err}");
    assert!(
        err.contains("theorem cases:"),
        "no progress on stderr: {err}"
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let t = &json["theorems"];
    assert_eq!(t["complete"], false, "{t}");
    let done: Vec<u64> = t["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cases"].as_u64().unwrap())
        .collect();
    assert!(done[0] > 0, "the first theorem ran no case: {done:?}");
    assert!(done.iter().all(|&k| k < 10_000_000), "{done:?}");
}

#[test]
fn a_passed_deadline_runs_no_random_case() {
    let cases = 30;
    let limits = TheoremLimits {
        deadline: Some(Instant::now()),
        progress: None,
    };
    let partial = check_theorems_within(1, cases, &limits);
    let full = check_theorems(1, cases);
    assert!(!partial.complete);
    assert!(full.complete);
    // Only the fixed tight cases some checks add after their random ones remain.
    let total = |r: &mechsynth::verify::theorems::TheoremReport| -> usize {
        r.checks.iter().map(|c| c.cases).sum()
    };
    let random = full.checks.len() * cases;
    assert!(
        total(&partial) + random <= total(&full) + cases,
        "{} vs {}",
        total(&partial),
        total(&full)
    );
    for (p, f) in partial.checks.iter().zip(&full.checks) {
        assert!(
            p.cases < cases && p.cases <= f.cases,
            "{}: {} of {}",
            p.name,
            p.cases,
            f.cases
        );
    }
}
