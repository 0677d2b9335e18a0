//! The channel matrix `Q[x][y] = P(Y = y | X = x)`.

use crate::error::ProblemError;
use crate::numeric::ROW_SUM_TOLERANCE;
use serde::Serialize;

/// A row-stochastic matrix: one row per input, one column per output.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Channel {
    rows: Vec<Vec<f64>>,
}

impl Channel {
    /// Validate and wrap `rows`: at least one row, equal non-zero lengths, finite non-negative
    /// entries, and each row summing to 1 within [`ROW_SUM_TOLERANCE`].
    pub fn new(rows: Vec<Vec<f64>>) -> Result<Self, ProblemError> {
        let m = rows.first().map_or(0, Vec::len);
        if rows.is_empty() || m == 0 {
            return Err(ProblemError::invalid(
                "channel.rows",
                "[]",
                "a channel needs at least one row and one column",
            ));
        }
        for (x, row) in rows.iter().enumerate() {
            if row.len() != m {
                return Err(ProblemError::invalid(
                    format!("channel.rows[{x}]"),
                    format!("{} entries", row.len()),
                    format!("every row must have {m} entries, like row 0"),
                ));
            }
            if let Some((y, v)) = row
                .iter()
                .enumerate()
                .find(|(_, v)| !(v.is_finite() && **v >= 0.0))
            {
                return Err(ProblemError::invalid(
                    format!("channel.rows[{x}][{y}]"),
                    v,
                    "probabilities must be finite and non-negative",
                ));
            }
            let sum: f64 = row.iter().sum();
            if (sum - 1.0).abs() > ROW_SUM_TOLERANCE {
                return Err(ProblemError::invalid(
                    format!("channel.rows[{x}]"),
                    format!("(sum {sum})"),
                    "each row is a distribution over outputs and must sum to 1",
                ));
            }
        }
        Ok(Channel { rows })
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.rows.len()
    }

    /// Number of outputs.
    pub fn outputs(&self) -> usize {
        self.rows[0].len()
    }

    /// `Q[x][y]`.
    pub fn get(&self, x: usize, y: usize) -> f64 {
        self.rows[x][y]
    }

    /// The rows.
    pub fn rows(&self) -> &[Vec<f64>] {
        &self.rows
    }

    /// Column `y` as a vector over inputs.
    pub fn column(&self, y: usize) -> Vec<f64> {
        self.rows.iter().map(|r| r[y]).collect()
    }

    /// Output distribution `lambda_y = sum_x p_x Q[x][y]` under `prior`.
    pub fn output_marginal(&self, prior: &[f64]) -> Vec<f64> {
        (0..self.outputs())
            .map(|y| prior.iter().zip(&self.rows).map(|(p, r)| p * r[y]).sum())
            .collect()
    }

    /// The mixture `(1 - t) Q + t * 1 r^T`: every row moves towards the distribution `r`.
    /// Mixing with a constant-row channel never increases LDP, context-LDP, LIP, maximal leakage
    /// or (for a prior it can satisfy) identifiability: each likelihood ratio becomes a mediant
    /// of the old ratio and the constant channel's.
    pub fn mix_with_constant(&self, r: &[f64], t: f64) -> Channel {
        let rows = self
            .rows
            .iter()
            .map(|row| {
                row.iter()
                    .zip(r)
                    .map(|(q, ry)| (1.0 - t) * q + t * ry)
                    .collect()
            })
            .collect();
        Channel { rows }
    }

    /// Wrap rows that internal arithmetic produced from a channel (finite, non-negative, rows
    /// summing to 1 up to rounding).
    pub(crate) fn from_rows_internal(rows: Vec<Vec<f64>>) -> Channel {
        Channel { rows }
    }

    /// Whether every row is the same (the output ignores the input).
    pub fn ignores_input(&self) -> bool {
        self.rows.iter().all(|r| *r == self.rows[0])
    }

    /// Outputs whose column is identically zero (never reported).
    pub fn unused_outputs(&self) -> Vec<usize> {
        (0..self.outputs())
            .filter(|&y| self.rows.iter().all(|r| r[y] == 0.0))
            .collect()
    }

    /// Wrap rows without validation (derivative checks and internal arithmetic only).
    #[cfg(test)]
    pub(crate) fn from_rows_unchecked(rows: Vec<Vec<f64>>) -> Channel {
        Channel { rows }
    }

