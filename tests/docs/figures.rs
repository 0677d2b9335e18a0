//! The committed curves in `figures/out/` are what the current binary produces.
//!
//! `cheap_manifests_reproduce_committed_csvs` regenerates the figure manifests that take a few
//! seconds in all (every manifest in `figures/` but the two slow ones listed in
//! [`SLOW_MANIFESTS`]) into a scratch directory with `mechsynth figures DIR --out OUT`, and
//! compares each CSV with the committed one. `docs/figures.md` regenerates every figure
//! (the slow ones included) when its commands run, and `main.rs` compares those too.

use super::Scratch;
use std::path::Path;
use std::process::Command;

/// Manifests left out of the quick regeneration: about 7 s and 6 s on a 2-core machine, where
/// the others take about 3 s together.
const SLOW_MANIFESTS: [&str; 2] = [
    "dprivacy-slides-range.toml",
    "lip-data-aggregation-fig6b.toml",
];

/// Columns of a curve CSV that hold floating-point numbers; every other column is compared
/// exactly.
const FLOAT_COLUMNS: [&str; 4] = ["x", "value", "bound", "leakage"];

/// Relative tolerance for the numbers of a curve: the default relative gap tolerance of a
/// certified optimum (1e-6), since a certified optimum is defined only up to it, and closed
/// forms and bounds agree far more closely across runs (to about 1e-12).
const RELATIVE_TOLERANCE: f64 = 1e-6;

/// Absolute tolerance, for numbers near 0 (the default absolute gap tolerance, 1e-9).
const ABSOLUTE_TOLERANCE: f64 = 1e-9;

fn close(actual: &str, expected: &str) -> bool {
    if actual == expected {
        return true;
    }
    match (actual.parse::<f64>(), expected.parse::<f64>()) {
        (Ok(a), Ok(b)) if a.is_finite() && b.is_finite() => {
            (a - b).abs() <= ABSOLUTE_TOLERANCE + RELATIVE_TOLERANCE * a.abs().max(b.abs())
        }
        _ => false,
    }
}

fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_path(path)
        .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let header = reader
        .headers()
        .unwrap_or_else(|e| panic!("header of {}: {e}", path.display()))
        .iter()
        .map(str::to_owned)
        .collect();
    let rows = reader
        .records()
        .map(|record| {
            record
                .unwrap_or_else(|e| panic!("row of {}: {e}", path.display()))
                .iter()
                .map(str::to_owned)
                .collect()
        })
        .collect();
    (header, rows)
}

/// Compares a regenerated curve CSV with the committed one: the same header, the same rows in
/// the same order, numbers within the tolerances above and everything else exactly.
pub(crate) fn compare_csv(actual: &Path, expected: &Path) {
    let (header, rows) = read_csv(actual);
    let (expected_header, expected_rows) = read_csv(expected);
    assert_eq!(header, expected_header, "header of {}", actual.display());
    assert_eq!(
        rows.len(),
        expected_rows.len(),
        "{} has {} rows, the committed {} has {}",
        actual.display(),
        rows.len(),
        expected.display(),
        expected_rows.len()
    );
    for (line, (row, expected_row)) in rows.iter().zip(&expected_rows).enumerate() {
        for ((column, value), expected_value) in header.iter().zip(row).zip(expected_row) {
            let same = if FLOAT_COLUMNS.contains(&column.as_str()) {
                close(value, expected_value)
            } else {
                value == expected_value
            };
            assert!(
                same,
                "{} line {}, column {column}: {value:?}, the committed {} has {expected_value:?}",
                actual.display(),
                line + 2,
                expected.display()
            );
        }
    }
}

/// The number of CSV files in `dir`.
pub(crate) fn csv_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .expect("a directory of figures")
        .filter(|entry| {
            entry
                .as_ref()
                .expect("directory entry")
                .path()
                .extension()
                .is_some_and(|ext| ext == "csv")
        })
        .count()
}

/// Compares every CSV file in `actual_dir` with the file of the same name in `expected_dir`.
pub(crate) fn compare_dir(actual_dir: &Path, expected_dir: &Path) -> usize {
    let mut compared = 0;
    for entry in std::fs::read_dir(actual_dir).expect("the regenerated figures") {
        let path = entry.expect("directory entry").path();
        if path.extension().is_some_and(|ext| ext == "csv") {
            let expected = expected_dir.join(path.file_name().expect("a file name"));
            assert!(expected.exists(), "{} is not committed", expected.display());
            compare_csv(&path, &expected);
            compared += 1;
        }
    }
    compared
}

#[test]
fn cheap_manifests_reproduce_committed_csvs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = Scratch::new("figures");
    let manifests = scratch.path().join("manifests");
    let out = scratch.path().join("out");
    std::fs::create_dir_all(&manifests).expect("create the manifest directory");
    let mut expected_files = Vec::new();
    for entry in std::fs::read_dir(root.join("figures")).expect("figures/") {
        let path = entry.expect("directory entry").path();
        let name = path
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".toml") && !SLOW_MANIFESTS.contains(&name.as_str()) {
            std::fs::copy(&path, manifests.join(&name)).expect("copy a manifest");
            let stem = name.trim_end_matches(".toml");
            expected_files.push(format!("{stem}.csv"));
            expected_files.push(format!("{stem}.svg"));
        }
    }
    assert!(expected_files.len() >= 10, "figures/ lost its manifests");

    let output = Command::new(env!("CARGO_BIN_EXE_mechsynth"))
        .arg("figures")
        .arg(&manifests)
        .arg("--out")
        .arg(&out)
        .current_dir(root)
        .output()
        .expect("run mechsynth figures");
    assert!(
        output.status.success(),
        "mechsynth figures failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );

    let mut written: Vec<String> = std::fs::read_dir(&out)
        .expect("the output directory")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    written.sort();
    expected_files.sort();
    assert_eq!(written, expected_files);
    let compared = compare_dir(&out, &root.join("figures/out"));
    assert_eq!(compared * 2, expected_files.len());
}
