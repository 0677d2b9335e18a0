//! Requests whose answer used to be NaN or infinite: an eps past what the quadrature resolves
//! (`continuous --epsilon 1e6`) and a one-point discrete prior are refused naming the key and
//! the value, in the library and through the built binary (exit 2).

use crate::bin::run;
use mechsynth::continuous::request::MAX_EPSILON;
use mechsynth::continuous::{Criterion, MechanismKind, Notion, Prior, Request};

fn request(prior: Prior, mechanism: MechanismKind, epsilon: f64, delta: f64) -> Request {
    Request {
        prior,
        mechanism,
        notion: Notion::Lip,
        epsilon,
        delta,
        range: None,
        sensitivity: None,
        at: None,
        criterion: Criterion::Definition,
    }
}

#[test]
fn an_epsilon_past_the_quadratures_reach_is_refused() {
    let prior = Prior::discrete(vec![0.0, 1.0], vec![0.5, 0.5]).unwrap();
    for eps in [MAX_EPSILON * 1.01, 710.0, 1e6, f64::INFINITY] {
        let r = request(prior.clone(), MechanismKind::Laplace, eps, 0.0);
        let e = r.validate().unwrap_err().to_string();
        assert!(e.contains("`epsilon`"), "{eps}: {e}");
    }
    let r = request(prior, MechanismKind::Laplace, MAX_EPSILON, 0.0);
    assert!(r.validate().is_ok());
}

#[test]
fn a_one_point_prior_is_refused_under_lip() {
    let one = Prior::discrete(vec![3.0], vec![1.0]).unwrap();
    for (mechanism, delta) in [
        (MechanismKind::Laplace, 0.0),
        (MechanismKind::Gaussian, 1e-3),
    ] {
        let e = request(one.clone(), mechanism, 1.0, delta)
            .validate()
            .unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("`prior`") && text.contains("one-point"),
            "{text}"
        );
    }
}

fn refused(args: &[&str], named: &str) {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(named), "{args:?}: expected {named:?}: {err}");
    assert!(
        !out.contains("NaN") && !out.contains("inf"),
        "{args:?}: {out}"
    );
}

#[test]
fn the_binary_refuses_them_naming_the_flag_or_key() {
    let file = "problems/continuous-gaussian-lip.toml";
    refused(
        &["continuous", file, "--epsilon", "1e6"],
        "invalid `--epsilon` = 1e6",
    );
    refused(
        &["continuous", file, "--epsilon", "710"],
        "invalid `--epsilon` = 710",
    );
    let one = ["continuous", "--prior", "discrete(0:1)", "--epsilon", "1"];
    refused(
        &[&one[..], &["--mechanism", "laplace"]].concat(),
        "invalid `prior`",
    );
    refused(
        &[&one[..], &["--delta", "0.001"]].concat(),
        "invalid `prior`",
    );
    refused(
        &["continuous", file, "--range", "NaN,1"],
        "invalid `--range` = NaN,1",
    );
}
