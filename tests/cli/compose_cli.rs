//! `mechsynth compose` and `audit --epsilon/--delta`, run as the built binary.

use crate::bin::run;
use std::io::Write;

/// A k-RR channel file at eps = 1 on 4 symbols, prior [0.1, 0.1, 0.1, 0.7].
fn krr_file(dir: &std::path::Path) -> std::path::PathBuf {
    let e = 1f64.exp();
    let (hi, lo) = (e / (e + 3.0), 1.0 / (e + 3.0));
    let rows: Vec<String> = (0..4)
        .map(|x| {
            let r: Vec<String> = (0..4)
                .map(|y| format!("{:?}", if x == y { hi } else { lo }))
                .collect();
            format!("[{}]", r.join(", "))
        })
        .collect();
    let path = dir.join(format!("krr-{}.toml", std::process::id()));
    let mut f = std::fs::File::create(&path).unwrap();
    writeln!(
        f,
        "prior = [0.1, 0.1, 0.1, 0.7]\n[channel]\nrows = [{}]",
        rows.join(", ")
    )
    .unwrap();
    path
}

#[test]
fn compose_reports_exact_leakage_and_bounds_as_json() {
    let path = krr_file(&std::env::temp_dir());
    let p = path.to_str().unwrap();
    let o = run(&[
        "compose",
        p,
        "--releases",
        "5",
        "--delta-prime",
        "0.001",
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
    assert_eq!(v["outputs"], 1024);
    let rows = v["rows"].as_array().unwrap();
    let ldp = rows.iter().find(|r| r["notion"] == "ldp").unwrap();
    // k-RR: exactly 5 eps.
    assert!((ldp["exact"].as_f64().unwrap() - 5.0).abs() < 1e-9);
    let lip = rows.iter().find(|r| r["notion"] == "lip").unwrap();
    assert!(lip["bound"].as_f64().unwrap() >= lip["exact"].as_f64().unwrap());
    assert!(rows.iter().any(|r| r["notion"]
        .as_str()
        .unwrap()
        .starts_with("ldp eps at delta'")));
    for format in ["table", "csv"] {
        let o = run(&["compose", p, "--releases", "2", "--format", format]);
        assert_eq!(o.status.code(), Some(0));
        assert!(String::from_utf8_lossy(&o.stdout).contains("lip"));
    }
    // Too large: refused with exit 2, naming the size needed.
    let o = run(&["compose", p, "--releases", "12"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&4usize.pow(13).to_string()), "{err}");
    let o = run(&["compose", p, "--releases", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["compose", p, "--delta-prime", "2"]);
    assert_eq!(o.status.code(), Some(2));
    // Audit: the (eps, delta) trade-off.
    let o = run(&[
        "audit",
        p,
        "--epsilon",
        "0.5",
        "--delta",
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
    let at = v["leakage"]["ldp delta at eps = 0.5"].as_f64().unwrap();
    // k-RR: delta(eps) = (e - e^eps) / (e + 3) (one output carries the excess).
    let e = 1f64.exp();
    assert!((at - (e - 0.5f64.exp()) / (e + 3.0)).abs() < 1e-12, "{at}");
    assert!(
        v["leakage"]["lip eps at delta = 0.01"].as_f64().unwrap()
            < v["leakage"]["lip"].as_f64().unwrap()
    );
    let o = run(&["audit", p, "--delta", "1.5"]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_file(path).ok();
}

/// An infinite single-release leakage is written as the rows write it (`"inf"`), not as JSON
/// `null` (a channel with a zero entry: Mangat's design).
#[test]
fn infinite_single_release_leakage_is_written_as_inf() {
    let path = std::env::temp_dir().join(format!("mangat-{}.toml", std::process::id()));
    std::fs::write(
        &path,
        "prior = [0.7, 0.3]\n[channel]\nrows = [[0.6, 0.4], [0.0, 1.0]]\n",
    )
    .unwrap();
    let o = run(&[
        "compose",
        path.to_str().unwrap(),
        "--releases",
        "2",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["single_ldp"], serde_json::json!(["inf", "inf"]), "{v}");
    let ldp = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["notion"] == "ldp")
        .unwrap();
    assert_eq!(ldp["exact"], "inf");
}
