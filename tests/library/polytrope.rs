//! The vertex search of ratio cones against independent counts: closed forms (LDP: 2^n - 2),
//! counts from double description (a line of 6, the 3 x 3 grid), and a brute force over every
//! set of tight pairs on small random metrics.

use crate::references::{cone_of, grid};
use mechsynth::rays::{enumerate_rays, ColumnCone, RatioCone, SearchBox, VertexVisitor};

#[derive(Clone, Default)]
struct Collect(Vec<Vec<f64>>);

impl VertexVisitor for Collect {
    fn prune(&mut self, _: &SearchBox<'_>) -> bool {
        false
    }
    fn vertex(&mut self, q: &[f64], _: &[u8]) {
        self.0.push(q.to_vec());
    }
    fn merge(&mut self, other: Self) {
        self.0.extend(other.0);
    }
}

fn vertices(cone: &ColumnCone) -> (Vec<Vec<f64>>, u64) {
    let ratio = RatioCone::from_cone(cone).expect("a connected ratio cone");
    let mut all = Collect::default();
    let stats = ratio.search(&mut all);
    assert_eq!(stats.vertices as usize, all.0.len());
    (all.0, stats.ambiguous)
}

/// Rays scaled to `q_0 = 1`.
fn normalized(mut rays: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    for r in &mut rays {
        let s = r[0];
        r.iter_mut().for_each(|v| *v /= s);
    }
    rays
}

const SAME: f64 = 1e-9;

/// The two lists hold the same rays, each once (matched one to one).
fn same_sets(a: Vec<Vec<f64>>, b: Vec<Vec<f64>>) {
    let (a, b) = (normalized(a), normalized(b));
    assert_eq!(a.len(), b.len());
    let mut used = vec![false; b.len()];
    for x in &a {
        let close = |y: &Vec<f64>| {
            x.iter()
                .zip(y)
                .all(|(u, v)| (u - v).abs() <= SAME * u.abs().max(1.0))
        };
        let hit = (0..b.len()).find(|&j| !used[j] && close(&b[j]));
        let j = hit.unwrap_or_else(|| panic!("{x:?} has no match"));
        used[j] = true;
    }
}

#[test]
fn ldp_cones_have_the_staircase_rays() {
    for n in 2..=8 {
        let points: Vec<(f64, f64)> = (0..n).map(|i| (i as f64, 0.0)).collect();
        let mut cone = ColumnCone::orthant(n);
        for a in 0..n {
            for b in 0..n {
                if a != b {
                    cone.rows.push(ColumnCone::ratio_row(a, b, 0.7));
                }
            }
        }
        let _ = points;
        let (rays, ambiguous) = vertices(&cone);
        assert_eq!(rays.len(), (1 << n) - 2, "n = {n}");
        assert_eq!(ambiguous, 0);
    }
}

#[test]
fn a_line_and_the_three_by_three_grid_match_double_description() {
    for (points, expected) in [(grid(1, 6), 32usize), (grid(3, 3), 4_346)] {
        let cone = cone_of(&points, 0.5);
        let (rays, ambiguous) = vertices(&cone);
        assert_eq!(ambiguous, 0);
        assert_eq!(rays.len(), expected);
        let listed = enumerate_rays(&cone, 1 << 20).expect("few rays");
        same_sets(rays, listed);
    }
}

/// Every vertex of `{z : z_a - z_b <= L_ab, z_0 = 0}` by brute force: each set of `n - 1` tight
/// pairs that forms a spanning tree fixes `z`; keep the feasible ones, without duplicates.
fn brute_force(points: &[(f64, f64)], epsilon: f64) -> Vec<Vec<f64>> {
    let n = points.len();
    let d =
        |a: usize, b: usize| epsilon * (points[a].0 - points[b].0).hypot(points[a].1 - points[b].1);
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b)))
        .collect();
    let mut found: Vec<Vec<f64>> = Vec::new();
    let mut choice = vec![0usize; n - 1];
    fn rec(
        k: usize,
        start: usize,
        choice: &mut Vec<usize>,
        pairs: &[(usize, usize)],
        f: &mut dyn FnMut(&[usize]),
    ) {
        if k == choice.len() {
            f(choice);
            return;
        }
        for i in start..pairs.len() {
            choice[k] = i;
            rec(k + 1, i + 1, choice, pairs, f);
        }
    }
    rec(0, 0, &mut choice, &pairs, &mut |sel: &[usize]| {
        // Propagate z from input 0 along the tight pairs.
        let mut z = vec![f64::NAN; n];
        z[0] = 0.0;
        for _ in 0..n {
            for &i in sel {
                let (a, b) = pairs[i];
                if z[b].is_finite() && z[a].is_nan() {
                    z[a] = z[b] + d(a, b);
                } else if z[a].is_finite() && z[b].is_nan() {
                    z[b] = z[a] - d(a, b);
                }
            }
        }
        if z.iter().any(|v| v.is_nan()) {
            return;
        }
        let consistent = sel.iter().all(|&i| {
            let (a, b) = pairs[i];
            (z[a] - z[b] - d(a, b)).abs() < 1e-9
        });
        let feasible = pairs.iter().all(|&(a, b)| z[a] - z[b] <= d(a, b) + 1e-9);
        if consistent && feasible {
            let q: Vec<f64> = z.iter().map(|v| v.exp()).collect();
            if !found.iter().any(|f| {
                f.iter()
                    .zip(&q)
                    .all(|(u, v)| (u - v).abs() < 1e-9 * u.max(1.0))
            }) {
                found.push(q);
            }
        }
    });
    found
}

#[test]
fn random_metrics_match_a_brute_force_over_tight_trees() {
    // A fixed linear congruential sequence: no dependence on a random crate's stream.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    for n in [3usize, 4, 5] {
        for _ in 0..6 {
            let points: Vec<(f64, f64)> = (0..n).map(|_| (next() * 3.0, next() * 3.0)).collect();
            let cone = cone_of(&points, 0.8);
            let (rays, ambiguous) = vertices(&cone);
            assert_eq!(ambiguous, 0);
            same_sets(rays, brute_force(&points, 0.8));
        }
    }
}

#[test]
fn tree_codes_decode_to_the_rays_the_search_visits() {
    for (points, epsilon) in [(grid(3, 3), 0.5), (grid(2, 5), 1.3), (grid(1, 7), 0.2)] {
        let cone = cone_of(&points, epsilon);
        let ratio = RatioCone::from_cone(&cone).expect("connected");
        let listed = ratio.list(usize::MAX, None).expect("complete");
        let store = ratio.compact(usize::MAX, None).expect("complete");
        assert_eq!(store.len(), listed.len());
        let n = points.len();
        let mut q = vec![0.0; n];
        let decoded: Vec<Vec<f64>> = store
            .blocks()
            .iter()
            .flat_map(|b| b.chunks(store.words()))
            .map(|w| {
                store.decode(&ratio, w, &mut q);
                q.clone()
            })
            .collect();
        // Bit for bit: the same products in the same order.
        let mut a: Vec<Vec<u64>> = listed
            .iter()
            .map(|r| r.iter().map(|v| v.to_bits()).collect())
            .collect();
        let mut b: Vec<Vec<u64>> = decoded
            .iter()
            .map(|r| r.iter().map(|v| v.to_bits()).collect())
            .collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        same_sets(decoded, enumerate_rays(&cone, 1 << 20).expect("few rays"));
    }
}
