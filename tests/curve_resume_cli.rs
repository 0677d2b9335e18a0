//! `curve --resume` continues only a CSV written for the same curve: resuming one problem's
//! CSV with another problem (different certified series) is refused and leaves the file as it
//! was, instead of mixing the two curves' points.

use std::path::PathBuf;
use std::process::Command;

fn problem(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("problems")
        .join(name)
        .display()
        .to_string()
}

fn curve(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mechsynth"))
        .arg("curve")
        .args(args)
        .output()
        .unwrap()
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
