//! The column cone of a set of polyhedral privacy notions and its extreme rays.
//!
//! Every polyhedral notion constrains each column `q_y` of the channel separately: `q_y` must lie
//! in a polyhedral cone C, possibly lifted by auxiliary coordinates (maximal leakage adds the
//! column maximum `t_y`), and the only coupling between columns is the row sums plus linear rows
//! on the auxiliary coordinates (`sum_y t_y <= e^eps`). A utility that is a sum over columns of
//! convex, positively homogeneous functions is then maximized by a channel whose columns are
//! extreme rays of C (Kairouz, Oh, Viswanath, "Extremal mechanisms for local differential
//! privacy"; docs/design-notes.md, "Extreme rays"), which makes the design an exact LP over the rays.

mod compact;
mod double_description;
mod polytrope;
mod ratio_cone;
mod special;

pub use compact::{CompactRays, Scanned};
pub use double_description::{enumerate_rays, enumerate_rays_until};
pub use polytrope::{SearchBox, SearchStats, VertexVisitor};
pub use ratio_cone::{RatioCone, POLYTROPE_MAX_INPUTS};
pub use special::{lip_vertices, staircase_rays};

/// A cone whose extreme rays are known in closed form.
#[derive(Debug, Clone, PartialEq)]
pub enum RayFamily {
    /// eps-LDP: the staircase patterns `{1, e^eps}^n`.
    Staircase {
        /// The privacy parameter.
        epsilon: f64,
    },
    /// eps-LIP for one full-support prior: vertices of `{q in [e^-eps, e^eps]^n : p . q = 1}`.
    LipBox {
        /// The prior.
        prior: Vec<f64>,
        /// The privacy parameter.
        epsilon: f64,
    },
}

impl RayFamily {
    /// Every ray, or `None` when there are more than `limit`.
    pub fn enumerate(&self, n: usize, limit: usize) -> Option<Vec<Vec<f64>>> {
        match self {
            RayFamily::Staircase { epsilon } => staircase_rays(n, *epsilon, limit),
            RayFamily::LipBox { prior, epsilon } => lip_vertices(prior, *epsilon, limit),
        }
    }

    /// A short name for reports.
    pub fn name(&self) -> &'static str {
        match self {
            RayFamily::Staircase { .. } => "staircase patterns",
            RayFamily::LipBox { .. } => "box-hyperplane vertices",
        }
    }
}

/// A homogeneous constraint `sum_k coef_k z_k >= 0` on a lifted column `z = (q, aux)`.
pub type ConeRow = Vec<(usize, f64)>;

/// The cone of admissible columns: `z = (q_0..q_{n-1}, aux_0..aux_{k-1}) >= 0` with `rows`, and
/// `coupling` rows `sum_y c . z_y <= rhs` over all columns.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ColumnCone {
    /// Number of channel inputs (the first `n` coordinates).
    pub n: usize,
    /// Number of auxiliary coordinates after them.
    pub aux: usize,
    /// Homogeneous rows `a . z >= 0`.
    pub rows: Vec<ConeRow>,
    /// Rows `sum over columns of c . z_y <= rhs`.
    pub coupling: Vec<(ConeRow, f64)>,
}

impl ColumnCone {
    /// The cone with only `q >= 0` (no constraint).
    pub fn orthant(n: usize) -> Self {
        ColumnCone {
            n,
            ..ColumnCone::default()
        }
    }

    /// Dimension of a lifted column.
    pub fn dim(&self) -> usize {
        self.n + self.aux
    }

    /// `e^log_factor q_b - q_a >= 0`, i.e. `q_a <= e^log_factor q_b`.
    pub fn ratio_row(a: usize, b: usize, log_factor: f64) -> ConeRow {
        vec![(b, log_factor.exp()), (a, -1.0)]
    }

    /// The intersection with `other` (its auxiliary coordinates are appended after ours).
    pub fn intersect(mut self, other: ColumnCone) -> ColumnCone {
        debug_assert_eq!(self.n, other.n);
        let shift = |row: ConeRow, n: usize, by: usize| -> ConeRow {
            row.into_iter()
                .map(|(k, v)| (if k >= n { k + by } else { k }, v))
                .collect()
        };
        let by = self.aux;
        let n = self.n;
        self.rows
            .extend(other.rows.into_iter().map(|r| shift(r, n, by)));
        self.coupling.extend(
            other
                .coupling
                .into_iter()
                .map(|(r, rhs)| (shift(r, n, by), rhs)),
        );
        self.aux += other.aux;
        self
    }

    /// Whether the lifted column `z` satisfies every row to within `tolerance` (relative to the
    /// size of each term).
    pub fn contains(&self, z: &[f64], tolerance: f64) -> bool {
        z.iter().all(|&v| v >= -tolerance)
            && self.rows.iter().all(|row| {
                let (value, scale) = row.iter().fold((0.0, 0.0), |(s, a), &(k, c)| {
                    (s + c * z[k], a + (c * z[k]).abs())
                });
                value >= -tolerance * scale.max(1.0)
            })
    }
}

/// `row . z`.
pub(crate) fn dot(row: &[(usize, f64)], z: &[f64]) -> f64 {
    row.iter().map(|&(k, c)| c * z[k]).sum()
}
