//! Context-aware LDP with a privacy matrix ([CA-LDP], Definition 2; arXiv
//! 1911.00038): `Q[x][y] <= e^{E[x][x']} Q[x'][y]`, entries of E non-negative, possibly `+inf`
//! (no constraint) and asymmetric. Here `E = epsilon * U` for a unit matrix U, so the achieved
//! leakage is reported as the smallest such epsilon.

use super::registry::NotionEntry;
use super::{Check, PrivacyNotion};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::numeric::{
    add_emitted_slack, div_up, entry_log_ratio_up, ln_up, IMPLIED_PATH_TOLERANCE, TINY_FLOOR,
};
use crate::rays::ColumnCone;
use rayon::prelude::*;

/// Context-aware LDP: `E = epsilon * unit`.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextLdp {
    /// Scale of the privacy matrix.
    pub epsilon: f64,
    /// The privacy matrix per unit of epsilon (`+inf` = unconstrained pair).
    pub unit: Vec<Vec<f64>>,
    /// The constraint's name in reports.
    pub name: &'static str,
    /// The pairs certification checks (`checked_pairs` of `unit`).
    pub checked: Vec<(usize, usize)>,
}

/// Smallest epsilon for which `Q[x][y] <= e^{epsilon * unit[x][x']} Q[x'][y]` holds for every
/// pair with a finite entry: `max ln(Q[x][y] / Q[x'][y]) / unit[x][x']`, outward rounded.
pub fn matrix_leakage(channel: &Channel, unit: &[Vec<f64>]) -> f64 {
    leakage_over_pairs(channel, unit, &checked_pairs(unit, channel.inputs()))
}

/// [`matrix_leakage`] over precomputed [`checked_pairs`].
pub(crate) fn leakage_over_pairs(
    channel: &Channel,
    unit: &[Vec<f64>],
    pairs: &[(usize, usize)],
) -> f64 {
    use rayon::prelude::*;
    let rows = channel.rows();
    pairs
        .par_iter()
        .map(|&(x, x2)| {
            // The largest rounded quotient, one step up, then one logarithm: each exact
            // a_y / b_y is at most the next float above its rounding to nearest, and ln is
            // increasing, so ln_up(next_up(max_y fl(a_y / b_y))) bounds every exact
            // ln(a_y / b_y) of the pair (one division per entry, no fused remainder: this
            // scan is most of certification on large grids).
            // Only entries with a > b count (a zero entry of x constrains nothing); a / 0 with
            // a > 0 is infinite. Written without early exits so that it vectorizes.
            // Equal entries stay equal in the emitted numbers and a smaller one stays smaller,
            // so only a > b counts; the log carries the slack of the emitted numbers (see
            // crate::numeric), added before dividing by the pair's distance.
            let mut largest: f64 = 0.0;
            let mut smallest_below: f64 = f64::INFINITY;
            for (&a, &b) in rows[x].iter().zip(&rows[x2]) {
                let (r, d) = if a > b {
                    (a / b, b)
                } else {
                    (0.0, f64::INFINITY)
                };
                largest = if r > largest { r } else { largest };
                smallest_below = if d < smallest_below {
                    d
                } else {
                    smallest_below
                };
            }
            if largest == 0.0 {
                return 0.0;
            }
            let log = if smallest_below < TINY_FLOOR {
                // Tiny entries: their error is absolute; bound each ratio on its own.
                rows[x]
                    .iter()
                    .zip(&rows[x2])
                    .map(|(&a, &b)| entry_log_ratio_up(a, b))
                    .fold(0.0, f64::max)
            } else {
                add_emitted_slack(ln_up(largest.next_up()))
            };
            let u = unit[x][x2];
            if u == 0.0 {
                f64::INFINITY
            } else {
                div_up(log, u)
            }
        })
        .reduce(|| 0.0, f64::max)
}

