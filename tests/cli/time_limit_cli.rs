//! `--time-limit` on every subcommand that takes one: a value past the documented maximum
//! (1e9 s), zero, a negative or a non-finite value is bad input (exit 2) naming the flag, never
//! a panic (a deadline of 1e20 s after now cannot be represented).

use crate::bin::command;
use std::path::PathBuf;

fn problem(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("problems")
        .join(name)
        .display()
        .to_string()
}

fn answers() -> String {
    let path = std::env::temp_dir().join(format!("time-limit-answers-{}.txt", std::process::id()));
    std::fs::write(&path, "0\n1\n2\n").unwrap();
    path.display().to_string()
}

fn channel() -> String {
    let path = std::env::temp_dir().join(format!("time-limit-channel-{}.toml", std::process::id()));
    std::fs::write(
        &path,
        "prior = [0.5, 0.5]\n[channel]\nrows = [[0.75, 0.25], [0.25, 0.75]]\n",
    )
    .unwrap();
    path.display().to_string()
}

#[test]
fn out_of_range_time_limits_exit_2_naming_the_flag_on_every_subcommand() {
    let hamming = problem("ldp-hamming-5.toml");
    let gaussian = problem("continuous-gaussian-lip.toml");
    let answers = answers();
    let channel = channel();
    let krr = ["--baseline", "k-rr", "--epsilon", "1", "--size", "4"];
    let cases: Vec<Vec<&str>> = vec![
        vec!["solve", &hamming],
        vec!["verify", &hamming],
        vec!["curve", &hamming, "--epsilons", "1,2"],
        vec!["compose", &channel, "--releases", "2"],
        vec!["continuous", &gaussian],
        vec!["plan", "--size", "4", "--rmse", "0.01", "--epsilon", "1"],
        [
            &["simulate"][..],
            &krr,
            &["--users", "100", "--trials", "3"],
        ]
        .concat(),
        [&["privatize"][..], &krr, &[answers.as_str()]].concat(),
        [&["estimate"][..], &krr, &[answers.as_str()]].concat(),
    ];
    for case in &cases {
        for bad in ["1e20", "1.8e19", "2e9", "0", "-1", "NaN", "inf"] {
            let out = command()
                .args(case)
                .arg(format!("--time-limit={bad}"))
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{case:?} {bad}: {stderr}");
            assert!(
                stderr.contains("`--time-limit`"),
                "{case:?} {bad}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{case:?} {bad}: {stderr}");
        }
        // A large but valid limit runs.
        let out = command()
            .args(case)
            .args(["--time-limit", "1e9"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{case:?} 1e9: {stderr}");
    }
}

/// `verify --sweep` with a limit too short for its grid stops with exit 4 and says how many
/// grid points were done (it ran the whole grid whatever the limit before).
#[test]
fn a_verify_sweep_that_runs_out_of_time_exits_4() {
    let hamming = problem("ldp-hamming-5.toml");
    let out = command()
        .args(["verify", &hamming, "--sweep", "--time-limit", "1e-6"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("grid points"), "{stderr}");
}

/// `plan` on 1,000 symbols spends seconds in one mechanism's linear algebra: a 1 s limit ends
/// the run within a second or so of it (it took 25 s for a 2 s limit, checked only between
/// mechanisms), says which mechanisms it left out, and exits 4.
#[test]
fn a_plan_that_runs_out_of_time_ends_near_its_limit_and_exits_4() {
    let start = std::time::Instant::now();
    let out = command()
        .args([
            "plan",
            "--size",
            "1000",
            "--rmse",
            "0.001",
            "--epsilon",
            "2",
            "--time-limit",
            "1",
        ])
        .output()
        .unwrap();
    let seconds = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("left out"), "{stderr}");
    // Generous for a loaded machine; the slowest mechanism alone takes over 10 s.
    assert!(seconds < 8.0, "{seconds} s: {stderr}");
}
