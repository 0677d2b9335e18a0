//! `mechsynth solve --profile`: what the report's profiles hold at each level, the note on
//! what was left out, and each profile's time in `timings` (the built binary).

use crate::bin::{run, stderr, stdout, TempDir};
use serde_json::Value;

/// LDP at 120 inputs: past the size up to which the default computes the O(n^3) entries.
fn problem(dir: &TempDir) -> String {
    dir.write_arg(
        "ldp-120.toml",
        "[domain]\nsize = 120\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n",
    )
}

fn json(args: &[&str]) -> Value {
    let out = run(args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

#[test]
fn the_default_profile_leaves_out_the_cubic_entries_and_says_how_to_get_them() {
    let dir = TempDir::new("profile-cli");
    let file = problem(&dir);
    let quick = json(&["solve", &file, "--format", "json"]);
    let timings = &quick["timings"];
    for key in ["leakage_profile_ms", "objective_profile_ms", "total_ms"] {
        assert!(timings[key].as_f64().is_some_and(|v| v >= 0.0), "{timings}");
    }
    let objectives = quick["objectives"].as_object().unwrap();
    assert!(objectives.contains_key("mmse-histogram"), "{objectives:?}");
    assert!(!objectives.contains_key("inversion-mse"), "{objectives:?}");
    assert!(!objectives.contains_key("frequency-mse"), "{objectives:?}");
    let note = quick["profile_notes"][0].as_str().unwrap();
    assert!(note.contains("--profile full"), "{note}");

    let full = json(&["solve", &file, "--format", "json", "--profile", "full"]);
    let objectives = full["objectives"].as_object().unwrap();
    for kind in ["inversion-mse", "frequency-mse"] {
        assert!(
            objectives[kind].as_f64().is_some_and(f64::is_finite),
            "{kind}"
        );
    }
    assert!(full.get("profile_notes").is_none(), "{full}");
    assert_eq!(full["leakage"], quick["leakage"]);

    let none = json(&["solve", &file, "--format", "json", "--profile", "none"]);
    assert_eq!(none["leakage"], serde_json::json!({}));
    assert_eq!(none["objectives"], serde_json::json!({}));
    assert_eq!(none["certificate"]["all_hold"], true);
}

#[test]
fn the_table_shows_the_profiles_times_and_the_note() {
    let dir = TempDir::new("profile-cli-table");
    let file = problem(&dir);
    let out = run(&["solve", &file]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("leakage profile "), "{text}");
    assert!(text.contains("objective profile "), "{text}");
    assert!(
        text.contains("note: the profile leaves out inversion-mse, frequency-mse"),
        "{text}"
    );
}

#[test]
fn an_unknown_level_is_refused_naming_the_flag_and_the_value() {
    let dir = TempDir::new("profile-cli-bad");
    let file = problem(&dir);
    let out = run(&["solve", &file, "--profile", "fast"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("--profile") && err.contains("fast"), "{err}");
}
