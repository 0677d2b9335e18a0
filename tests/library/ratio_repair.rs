//! The repair of a stopped interior iterate (`mechsynth::synthesis::repair`): from columns in
//! the cone of d-privacy whose rows do not sum to 1, and from columns that break some pairs,
//! a row-stochastic channel private by the definition, checked pair by pair here, at a cost
//! within a stated factor of the iterate's.

use mechsynth::synthesis::repair::{normalize_in_cone, repair_ratio_iterate};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Rows must sum to 1 within this (a few roundings of sums of a few hundred terms).
const ROW_SUM_TOLERANCE: f64 = 1e-12;
/// A ratio may exceed `e^(eps d)` by this relative amount (rounding of the check's own product).
const RATIO_TOLERANCE: f64 = 1e-12;
/// The repaired channel's expected loss is at most this times the iterate's (normalized row by
/// row, which is what the iterate would cost were it a channel). Normalization divides by
/// `T <= 2 max s` and adds the deficit `T - s` to the cheapest output; with row sums within 10%
/// of each other the deficit is a small share of each row, so 2 leaves room for it.
const COST_FACTOR: f64 = 2.0;

struct Instance {
    points: Vec<[f64; 2]>,
    epsilon: f64,
    prior: Vec<f64>,
}

impl Instance {
    fn random(n: usize, rng: &mut ChaCha8Rng) -> Self {
        let points = (0..n)
            .map(|_| [rng.gen::<f64>() * 10.0, rng.gen::<f64>() * 10.0])
            .collect();
        // A skewed prior: a few heavy points.
        let weights: Vec<f64> = (0..n).map(|_| rng.gen::<f64>().powi(4) + 1e-3).collect();
        let total: f64 = weights.iter().sum();
        Instance {
            points,
            epsilon: 0.4,
            prior: weights.iter().map(|w| w / total).collect(),
        }
    }

    fn distance(&self, a: usize, b: usize) -> f64 {
        let (p, q) = (self.points[a], self.points[b]);
        ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt()
    }

    fn ratios(&self) -> Vec<(usize, usize, f64)> {
        let n = self.points.len();
        (0..n)
            .flat_map(|a| (0..n).map(move |b| (a, b)))
            .filter(|(a, b)| a != b)
            .map(|(a, b)| (a, b, (self.epsilon * self.distance(a, b)).exp()))
            .collect()
    }

    /// Prior-weighted distance, `c[x][y] = p_x d(x, y)`.
    fn costs(&self) -> Vec<Vec<f64>> {
        let n = self.points.len();
        (0..n)
            .map(|x| {
                (0..n)
                    .map(|y| self.prior[x] * self.distance(x, y))
                    .collect()
            })
            .collect()
    }

    /// Expected loss of `rows` with each row divided by its sum.
    fn normalized_cost(&self, rows: &[Vec<f64>]) -> f64 {
        let c = self.costs();
        rows.iter()
            .zip(&c)
            .map(|(r, c)| {
                let s: f64 = r.iter().sum();
                r.iter().zip(c).map(|(q, c)| q * c).sum::<f64>() / s
            })
            .sum()
    }

    /// Row sums 1 and every pair within `e^(eps d)`, from the definition.
    fn assert_private_channel(&self, rows: &[Vec<f64>]) {
        let n = rows.len();
        for (x, r) in rows.iter().enumerate() {
            assert!(r.iter().all(|v| *v >= 0.0 && v.is_finite()), "row {x}");
            let s: f64 = r.iter().sum();
            assert!((s - 1.0).abs() <= ROW_SUM_TOLERANCE, "row {x} sums to {s}");
        }
        for a in 0..n {
            for b in 0..n {
                let f = (self.epsilon * self.distance(a, b)).exp();
                for (y, (qa, qb)) in rows[a].iter().zip(&rows[b]).enumerate() {
                    assert!(
                        *qa <= f * qb * (1.0 + RATIO_TOLERANCE),
                        "Q[{a}][{y}] = {qa} > e^(eps d) Q[{b}][{y}] = {}",
                        f * qb
                    );
                }
            }
        }
    }
}

/// Columns in the cone (each a weighted sum of `e^(-eps d(x, c))` around random centres, private
/// by the triangle inequality), rows not summing to 1.
fn columns_in_cone(inst: &Instance, m: usize, rng: &mut ChaCha8Rng) -> Vec<Vec<f64>> {
    let n = inst.points.len();
    let mut rows = vec![vec![0.0; m]; n];
    for y in 0..m {
        let centre = rng.gen_range(0..n);
        let weight = 0.5 + rng.gen::<f64>();
        for (x, row) in rows.iter_mut().enumerate() {
            row[y] = weight * (-inst.epsilon * inst.distance(x, centre)).exp();
        }
    }
    rows
}

#[test]
fn columns_in_the_cone_are_normalized_into_a_private_channel() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for n in [5, 20, 60] {
        let inst = Instance::random(n, &mut rng);
        let columns = columns_in_cone(&inst, n, &mut rng);
        let sums: Vec<f64> = columns.iter().map(|r| r.iter().sum()).collect();
        assert!(
            sums.iter().any(|s| (s - sums[0]).abs() > 1e-3),
            "the rows must not already sum to one value"
        );
        let channel = normalize_in_cone(&inst.ratios(), &columns, Some(&inst.costs())).unwrap();
        inst.assert_private_channel(&channel);
    }
}

#[test]
fn a_nearly_normalized_iterate_that_breaks_some_pairs_is_repaired_near_its_cost() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for n in [10, 40, 80] {
        let inst = Instance::random(n, &mut rng);
        // An interior-like iterate: a private channel (columns in the cone, normalized
        // by the repair itself) with every entry perturbed by up to 10% (which breaks pairs of
        // nearby points) and rows summing to 1 again.
        let base = normalize_in_cone(
            &inst.ratios(),
            &columns_in_cone(&inst, n, &mut rng),
            Some(&inst.costs()),
        )
        .unwrap();
        let iterate: Vec<Vec<f64>> = base
            .iter()
            .map(|r| {
                let row: Vec<f64> = r
                    .iter()
                    .map(|v| v * (0.9 + 0.2 * rng.gen::<f64>()))
                    .collect();
                let s: f64 = row.iter().sum();
                row.iter().map(|v| v / s).collect()
            })
            .collect();
        let broken = (0..n).any(|a| {
            (0..n).any(|b| {
                let f = (inst.epsilon * inst.distance(a, b)).exp();
                (0..n).any(|y| iterate[a][y] > f * iterate[b][y])
            })
        });
        assert!(broken, "n = {n}: the perturbation must break some pair");
        let channel = repair_ratio_iterate(&inst.ratios(), &iterate, Some(&inst.costs())).unwrap();
        inst.assert_private_channel(&channel);
        let (before, after) = (
            inst.normalized_cost(&iterate),
            inst.normalized_cost(&channel),
        );
        assert!(
            after <= COST_FACTOR * before,
            "n = {n}: the repair costs {after} against the iterate's {before}"
        );
    }
}
