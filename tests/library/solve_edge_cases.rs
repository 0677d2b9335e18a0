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
    // [dP-slides]: p_kk = 1/(1+r) at the ends and (1-r)/(1+r)
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

/// Identifiability needs max p / min p <= e^eps (sum its constraint over the outputs). Just
/// below that (eps 0.77933 against ln ratio 0.78100) the answer is `infeasible` with the reason,
/// not whatever the backend makes of it; just above it, a channel exists and is certified.
#[test]
fn identifiability_beyond_the_prior_ratio_is_infeasible_by_proof() {
    let text = |eps: f64| {
        format!(
            "[domain]\nsize = 3\nprior = [0.18841143990975073, 0.40016368755810044, 0.4114248725321489]\n[[privacy]]\nnotion = \"identifiability\"\nepsilon = {eps}\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n"
        )
    };
    let ratio: f64 = 0.4114248725321489 / 0.18841143990975073;
    let options = SolveOptions::default();
    let feasible = solve(&problem(&text(ratio.ln() + 1e-4)).unwrap(), &options).unwrap();
    assert!(feasible.channel.is_some(), "{}", feasible.status);
    let infeasible = solve(&problem(&text(ratio.ln() - 1.7e-3)).unwrap(), &options).unwrap();
    assert_eq!(infeasible.status.to_string(), "infeasible");
    assert!(infeasible.channel.is_none());
    assert_eq!(infeasible.method.to_string(), "infeasibility proof");
    assert_eq!(infeasible.solver.name, "none");
    assert!(
        infeasible.method_notes[0].contains("admits no channel"),
        "{:?}",
        infeasible.method_notes
    );
}
