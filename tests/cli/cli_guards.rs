//! The built binary refuses, before computing anything, what it could not honour: an output
//! in a folder that does not exist, a flag that needs another one it was not given, two
//! outputs naming one file; `solve --epsilon` does not compare against the file's
//! `[expected]` optimum, which holds only at the file's epsilon. Refusals exit 2 and name the
//! flag and its value. (`simulate`'s limits: tests/simulate_guards_cli.rs.)

use crate::bin::{run_in, stderr, stdout};
use crate::guards_support::{assert_refused, scratch};

/// Every subcommand that writes files refuses an output whose folder is missing (or is a
/// file) before computing, naming the flag and the path; no file or folder is created.
#[test]
fn an_output_in_a_missing_folder_is_refused_before_computing() {
    let dir = scratch("folder");
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (
            vec!["solve", "ldp-hamming-5.toml", "-o", "nodir/out.json"],
            "-o",
            "nodir/out.json",
        ),
        (
            vec!["solve", "ldp-hamming-5.toml", "--svg", "nodir/q.svg"],
            "--svg",
            "nodir/q.svg",
        ),
        (
            vec![
                "continuous",
                "continuous-gaussian-lip.toml",
                "--sweep",
                "epsilon=1,2",
                "--csv",
                "nodir/c.csv",
            ],
            "--csv",
            "nodir/c.csv",
        ),
        (
            vec![
                "compose",
                "ch.toml",
                "--sweep",
                "releases=1,2",
                "--svg",
                "nodir/c.svg",
            ],
            "--svg",
            "nodir/c.svg",
        ),
        (
            vec![
                "transfer",
                "ch.toml",
                "--samples",
                "100",
                "--sweep",
                "beta=0.05,0.1",
                "--csv",
                "nodir/t.csv",
            ],
            "--csv",
            "nodir/t.csv",
        ),
        (
            vec![
                "transfer",
                "ch.toml",
                "--samples",
                "100",
                "--design-epsilon",
                "1",
                "--emit-problem",
                "nodir/e.toml",
            ],
            "--emit-problem",
            "nodir/e.toml",
        ),
        (
            vec![
                "privatize",
                "records.txt",
                "--channel",
                "ch.toml",
                "--seed",
                "1",
                "-o",
                "nodir/r.txt",
            ],
            "-o",
            "nodir/r.txt",
        ),
    ];
    for (args, flag, value) in cases {
        let o = run_in(&dir, &args);
        assert_refused(&o, flag, value, "nodir does not exist");
        // Refused before the computation: no sweep point, no solver progress was started.
        assert!(!stderr(&o).contains("sweep:"), "{args:?}: {}", stderr(&o));
        assert!(!dir.join("nodir").exists(), "{args:?}");
    }
    // A "folder" that is a file.
    let o = run_in(
        &dir,
        &["solve", "ldp-hamming-5.toml", "-o", "ch.toml/out.json"],
    );
    assert_refused(&o, "-o", "ch.toml/out.json", "is not a directory");
    // A bare file name (the current folder) and an existing folder are fine.
    let o = run_in(&dir, &["solve", "ldp-hamming-5.toml", "-o", "out.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(dir.join("out.json").is_file());
    std::fs::create_dir(dir.join("sub")).unwrap();
    let o = run_in(&dir, &["solve", "ldp-hamming-5.toml", "-o", "sub/out.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(dir.join("sub/out.json").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Flags that only a sweep (or its plot) uses are refused without it, naming the flag, its
/// value and the flag it needs; nothing is written.
#[test]
fn sweep_only_flags_are_refused_without_the_sweep() {
    let dir = scratch("needs");
    let continuous = ["continuous", "continuous-gaussian-lip.toml"];
    let cases: Vec<(Vec<&str>, &str, &str, &str)> = vec![
        (vec!["--csv", "c.csv"], "--csv", "c.csv", "--sweep"),
        (vec!["--svg", "c.svg"], "--svg", "c.svg", "--sweep"),
        (
            vec!["--series-over", "notion=lip|ldp"],
            "--series-over",
            "notion=lip|ldp",
            "--sweep",
        ),
        (vec!["--only", "Thm"], "--only", "Thm", "--sweep"),
        (vec!["--plot", "achieved"], "--plot", "achieved", "--sweep"),
        (vec!["--title", "T"], "--title", "T", "--svg"),
        (
            vec!["--sweep", "epsilon=1,2", "--y-label", "Y"],
            "--y-label",
            "Y",
            "--svg",
        ),
    ];
    for (extra, flag, value, needed) in cases {
        let args: Vec<&str> = continuous.iter().copied().chain(extra).collect();
        let o = run_in(&dir, &args);
        assert_refused(&o, flag, value, &format!("needs `{needed}"));
    }
    let o = run_in(&dir, &["compose", "ch.toml", "--csv", "c.csv"]);
    assert_refused(&o, "--csv", "c.csv", "needs `--sweep");
    let o = run_in(&dir, &["transfer", "ch.toml", "--svg", "t.svg"]);
    assert_refused(&o, "--svg", "t.svg", "needs `--sweep");
    let o = run_in(
        &dir,
        &["transfer", "ch.toml", "--csv", "t.csv", "--svg", "t.svg"],
    );
    assert_refused(&o, "--csv", "t.csv", "needs `--sweep");
    for name in ["c.csv", "c.svg", "t.csv", "t.svg"] {
        assert!(!dir.join(name).exists(), "{name} written");
    }
    // With what they need, they are honoured: the plot carries the title and the y label.
    let o = run_in(
        &dir,
        &[
            "continuous",
            "continuous-gaussian-lip.toml",
            "--sweep",
            "epsilon=1,2",
            "--plot",
            "achieved",
            "--csv",
            "c.csv",
            "--svg",
            "c.svg",
            "--title",
            "GuardTitle",
            "--y-label",
            "GuardLabel",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = std::fs::read_to_string(dir.join("c.svg")).unwrap();
    assert!(svg.contains("GuardTitle") && svg.contains("GuardLabel"));
    assert!(std::fs::read_to_string(dir.join("c.csv"))
        .unwrap()
        .lines()
        .count()
        .gt(&1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `transfer --emit-problem` writes the problem of one channel run: with `--sweep` or
/// `--simulate` it is refused (it was silently never written), without `--design-epsilon` or
/// a sample size too, and two outputs naming one file are refused as such.
#[test]
fn transfer_emit_problem_is_written_or_refused() {
    let dir = scratch("emit");
    let base = [
        "transfer",
        "ch.toml",
        "--samples",
        "100",
        "--design-epsilon",
        "1",
        "--emit-problem",
        "e3.toml",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    };
    let run = |args: Vec<String>| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        run_in(&dir, &refs)
    };
    let o = run(with(&["--sweep", "samples=10,100", "--csv", "c.csv"]));
    assert_refused(&o, "--emit-problem", "e3.toml", "`--sweep`");
    assert!(!dir.join("c.csv").exists() && !dir.join("e3.toml").exists());
    let o = run(with(&["--simulate", "10", "--true-prior", "0.5,0.5"]));
    assert_refused(&o, "--emit-problem", "e3.toml", "`--simulate`");
    let o = run_in(&dir, &["transfer", "ch.toml", "--emit-problem", "e3.toml"]);
    assert_refused(&o, "--emit-problem", "e3.toml", "needs `--design-epsilon`");
    let o = run_in(&dir, &["transfer", "ch.toml", "--design-epsilon", "1"]);
    assert_refused(&o, "--design-epsilon", "1", "needs `--emit-problem`");
    let o = run_in(
        &dir,
        &[
            "transfer",
            "ch.toml",
            "--design-epsilon",
            "1",
            "--emit-problem",
            "e3.toml",
        ],
    );
    assert_refused(&o, "--emit-problem", "e3.toml", "`--samples` or `--data`");
    assert!(!dir.join("e3.toml").exists());
    // Two outputs, one file.
    let o = run_in(
        &dir,
        &[
            "transfer",
            "ch.toml",
            "--samples",
            "100",
            "--design-epsilon",
            "1",
            "--emit-problem",
            "same.x",
            "--sweep",
            "samples=10,100",
            "--csv",
            "same.x",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("writes the same file"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("same.x").exists());
    // Without a sweep, the problem is written.
    let o = run(base.iter().map(|s| s.to_string()).collect());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(dir.join("e3.toml")).unwrap();
    assert!(text.contains("bp-lip"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tolerance between the solved optimum and the closed form `(n-1)/(e^eps + n - 1)`.
const OPTIMUM_TOLERANCE: f64 = 1e-6;

/// `solve --epsilon` changes the problem, so the file's `[expected]` (at eps = 1) is dropped
/// with a note instead of reported as a mismatch; at the file's own epsilon it still applies.
#[test]
fn solve_epsilon_override_drops_the_files_expected_optimum() {
    let dir = scratch("expected");
    let o = run_in(
        &dir,
        &[
            "solve",
            "ldp-hamming-5.toml",
            "--epsilon",
            "2",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(report["expected"].is_null(), "{}", report["expected"]);
    // The optimum at eps = 2 from the k-RR bound (Kairouz, Oh, Viswanath), n = 5.
    let eps: f64 = 2.0;
    let closed_form = 4.0 / (eps.exp() + 4.0);
    let objective = report["objective"].as_f64().unwrap();
    assert!(
        (objective - closed_form).abs() < OPTIMUM_TOLERANCE,
        "{objective}"
    );
    let err = stderr(&o);
    assert!(err.contains("note: `--epsilon` = 2 overrides"), "{err}");
    assert!(!err.contains("warning: objective"), "{err}");
    let table = run_in(&dir, &["solve", "ldp-hamming-5.toml", "--epsilon", "2"]);
    assert!(
        !stdout(&table).contains("DOES NOT MATCH"),
        "{}",
        stdout(&table)
    );
    // At the file's own epsilon the expected optimum is still checked.
    let o = run_in(
        &dir,
        &[
            "solve",
            "ldp-hamming-5.toml",
            "--epsilon",
            "1",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        report["expected"]["matches"], true,
        "{}",
        report["expected"]
    );
    assert!(!stderr(&o).contains("overrides"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
