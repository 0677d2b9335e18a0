//! Local d-privacy ([dP-slides]): `Q[x][y] <= e^{eps d(x,x')}
//! Q[x'][y]` for a metric d. A context-aware LDP with privacy matrix `eps * d`.

use super::context::{
    encode_pairs, leakage_over_pairs, mixing_weight_over_pairs, pairs_cone, scaled,
    zero_budget_pairs,
};
use super::registry::NotionEntry;
use super::{Check, PrivacyNotion};
use crate::channel::Channel;
use crate::domain::{Domain, Positions};
use crate::error::ProblemError;
use crate::formulation::ChannelLp;
use crate::geo::{greedy_spanner, haversine_km, Geometry};
use crate::rays::ColumnCone;
use serde::{Deserialize, Serialize};

/// The metric of a d-privacy constraint, as written in a problem file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    untagged,
    expecting = "a metric name (\"line\", \"euclidean\", \"manhattan\", \"haversine\") or a distance matrix"
)]
pub enum MetricSpec {
    /// A named metric over the domain's positions.
    Named(String),
    /// An explicit n x n distance matrix (`inf` allowed: an unconstrained pair).
    Matrix(
        #[serde(
            serialize_with = "crate::float_serde::serialize_matrix",
            deserialize_with = "crate::float_serde::deserialize_matrix"
        )]
        Vec<Vec<f64>>,
    ),
}

/// The accepted metric names.
pub const METRIC_NAMES: [&str; 4] = ["line", "euclidean", "manhattan", "haversine"];

impl MetricSpec {
    /// Distance matrix over `domain`; warnings (e.g. a broken triangle inequality) go to `warnings`.
    pub fn distances(
        &self,
        key: &str,
        domain: &Domain,
        warnings: &mut Vec<String>,
    ) -> Result<Vec<Vec<f64>>, ProblemError> {
        let coords = domain.coordinates();
        let by = |f: &dyn Fn([f64; 2], [f64; 2]) -> f64| -> Vec<Vec<f64>> {
            coords
                .iter()
                .map(|&a| coords.iter().map(|&b| f(a, b)).collect())
                .collect()
        };
        match self {
            MetricSpec::Named(name)
                if METRIC_NAMES.contains(&name.as_str()) && !domain.has_distances() =>
            {
                Err(ProblemError::invalid(
                    key,
                    format!("{name:?}"),
                    "a named metric needs positions, and the symbols of a `labels` domain have none; give a domain with distances (`values`, `line`, `size`, `grid` or `points`), or an n x n distance matrix as `metric`",
                ))
            }
            MetricSpec::Named(name) => match name.as_str() {
                "line" => {
                    if let Positions::Grid { .. } | Positions::Points { .. } = domain.positions() {
                        return Err(ProblemError::invalid(
                            key,
                            "\"line\"",
                            "a grid or points domain is 2-D; use \"euclidean\", \"manhattan\" or (lon/lat points) \"haversine\"",
                        ));
                    }
                    Ok(by(&|a, b| (a[0] - b[0]).abs()))
                }
                "euclidean" => {
                    if let Positions::Points {
                        geometry: Geometry::Lonlat,
                        ..
                    } = domain.positions()
                    {
                        warnings.push(format!("`{key}` = \"euclidean\" on lon/lat points measures raw degrees (a degree of longitude is shorter than one of latitude away from the equator); \"haversine\" gives great-circle km"));
                    }
                    Ok(by(&|a, b| (a[0] - b[0]).hypot(a[1] - b[1])))
                }
                "manhattan" => Ok(by(&|a, b| (a[0] - b[0]).abs() + (a[1] - b[1]).abs())),
                "haversine" => match domain.positions() {
                    Positions::Points {
                        geometry: Geometry::Lonlat,
                        ..
                    } => Ok(by(&haversine_km)),
                    _ => Err(ProblemError::invalid(
                        key,
                        "\"haversine\"",
                        "needs a points domain with `coordinates = \"lonlat\"` (longitude and latitude in degrees)",
                    )),
                },
                other => Err(ProblemError::unknown("metric", key, other, &METRIC_NAMES)),
            },
            MetricSpec::Matrix(d) => {
                validate_metric_matrix(key, d, domain.size())?;
                if let Some(w) = triangle_violation(d) {
                    warnings.push(format!("`{key}` is not a metric: {w}; the constraints it implies along shorter paths are enforced as well"));
                }
                Ok(d.clone())
            }
        }
    }
}

/// Check an explicit distance matrix: n x n, non-negative, zero diagonal, symmetric.
fn validate_metric_matrix(key: &str, d: &[Vec<f64>], n: usize) -> Result<(), ProblemError> {
    super::checks::validate_square(key, d, n)?;
    for (i, row) in d.iter().enumerate() {
        if row[i] != 0.0 {
            return Err(ProblemError::invalid(
                format!("{key}[{i}][{i}]"),
                row[i],
                "a metric has zero diagonal",
            ));
        }
        for (j, &v) in row.iter().enumerate() {
            if v != d[j][i] {
                return Err(ProblemError::invalid(
                    format!("{key}[{i}][{j}]"),
                    v,
                    format!("a metric is symmetric but [{j}][{i}] = {}; use notion = \"context-ldp\" for asymmetric matrices", d[j][i]),
                ));
            }
        }
    }
    Ok(())
}

