//! Minimal reproductions of findings of the soundness suite (`tests/soundness/soundness.rs`), each with
//! its optimum derived by hand.

use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use std::path::Path;

/// Float rounding of the hand-derived optimum `2 w^2` (two products, one ulp each).
const OPTIMUM_ROUNDING: f64 = 4.0 * f64::EPSILON;

/// eps = 0 BP-LIP forces `Q[x][y] = lambda_y(p)` for every input of the prior set's support, so
/// every row equals the output distribution: the MMSE of `w X` is `w^2 Var X`, and `Var X = 2`
/// for X uniform on 0..4. The rigorous lower bound must not exceed `2 w^2`. It did, by 1.06e-11
/// (2e-12 relative), when the prior set has entries near 1e-6: the single ray came out of double
/// description slightly off the all-ones vector, and the dual bound is exact only for the
/// enumerated rays. Rays are now snapped to the rows the notions tie.
#[test]

fn bp_lip_at_zero_epsilon_bound_is_below_the_optimum() {
    let text = r#"
        [domain]
        size = 5
        [[privacy]]
        notion = "bp-lip"
        epsilon = 0.0
        priors = [[0.33535135921846626, 0.0000009468541365771506, 0.5220465198576575, 0.14260022721560334, 0.0000009468541365771506], [0.12286237561066038, 0.0, 0.545852965009655, 0.1509358667761163, 0.18034879260356843], [0.0, 0.25, 0.25, 0.25, 0.25]]
        [objective]
        kind = "mmse-sum"
        weight = 1.5600887397177914
    "#;
    let spec = ProblemSpec::from_toml(text, Path::new("bp-lip-zero.toml")).unwrap();
    let report = solve(&Problem::from_spec(spec).unwrap(), &SolveOptions::default()).unwrap();
    let w: f64 = 1.5600887397177914;
    let optimum = 2.0 * w * w;
    let bound = report.bound.expect("the extreme-ray LP gives a bound");
    assert!(
        bound <= optimum * (1.0 + OPTIMUM_ROUNDING),
        "bound {bound} is above the optimum {optimum} by {:e}",
        bound - optimum
    );
}

/// eps = 0 LIP (under its own prior, of full support) forces every row to equal the output
/// distribution, so every feasible channel has mutual information 0: the rigorous upper bound
/// must be at least 0. With maximal leakage added, the single ray came out of double
/// description slightly off, and the bound was -1.07e-12 (fixed as above).
#[test]

fn lip_at_zero_epsilon_mutual_information_bound_is_not_below_zero() {
    let text = r#"
        [domain]
        prior = [0.29398121851713305, 0.22549064521601103, 0.4805270984634667, 0.0000005189016947091158, 0.0000005189016947091158]
        [domain.grid]
        rows = 1
        cols = 5
        [[privacy]]
        notion = "max-leakage"
        epsilon = 2.461806580173414
        [[privacy]]
        notion = "lip"
        epsilon = 0.0
        prior = [0.0000011614239027759246, 0.4120985150055433, 0.0000011614239027759246, 0.5878980007227484, 0.0000011614239027759246]
        [objective]
        kind = "mutual-information"
    "#;
    let spec = ProblemSpec::from_toml(text, Path::new("lip-zero-mi.toml")).unwrap();
    let report = solve(&Problem::from_spec(spec).unwrap(), &SolveOptions::default()).unwrap();
    let bound = report.bound.expect("the extreme-ray LP gives a bound");
    assert!(bound >= 0.0, "upper bound {bound} is below the optimum 0");
}