/// The mixing weight (see [`super::PrivacyNotion::mixing_weight`]) that repairs every ratio of
/// `pairs`: `Q[x][y] <= e^(epsilon unit[x][x2]) Q[x2][y]` for each ordered pair `(x, x2)`, as
/// [`leakage_over_pairs`] checks them (a privacy matrix need not be symmetric).
pub(crate) fn mixing_weight_over_pairs(
    channel: &Channel,
    unit: &[Vec<f64>],
    epsilon: f64,
    pairs: &[(usize, usize)],
    target: &[f64],
) -> Option<f64> {
    use rayon::prelude::*;
    let rows = channel.rows();
    pairs
        .par_iter()
        .map(|&(x, x2)| {
            let factor = (epsilon * unit[x][x2]).exp();
            rows[x]
                .iter()
                .zip(&rows[x2])
                .zip(target)
                .try_fold(0.0f64, |worst, ((&a, &b), &g)| {
                    super::pair_mixing_weight(a, b, factor, g).map(|t| worst.max(t))
                })
        })
        .try_reduce(|| 0.0, |s, t| Some(s.max(t)))
}

/// Whether `a + b <= c` holds exactly for the real sum (TwoSum gives the rounding error of
/// `fl(a + b)`).
pub(crate) fn exact_sum_at_most(a: f64, b: f64, c: f64) -> bool {
    let s = a + b;
    let bb = s - a;
    let error = (a - (s - bb)) + (b - bb);
    s < c || (s == c && error <= 0.0)
}

/// The ordered pairs with a finite entry whose ratio bound is not implied, in exact arithmetic,
/// by two others with positive entries: `(a, b)` is implied through `k` when `unit[a][k] +
/// unit[k][b] <= unit[a][b]` for the real sum, because `ln(Q_a / Q_b)` is the sum of the two
/// legs' log-ratios. Both legs are strictly shorter, so by induction on the entry a leakage
/// computed over these pairs alone is the leakage over all of them. On a line this leaves the
/// adjacent pairs, and certification scans O(n) pairs instead of O(n^2).
pub(crate) fn checked_pairs(unit: &[Vec<f64>], n: usize) -> Vec<(usize, usize)> {
    let finite_positive = |v: f64| v.is_finite() && v > 0.0;
    // Legs that cannot take part (zero, negative, infinite or NaN) become +inf, which also
    // leaves out k = a and k = b (the diagonal is zero). `into_b[b][k]` is `unit[k][b]`, so
    // both legs are read in order and the screening loop vectorizes.
    let leg = |v: f64| if finite_positive(v) { v } else { f64::INFINITY };
    let from_a: Vec<Vec<f64>> = unit
        .iter()
        .map(|row| row.iter().map(|&v| leg(v)).collect())
        .collect();
    let into_b: Vec<Vec<f64>> = (0..n)
        .map(|b| (0..n).map(|k| leg(unit[k][b])).collect())
        .collect();
    // Each row of pairs on its own thread (O(n^3) in all).
    let rows: Vec<Vec<(usize, usize)>> = (0..n)
        .into_par_iter()
        .map(|a| {
            let mut pairs = Vec::new();
            for b in 0..n {
                let u = unit[a][b];
                if a == b || u.is_infinite() {
                    continue;
                }
                let through = |k: usize| {
                    k < n
                        && k != a
                        && k != b
                        && finite_positive(unit[a][k])
                        && finite_positive(unit[k][b])
                        && exact_sum_at_most(unit[a][k], unit[k][b], u)
                };
                // The symbols next to `a` and `b` by index first: on a line in index order one
                // of them lies between a and b, which makes the test O(1) there.
                let near = [a.wrapping_sub(1), a + 1, b.wrapping_sub(1), b + 1];
                let implied = finite_positive(u)
                    && (near.into_iter().any(through) || {
                        // Screening: rounding is monotone and `u` is a float, so a real sum at
                        // most `u` rounds to at most `u`; when every rounded sum exceeds `u`, no
                        // third symbol implies the pair. Otherwise the exact test decides.
                        let shortest =
                            from_a[a]
                                .iter()
                                .zip(&into_b[b])
                                .fold(f64::INFINITY, |m, (x, y)| {
                                    let s = x + y;
                                    if s < m {
                                        s
                                    } else {
                                        m
                                    }
                                });
                        shortest <= u && (0..n).any(through)
                    });
                if !implied {
                    pairs.push((a, b));
                }
            }
            pairs
        })
        .collect();
    rows.concat()
}

