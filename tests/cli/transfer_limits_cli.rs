//! `transfer --simulate` of the built binary: trials and sample sizes beyond the documented
//! maxima are refused naming the flag, and `--time-limit` bounds the simulation (exit 4,
//! progress on stderr after 2 s), alone and over a sweep.

use crate::bin::{run_in, stderr, stdout};
use crate::guards_support::{assert_refused, scratch};
use mechsynth::continuous::transfer_sim::{
    simulate, simulate_within, SimulationLimits, MAX_SAMPLES, MAX_TRIALS,
};
use mechsynth::continuous::ContinuousError;
use std::time::{Duration, Instant};

/// Seconds given to the runs that must stop at their limit: above the 2 s after which progress
/// is printed.
const TIME_LIMIT: &str = "3";

/// How long after its limit a stopped run may still take (start-up, a clock check every
/// millisecond of work, a loaded machine).
const STOP_SLACK: Duration = Duration::from_secs(15);

/// Trials that take far longer than [`TIME_LIMIT`] (about 10 s per sample size of 10).
const MANY_TRIALS: &str = "10000000";

#[test]
fn trials_and_sample_sizes_beyond_the_maxima_are_refused() {
    assert_eq!(MAX_TRIALS, 10_000_000);
    assert_eq!(MAX_SAMPLES, 1_000_000_000);
    let dir = scratch("transfer-maxima");
    let sim = |extra: &[&str]| {
        let mut args = vec!["transfer", "--true-prior", "0.3,0.7"];
        args.extend_from_slice(extra);
        run_in(&dir, &args)
    };
    let o = sim(&["--simulate", "10000001"]);
    assert_refused(&o, "--simulate", "10000001", "10000000");
    // Near the u32 maximum that clap accepts: refused by the documented maximum, at once.
    let o = sim(&["--simulate", "4000000000"]);
    assert_refused(&o, "--simulate", "4000000000", "10000000");
    let o = sim(&["--simulate", "0"]);
    assert_refused(&o, "--simulate", "0", "10000000");
    let o = sim(&["--simulate", "10", "--sim-samples", "10,1000000001"]);
    assert_refused(&o, "--sim-samples", "10,1000000001", "1000000000");
    let help = stdout(&run_in(&dir, &["transfer", "--help"]));
    assert!(help.contains("1 to 10^7"), "{help}");
    assert!(help.contains("1 to 10^9"), "{help}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn time_limit_values_are_checked_like_the_other_subcommands() {
    let dir = scratch("transfer-time-limit-values");
    for bad in ["0", "-1", "nan", "inf", "1e10"] {
        let o = run_in(
            &dir,
            &[
                "transfer",
                "--simulate",
                "10",
                "--true-prior",
                "0.3,0.7",
                "--time-limit",
                bad,
            ],
        );
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("invalid `--time-limit`"),
            "{}",
            stderr(&o)
        );
    }
    // Without --simulate there is nothing for the limit to bound: refused, not ignored.
    let o = run_in(&dir, &["transfer", "ch.toml", "--time-limit", "5"]);
    assert_refused(&o, "--time-limit", "5", "--simulate");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The maximum number of trials runs (it is not refused) and stops at the time limit with exit
/// 4, after reporting progress on stderr.
#[test]
fn time_limit_stops_a_long_simulation_with_progress() {
    let dir = scratch("transfer-time-limit-stop");
    let start = Instant::now();
    let o = run_in(
        &dir,
        &[
            "transfer",
            "--simulate",
            MANY_TRIALS,
            "--true-prior",
            "0.3,0.7",
            "--time-limit",
            TIME_LIMIT,
        ],
    );
    let elapsed = start.elapsed();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains("time limit"), "{err}");
    assert!(
        err.contains("simulating: n = 10"),
        "progress expected: {err}"
    );
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let limit = Duration::from_secs(TIME_LIMIT.parse().unwrap());
    assert!(elapsed >= limit, "{elapsed:?}");
    assert!(elapsed < limit + STOP_SLACK, "{elapsed:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// With a limit that is not reached the table is the one without a limit (same seeds).
#[test]
fn a_generous_time_limit_changes_nothing() {
    let dir = scratch("transfer-time-limit-same");
    let base = [
        "transfer",
        "--simulate",
        "300",
        "--true-prior",
        "0.3,0.7",
        "--sim-samples",
        "10,100",
        "--format",
        "csv",
    ];
    let plain = run_in(&dir, &base);
    let mut limited_args = base.to_vec();
    limited_args.extend_from_slice(&["--time-limit", "600"]);
    let limited = run_in(&dir, &limited_args);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    assert_eq!(limited.status.code(), Some(0), "{}", stderr(&limited));
    assert_eq!(stdout(&plain), stdout(&limited));
    assert_eq!(stdout(&plain).lines().count(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Over a sweep the limit covers the whole sweep: the point not simulated in time (10^9
/// samples per trial, stopped inside a trial) keeps its rows with status
/// `no-channel:time-limit` beside the computed point, and the run exits 4.
#[test]
fn time_limit_over_a_sweep_leaves_points_out() {
    let dir = scratch("transfer-time-limit-sweep");
    let start = Instant::now();
    let o = run_in(
        &dir,
        &[
            "transfer",
            "--simulate",
            "100",
            "--true-prior",
            "0.3,0.7",
            "--sweep",
            "samples=10,1000000000",
            "--time-limit",
            "1",
        ],
    );
    assert!(start.elapsed() < Duration::from_secs(1) + STOP_SLACK);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let csv = stdout(&o);
    let rows: Vec<&str> = csv.lines().filter(|l| l.starts_with("mean,")).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(rows[0].contains(",computed"), "{csv}");
    assert!(rows[1].contains("no-channel:time-limit"), "{csv}");
    assert!(stderr(&o).contains("not computed"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The library: a deadline already passed stops the simulation with the trials done so far;
/// no deadline gives the plain simulation's result.
#[test]
fn simulate_within_honours_its_deadline() {
    let truth = [0.3, 0.7];
    let past = SimulationLimits {
        deadline: Some(Instant::now()),
        progress: None,
    };
    match simulate_within(&truth, 1.0, 1000, 1_000_000, 0.05, 7, &past) {
        Err(ContinuousError::SimulationTimeLimit { n, done, trials }) => {
            assert_eq!((n, trials), (1000, 1_000_000));
            assert!(done < trials);
        }
        other => panic!("expected the time limit, got {other:?}"),
    }
    let free = simulate_within(&truth, 1.0, 100, 50, 0.05, 7, &SimulationLimits::default())
        .expect("no deadline");
    let plain = simulate(&truth, 1.0, 100, 50, 0.05, 7);
    assert_eq!(free.mean.to_bits(), plain.mean.to_bits());
    assert_eq!(free.quantile.to_bits(), plain.quantile.to_bits());
    assert_eq!(free.trials + free.skipped, 50);
}

/// One sample from two symbols never shows both, so every trial is skipped: the averages are
/// undefined (null in JSON, NaN in the table), not a signed zero that reads as "no discrepancy".
#[test]
fn a_simulation_with_every_trial_skipped_has_no_averages() {
    let dir = scratch("transfer-all-skipped");
    let o = run_in(
        &dir,
        &[
            "transfer",
            "--simulate",
            "5",
            "--true-prior",
            "0.3,0.7",
            "--sim-samples",
            "1",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let row = &v[0];
    assert_eq!(row["skipped"], 5);
    assert_eq!(row["trials"], 0);
    for key in ["mean", "quantile", "eta_mean"] {
        assert!(row[key].is_null(), "{key}: {row}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--format csv` writes numbers bare (a spreadsheet reads them as numbers) and a list as one
/// quoted field.
#[test]
fn csv_output_has_bare_numbers() {
    let dir = scratch("csv-bare");
    let o = run_in(
        &dir,
        &[
            "transfer",
            "ch.toml",
            "--prior",
            "0.3,0.7",
            "--samples",
            "1000",
            "--format",
            "csv",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut seen = 0;
    for record in reader.records() {
        let record = record.unwrap();
        assert_eq!(record.len(), 2, "{text}");
        match &record[0] {
            "beta" => assert_eq!(record[1].parse::<f64>().unwrap(), 0.05),
            "samples" => assert_eq!(record[1].parse::<f64>().unwrap(), 1000.0),
            "estimated_prior" => assert_eq!(&record[1], "[0.3,0.7]"),
            _ => continue,
        }
        seen += 1;
    }
    assert_eq!(seen, 3, "{text}");
    assert!(text.contains("\nbeta,0.05\n"), "{text}");
}
