//! Pure eps-LIP of Laplace noise on a discrete prior (the setting of context-aware-lip
//! Theorem 6), computed exactly from Corollary 1: the leakage at input `x_j` is
//! `sup_y |ln(f_Y(y) / f_{Y|x_j}(y))|` with `f_Y = sum_i p_i Lap(x_i, b)`.
//!
//! The ratio `r(y) = sum_i p_i exp((|y - x_j| - |y - x_i|) / b)` is a sum of exponentials of
//! linear functions between consecutive support points, hence convex there: its maximum is at
//! a support point or at the constant tails, its minimum on each piece is found by golden
//! section (exact for convex functions up to the stopping width). The output is the real line;
//! clamping it to a window `[l, u]` is post-processing and cannot increase the leakage.

/// Golden-section iterations per piece (width shrinks by 0.618 each).
const GOLDEN_STEPS: usize = 200;

/// `ln`-ratio leakage `sup_y |ln(f_Y(y)/f_{Y|x_j}(y))|` at input index `j`.
pub fn leakage_at(points: &[f64], probs: &[f64], b: f64, j: usize) -> f64 {
    let xj = points[j];
    let ratio = |y: f64| -> f64 {
        points
            .iter()
            .zip(probs)
            .map(|(xi, p)| p * (((y - xj).abs() - (y - xi).abs()) / b).exp())
            .sum()
    };
    let mut sorted = points.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.dedup();
    // Tails: constant beyond the extreme points, equal to the values there.
    let mut hi = f64::MIN;
    let mut lo = f64::MAX;
    for &t in &sorted {
        let r = ratio(t);
        hi = hi.max(r);
        lo = lo.min(r);
    }
    for w in sorted.windows(2) {
        let (mut a, mut c) = (w[0], w[1]);
        let g = 0.5 * (5f64.sqrt() - 1.0);
        for _ in 0..GOLDEN_STEPS {
            let (m1, m2) = (c - g * (c - a), a + g * (c - a));
            if ratio(m1) < ratio(m2) {
                c = m2;
            } else {
                a = m1;
            }
            if c - a <= f64::EPSILON * (1.0 + a.abs()) {
                break;
            }
        }
        lo = lo.min(ratio(0.5 * (a + c)));
    }
    hi.ln().max(-lo.ln())
}

/// The eps-LIP leakage of Laplace(b) noise on the discrete prior: the worst input.
pub fn leakage(points: &[f64], probs: &[f64], b: f64) -> f64 {
    (0..points.len())
        .map(|j| leakage_at(points, probs, b, j))
        .fold(0.0, f64::max)
}