/// The ordered pairs `(a, b, D[a][b])` whose constraints imply all others, where D is the
/// shortest-path closure of `e` (constraints compose along paths, so D is implied by E, and
/// E's constraints are implied by D's since `D <= E`). A pair is dropped when a path through a
/// third symbol with two positive legs is no longer than it: for a line metric this leaves the
/// adjacent pairs, for a grid with Manhattan distance the grid edges (docs/design-notes.md, "Compact encodings").
pub(crate) fn essential_pairs(e: &[Vec<f64>]) -> Vec<(usize, usize, f64)> {
    let n = e.len();
    let mut d: Vec<Vec<f64>> = e.to_vec();
    for (i, row) in d.iter_mut().enumerate() {
        row[i] = 0.0;
    }
    for k in 0..n {
        // Row k does not change in step k (d[k][k] = 0), so the rows update in parallel.
        let through = d[k].clone();
        d.par_iter_mut().for_each(|row| {
            let to_k = row[k];
            for (entry, &from_k) in row.iter_mut().zip(&through) {
                let via = to_k + from_k;
                if via < *entry {
                    *entry = via;
                }
            }
        });
    }
    let rows: Vec<Vec<(usize, usize, f64)>> = (0..n)
        .into_par_iter()
        .map(|a| {
            let mut pairs = Vec::new();
            for b in 0..n {
                if a == b || d[a][b].is_infinite() {
                    continue;
                }
                let limit = d[a][b] * (1.0 + IMPLIED_PATH_TOLERANCE);
                let implied = (0..n).any(|k| {
                    k != a && k != b && d[a][k] > 0.0 && d[k][b] > 0.0 && d[a][k] + d[k][b] <= limit
                });
                if !implied {
                    pairs.push((a, b, d[a][b]));
                }
            }
            pairs
        })
        .collect();
    rows.concat()
}

/// Pairs whose allowed log-ratio exceeds this are not encoded: `e^E` would be past what an LP
/// solver resolves. They are still checked (and if needed repaired) by certification.
pub(crate) const MAX_ENCODED_LOG_RATIO: f64 = crate::formulation::LOOSE_LOG_RATIO;

/// Encode `Q[a][y] <= e^{D[a][b]} Q[b][y]` for the essential pairs of `e`; returns a note on
/// how many ordered pairs were kept out of the finite ones.
pub(crate) fn encode_pairs(lp: &mut ChannelLp, e: &[Vec<f64>]) -> String {
    let (pairs, loose): (Vec<_>, Vec<_>) = essential_pairs(e)
        .into_iter()
        .partition(|p| p.2 <= MAX_ENCODED_LOG_RATIO);
    for &(a, b, dist) in &pairs {
        let factor = lp.budget(dist).unwrap_or(dist).exp();
        for y in 0..lp.outputs() {
            let (qa, qb) = (lp.q(a, y), lp.q(b, y));
            lp.at_most_times(qa, factor, qb);
        }
    }
    let finite = e
        .iter()
        .enumerate()
        .flat_map(|(a, row)| {
            row.iter()
                .enumerate()
                .filter(move |(b, v)| *b != a && v.is_finite())
        })
        .count();
    let mut note = format!(
        "pairwise (exact), {} of {finite} constrained ordered pairs kept, the rest implied by shorter paths",
        pairs.len()
    );
    if !loose.is_empty() {
        note.push_str(&format!(
            "; {} pairs allow a log-ratio above {MAX_ENCODED_LOG_RATIO} and are left to certification",
            loose.len()
        ));
    }
    note
}

impl PrivacyNotion for ContextLdp {
    fn key(&self) -> &'static str {
        self.name
    }

    fn check(&self, channel: &Channel) -> Vec<Check> {
        vec![Check {
            constraint: self.name.into(),
            requested: self.epsilon,
            achieved: leakage_over_pairs(channel, &self.unit, &self.checked),
        }]
    }

    fn mixing_weight(&self, channel: &Channel, target: &[f64]) -> Option<f64> {
        mixing_weight_over_pairs(channel, &self.unit, self.epsilon, &self.checked, target)
    }

    fn encode(&self, lp: &mut ChannelLp) -> String {
        let e = scaled(&self.unit, self.epsilon);
        format!("{}: {}", self.name, encode_pairs(lp, &e))
    }

    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        Some(pairs_cone(n, &scaled(&self.unit, self.epsilon)))
    }

    fn ties(&self, _n: usize) -> Vec<(usize, usize)> {
        zero_budget_pairs(&scaled(&self.unit, self.epsilon))
    }
}

