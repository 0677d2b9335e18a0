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
