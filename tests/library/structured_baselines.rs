//! Hadamard response for high-low and block-structured LDP as baselines: their privacy checked
//! from the definitions, and a privatize -> estimate round trip recovering a known histogram.

use crate::bin::command;
use mechsynth::collect::baseline::{BaselineSpec, Structure};
use mechsynth::Domain;

/// Ratios may exceed `e^eps` by float rounding only.
const RATIO_ROUNDING: f64 = 1e-12;

#[test]
fn high_low_hadamard_protects_the_sensitive_symbols_only() {
    let eps: f64 = 1.0;
    let structure = Structure {
        sensitive: vec![0, 2],
        blocks: Vec::new(),
    };
    let b = BaselineSpec::HadamardHighLow
        .build_with(&Domain::sized(5).unwrap(), eps, &structure)
        .unwrap();
    let q = b.channel.rows();
    for &s in &structure.sensitive {
        for (x, row) in q.iter().enumerate() {
            for (y, (a, b)) in q[s].iter().zip(row).enumerate() {
                assert!(
                    *a <= eps.exp() * b * (1.0 + RATIO_ROUNDING),
                    "s {s} x {x} y {y}"
                );
            }
        }
    }
    // A non-sensitive symbol is revealed with positive probability: no LDP guarantee for it.
    let own = (0..q[0].len()).find(|&y| q[1][y] > 0.0 && q[0][y] == 0.0);
    assert!(own.is_some());
    assert!(BaselineSpec::HadamardHighLow
        .build_with(&Domain::sized(5).unwrap(), eps, &Structure::default())
        .is_err());
}

#[test]
fn block_hadamard_is_ldp_within_blocks_and_reveals_the_block() {
    let eps: f64 = 0.7;
    let structure = Structure {
        sensitive: Vec::new(),
        blocks: vec![vec![0, 1, 2], vec![3, 4]],
    };
    let b = BaselineSpec::HadamardBlock
        .build_with(&Domain::sized(5).unwrap(), eps, &structure)
        .unwrap();
    let q = b.channel.rows();
    for block in &structure.blocks {
        for &a in block {
            for &c in block {
                for (qa, qc) in q[a].iter().zip(&q[c]) {
                    assert!(*qa <= eps.exp() * qc * (1.0 + RATIO_ROUNDING));
                }
            }
        }
    }
    for y in 0..q[0].len() {
        let first = q[..3].iter().any(|row| row[y] > 0.0);
        let second = q[3..].iter().any(|row| row[y] > 0.0);
        assert!(!(first && second), "output {y} is shared by both blocks");
    }
    let not_a_partition = Structure {
        sensitive: Vec::new(),
        blocks: vec![vec![0, 1], vec![3, 4]],
    };
    assert!(BaselineSpec::HadamardBlock
        .build_with(&Domain::sized(5).unwrap(), eps, &not_a_partition)
        .is_err());
}

#[test]
fn privatize_then_estimate_recovers_the_histogram() {
    let dir = std::env::temp_dir().join(format!("mechsynth-structured-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let truth = [0.4, 0.1, 0.2, 0.1, 0.2];
    let n = 50_000;
    let mut records = String::new();
    for (x, f) in truth.iter().enumerate() {
        for _ in 0..(f * n as f64) as usize {
            records.push_str(&format!("{x}\n"));
        }
    }
    let input = dir.join("records.txt");
    std::fs::write(&input, records).unwrap();
    let reports = dir.join("reports.txt");
    let flags = [
        "--baseline",
        "hadamard-block",
        "--size",
        "5",
        "--epsilon",
        "1",
        "--blocks",
        "0,1,2/3,4",
    ];
    let o = command()
        .arg("privatize")
        .arg(&input)
        .args(flags)
        .args(["--seed", "5", "-o"])
        .arg(&reports)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = command()
        .arg("estimate")
        .arg(&reports)
        .args(flags)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let text = r.to_string();
    // Every true frequency lies within 4.5 standard errors of its inversion estimate.
    let mut checked = 0;
    for row in r["estimates"]
        .as_array()
        .unwrap_or_else(|| panic!("{text}"))
    {
        let Some(x) = row["quantity"]
            .as_str()
            .and_then(|q| q.strip_prefix("frequency["))
            .and_then(|q| q.strip_suffix(']'))
            .and_then(|q| q.parse::<usize>().ok())
        else {
            continue;
        };
        let v = row["estimate"]["value"].as_f64().unwrap();
        let se = row["estimate"]["std_error"].as_f64().unwrap();
        assert!((v - truth[x]).abs() <= 4.5 * se, "{x}: {v} +- {se}");
        checked += 1;
    }
    assert!(checked >= 5, "{text}");
}
