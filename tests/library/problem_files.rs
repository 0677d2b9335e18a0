//! Every file in problems/ solves to a certified optimum that matches its independently derived
//! `[expected]` value, and (with the `highs` feature) both backends agree.

use mechsynth::synthesis::Status;
use mechsynth::{solve, BackendKind, Problem, Report, SolveOptions};
use std::path::{Path, PathBuf};

#[cfg(feature = "highs")]
/// Both backends must agree on every problem file to this absolute difference in objective.
const BACKEND_AGREEMENT: f64 = 1e-6;

fn problem_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("problems");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("problems/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        // `continuous-*.toml` files are `[continuous]` calibrations (tests/continuous_cli.rs).
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("continuous-"))
        })
        .collect();
    files.sort();
    files
}

fn solve_with(path: &Path, backend: BackendKind) -> Report {
    let problem = Problem::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let options = SolveOptions {
        backend,
        ..SolveOptions::default()
    };
    solve(&problem, &options).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn there_are_at_least_ten_problem_files_covering_every_notion() {
    let files = problem_files();
    assert!(files.len() >= 10, "only {} problem files", files.len());
    let mut seen = std::collections::BTreeSet::new();
    for f in &files {
        let problem = Problem::load(f).unwrap();
        for p in &problem.spec.privacy {
            seen.insert(p.notion());
        }
    }
    let solvable = mechsynth::privacy::NOTION_NAMES
        .iter()
        .filter(|n| **n != "mutual-information");
    for notion in solvable {
        assert!(seen.contains(notion), "no problem file uses {notion}");
    }
}

#[test]
fn every_problem_file_solves_certifies_and_matches_its_expected_optimum() {
    for path in problem_files() {
        let report = solve_with(&path, BackendKind::Clarabel);
        let name = path.display();
        // Only objectives without a global method may end in a local optimum, and then the
        // file cannot claim an expected optimum.
        let local = report.status == Status::LocalOptimum;
        // A spanner approximation is bounded against the exact problem, which it does not
        // reach: `feasible`, with the bound on the right side.
        let spanner = report
            .encoding
            .iter()
            .any(|e| e.contains("spanner with dilation"));
        if spanner {
            assert_eq!(report.status, Status::Feasible, "{}", path.display());
            assert!(report.bound.unwrap() <= report.objective.unwrap());
        }
        assert!(
            report.status.is_optimal() || ((local || spanner) && report.expected.is_none()),
            "{name}: status {}",
            report.status
        );
        let cert = report.certificate.as_ref().expect("certificate");
        assert!(cert.all_hold, "{name}: {:?}", cert.checks);
        for check in &cert.checks {
            assert!(check.achieved <= check.requested, "{name}: {check:?}");
        }
        if let Some(e) = &report.expected {
            assert!(
                e.matches,
                "{name}: objective {} but the file's independent derivation gives {}",
                report.objective.unwrap(),
                e.objective
            );
        }
    }
}

#[cfg(feature = "highs")]
#[test]
fn both_backends_agree_on_every_problem_file() {
    for path in problem_files() {
        let problem = Problem::load(&path).unwrap();
        let conic = problem
            .spec
            .privacy
            .iter()
            .any(|p| p.notion() == "mutual-information");
        if conic {
            // HiGHS solves LPs only: it must refuse clearly, with the exit code of bad input.
            let options = SolveOptions {
                backend: BackendKind::Highs,
                ..SolveOptions::default()
            };
            let err = solve(&problem, &options).unwrap_err();
            assert!(err.to_string().contains("exponential cones"), "{err}");
            continue;
        }
        let a = solve_with(&path, BackendKind::Clarabel);
        if a.status == Status::LocalOptimum {
            continue;
        }
        let b = solve_with(&path, BackendKind::Highs);
        // Optimal on both, or (a spanner approximation, bounded against the exact problem)
        // feasible on both; the objectives agree either way.
        assert!(
            b.status.is_optimal() || (b.status == Status::Feasible && a.status == b.status),
            "{}: highs status {}, clarabel {}",
            path.display(),
            b.status,
            a.status
        );
        let (va, vb) = (a.objective.unwrap(), b.objective.unwrap());
        assert!(
            (va - vb).abs() <= BACKEND_AGREEMENT,
            "{}: clarabel {va} vs highs {vb}",
            path.display()
        );
        assert!(b.certificate.unwrap().all_hold);
    }
}

#[cfg(not(feature = "highs"))]
#[test]
fn highs_is_reported_unavailable_without_the_feature() {
    let path = problem_files().remove(0);
    let problem = Problem::load(&path).unwrap();
    let options = SolveOptions {
        backend: BackendKind::Highs,
        ..SolveOptions::default()
    };
    let err = solve(&problem, &options).unwrap_err();
    assert!(err.to_string().contains("--features highs"), "{err}");
}

/// `verify` runs on every problem file, and the published claims that fail are exactly the
/// ones the README's "What we verified" table documents for these files.
#[test]
fn verify_over_problems_finds_exactly_the_documented_failures() {
    let mut failing = Vec::new();
    for path in problem_files() {
        let problem = Problem::load(&path).unwrap();
        let report = mechsynth::verify::verify(&problem, &SolveOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        for c in report.checks.iter().filter(|c| !c.claim_holds) {
            failing.push(format!("{file}: {}", c.name));
        }
    }
    let expected = [
        // At a = 0.1 < 1/(e + 1) the bounded-prior mechanism is not 1-BP-LIP.
        "bp-lip-binary.toml: bp-lip-binary",
        // min P = 0.25 < 1/(e^0.5 + 1) and 0.1 < 1/(e + 1): eq. (19) is not LIP.
        "mmse-histogram-lip-4.toml: mimo-lip",
        "mmse-sum-lip-4.toml: mimo-lip",
        // P1 = 0.01 < 1/(e^2 + 1): Thm 2 and eq. (19) are not 2-LIP.
        "mmse-survey-lip.toml: binary-lip-optimum",
        "mmse-survey-lip.toml: mimo-lip",
        // k-RR is 0.397 worse than the exhaustive-search optimum 4.433026 (derive.py).
        "mmse-weighted-sum-ldp-5.toml: mimo-ldp-optimum",
    ];
    assert_eq!(failing, expected);
}
