//! `compose --time-limit`: the library stops with `ComposeError::TimeLimit` once the deadline
//! has passed, the built binary exits 4 with a message (and in `--sweep` mode reports the
//! points it did not compute), and a value that is not > 0 is bad input naming the flag.

use crate::bin::run;
use mechsynth::compose::report::ComposeOptions;
use mechsynth::compose::{compose, ComposeError};
use mechsynth::Channel;
use std::io::Write;
use std::time::{Duration, Instant};

/// k-RR at eps = 1 on 4 symbols: 10 releases make a product of 4 x 4^10 = 2^22 entries (the
/// largest accepted), whose smallest eps at a delta' takes seconds.
const LARGE_RELEASES: &str = "10";

fn krr_rows() -> Vec<Vec<f64>> {
    let e = 1f64.exp();
    let (hi, lo) = (e / (e + 3.0), 1.0 / (e + 3.0));
    (0..4)
        .map(|x| (0..4).map(|y| if x == y { hi } else { lo }).collect())
        .collect()
}

fn krr_file(tag: &str) -> std::path::PathBuf {
    let rows: Vec<String> = krr_rows()
        .iter()
        .map(|r| {
            let r: Vec<String> = r.iter().map(|v| format!("{v:?}")).collect();
            format!("[{}]", r.join(", "))
        })
        .collect();
    let path = std::env::temp_dir().join(format!("krr-time-{tag}-{}.toml", std::process::id()));
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
fn a_passed_deadline_stops_the_library_and_a_distant_one_changes_nothing() {
    let c = Channel::new(krr_rows()).unwrap();
    let prior = [0.1, 0.1, 0.1, 0.7];
    let channels = vec![&c; 3];
    let stopped = compose(
        &channels,
        &prior,
        &ComposeOptions {
            delta_prime: Some(1e-3),
            deadline: Some(Instant::now()),
            ..ComposeOptions::default()
        },
    );
    assert!(
        matches!(stopped, Err(ComposeError::TimeLimit(_))),
        "{stopped:?}"
    );
    let free = compose(
        &channels,
        &prior,
        &ComposeOptions {
            delta_prime: Some(1e-3),
            ..ComposeOptions::default()
        },
    )
    .unwrap();
    let limited = compose(
        &channels,
        &prior,
        &ComposeOptions {
            delta_prime: Some(1e-3),
            deadline: Some(Instant::now() + Duration::from_secs(3600)),
            ..ComposeOptions::default()
        },
    )
    .unwrap();
    assert_eq!(free.rows.len(), limited.rows.len());
    for (a, b) in free.rows.iter().zip(&limited.rows) {
        assert_eq!((&a.notion, a.exact, a.bound), (&b.notion, b.exact, b.bound));
    }
}

#[test]
fn a_tiny_limit_on_a_large_composition_exits_4_with_a_message() {
    let path = krr_file("tiny");
    let o = run(&[
        "compose",
        path.to_str().unwrap(),
        "--releases",
        LARGE_RELEASES,
        "--delta-prime",
        "0.001",
        "--time-limit",
        "0.001",
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("time limit ran out"), "{stderr}");
    assert!(stderr.contains("--time-limit"), "{stderr}");
    assert!(o.stdout.is_empty(), "no report on stdout");
}

#[test]
fn a_limit_that_is_not_positive_is_bad_input_naming_the_flag() {
    let path = krr_file("bad");
    for value in ["0", "-1", "nan"] {
        let o = run(&[
            "compose",
            path.to_str().unwrap(),
            "--releases",
            "2",
            "--time-limit",
            value,
        ]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{value}: {stderr}");
        assert!(stderr.contains("--time-limit"), "{value}: {stderr}");
    }
}

#[test]
fn a_generous_limit_gives_the_same_report_as_none() {
    let path = krr_file("generous");
    let p = path.to_str().unwrap();
    let base = ["compose", p, "--releases", "3", "--format", "csv"];
    let free = run(&base);
    let mut with_limit = base.to_vec();
    with_limit.extend(["--time-limit", "600"]);
    let limited = run(&with_limit);
    assert_eq!(free.status.code(), Some(0));
    assert_eq!(limited.status.code(), Some(0));
    assert_eq!(free.stdout, limited.stdout);
}

#[test]
fn a_sweep_reports_the_points_left_when_the_limit_ran_out() {
    let path = krr_file("sweep");
    let o = run(&[
        "compose",
        path.to_str().unwrap(),
        "--delta-prime",
        "0.001",
        "--sweep",
        &format!("releases=1,{LARGE_RELEASES}"),
        "--only",
        "ldp exact",
        "--time-limit",
        "1",
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("not computed"), "{stderr}");
    let csv = String::from_utf8_lossy(&o.stdout);
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    // One release: computed, exactly eps = 1 (k-RR at eps 1, outward rounded).
    let first = rows
        .iter()
        .find(|r| r[1] == "1.0")
        .expect("x = 1 is in the CSV");
    assert_eq!(first[3], "computed", "{csv}");
    let one: f64 = first[2].parse().unwrap();
    assert!((one - 1.0).abs() < 1e-12, "{csv}");
    // Ten releases: not computed, no value.
    let last = rows
        .iter()
        .find(|r| r[1] == "10.0")
        .expect("x = 10 is in the CSV");
    assert_eq!(last[2], "", "{csv}");
    assert!(last[3].contains("time-limit"), "{csv}");
}
