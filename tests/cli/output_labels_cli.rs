//! Output labels of `solve`: named after the inputs only when the objective makes output y an
//! estimate of input y (expected loss between symbols, co-location); `y0, y1, ...` otherwise,
//! even for a square channel (the MMSE objectives, mutual information, the frequency MSEs).

use crate::bin::{root, run_in_with_stdin};
use std::process::Output;

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let out = run_in_with_stdin(&root(), args, stdin.unwrap_or(""));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json_report(file: &str) -> serde_json::Value {
    serde_json::from_str(&text(&run(&["solve", file, "--format", "json"], None))).unwrap()
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn channel(v: &serde_json::Value) -> Vec<Vec<f64>> {
    v["channel"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|q| q.as_f64().unwrap())
                .collect()
        })
        .collect()
}

fn y_labels(n: usize) -> Vec<String> {
    (0..n).map(|y| format!("y{y}")).collect()
}

/// The MMSE channel of `mmse-sum-lip-4.toml` is square, but its outputs are not estimates of
/// the inputs (input 0's most likely output is column 1), so they are `y0 .. y3` in JSON, CSV
/// and table; before, they carried the input labels `0 .. 3`.
#[test]
fn mmse_outputs_are_not_named_after_the_inputs() {
    let file = "problems/mmse-sum-lip-4.toml";
    let report = json_report(file);
    let q = channel(&report);
    assert_eq!(q.len(), 4);
    assert!(
        q.iter().all(|row| row.len() == 4),
        "square channel expected"
    );
    // Why input labels would mislead: the most likely output for input 0 is not column 0.
    let argmax = |row: &Vec<f64>| {
        (0..row.len())
            .max_by(|&a, &b| row[a].total_cmp(&row[b]))
            .unwrap()
    };
    assert_ne!(argmax(&q[0]), 0, "{q:?}");
    assert_eq!(strings(&report["output_labels"]), y_labels(4));

    let csv = text(&run(&["solve", file, "--format", "csv"], None));
    assert_eq!(csv.lines().next(), Some("input,y0,y1,y2,y3"), "{csv}");

    let table = text(&run(&["solve", file], None));
    let header = table
        .lines()
        .skip_while(|l| !l.starts_with("channel Q"))
        .nth(2)
        .unwrap();
    let columns: Vec<&str> = header.split_whitespace().collect();
    assert_eq!(columns, ["y0", "y1", "y2", "y3"], "{table}");
}

/// The other column objectives follow the same rule: mutual information and the histogram MMSE
/// on a named domain never name an output after an input.
#[test]
fn other_column_objectives_use_y_labels() {
    let dir = std::env::temp_dir().join(format!("mechsynth-labels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for kind in ["mutual-information", "mmse-histogram"] {
        let path = dir.join(format!("{kind}.toml"));
        std::fs::write(
            &path,
            format!(
                "[domain]\nlabels = [\"a\", \"b\", \"c\"]\n[[privacy]]\nnotion = \"lip\"\nepsilon = 1.0\n[objective]\nkind = \"{kind}\"\n"
            ),
        )
        .unwrap();
        let report = json_report(path.to_str().unwrap());
        let outputs = channel(&report)[0].len();
        assert_eq!(
            strings(&report["output_labels"]),
            y_labels(outputs),
            "{kind}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Expected loss and co-location make output y the reported symbol y: the outputs keep the
/// input labels.
#[test]
fn estimate_objectives_keep_the_input_labels() {
    let report = json_report("problems/ldp-hamming-5.toml");
    let inputs = strings(&report["labels"]);
    assert_eq!(inputs, ["0", "1", "2", "3", "4"]);
    assert_eq!(strings(&report["output_labels"]), inputs);

    let dir = std::env::temp_dir().join(format!("mechsynth-colocation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("co-location.toml");
    std::fs::write(
        &path,
        "[domain]\nlabels = [\"a\", \"b\", \"c\"]\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"co-location\"\n",
    )
    .unwrap();
    let report = json_report(path.to_str().unwrap());
    assert_eq!(strings(&report["output_labels"]), ["a", "b", "c"]);
    let csv = text(&run(
        &["solve", path.to_str().unwrap(), "--format", "csv"],
        None,
    ));
    assert_eq!(csv.lines().next(), Some("input,a,b,c"), "{csv}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `privatize` with an MMSE report emits the report's output labels, so its reports cannot be
/// mistaken for true values.
#[test]
fn privatize_with_an_mmse_report_emits_y_labels() {
    let dir = std::env::temp_dir().join(format!("mechsynth-privlabels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("report.json");
    let json = text(&run(
        &["solve", "problems/mmse-sum-lip-4.toml", "--format", "json"],
        None,
    ));
    std::fs::write(&report, json).unwrap();
    let records = "0\n1\n2\n3\n".repeat(50);
    let out = text(&run(
        &["privatize", "--channel", report.to_str().unwrap(), "-"],
        Some(&records),
    ));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 200, "{out}");
    assert!(
        lines.iter().all(|l| ["y0", "y1", "y2", "y3"].contains(l)),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `audit --svg` of an MMSE solve report draws the report's output labels (`y0 .. y3`), not
/// the input labels.
#[test]
fn audit_svg_of_an_mmse_report_uses_its_output_labels() {
    let dir = std::env::temp_dir().join(format!("mechsynth-auditsvg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("report.json");
    let json = text(&run(
        &["solve", "problems/mmse-sum-lip-4.toml", "--format", "json"],
        None,
    ));
    std::fs::write(&report, json).unwrap();
    let svg = dir.join("channel.svg");
    run(
        &[
            "audit",
            report.to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ],
        None,
    );
    let drawn = std::fs::read_to_string(&svg).unwrap();
    for label in ["y0", "y1", "y2", "y3"] {
        assert!(
            drawn.contains(&format!(">{label}</text>")),
            "{label} missing"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
