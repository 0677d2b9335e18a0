//! Extreme rays of a pointed polyhedral cone by the double description method (Motzkin et al.;
//! Fukuda and Prodon, "Double description method revisited"), with the combinatorial adjacency
//! test. Used for every cone without a closed-form generator (context-aware LDP, d-privacy,
//! block and high-low LDP, BP-LIP, identifiability, maximal leakage and intersections).

use super::{dot, ColumnCone};

/// A constraint is tight at a ray when `|a . r| <= TIGHT_TOLERANCE * sum_k |a_k r_k|`.
const TIGHT_TOLERANCE: f64 = 1e-9;

/// A set of constraint indices.
#[derive(Clone, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn empty(size: usize) -> Self {
        Bits(vec![0; size.div_ceil(64)])
    }
    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn and(&self, other: &Bits) -> Bits {
        Bits(self.0.iter().zip(&other.0).map(|(a, b)| a & b).collect())
    }
    fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    fn subset_of(&self, other: &Bits) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }
}

struct Ray {
    z: Vec<f64>,
    tight: Bits,
}

fn normalized(mut z: Vec<f64>) -> Vec<f64> {
    let s: f64 = z.iter().sum();
    if s > 0.0 {
        z.iter_mut().for_each(|v| *v /= s);
    }
    z
}

/// The extreme rays of `{z >= 0 : row . z >= 0 for every row}` (lifted columns, each normalized
/// to sum 1), or `None` when an intermediate ray set exceeds `limit`.
pub fn enumerate_rays(cone: &ColumnCone, limit: usize) -> Option<Vec<Vec<f64>>> {
    enumerate_rays_until(cone, limit, None, &|_, _, _| {})
}

/// As [`enumerate_rays`], also giving up (`None`) once `deadline` has passed, and calling
/// `progress(rows done, rows, rays so far)` after each constraint row.
pub fn enumerate_rays_until(
    cone: &ColumnCone,
    limit: usize,
    deadline: Option<std::time::Instant>,
    progress: &dyn Fn(usize, usize, usize),
) -> Option<Vec<Vec<f64>>> {
    let past = || deadline.is_some_and(|d| std::time::Instant::now() >= d);
    let d = cone.dim();
    let total = d + cone.rows.len();
    let mut rays: Vec<Ray> = (0..d)
        .map(|i| {
            let mut tight = Bits::empty(total);
            (0..d).filter(|&j| j != i).for_each(|j| tight.insert(j));
            let mut z = vec![0.0; d];
            z[i] = 1.0;
            Ray { z, tight }
        })
        .collect();
    for (k, row) in cone.rows.iter().enumerate() {
        let c = d + k;
        let values: Vec<f64> = rays
            .iter()
            .map(|r| {
                let scale: f64 = row.iter().map(|&(j, a)| (a * r.z[j]).abs()).sum();
                let v = dot(row, &r.z);
                if v.abs() <= TIGHT_TOLERANCE * scale {
                    0.0
                } else {
                    v
                }
            })
            .collect();
        let positive: Vec<usize> = (0..rays.len()).filter(|&i| values[i] > 0.0).collect();
        let negative: Vec<usize> = (0..rays.len()).filter(|&i| values[i] < 0.0).collect();
        let mut created = Vec::new();
        for &i in &positive {
            if past() {
                return None;
            }
            for &j in &negative {
                let common = rays[i].tight.and(&rays[j].tight);
                if common.count() + 2 < d {
                    continue;
                }
                let adjacent =
                    (0..rays.len()).all(|o| o == i || o == j || !common.subset_of(&rays[o].tight));
                if !adjacent {
                    continue;
                }
                let (vi, vj) = (values[i], -values[j]);
                let z = rays[i]
                    .z
                    .iter()
                    .zip(&rays[j].z)
                    .map(|(a, b)| (vj * a + vi * b).max(0.0))
                    .collect();
                let mut tight = common;
                tight.insert(c);
                created.push(Ray {
                    z: normalized(z),
                    tight,
                });
            }
        }
        let mut kept: Vec<Ray> = Vec::with_capacity(rays.len() + created.len());
        for (i, mut r) in rays.into_iter().enumerate() {
            if values[i] == 0.0 {
                r.tight.insert(c);
            }
            if values[i] >= 0.0 {
                kept.push(r);
            }
        }
        kept.extend(created);
        if kept.len() > limit {
            return None;
        }
        rays = kept;
        progress(k + 1, cone.rows.len(), rays.len());
    }
    Some(rays.into_iter().map(|r| r.z).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rays::staircase_rays;

    fn ldp_cone(n: usize, eps: f64) -> ColumnCone {
        let mut cone = ColumnCone::orthant(n);
        for a in 0..n {
            for b in 0..n {
                if a != b {
                    cone.rows.push(ColumnCone::ratio_row(a, b, eps));
                }
            }
        }
        cone
    }

    fn sorted(mut rays: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
        for r in &mut rays {
            let s: f64 = r.iter().sum();
            r.iter_mut().for_each(|v| *v = (*v / s * 1e9).round() / 1e9);
        }
        rays.sort_by(|a, b| a.partial_cmp(b).unwrap());
        rays
    }

    #[test]
    fn ldp_cone_rays_are_the_staircase_patterns() {
        for n in 2..=5 {
            let dd = sorted(enumerate_rays(&ldp_cone(n, 0.8), 10_000).unwrap());
            let closed = sorted(staircase_rays(n, 0.8, 10_000).unwrap());
            assert_eq!(dd.len(), closed.len(), "n = {n}");
            for (a, b) in dd.iter().zip(&closed) {
                for (x, y) in a.iter().zip(b) {
                    assert!((x - y).abs() < 1e-9, "{a:?} vs {b:?}");
                }
            }
        }
    }

    #[test]
    fn unconstrained_orthant_has_the_unit_vectors() {
        let rays = enumerate_rays(&ColumnCone::orthant(3), 10).unwrap();
        assert_eq!(rays.len(), 3);
    }

    #[test]
    fn limit_aborts() {
        assert!(enumerate_rays(&ldp_cone(6, 1.0), 10).is_none());
    }

    #[test]
    fn every_ray_is_in_the_cone() {
        let mut cone = ldp_cone(4, 0.5);
        cone.rows.push(vec![(0, 2.0), (3, -1.0)]);
        for r in enumerate_rays(&cone, 10_000).unwrap() {
            assert!(cone.contains(&r, 1e-12), "{r:?}");
        }
    }
}