    /// Make every row's exact sum at most 1 (see [`at_most_one`]).
    pub(crate) fn with_rows_at_most_one(mut self) -> Channel {
        self.rows.iter_mut().for_each(|r| at_most_one(r));
        self
    }

    /// Turn a solver's point into a channel: clip negative entries (solver noise) to 0 and divide
    /// each row by its sum. Returns the channel and the largest correction made to any entry.
    pub(crate) fn from_solver_point(rows: Vec<Vec<f64>>) -> (Channel, f64) {
        let mut correction: f64 = 0.0;
        let rows = rows
            .into_iter()
            .map(|row| {
                let mut clipped: Vec<f64> = row.iter().map(|v| v.max(0.0)).collect();
                let mut sum: f64 = clipped.iter().sum();
                if !(sum.is_finite() && sum > 0.0) {
                    // A point without a usable row (a failed solve): fall back to uniform and
                    // let the correction tell.
                    clipped = vec![1.0; row.len()];
                    sum = row.len() as f64;
                }
                let mut fixed: Vec<f64> = clipped.iter().map(|v| v / sum).collect();
                at_most_one(&mut fixed);
                for (a, b) in row.iter().zip(&fixed) {
                    correction = correction.max((a - b).abs());
                }
                fixed
            })
            .collect();
        (Channel { rows }, correction)
    }
}

/// Lower the largest entry of `row` by units in the last place until the exact sum of the
/// row's numbers is at most 1: a row of floating-point numbers rarely sums to exactly 1, and a
/// sum above 1 would make the numbers themselves leak (maximal leakage `ln sum_y max_x Q`
/// of a constant channel would be positive). The change is a few units in the last place.
pub(crate) fn at_most_one(row: &mut [f64]) {
    use crate::numeric::exact_sum_minus;
    let Some(top) = (0..row.len()).max_by(|&a, &b| row[a].total_cmp(&row[b])) else {
        return;
    };
    for _ in 0..MAX_ROW_SUM_STEPS {
        let excess = exact_sum_minus(row, 1.0);
        if excess <= 0.0 || row[top] <= 0.0 {
            return;
        }
        // Lower the largest entry by about the excess (at least one unit in the last place);
        // the next pass checks the exact sum again.
        row[top] = (row[top] - excess).next_down().max(0.0);
    }
}

/// Most downward steps of the largest entry when bringing a row's sum to at most 1 (a row
/// divided by its floating-point sum is within a few units of 1).
const MAX_ROW_SUM_STEPS: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_rows_that_do_not_sum_to_one() {
        let e = Channel::new(vec![vec![0.5, 0.5], vec![0.7, 0.2]]).unwrap_err();
        assert!(e.to_string().contains("channel.rows[1]"), "{e}");
    }

    #[test]
    fn rejects_ragged_and_negative_rows() {
        assert!(Channel::new(vec![vec![1.0], vec![0.5, 0.5]]).is_err());
        let e = Channel::new(vec![vec![1.2, -0.2]]).unwrap_err();
        assert!(e.to_string().contains("[0][1]"), "{e}");
    }

    #[test]
    fn mixing_moves_rows_towards_the_constant_row() {
        let c = Channel::new(vec![vec![1.0, 0.0], vec![0.0, 1.0]]).unwrap();
        let m = c.mix_with_constant(&[0.5, 0.5], 0.5);
        assert_eq!(m.rows()[0], vec![0.75, 0.25]);
    }

    #[test]
    fn rows_are_brought_to_an_exact_sum_of_at_most_one() {
        // 0.1 + 0.2 + next_up(0.7) exceeds 1 by 8.3e-17 in exact arithmetic.
        let mut row = vec![0.1, 0.2, 0.7f64.next_up()];
        at_most_one(&mut row);
        assert_ne!(
            crate::numeric::exact_sum_cmp(&row, 1.0),
            std::cmp::Ordering::Greater
        );
        assert!((row[2] - 0.7).abs() < 1e-15);
    }

    #[test]
    fn solver_noise_is_clipped_and_rows_renormalized() {
        let (c, corr) = Channel::from_solver_point(vec![vec![1.0 + 1e-9, -1e-9]]);
        assert_eq!(c.get(0, 1), 0.0);
        assert!((c.get(0, 0) - 1.0).abs() < 1e-15 && corr < 2e-9);
    }
}
