//! Mixture weights must sum to 1: a sum off by more than the tolerance is an error naming the
//! weights and their sum (library), and bad input with exit code 2 naming the key (binary);
//! histogram counts are still rescaled, since counts are not meant to sum to 1.

use crate::bin::command;
use mechsynth::continuous::prior::PROBABILITY_SUM_TOLERANCE;
use mechsynth::continuous::problem::parse_prior;
use mechsynth::continuous::{ContinuousError, Prior};

fn two_normals(w0: f64, w1: f64) -> Result<Prior, ContinuousError> {
    Prior::mixture(vec![
        (w0, Prior::normal(0.0, 1.0).unwrap()),
        (w1, Prior::normal(2.0, 1.0).unwrap()),
    ])
}

#[test]
fn weights_summing_to_more_than_one_are_rejected_naming_them_and_their_sum() {
    let err = two_normals(0.5, 0.6).expect_err("0.5 + 0.6 = 1.1 is not a mixture");
    let ContinuousError::Invalid { key, value, reason } = &err else {
        panic!("expected bad input, got {err:?}");
    };
    assert!(key.contains("weight"), "{key}");
    assert!(value.contains("0.5") && value.contains("0.6"), "{value}");
    assert!(reason.contains("1.1"), "{reason}");
    assert!(err.is_bad_input());
}

#[test]
fn weights_summing_to_less_than_one_are_rejected() {
    assert!(two_normals(0.3, 0.3).is_err());
    // Just outside the tolerance on either side.
    assert!(two_normals(0.5, 0.5 + 10.0 * PROBABILITY_SUM_TOLERANCE).is_err());
    assert!(two_normals(0.5, 0.5 - 10.0 * PROBABILITY_SUM_TOLERANCE).is_err());
}

#[test]
fn weights_summing_to_one_within_the_tolerance_are_accepted_and_keep_their_values() {
    let mix = two_normals(0.3, 0.7 + 0.1 * PROBABILITY_SUM_TOLERANCE).unwrap();
    // Independent reference: the mixture's mean from its definition, 0.3 * 0 + 0.7 * 2.
    assert!((mix.mean() - 1.4).abs() < 1e-8, "{}", mix.mean());
    let Prior::Mixture(parts) = mix else {
        panic!("a mixture")
    };
    let total: f64 = parts.iter().map(|(w, _)| w).sum();
    assert!((total - 1.0).abs() <= f64::EPSILON * 4.0);
}

#[test]
fn the_command_line_mixture_syntax_rejects_weights_not_summing_to_one() {
    assert!(parse_prior("0.5*normal(0,1)+0.6*normal(2,1)").is_err());
    assert!(parse_prior("0.4*normal(0,1)+0.6*normal(2,1)").is_ok());
}

#[test]
fn histogram_counts_are_still_rescaled_to_probabilities() {
    // Counts 1 and 3 on [0, 1) and [1, 2): the mean is 0.25 * 0.5 + 0.75 * 1.5 = 1.25.
    let h = Prior::histogram(&[0.0, 1.0, 2.0], &[1.0, 3.0]).unwrap();
    assert!((h.mean() - 1.25).abs() < 1e-12, "{}", h.mean());
}

#[test]
fn the_binary_exits_2_naming_the_weights_of_a_problem_file_mixture() {
    let dir = std::env::temp_dir().join(format!("mechsynth-mixture-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mixture.toml");
    std::fs::write(
        &file,
        r#"name = "mixture whose weights sum to 1.1"
[continuous]
mechanism = "laplace"
notion = "lip"
epsilon = 1.0
delta = 1e-3
range = [-4.0, 5.0]
[continuous.prior]
kind = "mixture"
components = [
  { kind = "normal", mean = -2.0, sd = 1.0, weight = 0.5 },
  { kind = "normal", mean = 1.0, sd = 0.5, weight = 0.6 },
]
"#,
    )
    .unwrap();
    let o = command()
        .args(["continuous", file.to_str().unwrap()])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("prior.components"), "{stderr}");
    assert!(stderr.contains("weight"), "{stderr}");
    assert!(stderr.contains("1.1"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
