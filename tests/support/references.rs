//! Independent references shared by the library checks and their scale versions: the MSE of
//! a wide channel's efficient estimator computed by matrix products, and the Euclidean ratio
//! cone of a point set.

use mechsynth::rays::ColumnCone;
use nalgebra::{DMatrix, DVector};

/// The certified optimum may trail an independent mechanism's value by at most this, relative.
pub const OPTIMUM_SLACK: f64 = 1e-7;

/// The MSE of a channel with more outputs than inputs through its efficient unbiased
/// estimator, as an independent check: the least-squares estimator weighted by the true
/// output probabilities, `pi_hat = (Q D^-1 Q^T)^-1 Q D^-1 c/N`, has covariance
/// `M (diag(lambda) - Q^T diag(pi) Q) M^T` with `M` that matrix; computed here by that
/// product, not by the closed form.
pub fn wide_mse(rows: &[Vec<f64>], pi: &[f64]) -> f64 {
    let n = pi.len();
    let m = rows[0].len();
    let q = DMatrix::from_fn(n, m, |x, y| rows[x][y]);
    let lambda = q.transpose() * DVector::from_column_slice(pi);
    let d_inv = DMatrix::from_diagonal(&lambda.map(|l| 1.0 / l));
    let gram = &q * &d_inv * q.transpose();
    let estimator = gram.try_inverse().unwrap() * &q * &d_inv;
    let mut cov = DMatrix::from_diagonal(&lambda);
    for (x, &weight) in pi.iter().enumerate() {
        let row = q.row(x).transpose();
        cov -= (&row * row.transpose()) * weight;
    }
    (&estimator * cov * estimator.transpose()).trace()
}

/// The cone of `q_a <= e^{eps d(a, b)} q_b` over every ordered pair of `points` (Euclidean).
pub fn cone_of(points: &[(f64, f64)], epsilon: f64) -> ColumnCone {
    let n = points.len();
    let mut cone = ColumnCone::orthant(n);
    for a in 0..n {
        for b in 0..n {
            if a != b {
                let d = (points[a].0 - points[b].0).hypot(points[a].1 - points[b].1);
                cone.rows.push(ColumnCone::ratio_row(a, b, epsilon * d));
            }
        }
    }
    cone
}

/// The points of a `rows x cols` grid with unit steps.
pub fn grid(rows: usize, cols: usize) -> Vec<(f64, f64)> {
    (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r as f64, c as f64)))
        .collect()
}