/// A description of the first triangle-inequality violation, if any.
fn triangle_violation(d: &[Vec<f64>]) -> Option<String> {
    let n = d.len();
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                if d[i][k] + d[k][j] < d[i][j] * (1.0 - 1e-12) {
                    return Some(format!(
                        "d({i},{j}) = {} > d({i},{k}) + d({k},{j}) = {}",
                        d[i][j],
                        d[i][k] + d[k][j]
                    ));
                }
            }
        }
    }
    None
}

/// Local d-privacy with a resolved distance matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct DPrivacy {
    /// The privacy parameter.
    pub epsilon: f64,
    /// Distances between inputs.
    pub distances: Vec<Vec<f64>>,
    /// The pairs certification checks (`checked_pairs` of the distances).
    pub checked: Vec<(usize, usize)>,
    /// The approximate encoding over a spanner, when `approximate = { spanner = t }` is given.
    pub spanner: Option<SpannerEncoding>,
}

/// The approximate encoding of Bordenabe, Chatzikokolakis and Palamidessi, "Optimal
/// Geo-Indistinguishable Mechanisms for Location Privacy" (ACM CCS 2014): with G a t-spanner of d, only G's edges are encoded, at `eps / t`:
/// `Q[a][y] <= e^{(eps/t) d(a,b)} Q[b][y]`. Along a shortest path of G these compose to
/// `Q[x][y] <= e^{(eps/t) d_G(x,x')} Q[x'][y] <= e^{eps d(x,x')} Q[x'][y]` since
/// `d_G <= t d`, so every channel the encoding allows is eps-d-private: a restriction of the
/// exact problem, whose optimum is an upper bound (when minimizing) on the exact optimum.
#[derive(Debug, Clone, PartialEq)]
pub struct SpannerEncoding {
    /// The requested dilation t >= 1.
    pub dilation: f64,
    /// The spanner's own dilation `max d_G / d` (at most t; raised by a rounding margin), by
    /// which eps is divided: chains of edges then give `(eps / achieved) d_G <= eps d`.
    pub achieved: f64,
    /// The number of undirected edges.
    pub edges: usize,
    /// The distance on edges (both directions), `+inf` elsewhere, 0 on the diagonal.
    pub edge_distances: Vec<Vec<f64>>,
}

/// Relative margin on the measured dilation (the shortest paths are floating-point sums).
const DILATION_MARGIN: f64 = 1e-9;

impl SpannerEncoding {
    /// The greedy t-spanner of `distances`.
    pub fn new(distances: &[Vec<f64>], dilation: f64) -> Self {
        let spanner = greedy_spanner(distances, dilation);
        let graph = crate::geo::graph_distances(distances, &spanner.edges);
        let mut stretch: f64 = 1.0;
        for (d_row, g_row) in distances.iter().zip(&graph) {
            for (&d, &g) in d_row.iter().zip(g_row) {
                if d > 0.0 && d.is_finite() {
                    stretch = stretch.max(g / d);
                }
            }
        }
        let achieved = (stretch * (1.0 + DILATION_MARGIN)).min(dilation);
        SpannerEncoding {
            dilation,
            achieved,
            edges: spanner.edges.len(),
            edge_distances: spanner.edge_matrix(distances),
        }
    }

    /// The encoded log-ratio budgets `(eps / t) d(a, b)` on edges, `+inf` elsewhere.
    pub fn budgets(&self, epsilon: f64) -> Vec<Vec<f64>> {
        scaled(&self.edge_distances, epsilon / self.achieved)
    }

    /// What the encoding keeps, for `n` symbols at `epsilon`.
    pub fn describe(&self, n: usize, epsilon: f64) -> String {
        format!(
            "spanner with dilation {} (achieved {:.6}): {} edges (of {} pairs), each direction encoded at eps/{:.6} = {}; the channel is optimal for this spanner-restricted problem; `solve` bounds exact eps-d-privacy separately (certification checks every pair at eps)",
            self.dilation,
            self.achieved,
            self.edges,
            n * n.saturating_sub(1) / 2,
            self.achieved,
            epsilon / self.achieved
        )
    }

