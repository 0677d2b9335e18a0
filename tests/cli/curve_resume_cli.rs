//! `curve --resume` continues only a CSV written for the same curve: resuming one problem's
//! CSV with another problem (different certified series) is refused and leaves the file as it
//! was, instead of mixing the two curves' points.

use crate::bin::run;
use std::path::PathBuf;

fn problem(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("problems")
        .join(name)
        .display()
        .to_string()
}

fn curve(args: &[&str]) -> std::process::Output {
    run(&[&["curve"], args].concat())
}

#[test]
fn resuming_another_problems_csv_is_refused_and_the_file_is_kept() {
    let dir = std::env::temp_dir().join(format!("curve-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("c.csv");
    let csv_arg = csv.display().to_string();
    let lip = problem("lip-binary-survey.toml");
    let first = curve(&[&lip, "--epsilons", "1,2", "-o", &csv_arg, "--no-registry"]);
    assert_eq!(
        first.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let before = std::fs::read(&csv).unwrap();
    let other = problem("ldp-hamming-5.toml");
    let out = curve(&[&other, "--epsilons", "1,2,5", "-o", &csv_arg, "--resume"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot resume") && stderr.contains("optimum lip"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&csv).unwrap(), before);
    // The same curve resumes: only the new point is computed.
    let same = curve(&[
        &lip,
        "--epsilons",
        "1,2,3",
        "-o",
        &csv_arg,
        "--resume",
        "--no-registry",
    ]);
    let stderr = String::from_utf8_lossy(&same.stderr);
    assert_eq!(same.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("2 point(s) already in the CSV"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Two problems with the same certified series (both LDP) or a different axis: the CSV's
/// first optimal point is solved again and does not reproduce, so resuming is refused.
#[test]
fn resuming_a_csv_of_the_same_series_but_another_problem_or_axis_is_refused() {
    let dir = std::env::temp_dir().join(format!("curve-resume-same-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("c.csv");
    let csv_arg = csv.display().to_string();
    let hamming = problem("ldp-hamming-5.toml");
    let first = curve(&[&hamming, "--epsilons", "0.5,1", "-o", &csv_arg]);
    assert_eq!(first.status.code(), Some(0));
    let before = std::fs::read(&csv).unwrap();
    let frequency = problem("frequency-ldp-8.toml");
    for args in [
        vec![frequency.as_str(), "--epsilons", "0.5,1,2"],
        vec![hamming.as_str(), "--sizes", "3,4"],
    ] {
        let mut all = args.clone();
        all.extend(["-o", &csv_arg, "--resume"]);
        let out = curve(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("cannot resume"), "{args:?}: {stderr}");
        assert_eq!(std::fs::read(&csv).unwrap(), before, "{args:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A point its time limit cuts short is kept with a note and makes the run exit 4, and
/// `--resume` computes it again (a finished point is not).
#[test]
fn points_cut_by_their_time_limit_are_marked_and_resumed() {
    let dir = std::env::temp_dir().join(format!("curve-cut-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Column generation over 60 symbols takes minutes: 0.3 s cuts it.
    let slow = dir.join("slow.toml");
    std::fs::write(
        &slow,
        "[domain]\nsize = 60\n[[privacy]]\nnotion = \"lip\"\nepsilon = 0.5\n[objective]\nkind = \"mmse-histogram\"\n",
    )
    .unwrap();
    let csv = dir.join("slow.csv").display().to_string();
    let slow = slow.display().to_string();
    let args = [
        slow.as_str(),
        "--epsilons",
        "0.5",
        "--no-registry",
        "--point-time-limit",
        "0.3",
        "-o",
        &csv,
    ];
    let out = curve(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("stopped at their time limit"), "{stderr}");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.contains("stopped at the time limit"), "{text}");
    // Resuming a CSV whose second point was cut recomputes that point only.
    let fast = problem("lip-binary-survey.toml");
    let csv = dir.join("fast.csv").display().to_string();
    let first = curve(&[&fast, "--epsilons", "1,2", "--no-registry", "-o", &csv]);
    assert_eq!(first.status.code(), Some(0));
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let last = lines.len() - 1;
    let fields: Vec<&str> = lines[last].split(',').collect();
    assert_eq!(fields[1], "2.0", "{text}");
    lines[last] = format!(
        "{},{},99,feasible,{},{},{}; stopped at the time limit",
        fields[0],
        fields[1],
        fields[4],
        fields[5],
        fields[6..].join(",")
    );
    std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
    let again = curve(&[
        &fast,
        "--epsilons",
        "1,2",
        "--no-registry",
        "-o",
        &csv,
        "--resume",
    ]);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), Some(0), "{stderr}");
    let resumed = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(resumed, text, "the cut point was not recomputed");
}
