//! `mechsynth audit` on its inputs: epsilons above the solvers' bound are checked (audit solves
//! nothing), `--format csv` carries the objectives that json and table show, and a channel
//! file's `points.file` is found next to the channel file from any working directory.

use crate::bin::{run_in, stderr, stdout};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Accepted difference between a closed form and the reported value.
const CLOSED_FORM_TOLERANCE: f64 = 1e-12;

/// A fresh folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mechsynth-audit-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// 2-RR at eps = ln 3 on a binary domain (LDP leakage ln 3), with the given extra lines.
fn write_channel(dir: &Path, extra: &str) -> PathBuf {
    let path = dir.join("ch.toml");
    let text = format!("[channel]\nrows = [[0.75, 0.25], [0.25, 0.75]]\n{extra}");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn audit_checks_epsilons_above_the_solvers_bound() {
    let dir = scratch("large-eps");
    write_channel(
        &dir,
        "[[privacy]]\nnotion = \"ldp\"\nepsilon = 40\n[[privacy]]\nnotion = \"lip\"\nepsilon = 1000\n",
    );
    let o = run_in(
        &dir,
        &["audit", "ch.toml", "--format", "json", "--epsilon", "45"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let checks = report["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 2, "{report}");
    assert_eq!(checks[0]["requested"], 40.0);
    // The pure LDP leakage of 2-RR is ln(0.75 / 0.25) = ln 3.
    let achieved = checks[0]["achieved"].as_f64().unwrap();
    assert!(
        (achieved - 3f64.ln()).abs() < CLOSED_FORM_TOLERANCE,
        "{achieved}"
    );
    assert!(checks.iter().all(|c| c["verdict"] == "holds"), "{report}");
    // Every ratio is at most 3 < e^45: no output set needs any delta.
    assert_eq!(report["leakage"]["ldp delta at eps = 45"], 0.0, "{report}");

    // Non-finite and negative values are still bad input, naming the key.
    for (extra, key) in [
        (
            "[[privacy]]\nnotion = \"ldp\"\nepsilon = -1\n",
            "privacy[0].epsilon",
        ),
        (
            "[[privacy]]\nnotion = \"ldp\"\nepsilon = inf\n",
            "privacy[0].epsilon",
        ),
        (
            "[[privacy]]\nnotion = \"ldp\"\nepsilon = nan\n",
            "privacy[0].epsilon",
        ),
    ] {
        write_channel(&dir, extra);
        let o = run_in(&dir, &["audit", "ch.toml"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(key), "{}", stderr(&o));
    }
    write_channel(&dir, "");
    for value in ["inf", "-1", "nan"] {
        let o = run_in(&dir, &["audit", "ch.toml", "--epsilon", value]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("`--epsilon`"), "{}", stderr(&o));
    }
    // solve still keeps epsilon within what its programs resolve.
    std::fs::write(
        dir.join("p.toml"),
        "[domain]\nsize = 2\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 40\n[objective]\nkind = \"co-location\"\n",
    )
    .unwrap();
    let o = run_in(&dir, &["solve", "p.toml"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("privacy[0].epsilon"), "{}", stderr(&o));
}

/// The rows of a CSV report, each as its fields (the csv crate handles quoting).
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

#[test]
fn audit_csv_carries_the_objectives_of_the_json_report() {
    let dir = scratch("csv");
    write_channel(
        &dir,
        "[[privacy]]\nnotion = \"lip\"\nepsilon = 3\nreleases = 2\n",
    );
    let json = run_in(&dir, &["audit", "ch.toml", "--format", "json"]);
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    let report: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let expected: BTreeMap<String, f64> = report["objectives"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_f64().unwrap()))
        .collect();
    assert!(expected.contains_key("mutual-information"), "{report}");

    let csv = run_in(&dir, &["audit", "ch.toml", "--format", "csv"]);
    assert_eq!(csv.status.code(), Some(0), "{}", stderr(&csv));
    let rows = csv_rows(&stdout(&csv));
    assert!(rows.iter().all(|r| r.len() == 6), "{rows:?}");
    let objectives: BTreeMap<String, f64> = rows
        .iter()
        .filter(|r| r[0] == "objective")
        .map(|r| (r[1].clone(), r[3].parse().unwrap()))
        .collect();
    assert_eq!(objectives, expected);
    // I(X;Y) of 2-RR with flip probability 1/4 under a uniform bit: ln 2 - h(1/4) nats.
    let h = -(0.25f64 * 0.25f64.ln() + 0.75 * 0.75f64.ln());
    let mi = objectives["mutual-information"];
    assert!((mi - (2f64.ln() - h)).abs() < CLOSED_FORM_TOLERANCE, "{mi}");
    // The composed constraint's name holds a comma and stays one field.
    let constraint = rows.iter().find(|r| r[0] == "constraint").unwrap();
    assert!(constraint[1].contains(','), "{constraint:?}");
    assert_eq!(constraint[2], "3.0", "{constraint:?}");
}

#[test]
fn audit_reads_a_points_file_next_to_the_channel_file() {
    let dir = scratch("points");
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(sub.join("pts.csv"), "name,x,y\nhome,0,0\nwork,3,4\n").unwrap();
    std::fs::write(
        sub.join("ch.toml"),
        "[channel]\nrows = [[0.75, 0.25], [0.25, 0.75]]\n\
         [domain]\npoints = { file = \"pts.csv\", x = \"x\", y = \"y\", label = \"name\" }\n",
    )
    .unwrap();
    let o = run_in(&dir, &["audit", "sub/ch.toml", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(report["labels"], serde_json::json!(["home", "work"]));
    // d-privacy over the natural distance 5: ln 3 / 5 per unit.
    let d = report["leakage"]["d-privacy"].as_f64().unwrap();
    assert!((d - 3f64.ln() / 5.0).abs() < CLOSED_FORM_TOLERANCE, "{d}");
    // A pts.csv in the working directory is not the one the channel file names.
    std::fs::write(dir.join("pts.csv"), "name,x,y\nother,0,0\n").unwrap();
    let o = run_in(&dir, &["audit", "sub/ch.toml", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