    fn encode(&self, lp: &mut ChannelLp, epsilon: f64) -> String {
        let n = self.edge_distances.len();
        let mut loose = 0;
        for (a, row) in self.budgets(epsilon).iter().enumerate() {
            for (b, &budget) in row.iter().enumerate() {
                if a == b || budget.is_infinite() {
                    continue;
                }
                let Some(budget) = lp.budget(budget) else {
                    loose += 1;
                    continue;
                };
                for y in 0..lp.outputs() {
                    let (qa, qb) = (lp.q(a, y), lp.q(b, y));
                    lp.at_most_times(qa, budget.exp(), qb);
                }
            }
        }
        let mut note = self.describe(n, epsilon);
        if loose > 0 {
            note.push_str(&format!(
                "; {loose} ordered edges allow a log-ratio above {} and are left to certification",
                crate::formulation::LOOSE_LOG_RATIO
            ));
        }
        note
    }
}

impl DPrivacy {
    /// The log-ratio budgets the encoding uses: `eps d` (exact) or the spanner's.
    fn encoded_budgets(&self) -> Vec<Vec<f64>> {
        match &self.spanner {
            Some(s) => s.budgets(self.epsilon),
            None => scaled(&self.distances, self.epsilon),
        }
    }
}

impl PrivacyNotion for DPrivacy {
    fn key(&self) -> &'static str {
        "d-privacy"
    }

    fn check(&self, channel: &Channel) -> Vec<Check> {
        vec![Check {
            constraint: "d-privacy".into(),
            requested: self.epsilon,
            achieved: leakage_over_pairs(channel, &self.distances, &self.checked),
        }]
    }

    fn mixing_weight(&self, channel: &Channel, target: &[f64]) -> Option<f64> {
        mixing_weight_over_pairs(
            channel,
            &self.distances,
            self.epsilon,
            &self.checked,
            target,
        )
    }

    fn encode(&self, lp: &mut ChannelLp) -> String {
        let note = match &self.spanner {
            Some(s) => s.encode(lp, self.epsilon),
            None => encode_pairs(lp, &scaled(&self.distances, self.epsilon)),
        };
        format!("d-privacy: {note}")
    }

    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        Some(pairs_cone(n, &self.encoded_budgets()))
    }

    fn cone_note(&self) -> Option<String> {
        self.spanner
            .as_ref()
            .map(|s| s.describe(self.distances.len(), self.epsilon))
    }

    fn ties(&self, _n: usize) -> Vec<(usize, usize)> {
        zero_budget_pairs(&self.encoded_budgets())
    }

    fn pair_budgets(&self) -> Option<Vec<Vec<f64>>> {
        Some(self.encoded_budgets())
    }
}

/// The registry entry: profiled under the natural distance of a domain with positions.
pub(super) const ENTRY: NotionEntry = NotionEntry {
    profile: Some(natural_leakage),
    profile_costly: Some(natural_leakage_costly),
    ..NotionEntry::new("d-privacy")
};

/// Whether [`natural_leakage`] costs more than O(n^2): on a line lattice the pairs to check
/// are the neighbours, found by displacement in O(n^2), and the scan is O(n) pairs by the
/// outputs; on a grid there are about n^2 pairs to scan over every output, and other points
/// need the O(n^3) screening of pairs first.
fn natural_leakage_costly(channel: &Channel, domain: &Domain) -> bool {
    if !(domain.has_geometry() && channel.inputs() == domain.size()) {
        return false;
    }
    !matches!(
        crate::geo::lattice_cells(&domain.coordinates()),
        Some((rows, cols, _)) if rows == 1 || cols == 1
    )
}

/// The d-privacy leakage of `channel` under the natural distance of `domain` (`None` when the
/// domain has no positions or the channel is not over it).
fn natural_leakage(channel: &Channel, domain: &Domain) -> Option<f64> {
    if !(domain.has_geometry() && channel.inputs() == domain.size()) {
        return None;
    }
    let unit = domain.natural_distances();
    let pairs = super::lattice_pairs::checked_pairs_at(&unit, Some(&domain.coordinates()));
    Some(leakage_over_pairs(channel, &unit, &pairs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manhattan_on_a_grid_keeps_grid_edges() {
        let domain = Domain::grid(3, 3).unwrap();
        let d = MetricSpec::Named("manhattan".into())
            .distances("m", &domain, &mut vec![])
            .unwrap();
        let pairs = super::super::context::essential_pairs(&d);
        // 12 undirected grid edges, both directions.
        assert_eq!(pairs.len(), 24);
    }

    #[test]
    fn broken_triangle_inequality_warns() {
        let domain = Domain::sized(3).unwrap();
        let d = vec![
            vec![0.0, 1.0, 5.0],
            vec![1.0, 0.0, 1.0],
            vec![5.0, 1.0, 0.0],
        ];
        let mut w = vec![];
        MetricSpec::Matrix(d)
            .distances("privacy[0].metric", &domain, &mut w)
            .unwrap();
        assert!(w[0].contains("d(0,2) = 5"), "{w:?}");
    }

    #[test]
    fn asymmetric_metric_is_an_error() {
        let domain = Domain::sized(2).unwrap();
        let d = vec![vec![0.0, 1.0], vec![2.0, 0.0]];
        assert!(MetricSpec::Matrix(d)
            .distances("m", &domain, &mut vec![])
            .is_err());
    }
}
