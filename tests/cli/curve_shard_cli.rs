//! `curve --shard I/N` computes one share of the grid and `curve --merge` joins the shares into
//! exactly the CSV one run over the whole grid writes (the CSV has no timing column, so the
//! files are compared byte for byte); shares of different curves, a missing or repeated share,
//! bad `--shard` values and an existing output are refused with exit 2, naming the file.

use crate::bin::{run_in, stderr, stdout, TempDir};
use std::path::Path;

/// The grid of the tests: 7 points, so 2 and 3 shares are uneven.
const GRID: &str = "0.5:3:7";

fn problem(name: &str) -> String {
    crate::bin::root()
        .join("problems")
        .join(name)
        .display()
        .to_string()
}

/// Run `mechsynth curve ARGS` in `dir`; expect exit `code`.
fn curve(dir: &Path, args: &[&str], code: i32) -> std::process::Output {
    let o = run_in(dir, &[&["curve"], args].concat());
    assert_eq!(o.status.code(), Some(code), "{args:?}: {}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    o
}

/// The shares' file names after writing each of `n` shares of `file` over `grid`.
fn shares(dir: &Path, file: &str, grid: &str, n: usize, extra: &[&str]) -> Vec<String> {
    (1..=n)
        .map(|i| {
            let name = format!("part-{i}-of-{n}.csv");
            let shard = format!("{i}/{n}");
            let args = [
                &[file, "--epsilons", grid, "--shard", &shard, "-o", &name],
                extra,
            ]
            .concat();
            curve(dir, &args, 0);
            name
        })
        .collect()
}

#[test]
fn shares_merged_equal_one_run_over_the_grid() {
    let dir = TempDir::new("curve-shard-round-trip");
    let file = problem("ldp-hamming-5.toml");
    curve(dir.path(), &[&file, "--epsilons", GRID, "-o", "all.csv"], 0);
    let whole = std::fs::read_to_string(dir.path().join("all.csv")).unwrap();
    assert_eq!(whole.lines().count(), 1 + 7 * 2, "{whole}");
    for n in [2, 3] {
        let names = shares(dir.path(), &file, GRID, n, &[]);
        // Each share holds its points only, round-robin: share 2 of 3 has points 2 and 5.
        let second = std::fs::read_to_string(dir.path().join(&names[1])).unwrap();
        assert!(second.starts_with("# mechsynth curve shard 2/"), "{second}");
        let xs: std::collections::BTreeSet<&str> = second
            .lines()
            .skip(2)
            .map(|l| l.split(',').nth(1).unwrap())
            .collect();
        let expected = if n == 3 {
            ["0.9166666666666666", "2.1666666666666665"].as_slice()
        } else {
            ["0.9166666666666666", "1.75", "2.5833333333333335"].as_slice()
        };
        assert_eq!(xs, expected.iter().copied().collect(), "{second}");
        // In any order, to a file and to stdout.
        let mut args: Vec<&str> = vec!["--merge"];
        args.extend(names.iter().rev().map(String::as_str));
        let merged_name = format!("merged-{n}.csv");
        let with_output = [args.as_slice(), &["-o", &merged_name]].concat();
        curve(dir.path(), &with_output, 0);
        let merged = std::fs::read_to_string(dir.path().join(&merged_name)).unwrap();
        assert_eq!(merged, whole, "{n} shares");
        assert_eq!(stdout(&curve(dir.path(), &args, 0)), whole);
    }
}

#[test]
fn more_shares_than_points_leave_empty_shares_that_still_merge() {
    let dir = TempDir::new("curve-shard-empty");
    let file = problem("ldp-hamming-5.toml");
    let whole = stdout(&curve(
        dir.path(),
        &[&file, "--epsilons", "1,2", "--no-registry"],
        0,
    ));
    let names = shares(dir.path(), &file, "1,2", 3, &["--no-registry"]);
    let third = std::fs::read_to_string(dir.path().join(&names[2])).unwrap();
    assert_eq!(third.lines().count(), 2, "{third}");
    let args = [
        &["--merge"],
        names
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
    ]
    .concat();
    assert_eq!(stdout(&curve(dir.path(), &args, 0)), whole);
}

#[test]
fn shares_of_different_curves_a_missing_or_repeated_share_are_refused() {
    let dir = TempDir::new("curve-shard-refusals");
    let file = problem("ldp-hamming-5.toml");
    let names = shares(dir.path(), &file, GRID, 3, &[]);
    // Another grid, another problem, other options: each share names its curve.
    curve(
        dir.path(),
        &[
            &file,
            "--epsilons",
            "0.5:3:8",
            "--shard",
            "2/3",
            "-o",
            "grid.csv",
        ],
        0,
    );
    let lip = problem("lip-binary-survey.toml");
    curve(
        dir.path(),
        &[
            &lip,
            "--epsilons",
            GRID,
            "--shard",
            "2/3",
            "-o",
            "problem.csv",
        ],
        0,
    );
    curve(
        dir.path(),
        &[
            &file,
            "--epsilons",
            GRID,
            "--shard",
            "2/3",
            "--gap",
            "1e-4",
            "-o",
            "gap.csv",
        ],
        0,
    );
    curve(
        dir.path(),
        &[
            &file,
            "--epsilons",
            GRID,
            "--shard",
            "2/2",
            "-o",
            "count.csv",
        ],
        0,
    );
    for other in ["grid.csv", "problem.csv", "gap.csv", "count.csv"] {
        let o = curve(dir.path(), &["--merge", &names[0], other, &names[2]], 2);
        let err = stderr(&o);
        assert!(
            err.contains(&format!("invalid `--merge` = {other}")) && err.contains("another curve"),
            "{other}: {err}"
        );
    }
    let o = curve(dir.path(), &["--merge", &names[0], &names[2]], 2);
    assert!(
        stderr(&o).contains("share(s) 2/3 are missing"),
        "{}",
        stderr(&o)
    );
    let o = curve(
        dir.path(),
        &["--merge", &names[0], &names[1], &names[1], &names[2]],
        2,
    );
    let err = stderr(&o);
    assert!(
        err.contains(&format!("`--merge` = {}", names[1])) && err.contains("given twice"),
        "{err}"
    );
    // A share with a point missing (a stopped run) and a share holding another's point.
    let path = dir.path().join(&names[1]);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(
        dir.path().join("short.csv"),
        lines[..lines.len() - 2].join("\n") + "\n",
    )
    .unwrap();
    let o = curve(
        dir.path(),
        &["--merge", &names[0], "short.csv", &names[2]],
        2,
    );
    let err = stderr(&o);
    assert!(
        err.contains("`--merge` = short.csv")
            && err.contains("lacks its point(s) x = 2.1666666666666665"),
        "{err}"
    );
    let first = std::fs::read_to_string(dir.path().join(&names[0])).unwrap();
    let stolen = first.lines().nth(2).unwrap();
    std::fs::write(dir.path().join("overlap.csv"), format!("{text}{stolen}\n")).unwrap();
    let o = curve(
        dir.path(),
        &["--merge", &names[0], "overlap.csv", &names[2]],
        2,
    );
    let err = stderr(&o);
    assert!(
        err.contains("`--merge` = overlap.csv") && err.contains("the shares overlap"),
        "{err}"
    );
    // A CSV of a whole run is not a share.
    curve(
        dir.path(),
        &[&file, "--epsilons", GRID, "-o", "whole.csv"],
        0,
    );
    let o = curve(dir.path(), &["--merge", "whole.csv"], 2);
    assert!(
        stderr(&o).contains("`--merge` = whole.csv: not the CSV of one share"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_shard_values_are_refused_naming_the_flag() {
    let dir = TempDir::new("curve-shard-values");
    let file = problem("ldp-hamming-5.toml");
    for bad in [
        "0/3", "4/3", "3", "1/0", "a/2", "-1/2", "1.5/2", "NaN/2", "1/inf",
    ] {
        let o = curve(dir.path(), &[&file, "--epsilons", "1,2", "--shard", bad], 2);
        let err = stderr(&o);
        assert!(
            err.contains(&format!("invalid `--shard` = {bad}: must be I/N")),
            "{bad}: {err}"
        );
    }
    let o = curve(
        dir.path(),
        &[&file, "--epsilons", "1,2,1", "--shard", "1/2"],
        2,
    );
    assert!(stderr(&o).contains("repeats the value 1"), "{}", stderr(&o));
    // --merge reads no problem and computes nothing.
    let o = curve(dir.path(), &[&file, "--merge", "a.csv"], 2);
    assert!(stderr(&o).contains("--merge"), "{}", stderr(&o));
    let o = curve(dir.path(), &["--merge", "a.csv", "--shard", "1/2"], 2);
    assert!(stderr(&o).contains("--shard"), "{}", stderr(&o));
}

#[test]
fn outputs_are_not_overwritten_without_force_and_shares_resume() {
    let dir = TempDir::new("curve-shard-outputs");
    let file = problem("ldp-hamming-5.toml");
    let names = shares(dir.path(), &file, GRID, 2, &[]);
    let before = std::fs::read(dir.path().join(&names[0])).unwrap();
    // A share's -o and --merge's -o are refused when the file exists.
    let o = curve(
        dir.path(),
        &[&file, "--epsilons", GRID, "--shard", "1/2", "-o", &names[0]],
        2,
    );
    assert!(
        stderr(&o).contains("the file exists; pass --force"),
        "{}",
        stderr(&o)
    );
    std::fs::write(dir.path().join("taken.csv"), "keep").unwrap();
    let o = curve(
        dir.path(),
        &["--merge", &names[0], &names[1], "-o", "taken.csv"],
        2,
    );
    assert!(
        stderr(&o).contains("invalid `-o` = taken.csv: the file exists"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("taken.csv")).unwrap(),
        "keep"
    );
    // Nor may the output be one of the shares.
    let o = curve(
        dir.path(),
        &["--merge", &names[0], &names[1], "-o", &names[0], "--force"],
        2,
    );
    assert!(
        stderr(&o).contains("that is the input file"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(dir.path().join(&names[0])).unwrap(), before);
    curve(
        dir.path(),
        &[
            "--merge",
            &names[0],
            &names[1],
            "-o",
            "taken.csv",
            "--force",
        ],
        0,
    );
    // A share resumes as itself only: another share's file is refused and kept.
    let resumed = curve(
        dir.path(),
        &[
            &file,
            "--epsilons",
            GRID,
            "--shard",
            "1/2",
            "-o",
            &names[0],
            "--resume",
        ],
        0,
    );
    assert!(
        stderr(&resumed).contains("4 point(s) already in the CSV"),
        "{}",
        stderr(&resumed)
    );
    assert_eq!(std::fs::read(dir.path().join(&names[0])).unwrap(), before);
    let o = curve(
        dir.path(),
        &[
            &file,
            "--epsilons",
            GRID,
            "--shard",
            "2/2",
            "-o",
            &names[0],
            "--resume",
        ],
        2,
    );
    assert!(stderr(&o).contains("it is share 1/2"), "{}", stderr(&o));
    let o = curve(
        dir.path(),
        &[&file, "--epsilons", GRID, "-o", &names[0], "--resume"],
        2,
    );
    assert!(
        stderr(&o).contains("one share of a sharded curve"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(dir.path().join(&names[0])).unwrap(), before);
}
