//! The time limit of `estimate` bounds EM and its bootstrap: a fit stopped by the deadline is
//! a time-limit error (exit 4 on the command line), never NaN intervals with exit 0.

use crate::bin::command;
use mechsynth::collect::baseline::BaselineSpec;
use mechsynth::collect::estimate::{
    em, estimate, EmEstimator, EstimateOptions, Estimator, EstimatorSpec, EM_MAX_ITERATIONS,
    EM_TOLERANCE,
};
use mechsynth::collect::sampler::seeded_rng;
use mechsynth::collect::{CollectError, Model};
use mechsynth::Domain;
use std::time::{Duration, Instant};

fn krr(n: usize, eps: f64) -> Model {
    Model::baseline(BaselineSpec::KRr, Domain::sized(n).unwrap(), eps).unwrap()
}

/// Report frequencies of k-RR over `n` symbols with every user on symbol 0 (exact, no noise).
fn frequencies(model: &Model) -> Vec<f64> {
    model.channel.rows()[0].clone()
}

#[test]
fn em_with_a_past_deadline_is_a_time_limit_error_and_without_one_converges() {
    let model = krr(50, 1.0);
    let c = frequencies(&model);
    let late = EmEstimator {
        deadline: Some(Instant::now() - Duration::from_millis(1)),
        ..EmEstimator::default()
    };
    // Within the first clock check EM may already converge; a flat likelihood takes longer.
    match late.frequencies(&model, &c) {
        Err(CollectError::TimeLimit { .. }) => {}
        other => {
            let r = em(&model, &c, EM_TOLERANCE, EM_MAX_ITERATIONS);
            assert!(r.iterations <= 64, "{other:?} after {} steps", r.iterations);
        }
    }
    let on_time = EmEstimator::default().frequencies(&model, &c).unwrap();
    // The exact report distribution of input 0 is fitted by the point mass on 0.
    assert!(on_time[0] > 0.99, "{}", on_time[0]);
}

#[test]
fn estimate_stops_with_a_time_limit_error_when_the_deadline_has_passed() {
    let model = krr(300, 0.5);
    // Nearly uniform counts: a flat likelihood, so EM takes many steps.
    let counts: Vec<u64> = (0..300).map(|i| 10 + (i % 7) as u64).collect();
    let options = EstimateOptions {
        estimators: vec![EstimatorSpec::Em],
        deadline: Some(Instant::now() - Duration::from_millis(1)),
        ..EstimateOptions::default()
    };
    let e = estimate(&model, &counts, &options, &mut seeded_rng(1)).unwrap_err();
    assert!(matches!(e, CollectError::TimeLimit { .. }), "{e}");
}

#[test]
fn the_command_exits_4_when_em_runs_out_of_time() {
    let path = std::env::temp_dir().join(format!("em-counts-{}.csv", std::process::id()));
    let counts: String = (0..1000).map(|i| format!("{i},{}\n", 3 + i % 5)).collect();
    std::fs::write(&path, counts).unwrap();
    let out = command()
        .args([
            "estimate",
            "--baseline",
            "k-rr",
            "--epsilon",
            "1",
            "--size",
            "1000",
        ])
        .arg("--counts")
        .arg(&path)
        .args([
            "--estimator",
            "em",
            "--bootstrap",
            "20",
            "--time-limit",
            "0.001",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("time limit"), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
