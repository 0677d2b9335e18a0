//! `--sweep` of `continuous`, `compose` and `transfer`: the CSV has one row per point and
//! series, each value equals the single-point command's own output at that point, the SVG
//! parses, and bad sweep keys exit 2.

use crate::bin::run;
use serde_json::Value;
use std::path::PathBuf;

/// Relative agreement required between a swept value and the single-point run (the same
/// computation; only the decimal round trip of CSV and JSON separates them).
const SAME_RUN_TOLERANCE: f64 = 1e-12;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mechsynth-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn ok_json(args: &[&str]) -> Value {
    let out = run(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Run a sweep writing CSV and SVG; return the rows (series, x, value) and check the SVG.
fn sweep(args: &[&str], name: &str) -> Vec<(String, f64, f64)> {
    let (csv, svg) = (tmp(&format!("{name}.csv")), tmp(&format!("{name}.svg")));
    let mut all: Vec<&str> = args.to_vec();
    let (c, s) = (csv.to_str().unwrap(), svg.to_str().unwrap());
    all.extend(["--csv", c, "--svg", s]);
    let out = run(&all);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    resvg::usvg::Tree::from_str(&text, &resvg::usvg::Options::default()).expect("valid SVG");
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        ["series", "x", "value", "status", "bound", "leakage", "notes"]
    );
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            assert_eq!(&r[3], "computed", "status of a swept value");
            (
                r[0].to_string(),
                r[1].parse().unwrap(),
                r[2].parse().unwrap(),
            )
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= SAME_RUN_TOLERANCE * a.abs().max(b.abs()).max(1.0)
}

fn value(rows: &[(String, f64, f64)], series: &str, x: f64) -> f64 {
    let hits: Vec<f64> = rows
        .iter()
        .filter(|(s, at, _)| s == series && *at == x)
        .map(|r| r.2)
        .collect();
    assert_eq!(hits.len(), 1, "{series} at {x}: {rows:?}");
    hits[0]
}

#[test]
fn compose_sweep_matches_single_runs() {
    let channel = "figures/out/context-aware-lip-fig5a-p2-eps2.json";
    let rows = sweep(
        &[
            "compose",
            channel,
            "--sweep",
            "releases=1:3:3",
            "--only",
            "lip exact,lip bound",
        ],
        "compose",
    );
    assert_eq!(rows.len(), 3 * 2, "3 points x 2 series: {rows:?}");
    for k in [1usize, 2, 3] {
        let single = ok_json(&[
            "compose",
            channel,
            "--releases",
            &k.to_string(),
            "--format",
            "json",
        ]);
        let lip = single["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["notion"] == "lip")
            .unwrap();
        let x = k as f64;
        assert!(close(
            value(&rows, "lip exact", x),
            lip["exact"].as_f64().unwrap()
        ));
        assert!(close(
            value(&rows, "lip bound", x),
            lip["bound"].as_f64().unwrap()
        ));
    }
}

#[test]
fn transfer_sweep_matches_single_runs() {
    let channel = "figures/out/context-aware-lip-fig6a.json";
    let base = ["transfer", channel, "--prior", "0.3,0.7", "--beta", "0.01"];
    let mut args = base.to_vec();
    args.extend(["--sweep", "samples=100,1000"]);
    let rows = sweep(&args, "transfer");
    for n in [100u64, 1000] {
        let mut single = base.to_vec();
        let text = n.to_string();
        single.extend(["--samples", &text, "--format", "json"]);
        let out = ok_json(&single);
        let mut seen = 0;
        for key in ["corollary7_bound", "corollary7_bound12", "bound12_ldp_term"] {
            assert!(close(
                value(&rows, key, n as f64),
                out[key].as_f64().unwrap()
            ));
            seen += 1;
        }
        assert_eq!(seen, 3);
    }
    assert!(rows.iter().all(|(s, _, _)| s != "samples" && s != "beta"));
}

#[test]
fn continuous_sweep_matches_single_runs() {
    let base = [
        "continuous",
        "--prior",
        "normal(0,1)",
        "--mechanism",
        "sampling",
        "--delta",
        "0.01",
    ];
    let mut args = base.to_vec();
    args.extend(["--sweep", "epsilon=1,2"]);
    args.extend(["--series-over", "prior=N=normal(0,1)|U=uniform(0,1)"]);
    args.extend(["--plot", "release-mse"]);
    let rows = sweep(&args, "continuous");
    let mut count = 0;
    for (label, prior) in [("N", "normal(0,1)"), ("U", "uniform(0,1)")] {
        for eps in ["1", "2"] {
            let mut single = base.to_vec();
            single[2] = prior;
            single.extend(["--epsilon", eps, "--format", "json"]);
            let out = ok_json(&single);
            let methods = out["rows"].as_array().unwrap();
            for m in methods {
                let name = format!("{label}: {}", m["method"].as_str().unwrap());
                let got = value(&rows, &name, eps.parse().unwrap());
                assert!(close(got, m["release_mse"].as_f64().unwrap()), "{name}");
                count += 1;
            }
        }
    }
    assert_eq!(rows.len(), count, "one row per point and series");
}

#[test]
fn continuous_noise_sweep_matches_single_runs() {
    let base = [
        "continuous",
        "--prior",
        "normal(0,5)",
        "--delta",
        "1e-4",
        "--range=-10,10",
        "--noise",
        "10",
    ];
    let mut args = base.to_vec();
    args.extend(["--sweep", "epsilon=0.5,2"]);
    let rows = sweep(&args, "noise");
    assert_eq!(rows.len(), 2 * 5, "2 points x 5 series: {rows:?}");
    for eps in ["0.5", "2"] {
        let mut single = base.to_vec();
        single.extend(["--epsilon", eps, "--format", "json"]);
        let out = ok_json(&single);
        for (name, v) in out.as_object().unwrap() {
            let got = value(&rows, name, eps.parse().unwrap());
            assert!(close(got, v.as_f64().unwrap()), "{name}");
        }
    }
}

#[test]
fn bad_sweep_keys_exit_2() {
    let channel = "figures/out/context-aware-lip-fig6a.json";
    for args in [
        vec!["transfer", channel, "--sweep", "gamma=1,2"],
        vec!["transfer", channel, "--sweep", "samples"],
        vec!["compose", channel, "--sweep", "releases=0:1:x"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--sweep"), "{err}");
    }
}

/// Flags a sweep would ignore are refused naming the flag and value (they were silently
/// ignored): `--format json|table` with `--sweep` (a sweep writes CSV), `--only` that matches
/// no series (it wrote an empty CSV), and `transfer --samples` with `--data` (the data set the
/// sample size).
#[test]
fn flags_a_sweep_would_ignore_are_refused() {
    let channel = "figures/out/context-aware-lip-fig5a-p2-eps2.json";
    for format in ["json", "table"] {
        let o = run(&[
            "compose",
            channel,
            "--sweep",
            "releases=1,2",
            "--format",
            format,
        ]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("`--format` = {format}")),
            "{stderr}"
        );
    }
    let csv = run(&[
        "compose",
        channel,
        "--sweep",
        "releases=1,2",
        "--format",
        "csv",
    ]);
    assert_eq!(csv.status.code(), Some(0));
    let out = tmp("only-nothing.csv");
    let o = run(&[
        "compose",
        channel,
        "--sweep",
        "releases=1,2",
        "--only",
        "no such series",
        "--csv",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("`--only` = no such series") && stderr.contains("lip exact"),
        "{stderr}"
    );
    assert!(!out.exists(), "an empty CSV was written");
    let data = tmp("answers.csv");
    std::fs::write(&data, "ans\nyes\nno\nyes\n").unwrap();
    let survey = tmp("survey.toml");
    std::fs::write(
        &survey,
        "[domain]\nlabels = [\"yes\", \"no\"]\n[channel]\nrows = [[0.75, 0.25], [0.25, 0.75]]\n",
    )
    .unwrap();
    let o = run(&[
        "transfer",
        survey.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
        "--column",
        "ans",
        "--samples",
        "10",
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("`--samples` = 10"), "{stderr}");
}
