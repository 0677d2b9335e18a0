//! Greedy t-spanners (Althofer, Das, Dobkin, Joseph, Soares, "On sparse spanners of weighted
//! graphs", Discrete Comput. Geom. 9, 1993), used by Bordenabe et al. (CCS 2014) to
//! encode d-privacy approximately: a graph G over the points is a t-spanner when its
//! shortest-path distance satisfies `d_G(x, x') <= t d(x, x')` for every pair.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Relative margin by which a path must beat `t d(a, b)` (in floating point) before the greedy
/// construction leaves the edge out. Extra edges only tighten the encoding; the margin keeps a
/// path whose rounded length ties `t d(a, b)` from dropping an edge the real numbers need.
pub const SPANNER_ROUNDING_MARGIN: f64 = 1e-12;

/// A t-spanner of a finite metric: undirected edges `(a, b)` with `a < b`.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanner {
    /// The dilation t.
    pub dilation: f64,
    /// The edges, in the order the greedy construction added them.
    pub edges: Vec<(usize, usize)>,
}

impl Spanner {
    /// The matrix with `d[a][b]` on the spanner's edges (both directions), 0 on the diagonal
    /// and `+inf` elsewhere (no direct constraint).
    pub fn edge_matrix(&self, d: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let n = d.len();
        let mut m = vec![vec![f64::INFINITY; n]; n];
        for (i, row) in m.iter_mut().enumerate() {
            row[i] = 0.0;
        }
        for &(a, b) in &self.edges {
            m[a][b] = d[a][b];
            m[b][a] = d[b][a];
        }
        m
    }
}

/// The greedy t-spanner of the symmetric distance matrix `d`: pairs in increasing distance
/// (ties by index); `(a, b)` becomes an edge unless the graph built so far already has a path
/// of length at most `t d(a, b)` (less [`SPANNER_ROUNDING_MARGIN`]). Pairs at infinite
/// distance are unconstrained and never become edges. `t` must be >= 1 (the caller validates).
pub fn greedy_spanner(d: &[Vec<f64>], t: f64) -> Spanner {
    let n = d.len();
    let mut pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .filter(|&(a, b)| d[a][b].is_finite())
        .collect();
    pairs.sort_by(|p, q| d[p.0][p.1].total_cmp(&d[q.0][q.1]).then(p.cmp(q)));
    let mut adjacency: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    let mut edges = Vec::new();
    for (a, b) in pairs {
        let limit = t * d[a][b] * (1.0 - SPANNER_ROUNDING_MARGIN);
        if bounded_distance(&adjacency, a, b, limit) > limit {
            adjacency[a].push((b, d[a][b]));
            adjacency[b].push((a, d[a][b]));
            edges.push((a, b));
        }
    }
    Spanner { dilation: t, edges }
}

#[derive(PartialEq)]
struct Entry(f64, usize);
impl Eq for Entry {}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Dijkstra from `from`, stopped once every remaining vertex is farther than `limit`: the
/// distance to `to` when it is at most `limit`, else `+inf`.
fn bounded_distance(adjacency: &[Vec<(usize, f64)>], from: usize, to: usize, limit: f64) -> f64 {
    let mut dist = vec![f64::INFINITY; adjacency.len()];
    dist[from] = 0.0;
    let mut heap = BinaryHeap::from([Entry(0.0, from)]);
    while let Some(Entry(du, u)) = heap.pop() {
        if du > dist[u] {
            continue;
        }
        if u == to {
            return du;
        }
        for &(v, w) in &adjacency[u] {
            let dv = du + w;
            if dv <= limit && dv < dist[v] {
                dist[v] = dv;
                heap.push(Entry(dv, v));
            }
        }
    }
    f64::INFINITY
}

/// All-pairs shortest-path distances of the graph with the given undirected edges weighted by
/// `d` (Floyd-Warshall; `+inf` between disconnected points).
pub fn graph_distances(d: &[Vec<f64>], edges: &[(usize, usize)]) -> Vec<Vec<f64>> {
    let n = d.len();
    let mut g = vec![vec![f64::INFINITY; n]; n];
    for (i, row) in g.iter_mut().enumerate() {
        row[i] = 0.0;
    }
    for &(a, b) in edges {
        g[a][b] = g[a][b].min(d[a][b]);
        g[b][a] = g[b][a].min(d[b][a]);
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                let via = g[i][k] + g[k][j];
                if via < g[i][j] {
                    g[i][j] = via;
                }
            }
        }
    }
    g
}
