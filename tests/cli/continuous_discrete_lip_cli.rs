//! LIP with a discrete prior is defined at the prior's points: a data range or a data point
//! outside them used to be ignored silently (the worst case over the points was reported for
//! `--at 3`, which leaks 1.74 nats at 3 under a target of 1); both are now bad input.

use crate::bin::run;

const PRIOR: &str = "discrete(0:0.4,1:0.3333333333333333,2:0.2666666666666667)";

#[test]
fn a_point_outside_the_prior_or_a_range_is_refused_naming_the_key() {
    for (extra, key) in [
        (&["--delta", "0", "--at", "3"][..], "`at` = 3"),
        (&["--delta", "0.001", "--at", "0.5"][..], "`at` = 0.5"),
        (
            &["--delta", "0.001", "--range", "0,5"][..],
            "`range` = [0, 5]",
        ),
    ] {
        let mut args = vec![
            "continuous",
            "--prior",
            PRIOR,
            "--mechanism",
            "laplace",
            "--notion",
            "lip",
            "--epsilon",
            "1",
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(key), "{extra:?}: {err}");
    }
}

/// At a point of the prior the calibration runs, and pure LIP at that point needs no more
/// noise than the worst case over all points.
#[test]
fn a_point_of_the_prior_is_calibrated() {
    let parameter = |extra: &[&str]| -> f64 {
        let mut args = vec![
            "continuous",
            "--prior",
            PRIOR,
            "--mechanism",
            "laplace",
            "--notion",
            "lip",
            "--epsilon",
            "1",
            "--delta",
            "0",
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["rows"][0]["parameter"]
            .as_f64()
            .unwrap_or_else(|| panic!("{v}"))
    };
    let worst = parameter(&[]);
    let at_one = parameter(&["--at", "1"]);
    assert!(at_one <= worst * (1.0 + 1e-9), "{at_one} vs {worst}");
}
