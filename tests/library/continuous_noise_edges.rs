//! A noise parameter measured rather than calibrated (`continuous --noise`): refused outside
//! the calibration's range, and exact at its edges (no noise: delta 1, or `1 - P(x)` on a
//! discrete prior; noise far wider than the data: delta 0), in the library and through the
//! built binary.

use crate::bin::run;
use mechsynth::continuous::calibrate::measure;
use mechsynth::continuous::edges::check_parameter;
use mechsynth::continuous::{Criterion, MechanismKind, Notion, Prior, Request};

/// A delta said to vanish must be at most this (the quadrature's own accuracy is ~1e-13).
const VANISHING_DELTA: f64 = 1e-12;
/// Agreement of an exact closed value with its reference.
const EXACT: f64 = 1e-15;

/// The shipped Gaussian LIP setting: N(0, 5^2) prior, data range [-10, 10], eps 1, delta 1e-4.
fn gaussian(notion: Notion) -> Request {
    Request {
        prior: Prior::normal(0.0, 5.0).unwrap(),
        mechanism: MechanismKind::Gaussian,
        notion,
        epsilon: 1.0,
        delta: 1e-4,
        range: Some((-10.0, 10.0)),
        sensitivity: None,
        at: None,
        criterion: Criterion::Definition,
    }
}

/// LIP's delta of releasing `X` itself under a discrete prior, from the definition: the
/// hockey-stick divergences are suprema over every output set S.
fn identity_lip_delta(probs: &[f64], eps: f64, x: usize, criterion: Criterion) -> f64 {
    let g = eps.exp();
    let n = probs.len();
    let (mut forward, mut backward) = (0.0f64, 0.0f64);
    for set in 0u32..(1 << n) {
        let p_set: f64 = (0..n).filter(|i| set >> i & 1 == 1).map(|i| probs[i]).sum();
        let given_x = f64::from(set >> x & 1);
        forward = forward.max(given_x - g * p_set);
        backward = backward.max(p_set - g * given_x);
    }
    let scale = match criterion {
        Criterion::Definition => (-eps).exp(),
        Criterion::Corollary9 => 1.0,
    };
    (scale * forward).max(backward)
}

#[test]
fn no_noise_leaks_everything_under_a_continuous_prior() {
    for notion in [Notion::Lip, Notion::Ldp] {
        for criterion in [Criterion::Definition, Criterion::Corollary9] {
            let mut req = gaussian(notion);
            req.criterion = criterion;
            let m = measure(&req, 0.0);
            assert_eq!(m.value, 1.0, "{notion:?} {criterion:?}: {m:?}");
        }
    }
}

#[test]
fn no_noise_under_a_discrete_prior_matches_the_definition() {
    let (points, probs) = (vec![0.0, 1.0, 2.0], vec![0.2, 0.3, 0.5]);
    for criterion in [Criterion::Definition, Criterion::Corollary9] {
        for eps in [0.3, 1.0, 4.0] {
            let mut req = gaussian(Notion::Lip);
            req.prior = Prior::discrete(points.clone(), probs.clone()).unwrap();
            req.range = None;
            req.epsilon = eps;
            req.criterion = criterion;
            let worst = (0..3)
                .map(|x| identity_lip_delta(&probs, eps, x, criterion))
                .fold(0.0, f64::max);
            let m = measure(&req, 0.0);
            assert!((m.value - worst).abs() <= EXACT, "{eps}: {m:?} vs {worst}");
            req.at = Some(2.0);
            let at = identity_lip_delta(&probs, eps, 2, criterion);
            let m = measure(&req, 0.0);
            assert!((m.value - at).abs() <= EXACT, "{eps} at 2: {m:?} vs {at}");
        }
    }
}

