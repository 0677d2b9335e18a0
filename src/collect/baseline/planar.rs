//! Planar Laplace (geo-indistinguishability) on a grid: the continuous mechanism with density
//! `eps^2 / (2 pi) e^{-eps |z - x|}`, each point snapped to the nearest grid cell (clamped to
//! the grid). Snapping is post-processing, so the channel is eps-d-private in Euclidean
//! distance between cells.
//!
//! The cell probabilities are computed in polar coordinates around the true cell: along each
//! ray the radius has the distribution function `F(t) = 1 - e^{-eps t} (1 + eps t)`, and the
//! ray crosses the cell boundaries at known distances, so each ray's contribution is exact;
//! the angle is integrated by the midpoint rule with [`PlanarLaplace::angles`] points.

use super::{wrap, Baseline, BaselineChannel};
use crate::collect::CollectError;
use crate::domain::{Domain, Positions};

/// Default number of angles of the midpoint rule.
pub const PLANAR_LAPLACE_ANGLES: usize = 8192;

/// Planar Laplace snapped to a grid.
#[derive(Debug, Clone, Copy)]
pub struct PlanarLaplace {
    /// Angles of the midpoint rule.
    pub angles: usize,
}

impl Default for PlanarLaplace {
    fn default() -> Self {
        PlanarLaplace {
            angles: PLANAR_LAPLACE_ANGLES,
        }
    }
}

fn snap(v: f64, size: usize) -> usize {
    (v.round().max(0.0) as usize).min(size - 1)
}

impl PlanarLaplace {
    /// The row of the cell `(r0, c0)` on a `rows x cols` grid.
    pub fn row(&self, rows: usize, cols: usize, r0: usize, c0: usize, eps: f64) -> Vec<f64> {
        let cdf = |t: f64| {
            if t.is_infinite() {
                1.0
            } else {
                1.0 - (-eps * t).exp() * (1.0 + eps * t)
            }
        };
        let mut out = vec![0.0; rows * cols];
        let mut cuts: Vec<f64> = Vec::with_capacity(rows + cols + 2);
        let weight = 1.0 / self.angles as f64;
        for k in 0..self.angles {
            let theta = (k as f64 + 0.5) * std::f64::consts::TAU * weight;
            let (dr, dc) = (theta.cos(), theta.sin());
            cuts.clear();
            cuts.push(0.0);
            for (d, p0, size) in [(dr, r0 as f64, rows), (dc, c0 as f64, cols)] {
                if d != 0.0 {
                    for b in 0..size.saturating_sub(1) {
                        let t = (b as f64 + 0.5 - p0) / d;
                        if t > 0.0 {
                            cuts.push(t);
                        }
                    }
                }
            }
            cuts.sort_by(f64::total_cmp);
            cuts.push(f64::INFINITY);
            for w in cuts.windows(2) {
                let mid = if w[1].is_infinite() {
                    w[0] + 1.0
                } else {
                    0.5 * (w[0] + w[1])
                };
                let cell =
                    snap(r0 as f64 + mid * dr, rows) * cols + snap(c0 as f64 + mid * dc, cols);
                out[cell] += weight * (cdf(w[1]) - cdf(w[0]));
            }
        }
        let s: f64 = out.iter().sum();
        out.iter_mut().for_each(|v| *v /= s);
        out
    }
}

impl Baseline for PlanarLaplace {
    fn name(&self) -> &'static str {
        "planar-laplace"
    }
    fn applies(&self, domain: &Domain) -> bool {
        matches!(domain.positions(), Positions::Grid { .. })
    }
    fn channel(&self, domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError> {
        let Positions::Grid { rows, cols } = *domain.positions() else {
            return Err(CollectError::invalid(
                "--baseline",
                "planar-laplace",
                "needs a grid domain",
            ));
        };
        let rows_q = (0..rows * cols)
            .map(|x| self.row(rows, cols, x / cols, x % cols, eps))
            .collect();
        wrap(rows_q, None)
    }
}
