//! Both ways of pricing a design over a ratio cone give the same certified optimum: every ray
//! listed as floats, and every ray kept as a tree code (forced here by a list limit of zero).

use super::design_with_list_limit;
use crate::privacy::PrivacyNotion;
use crate::problem::{Problem, ProblemSpec};
use crate::synthesis::ENUMERATION_LIMIT;
use crate::synthesis::{Method, Run, Status};
use mechsynth_solvers::{ClarabelBackend, SolveOptions};
use std::path::Path;

/// The two optima agree to this, relative (each is certified to about 1e-9).
const SAME_OPTIMUM: f64 = 1e-7;

fn optimum(text: &str, list_limit: usize) -> (f64, f64, Vec<String>) {
    optimum_searching_from(text, list_limit, usize::MAX)
}

/// As [`optimum`], with the staircase search from `search_from` inputs on.
fn optimum_searching_from(
    text: &str,
    list_limit: usize,
    search_from: usize,
) -> (f64, f64, Vec<String>) {
    let spec = ProblemSpec::from_toml(text, Path::new("test.toml")).expect("valid");
    let problem = Problem::from_spec(spec).expect("valid");
    let design = problem.objective.frequency_design().expect("frequency-mse");
    let privacy: Vec<&dyn PrivacyNotion> = problem.privacy.iter().map(|p| p.as_ref()).collect();
    let run = Run::new(&ClarabelBackend, SolveOptions::default(), None);
    let n = problem.domain.size();
    let outcome = design_with_list_limit(&privacy, design, n, &run, (list_limit, search_from))
        .expect("a ratio cone");
    assert_eq!(outcome.method, Method::OptimalDesign);
    assert_eq!(outcome.status, Status::Optimal);
    (
        outcome.solver_objective.expect("a value"),
        outcome.bound.expect("a bound"),
        outcome.notes,
    )
}

#[test]
fn tree_codes_and_a_float_list_give_the_same_optimum() {
    for (grid, prior, eps) in [
        ("{ rows = 3, cols = 3 }", "", 0.7),
        (
            "{ rows = 2, cols = 4 }",
            "prior = [0.3, 0.05, 0.1, 0.05, 0.2, 0.1, 0.15, 0.05]\n",
            1.2,
        ),
    ] {
        let text = format!(
            "[domain]\ngrid = {grid}\n{prior}[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = {eps}\n[objective]\nkind = \"frequency-mse\"\n"
        );
        let (listed, listed_bound, listed_notes) = optimum(&text, ENUMERATION_LIMIT);
        let (coded, coded_bound, coded_notes) = optimum(&text, 0);
        assert!(
            listed_notes[0].contains("vertex search"),
            "{listed_notes:?}"
        );
        assert!(coded_notes[0].contains("tree codes"), "{coded_notes:?}");
        assert!(
            (listed - coded).abs() <= SAME_OPTIMUM * listed,
            "{listed} vs {coded}"
        );
        // Each bound is below the other's value: both are rigorous.
        assert!(coded_bound <= listed * (1.0 + 1e-12));
        assert!(listed_bound <= coded * (1.0 + 1e-12));
    }
}

fn ldp_text(prior: &[f64], eps: f64) -> String {
    format!(
        "[domain]\nsize = {}\nprior = {prior:?}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = {eps}\n[objective]\nkind = \"frequency-mse\"\n",
        prior.len()
    )
}

/// Under a lone LDP constraint, pricing by the staircase search (forced by a list limit of
/// zero) and scanning every listed ray give the same certified optimum.
#[test]
fn the_staircase_search_and_the_ray_list_give_the_same_optimum() {
    for (n, eps) in [(4, 2.0), (7, 0.5), (9, 1.0), (12, 1.5)] {
        // Skewed: pi ~ i, and a geometric prior.
        let linear: Vec<f64> = (1..=n).map(|i| i as f64).collect();
        let geometric: Vec<f64> = (0..n).map(|i| 0.7f64.powi(i)).collect();
        for weights in [linear, geometric] {
            let total: f64 = weights.iter().sum();
            let prior: Vec<f64> = weights.iter().map(|w| w / total).collect();
            let text = ldp_text(&prior, eps);
            let (listed, listed_bound, listed_notes) = optimum(&text, ENUMERATION_LIMIT);
            let (searched, searched_bound, searched_notes) =
                optimum_searching_from(&text, ENUMERATION_LIMIT, 0);
            assert!(
                listed_notes[0].contains("staircase patterns)"),
                "{listed_notes:?}"
            );
            assert!(
                searched_notes[0].contains("branch and bound"),
                "{searched_notes:?}"
            );
            assert!(
                (listed - searched).abs() <= SAME_OPTIMUM * listed,
                "n {n} eps {eps}: {listed} vs {searched}"
            );
            assert!(searched_bound <= listed * (1.0 + 1e-12));
            assert!(listed_bound <= searched * (1.0 + 1e-12));
        }
    }
}

/// The staircase search reaches the best subset selection at a uniform prior nudged by 1e-11
/// (which the symmetric closed form does not take): 21.73638453192225 at n = 8, eps = 1,
/// computed independently in problems/derive.py.
#[test]
fn the_staircase_search_reaches_subset_selection_at_a_nudged_uniform_prior() {
    let mut prior = vec![1.0 / 8.0; 8];
    prior[0] += 1e-11;
    prior[1] -= 1e-11;
    let (value, bound, notes) =
        optimum_searching_from(&ldp_text(&prior, 1.0), ENUMERATION_LIMIT, 0);
    assert!(notes[0].contains("branch and bound"), "{notes:?}");
    let expected = 21.73638453192225;
    assert!(
        (value - expected).abs() <= SAME_OPTIMUM * expected,
        "{value}"
    );
    assert!(bound <= expected * (1.0 + 1e-9), "{bound}");
}
