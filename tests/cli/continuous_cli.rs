//! The built binary's `continuous` and `transfer` subcommands: every shipped `[continuous]`
//! problem calibrates, bad input exits 2, `--verify` exits 6 on a failing closed form.

use crate::bin::run;
use std::path::{Path, PathBuf};

fn problem(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("problems")
        .join(name)
}

#[test]
fn every_continuous_problem_file_calibrates_and_the_paper_forms_hold() {
    for name in [
        "continuous-gaussian-lip.toml",
        "continuous-mixture-laplace-lip.toml",
        "continuous-discrete-laplace-thm6.toml",
        "continuous-sampling-lip.toml",
    ] {
        let o = run(&[
            "continuous",
            problem(name).to_str().unwrap(),
            "--verify",
            "--format",
            "json",
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let rows = v["rows"].as_array().unwrap();
        assert_eq!(rows[0]["verdict"], "holds", "{name}");
    }
}

#[test]
fn verify_exits_6_when_prop2_is_read_under_corollary9() {
    let o = run(&[
        "continuous",
        "--prior",
        "uniform(0,1)",
        "--mechanism",
        "sampling",
        "--epsilon",
        "2",
        "--delta",
        "0.01",
        "--criterion",
        "corollary-9",
        "--verify",
    ]);
    assert_eq!(o.status.code(), Some(6));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Prop. 2") && text.contains("fails"), "{text}");
}

#[test]
fn bad_input_exits_2_naming_the_key() {
    for (args, key) in [
        (
            vec![
                "continuous",
                "--prior",
                "normal(0,-1)",
                "--epsilon",
                "1",
                "--delta",
                "0.1",
                "--range",
                "0,1",
            ],
            "prior.sd",
        ),
        (
            vec![
                "continuous",
                "--prior",
                "normal(0,1)",
                "--epsilon",
                "1",
                "--delta",
                "1e-3",
            ],
            "range",
        ),
        (
            vec![
                "continuous",
                "--prior",
                "normal(0,1)",
                "--epsilon",
                "1",
                "--delta",
                "0",
                "--range",
                "0,1",
            ],
            "delta",
        ),
        (
            vec![
                "continuous",
                "--prior",
                "normal(0,1)",
                "--epsilon",
                "1",
                "--delta",
                "0.1",
                "--notion",
                "ldp",
            ],
            "sensitivity",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(key), "{args:?}");
    }
}

#[test]
fn transfer_reports_bounds_above_the_exact_leakage() {
    let dir = std::env::temp_dir().join(format!("mechsynth-transfer-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ch = dir.join("ch.toml");
    std::fs::write(
        &ch,
        "[channel]\nrows = [[0.7424770, 0.2575230], [0.1103638, 0.8896362]]\n[domain]\nlabels = [\"no\", \"yes\"]\nprior = [0.3, 0.7]\n",
    )
    .unwrap();
    let o = run(&[
        "transfer",
        ch.to_str().unwrap(),
        "--prior",
        "0.3,0.7",
        "--samples",
        "1000",
        "--true-prior",
        "0.32,0.68",
        "--beta",
        "0.01",
        "--format",
        "json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let exact = v["leakage_true"].as_f64().unwrap();
    let lemma3 = v["leakage_estimated"].as_f64().unwrap() + v["lemma3_eta"].as_f64().unwrap();
    assert!(lemma3 >= exact && v["corollary7_bound"].as_f64().unwrap() >= exact);
    let bad = run(&["transfer", ch.to_str().unwrap(), "--prior", "0.3,0.6"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn histogram_prior_from_csv_and_time_limit() {
    let dir = std::env::temp_dir().join(format!("mechsynth-hist-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.csv");
    let rows: String = (0..400)
        .map(|i| format!("{}\n", f64::from(i % 97) * 0.5))
        .collect();
    std::fs::write(&data, format!("value\n{rows}")).unwrap();
    let base = [
        "continuous",
        "--data",
        data.to_str().unwrap(),
        "--column",
        "value",
        "--edges",
        "0,10,20,30,50",
        "--epsilon",
        "1",
        "--delta",
        "1e-3",
        "--range",
        "0,50",
    ];
    let o = run(&base);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("analytic Gaussian"));
    let mut limited = base.to_vec();
    limited.extend(["--time-limit", "0.000001"]);
    assert_eq!(run(&limited).status.code(), Some(4));
    let mut bad_column = base.to_vec();
    bad_column[4] = "nope";
    let o = run(&bad_column);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nope"));
}

#[test]
fn transfer_simulation_of_fig6c_decreases_with_n_and_never_exceeds_corollary7() {
    let o = run(&[
        "transfer",
        "--simulate",
        "500",
        "--true-prior",
        "0.3,0.7",
        "--beta",
        "0.01",
        "--sim-samples",
        "20,200,2000",
        "--format",
        "json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = v.as_array().unwrap();
    let means: Vec<f64> = rows.iter().map(|r| r["mean"].as_f64().unwrap()).collect();
    assert!(means[0] > means[1] && means[1] > means[2], "{means:?}");
    assert!(rows.iter().all(|r| r["failures"] == 0));
}

#[test]
fn a_data_point_outside_the_range_and_empty_transfer_inputs_are_refused() {
    let o = run(&[
        "continuous",
        problem("continuous-gaussian-lip.toml").to_str().unwrap(),
        "--at",
        "50",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("at") && err.contains("50") && err.contains("range"),
        "{err}"
    );
    for (flag, value) in [("--simulate", "0"), ("--samples", "0")] {
        let o = run(&["transfer", "--prior", "0.3,0.7", flag, value]);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(flag), "{flag}: {err}");
    }
    let o = run(&[
        "transfer",
        "--prior",
        "0.3,0.7",
        "--family",
        "0.3,0.7;0.5,0.5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--true-prior"));
}

/// A LIP delta below the calibration's quadrature accuracy is bad input naming `delta` (it was
/// reported as infeasible, exit 3, at 1e-13); 1e-12 calibrates.
#[test]
fn a_lip_delta_below_the_quadrature_accuracy_is_refused() {
    let base = [
        "continuous",
        "--epsilon",
        "1",
        "--prior",
        "normal(0,1)",
        "--range=-1,1",
    ];
    let out = run(&[&base[..], &["--delta", "1e-13"]].concat());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("`delta`"), "{err}");
    let out = run(&[&base[..], &["--delta", "1e-12"]].concat());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
