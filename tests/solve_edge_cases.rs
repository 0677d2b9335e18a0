//! Edge cases of the pipeline: degenerate epsilons and domains, constraints too loose to
//! encode, and validation limits.

use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use std::path::Path;

fn problem(text: &str) -> Result<Problem, mechsynth::ProblemError> {
    Problem::from_spec(ProblemSpec::from_toml(text, Path::new("edge.toml"))?)
}

const HAMMING: &str = "[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n";

#[test]
fn epsilon_zero_gives_a_constant_channel_with_exactly_zero_leakage() {
    let p = problem(&format!(
        "{HAMMING}[domain]\nsize = 3\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 0.0\n"
    ))
    .unwrap();
    let r = solve(&p, &SolveOptions::default()).unwrap();
    let ch = r.channel.unwrap();
    assert!(
        ch.rows().iter().all(|row| row == &ch.rows()[0]),
        "rows differ: {:?}",
        ch.rows()
    );
    assert_eq!(r.leakage["ldp"], 0.0);
    // Any constant channel has Hamming loss 1 - 1/n under the uniform prior.
    assert!((r.objective.unwrap() - 2.0 / 3.0).abs() < 1e-9);
}

#[test]
fn one_symbol_domain_is_trivial() {
    let p = problem(&format!(
        "{HAMMING}[domain]\nsize = 1\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n"
    ))
    .unwrap();
    let r = solve(&p, &SolveOptions::default()).unwrap();
    assert_eq!(r.channel.unwrap().rows(), &[vec![1.0]]);
    assert_eq!(r.objective, Some(0.0));
}

#[test]
fn pairs_too_loose_to_encode_are_still_certified() {
    // E[0][1] = 100: e^100 is past any LP solver; the pair is left to certification, which
    // must still report the true (finite or infinite) leakage against the matrix.
    let p = problem(&format!(
        "{HAMMING}[domain]\nsize = 2\n[[privacy]]\nnotion = \"context-ldp\"\nmatrix = [[0.0, 100.0], [1.0, 0.0]]\n"
    ))
    .unwrap();
    let r = solve(&p, &SolveOptions::default()).unwrap();
    assert!(
        r.encoding[0].contains("left to certification"),
        "{:?}",
        r.encoding
    );
    let cert = r.certificate.unwrap();
    assert!(cert.all_hold, "{:?}", cert.checks);
    assert!(cert.checks[0].achieved <= 1.0);
}

#[test]
fn huge_epsilon_and_domain_are_rejected_with_their_keys() {
    let e = problem(&format!(
        "{HAMMING}[domain]\nsize = 3\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 45.0\n"
    ))
    .unwrap_err();
    assert!(
        e.to_string().contains("privacy[0].epsilon") && e.to_string().contains("45"),
        "{e}"
    );
    let e = problem(&format!("{HAMMING}[domain]\ngrid = {{ rows = 100, cols = 100 }}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n")).unwrap_err();
    assert!(
        e.to_string().contains("domain.grid") && e.to_string().contains("10000"),
        "{e}"
    );
}

#[test]
fn co_location_is_maximized_and_matches_the_tight_constraints_mechanism_on_a_line() {
    // range-and-frequency-d-privacy-slides.txt: p_kk = 1/(1+r) at the ends and (1-r)/(1+r)
    // inside, r = e^-eps, is optimal for sum_k p_kk on a line (checked by problems/derive.py).
    let p = problem("[domain]\nline = 6\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"line\"\nepsilon = 0.8\n[objective]\nkind = \"co-location\"\n").unwrap();
    let r = solve(&p, &SolveOptions::default()).unwrap();
    let q = (-0.8f64).exp();
    let closed = 2.0 / (1.0 + q) + 4.0 * (1.0 - q) / (1.0 + q);
    assert!(
        (r.objective.unwrap() - closed).abs() < 1e-6,
        "{} vs {closed}",
        r.objective.unwrap()
    );
}

#[test]
fn several_notions_all_hold_together() {
    let p = problem(&format!(
        "{HAMMING}[domain]\nsize = 4\nprior = [0.4, 0.3, 0.2, 0.1]\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 2.0\n[[privacy]]\nnotion = \"max-leakage\"\nepsilon = 0.5\n[[privacy]]\nnotion = \"lip\"\nepsilon = 0.7\n"
    ))
    .unwrap();
    let r = solve(&p, &SolveOptions::default()).unwrap();
    let cert = r.certificate.unwrap();
    assert_eq!(cert.checks.len(), 3);
    assert!(cert.all_hold);
    assert!(r.leakage["ldp"] <= 2.0 && r.leakage["max-leakage"] <= 0.5 && r.leakage["lip"] <= 0.7);
}
