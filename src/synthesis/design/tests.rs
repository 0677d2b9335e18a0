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
    let spec = ProblemSpec::from_toml(text, Path::new("test.toml")).expect("valid");
    let problem = Problem::from_spec(spec).expect("valid");
    let design = problem.objective.frequency_design().expect("frequency-mse");
    let privacy: Vec<&dyn PrivacyNotion> = problem.privacy.iter().map(|p| p.as_ref()).collect();
    let run = Run::new(&ClarabelBackend, SolveOptions::default(), None);
    let n = problem.domain.size();
    let outcome =
        design_with_list_limit(&privacy, design, n, &run, list_limit).expect("a ratio cone");
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
