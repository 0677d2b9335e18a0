//! `solve --explain` and the JSON's `methods_considered`: every method of auto's order, in that
//! order, with the one kept and a reason for each of the others; with `--method` only that one.

use crate::bin;
use serde_json::Value;

fn solve(args: &[&str]) -> std::process::Output {
    bin::run(&[&["solve"], args].concat())
}

fn considered(args: &[&str]) -> Vec<(String, String)> {
    let out = solve(&[args, &["--format", "json"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    report["methods_considered"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["method"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

const AUTO_ORDER: [&str; 9] = [
    "line",
    "tiled",
    "first-order",
    "decomposition",
    "ldp-interior-point",
    "lip-interior-point",
    "ratio-interior-point",
    "lazy-rows",
    "lp",
];

#[test]
fn auto_on_an_equally_spaced_line_keeps_the_line_method_and_needs_no_other() {
    let c = considered(&["problems/dprivacy-line-8.toml"]);
    let names: Vec<&str> = c.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(names, AUTO_ORDER);
    assert!(c[0].1.starts_with("kept"), "{c:?}");
    assert!(
        c[1..].iter().all(|(_, v)| v.contains("line settled")),
        "{c:?}"
    );
}

#[test]
fn auto_on_five_symbols_under_ldp_says_why_the_larger_methods_were_not_run() {
    let c = considered(&["problems/ldp-hamming-5.toml"]);
    let names: Vec<&str> = c.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(names, AUTO_ORDER);
    let verdict = |m: &str| &c.iter().find(|(n, _)| n == m).unwrap().1;
    assert!(
        verdict("line").starts_with("not run: the line method needs"),
        "{c:?}"
    );
    assert!(verdict("tiled").contains("5 inputs"), "{c:?}");
    assert!(
        verdict("decomposition").contains("below DECOMPOSITION_MIN_INPUTS = 24"),
        "{c:?}"
    );
    assert!(
        verdict("ratio-interior-point").contains("below RATIO_INTERIOR_MIN_INPUTS = 25"),
        "{c:?}"
    );
    assert!(verdict("lp").starts_with("kept"), "{c:?}");
}

#[test]
fn a_method_asked_for_is_the_only_one_considered() {
    let c = considered(&["problems/ldp-hamming-5.toml", "--method", "lp"]);
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(c[0].0, "lp");
    assert!(c[0].1.contains("--method"), "{c:?}");
}

#[test]
fn explain_prints_after_the_table_and_on_stderr_with_csv() {
    let out = solve(&["problems/ldp-hamming-5.toml", "--explain"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let at = text.find("methods considered:").expect("the explanation");
    assert!(text[at..].contains("  lp: kept"), "{text}");
    assert!(at > text.find("optimal").unwrap(), "{text}");

    let out = solve(&[
        "problems/ldp-hamming-5.toml",
        "--explain",
        "--format",
        "csv",
    ]);
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("methods considered"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("methods considered:"));

    let plain = solve(&["problems/ldp-hamming-5.toml"]);
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("methods considered"));
}
