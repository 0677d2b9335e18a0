//! `frequency-mse` from the command line: the problem file's certified optimum, its JSON fields,
//! and errors that name the offending key and value.

use crate::bin::run;
use std::path::PathBuf;

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mechsynth-frequency-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_problem_file_is_certified_at_the_subset_selection_value() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/frequency-ldp-8.toml");
    let o = run(&["solve", file, "--format", "json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["status"], "optimal");
    // A uniform distribution under LDP is solved in closed form by symmetry.
    assert_eq!(r["method"], "optimal design, by symmetry");
    // Best subset selection on 8 symbols at eps = 1 (subsets of size 2), problems/derive.py.
    let expected = 21.73638453192225;
    let objective = r["objective"].as_f64().unwrap();
    let bound = r["bound"].as_f64().unwrap();
    assert!(
        (objective - expected).abs() < 1e-8 * expected,
        "{objective}"
    );
    assert!(
        bound <= objective && bound > expected * (1.0 - 1e-8),
        "{bound}"
    );
    assert_eq!(
        r["channel"][0].as_array().unwrap().len(),
        28,
        "C(8, 2) outputs"
    );
    let profile = r["objectives"]["frequency-mse"].as_f64().unwrap();
    assert!((profile - objective).abs() < 1e-12 * objective);
    assert_eq!(r["expected"]["matches"], true);
}

#[test]
fn bad_frequency_inputs_exit_2_naming_key_and_value() {
    let head = "[domain]\nsize = 3\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"frequency-mse\"\n";
    let cases = [
        (
            "zero-distribution",
            format!("{head}distribution = [0.5, 0.5, 0.0]\n"),
            vec!["objective.distribution[2]", "positive"],
        ),
        (
            "zero-prior",
            "[domain]\nsize = 3\nprior = [0.5, 0.5, 0.0]\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"frequency-mse\"\n".to_string(),
            vec!["domain.prior[2]", "positive"],
        ),
        (
            "short-query",
            format!("{head}queries = {{ matrix = [[1.0, 1.0]] }}\n"),
            vec!["objective.queries.matrix[0]", "2 entries"],
        ),
        (
            "zero-queries",
            format!("{head}queries = {{ matrix = [[0.0, 0.0, 0.0]] }}\n"),
            vec!["objective.queries.matrix", "nothing to estimate"],
        ),
        (
            "unknown-queries",
            format!("{head}queries = \"range\"\n"),
            vec!["range"],
        ),
        (
            "unknown-sampling",
            format!("{head}sampling = \"fixed\"\n"),
            vec!["fixed"],
        ),
        ("users", format!("{head}users = 0.5\n"), vec!["objective.users", "0.5"]),
    ];
    for (tag, text, needles) in cases {
        let file = write(&format!("{tag}.toml"), &text);
        let o = run(&["solve", file.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{tag}: {err}");
        assert!(!err.contains("panicked"), "{tag}: {err}");
        for n in needles {
            assert!(err.contains(n), "{tag}: missing {n:?} in {err}");
        }
    }
}

#[test]
fn frequencies_that_no_channel_can_estimate_are_said_so() {
    let text = "[domain]\nsize = 3\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 0\n[objective]\nkind = \"frequency-mse\"\n";
    let file = write("eps0.toml", text);
    let o = run(&["solve", file.to_str().unwrap(), "--format", "json"]);
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_ne!(r["status"], "optimal");
    let notes = r["method_notes"].to_string();
    assert!(notes.contains("not estimable"), "{notes}");
    assert_ne!(o.status.code(), Some(0));
}
