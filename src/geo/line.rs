//! Points of the real line that are equally spaced (after sorting), step `h`: where the line
//! method applies to one eps-d-privacy constraint with `metric = "line"`.

/// Gaps between neighbours may differ by this much, relative to the largest, and still count
/// as equal (values written in decimal are rarely exactly equally spaced in binary).
pub const SPACING_TOLERANCE: f64 = 1e-9;
/// The primal uses the per-step log-ratio `eps * h_min` shrunk by this relative margin, so the
/// emitted channel meets every pair's budget despite the rounding of its entries.
pub const PRIMAL_BUDGET_MARGIN: f64 = 1e-11;

/// A lone eps-d-privacy constraint on equally spaced points of a line.
#[derive(Debug, Clone, PartialEq)]
pub struct EquallySpacedLine {
    /// Input indices in increasing order of position.
    pub order: Vec<usize>,
    /// The per-step log-ratio the primal (the tents) uses: a little below `eps * h_min`.
    pub primal_log_ratio: f64,
    /// A per-step log-ratio at least `eps * h_max` (rounded up): the pricing relaxes every
    /// adjacent budget to it, which can only lower the bound.
    pub bound_log_ratio: f64,
}

impl EquallySpacedLine {
    /// From the points' positions and eps (per unit of distance); `None` unless there are at
    /// least two points, eps is positive and finite, and the sorted gaps are positive and
    /// equal within [`SPACING_TOLERANCE`].
    pub fn new(values: &[f64], epsilon: f64) -> Option<Self> {
        let n = values.len();
        if n < 2 || !(epsilon.is_finite() && epsilon > 0.0) {
            return None;
        }
        if values.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let (h_min, h_max, order) = spacing(values);
        if h_min <= 0.0 || h_max - h_min > SPACING_TOLERANCE * h_max {
            return None;
        }
        // The distance d(a, b) is the floating-point |v_a - v_b|, the same numbers as the
        // gaps; `eps * h_max` is rounded up by a few ulps so it is at least the exact product.
        let bound_log_ratio = (epsilon * h_max) * (1.0 + 4.0 * f64::EPSILON);
        let primal_log_ratio = (epsilon * h_min) * (1.0 - PRIMAL_BUDGET_MARGIN);
        (primal_log_ratio > 0.0 && bound_log_ratio.is_finite()).then_some(EquallySpacedLine {
            order,
            primal_log_ratio,
            bound_log_ratio,
        })
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Always false (a line has at least two points).
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

/// Smallest and largest gap between sorted neighbours, and the sorting order.
fn spacing(values: &[f64]) -> (f64, f64, Vec<usize>) {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let (mut h_min, mut h_max) = (f64::INFINITY, 0.0f64);
    for pair in order.windows(2) {
        let gap = (values[pair[0]] - values[pair[1]]).abs();
        h_min = h_min.min(gap);
        h_max = h_max.max(gap);
    }
    (h_min, h_max, order)
}

/// Whether `values` are equally spaced (at least two, distinct, equal gaps within
/// [`SPACING_TOLERANCE`]): the line method applies to d-privacy over them.
pub fn equally_spaced(values: &[f64]) -> bool {
    EquallySpacedLine::new(values, 1.0).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_and_unsorted_equal_gaps_are_detected() {
        let line = EquallySpacedLine::new(&[0.0, 0.1, 0.2, 0.3], 2.0).unwrap();
        assert_eq!(line.order, vec![0, 1, 2, 3]);
        assert!((line.bound_log_ratio - 0.2).abs() < 1e-12);
        assert!(line.primal_log_ratio <= 0.2 * (1.0 - PRIMAL_BUDGET_MARGIN / 2.0));
        let line = EquallySpacedLine::new(&[3.0, 1.0, 2.0, 0.0], 1.0).unwrap();
        assert_eq!(line.order, vec![3, 1, 2, 0]);
    }

    #[test]
    fn unequal_gaps_repeated_points_and_single_points_are_refused() {
        assert!(EquallySpacedLine::new(&[0.0, 1.0, 3.0], 1.0).is_none());
        assert!(EquallySpacedLine::new(&[0.0, 1.0, 1.0], 1.0).is_none());
        assert!(EquallySpacedLine::new(&[0.0], 1.0).is_none());
        assert!(EquallySpacedLine::new(&[0.0, 1.0], 0.0).is_none());
    }
}
