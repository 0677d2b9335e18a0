//! Rows of a method's point that are equal up to the solver's accuracy, as candidate ties for
//! certification.
//!
//! Near the feasibility threshold of a notion whose constraint, summed over the outputs, pins
//! two rows together (identifiability with `e^eps` just above `max p / min p`: the rows of the
//! most and least likely inputs must agree to within `e^eps p_min - p_max`), every feasible
//! channel has almost no slack on that pair, so mixing with a constant channel repairs the
//! solver's tiny violation only at a weight near 1. Making such rows exactly equal (their
//! prior-weighted average) removes the violation at the cost of the rows' difference; the
//! caller keeps the result only when it certifies and costs less than the other repairs.

use crate::channel::Channel;

/// Largest entry-wise difference between two rows of the solver's point for which making them
/// equal is tried, in increasing order (each a separate candidate). The smallest is above an
/// interior-point solver's accuracy at the default tolerance 1e-10; the largest still leaves
/// the objective within about that much of the point's.
pub(super) const NEAR_EQUAL_ROWS: [f64; 3] = [1e-9, 1e-7, 1e-5];

/// Above this many inputs the O(n^2 m) comparison is skipped.
pub(super) const NEAR_TIE_MAX_INPUTS: usize = 300;

/// The groups (two or more inputs, sorted) connected by pairs of rows whose entries differ by
/// at most `threshold` everywhere.
pub(super) fn near_equal_groups(channel: &Channel, threshold: f64) -> Vec<Vec<usize>> {
    let rows = channel.rows();
    let n = rows.len();
    let close = |a: usize, b: usize| {
        rows[a]
            .iter()
            .zip(&rows[b])
            .all(|(u, v)| (u - v).abs() <= threshold)
    };
    crate::certify::connected_groups(
        n,
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| close(a, b)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_join_rows_within_the_threshold_only() {
        let channel = Channel::from_rows_internal(vec![
            vec![0.5, 0.5],
            vec![0.3, 0.7],
            vec![0.5 + 1e-10, 0.5 - 1e-10],
            vec![0.3 + 1e-6, 0.7 - 1e-6],
        ]);
        assert_eq!(near_equal_groups(&channel, 1e-9), vec![vec![0, 2]]);
        assert_eq!(
            near_equal_groups(&channel, 1e-5),
            vec![vec![0, 2], vec![1, 3]]
        );
        assert!(near_equal_groups(&channel, 1e-11).is_empty());
    }
}