/// The cone of the essential pairs of `e` (pairs too loose to encode are left to
/// certification, as in [`encode_pairs`]).
pub(crate) fn pairs_cone(n: usize, e: &[Vec<f64>]) -> ColumnCone {
    super::ratio_cone(
        n,
        essential_pairs(e)
            .into_iter()
            .filter(|p| p.2 <= MAX_ENCODED_LOG_RATIO),
    )
}

/// Pairs with a zero budget `e[a][b] = 0`: `Q[a][y] <= Q[b][y]` for every y, so the rows are
/// equal.
pub(crate) fn zero_budget_pairs(e: &[Vec<f64>]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (a, row) in e.iter().enumerate() {
        for (b, &v) in row.iter().enumerate() {
            if a != b && v == 0.0 {
                out.push((a, b));
            }
        }
    }
    out
}

/// `epsilon * unit`; an infinite entry stays infinite (no constraint) even when epsilon is 0.
pub(crate) fn scaled(unit: &[Vec<f64>], epsilon: f64) -> Vec<Vec<f64>> {
    unit.iter()
        .map(|row| {
            row.iter()
                .map(|&u| if u.is_infinite() { u } else { epsilon * u })
                .collect()
        })
        .collect()
}

/// The registry entry (no profile: the matrix is the problem's own).
pub(super) const ENTRY: NotionEntry = NotionEntry::new("context-ldp");

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn line(n: usize) -> Vec<Vec<f64>> {
        (0..n)
            .map(|i| (0..n).map(|j| (i as f64 - j as f64).abs()).collect())
            .collect()
    }

    /// `max ln(Q_a / Q_b) / u_ab` over every pair with a finite entry, from the definition.
    fn all_pairs_leakage(rows: &[Vec<f64>], unit: &[Vec<f64>]) -> f64 {
        let n = rows.len();
        let mut worst: f64 = 0.0;
        for a in 0..n {
            for b in 0..n {
                if a == b || unit[a][b].is_infinite() {
                    continue;
                }
                for (qa, qb) in rows[a].iter().zip(&rows[b]) {
                    let l = (qa / qb).ln();
                    if l > 0.0 {
                        worst = worst.max(if unit[a][b] == 0.0 {
                            f64::INFINITY
                        } else {
                            l / unit[a][b]
                        });
                    }
                }
            }
        }
        worst
    }

    #[test]
    fn a_line_checks_only_adjacent_pairs() {
        let pairs = checked_pairs(&line(9), 9);
        assert_eq!(pairs.len(), 16);
        assert!(pairs.iter().all(|&(a, b)| a.abs_diff(b) == 1));
    }

    /// `a + b <= c` for the real sum, by exact integer arithmetic (a reference independent of
    /// the TwoSum test): each float is `m 2^e`, aligned to the smallest exponent in i128.
    fn exact_le(a: f64, b: f64, c: f64) -> bool {
        let parts = |v: f64| -> (i128, i32) {
            let bits = v.to_bits();
            let exponent = ((bits >> 52) & 0x7ff) as i32;
            let fraction = (bits & ((1 << 52) - 1)) as i128;
            if exponent == 0 {
                (fraction, -1074)
            } else {
                (fraction | (1 << 52), exponent - 1075)
            }
        };
        let (pa, pb, pc) = (parts(a), parts(b), parts(c));
        let low = pa.1.min(pb.1).min(pc.1);
        // Values within a factor of 2^60 of each other fit in i128 once aligned.
        assert!(pa.1.max(pb.1).max(pc.1) - low < 60, "{a} {b} {c}");
        let at = |(m, e): (i128, i32)| m << (e - low);
        at(pa) + at(pb) <= at(pc)
    }

    /// The checked pairs from their definition: every ordered pair with a finite entry but
    /// those with a third symbol whose two positive, finite legs sum to at most the entry.
    fn pairs_by_definition(unit: &[Vec<f64>]) -> Vec<(usize, usize)> {
        let n = unit.len();
        let ok = |v: f64| v.is_finite() && v > 0.0;
        let mut out = Vec::new();
        for a in 0..n {
            for b in 0..n {
                let u = unit[a][b];
                if a == b || u.is_infinite() {
                    continue;
                }
                let implied = ok(u)
                    && (0..n).any(|k| {
                        k != a
                            && k != b
                            && ok(unit[a][k])
                            && ok(unit[k][b])
                            && exact_le(unit[a][k], unit[k][b], u)
                    });
                if !implied {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// The screened search keeps exactly the pairs of the definition: Euclidean grids with
    /// spacing 0.1 (sums of square roots a rounding away from the entry), integer grids
    /// (exact collinear ties), entries set one ulp above, at, or below a rounded two-leg sum,
    /// zero and infinite entries, and random matrices.
    #[test]
    fn screened_pairs_are_the_pairs_of_the_definition() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for case in 0..48 {
            let n = rng.gen_range(3..14);
            let spacing = if case % 4 == 0 { 1.0 } else { 0.1 };
            let cols = rng.gen_range(1..5);
            let p: Vec<(f64, f64)> = (0..n)
                .map(|i| ((i % cols) as f64 * spacing, (i / cols) as f64 * spacing))
                .collect();
            let mut unit: Vec<Vec<f64>> = (0..n)
                .map(|i| {
                    (0..n)
                        .map(|j| ((p[i].0 - p[j].0).powi(2) + (p[i].1 - p[j].1).powi(2)).sqrt())
                        .collect()
                })
                .collect();
            if case % 4 == 3 {
                for (i, row) in unit.iter_mut().enumerate() {
                    for (j, v) in row.iter_mut().enumerate() {
                        if i != j {
                            *v = rng.gen_range(0.1..2.0);
                        }
                    }
                }
            }
            // Near-ties: some entries set to a rounded two-leg sum, one ulp either side of it.
            for _ in 0..n {
                let (a, k, b) = (
                    rng.gen_range(0..n),
                    rng.gen_range(0..n),
                    rng.gen_range(0..n),
                );
                if a != k && k != b && a != b {
                    let sum = unit[a][k] + unit[k][b];
                    unit[a][b] = match rng.gen_range(0..3) {
                        0 => sum.next_down(),
                        1 => sum,
                        _ => sum.next_up(),
                    };
                }
            }
            if case % 5 == 1 {
                unit[0][n - 1] = f64::INFINITY;
                unit[1][2] = 0.0;
            }
            assert_eq!(
                checked_pairs(&unit, n),
                pairs_by_definition(&unit),
                "case {case}"
            );
        }
    }

    /// The leakage over the checked pairs is the leakage over all pairs (lines with fractional
    /// positions, Euclidean grids, and random matrices that break the triangle inequality).
    #[test]
    fn checked_pairs_give_the_all_pairs_leakage() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for case in 0..60 {
            let n = rng.gen_range(2..9);
            let unit: Vec<Vec<f64>> = match case % 3 {
                0 => {
                    let v: Vec<f64> = (0..n).map(|_| rng.gen_range(0.0..3.0)).collect();
                    (0..n)
                        .map(|i| (0..n).map(|j| (v[i] - v[j]).abs()).collect())
                        .collect()
                }
                1 => {
                    let p: Vec<(f64, f64)> = (0..n)
                        .map(|i| ((i % 3) as f64 * 0.1, (i / 3) as f64 * 0.1))
                        .collect();
                    (0..n)
                        .map(|i| {
                            (0..n)
                                .map(|j| {
                                    ((p[i].0 - p[j].0).powi(2) + (p[i].1 - p[j].1).powi(2)).sqrt()
                                })
                                .collect()
                        })
                        .collect()
                }
                _ => (0..n)
                    .map(|i| {
                        (0..n)
                            .map(|j| if i == j { 0.0 } else { rng.gen_range(0.1..2.0) })
                            .collect()
                    })
                    .collect(),
            };
            let rows: Vec<Vec<f64>> = (0..n)
                .map(|_| {
                    let r: Vec<f64> = (0..4).map(|_| rng.gen_range(0.05..1.0)).collect();
                    let s: f64 = r.iter().sum();
                    r.into_iter().map(|v| v / s).collect()
                })
                .collect();
            let channel = Channel::new(rows.clone()).unwrap();
            let fast = matrix_leakage(&channel, &unit);
            let naive = all_pairs_leakage(&rows, &unit);
            assert!(fast >= naive, "case {case}: {fast} < {naive}");
            assert!(
                fast <= naive * (1.0 + 1e-12) + 1e-15,
                "case {case}: {fast} vs {naive}"
            );
        }
    }

    /// The scan's quotient bound (the largest rounded quotient one step up) is never below the
    /// per-entry bound from a fused remainder (`div_up`), and within an ulp of it, on entries a
    /// few ulps apart, equal, zero in either row, and random.
    #[test]
    fn leakage_scan_bounds_every_quotient_like_a_fused_remainder() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let unit = vec![vec![0.0, 0.7], vec![0.7, 0.0]];
        for case in 0..2000 {
            let b: Vec<f64> = (0..6).map(|_| rng.gen_range(1e-9..1.0)).collect();
            let a: Vec<f64> = b
                .iter()
                .map(|&v| match rng.gen_range(0..5) {
                    0 => v,
                    1 => v.next_up().next_up(),
                    2 => v.next_down(),
                    3 => 0.0,
                    _ => rng.gen_range(1e-9..1.0),
                })
                .collect();
            // The scan reads the rows only; they need not sum to one here.
            let channel = Channel::from_rows_unchecked(vec![a.clone(), b.clone()]);
            let scan = leakage_over_pairs(&channel, &unit, &[(0, 1)]);
            let largest = a
                .iter()
                .zip(&b)
                .filter(|(x, y)| x > y)
                .map(|(&x, &y)| div_up(x, y))
                .fold(0.0f64, f64::max);
            let reference = if largest <= 1.0 {
                0.0
            } else {
                div_up(crate::numeric::add_emitted_slack(ln_up(largest)), 0.7)
            };
            assert!(scan >= reference, "case {case}: {scan} < {reference}");
            assert!(
                scan <= reference + 1e-14,
                "case {case}: {scan} vs {reference}"
            );
        }
        let zero_below = Channel::new(vec![vec![0.5, 0.5], vec![1.0, 0.0]]).unwrap();
        assert_eq!(
            leakage_over_pairs(&zero_below, &unit, &[(0, 1)]),
            f64::INFINITY
        );
    }

    #[test]
    fn line_metric_keeps_only_adjacent_pairs() {
        let pairs = essential_pairs(&line(6));
        assert_eq!(pairs.len(), 10);
        assert!(pairs.iter().all(|&(a, b, _)| a.abs_diff(b) == 1));
    }

    #[test]
    fn infinite_entries_give_no_pairs() {
        let inf = f64::INFINITY;
        let e = vec![vec![0.0, inf], vec![1.0, 0.0]];
        assert_eq!(essential_pairs(&e), vec![(1, 0, 1.0)]);
    }

    #[test]
    fn triangle_violations_are_tightened_to_the_closure() {
        // d(0,2) = 5 > d(0,1) + d(1,2) = 2: the direct pair is implied and dropped.
        let e = vec![
            vec![0.0, 1.0, 5.0],
            vec![1.0, 0.0, 1.0],
            vec![5.0, 1.0, 0.0],
        ];
        let pairs = essential_pairs(&e);
        assert_eq!(pairs.len(), 4);
    }

    #[test]
    fn matrix_leakage_of_warner_is_epsilon() {
        let e1 = 1f64.exp();
        let p = e1 / (1.0 + e1);
        let ch = Channel::new(vec![vec![p, 1.0 - p], vec![1.0 - p, p]]).unwrap();
        let l = matrix_leakage(&ch, &[vec![0.0, 1.0], vec![1.0, 0.0]]);
        assert!((l - 1.0).abs() < 1e-12 && l >= 1.0 - 1e-15);
    }
}