#[test]
fn noise_far_wider_than_the_data_leaks_nothing() {
    for notion in [Notion::Lip, Notion::Ldp] {
        for sigma in [1e20, 1e100, 1e200, 1e300, f64::MAX] {
            let m = measure(&gaussian(notion), sigma);
            assert!(
                m.value >= 0.0 && m.value + m.error <= VANISHING_DELTA,
                "{notion:?} sigma {sigma:e}: {m:?}"
            );
        }
    }
}

#[test]
fn parameters_outside_the_calibrations_range_are_refused() {
    let req = gaussian(Notion::Lip);
    for bad in [-1.0, -1e-300, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert!(check_parameter(&req, "noise", bad).is_err(), "{bad}");
    }
    for good in [0.0, 1e-300, 2.5, 1e300] {
        assert_eq!(check_parameter(&req, "noise", good).unwrap(), good);
    }
    let mut sampling = gaussian(Notion::Lip);
    sampling.mechanism = MechanismKind::Sampling;
    for bad in [2.0, 1.0 + 1e-15, -0.1, f64::NAN] {
        assert!(check_parameter(&sampling, "noise", bad).is_err(), "{bad}");
    }
    for good in [0.0, 0.5, 1.0] {
        assert!(check_parameter(&sampling, "noise", good).is_ok(), "{good}");
    }
    let mut pure = gaussian(Notion::Ldp);
    pure.mechanism = MechanismKind::Laplace;
    pure.delta = 0.0;
    assert!(check_parameter(&pure, "noise", 0.0).is_err());
}

#[test]
fn sampling_under_ldp_leaks_lambda() {
    // `Y = X` w.p. lambda: the set {x} has probability lambda given x and 0 given any x' != x.
    let mut req = gaussian(Notion::Ldp);
    req.mechanism = MechanismKind::Sampling;
    req.prior = Prior::uniform(0.0, 1.0).unwrap();
    req.range = Some((0.0, 1.0));
    for lambda in [0.0, 0.01, 0.7, 1.0] {
        assert_eq!(measure(&req, lambda).value, lambda);
    }
}

/// `continuous FILE --noise VALUE --format json`: the achieved values by method.
fn at_noise(file: &str, noise: &str) -> serde_json::Map<String, serde_json::Value> {
    let o = run(&["continuous", file, "--noise", noise, "--format", "json"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{noise}: {err}");
    serde_json::from_slice(&o.stdout).unwrap()
}

const GAUSSIAN: &str = "problems/continuous-gaussian-lip.toml";
const SAMPLING: &str = "problems/continuous-sampling-lip.toml";

#[test]
fn the_binary_reports_delta_one_without_noise_and_zero_with_huge_noise() {
    let none = at_noise(GAUSSIAN, "0");
    for key in [
        "LIP (Def. 5)",
        "LDP",
        "LDP at 2 eps",
        "analytic Gaussian (LDP, eq. (24))",
    ] {
        assert_eq!(none[key].as_f64(), Some(1.0), "{key}: {none:?}");
    }
    assert!(
        none.values().all(|v| v.as_f64().unwrap() <= 1.0),
        "{none:?}"
    );
    for huge in ["1e200", "1e300"] {
        let wide = at_noise(GAUSSIAN, huge);
        for (key, v) in &wide {
            let v = v.as_f64().unwrap();
            assert!((0.0..=VANISHING_DELTA).contains(&v), "{huge} {key}: {v}");
        }
    }
}

#[test]
fn the_binary_refuses_noise_outside_its_range() {
    for (file, noise, accepted) in [
        (GAUSSIAN, "-1", ">= 0"),
        (GAUSSIAN, "NaN", ">= 0"),
        (GAUSSIAN, "inf", ">= 0"),
        (SAMPLING, "2", "[0, 1]"),
        (SAMPLING, "1.5", "[0, 1]"),
    ] {
        let o = run(&["continuous", file, "--noise", noise]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{noise}: {err}");
        assert!(
            err.contains(&format!("invalid `--noise` = {noise}")),
            "{err}"
        );
        assert!(err.contains(accepted), "{noise}: {err}");
    }
}
