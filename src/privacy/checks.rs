//! Checks of the numbers in `[[privacy]]` entries: epsilons, deltas, release counts, square
//! matrices and priors.

use crate::error::{show_list, show_number, ProblemError};

/// Delta must be a number in `[0, 1]` (a probability); absent means 0.
pub fn check_delta(key: &str, delta: Option<f64>) -> Result<f64, ProblemError> {
    match delta {
        None => Ok(0.0),
        Some(d) if (0.0..=1.0).contains(&d) => Ok(d),
        Some(d) => Err(ProblemError::invalid(
            key,
            d,
            "delta is a probability: a number in [0, 1] (0 gives the pure notion)",
        )),
    }
}

/// Most independent releases a privacy entry may ask for (the k-fold leakage is certified on
/// the product channel, or by Thm 4 of context-aware-lip over k copies).
pub const MAX_RELEASES: usize = 1000;

/// `releases` must be in 1..=[`MAX_RELEASES`], and more than 1 only with delta = 0.
pub(super) fn check_releases(
    key: &str,
    releases: Option<usize>,
    delta: f64,
) -> Result<usize, ProblemError> {
    match releases {
        None => Ok(1),
        Some(0) => Err(ProblemError::invalid(
            format!("{key}.releases"),
            0,
            "the number of independent releases must be at least 1",
        )),
        Some(k) if k > MAX_RELEASES => Err(ProblemError::invalid(
            format!("{key}.releases"),
            k,
            format!("at most {MAX_RELEASES} independent releases"),
        )),
        Some(k) if k > 1 && delta > 0.0 => Err(ProblemError::invalid(
            format!("{key}.releases"),
            k,
            "several releases are supported only with delta = 0",
        )),
        Some(k) => Ok(k),
    }
}

/// Largest accepted epsilon.
pub const MAX_EPSILON: f64 = 30.0;

/// Epsilon must be a finite number `>= 0` (no upper bound: for checking a given channel).
pub fn check_epsilon_finite(key: &str, epsilon: f64) -> Result<f64, ProblemError> {
    if epsilon.is_nan() || epsilon < 0.0 || epsilon.is_infinite() {
        return Err(ProblemError::invalid(
            key,
            epsilon,
            "epsilon must be a finite number >= 0",
        ));
    }
    Ok(epsilon)
}

/// Epsilon must be a finite number in `[0, MAX_EPSILON]` (for a program to solve).
pub fn check_epsilon(key: &str, epsilon: f64) -> Result<f64, ProblemError> {
    check_epsilon_finite(key, epsilon)?;
    if epsilon > MAX_EPSILON {
        return Err(ProblemError::invalid(
            key,
            show_number(epsilon),
            format!("epsilon above {MAX_EPSILON} gives likelihood ratios beyond e^{MAX_EPSILON} (about 1e13), past what an LP solver resolves"),
        ));
    }
    Ok(epsilon)
}

/// A matrix over the domain: n x n, entries non-negative (`inf` allowed), no NaN.
pub(crate) fn validate_square(key: &str, m: &[Vec<f64>], n: usize) -> Result<(), ProblemError> {
    if m.len() != n {
        return Err(ProblemError::invalid(
            key,
            format!("{} rows", m.len()),
            format!("must be {n} x {n} to match the domain"),
        ));
    }
    for (i, row) in m.iter().enumerate() {
        if row.len() != n {
            return Err(ProblemError::invalid(
                format!("{key}[{i}]"),
                show_list(row),
                format!("row has {} entries; must have {n}", row.len()),
            ));
        }
        if let Some((j, v)) = row
            .iter()
            .enumerate()
            .find(|(_, v)| v.is_nan() || **v < 0.0)
        {
            return Err(ProblemError::invalid(
                format!("{key}[{i}][{j}]"),
                v,
                "entries must be >= 0 (inf allowed)",
            ));
        }
    }
    Ok(())
}

pub(super) fn require_full_support(
    key: &str,
    prior: &[f64],
    notion: &str,
) -> Result<(), ProblemError> {
    if let Some(x) = prior.iter().position(|&p| p == 0.0) {
        return Err(ProblemError::invalid(
            key,
            show_list(prior),
            format!(
                "entry {x} is 0: {notion} only constrains inputs of positive prior probability, so row {x} would be left unconstrained; give it positive probability or remove the symbol"
            ),
        ));
    }
    Ok(())
}
