//! Pricing for the decomposition over outputs: for one output with cost `c` and row prices
//! `p`, the smallest reduced cost `min (c - p) . q` over the box-truncated cone
//! `{q in C : 0 <= q <= 1}`, a column attaining it, and a rigorous lower bound on it.
//!
//! Every column of a channel lies in that set (its entries are probabilities), so the lower
//! bounds give the Lagrangian bound `sum_x p_x + sum_y min(0, m_y)` on the optimum for any
//! prices (see `decompose.rs`).
//!
//! - LDP (staircase cone): the set's vertices are `e^-eps 1 + (1 - e^-eps) s` for 0/1 patterns
//!   `s`, so the minimum is `e^-eps sum_x d_x + (1 - e^-eps) sum_x min(0, d_x)`, attained by
//!   `s = {x : d_x < 0}` (Kairouz, Oh, Viswanath; docs/design-notes.md, "Decomposition").
//! - Any other cone: a small LP over one column, with the cone's two-term ratio rows added
//!   lazily when there are many (d-privacy): start from each input's tightest rows, add the
//!   rows the solution violates, and solve again until none is violated. Each relaxation's
//!   rigorous dual bound is a valid lower bound on the minimum over the full cone.

use crate::rays::{ColumnCone, ConeRow};
use mechsynth_solvers::SolveOptions;
use mechsynth_solvers::{rigorous_lower_bound, BackendError, LinearProgram, LpBackend, Sense};

/// Ratio rows per input in the first relaxation of a lazy pricing LP.
const INITIAL_ROWS_PER_INPUT: usize = 8;
/// Ratio rows are added lazily only when there are more than this many per input.
const LAZY_ROWS_PER_INPUT: usize = 16;
use crate::synthesis::ROW_VIOLATION;
/// Most violated rows added per re-solve, per input.
const ADDED_ROWS_PER_INPUT: usize = 4;

/// One output's pricing result.
#[derive(Debug, Clone)]
pub(crate) struct Priced {
    /// A column of the box-truncated cone attaining (up to the solver's accuracy) the minimum.
    pub column: Option<Vec<f64>>,
    /// A rigorous lower bound on the minimum (`-inf` when none could be computed).
    pub lower: f64,
}

/// `q_a <= e^log_factor q_b`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RatioRow {
    a: usize,
    b: usize,
    factor: f64,
}

/// How the columns of one problem are priced.
#[derive(Debug, Clone)]
pub(crate) enum Pricer {
    /// eps-LDP alone: closed form.
    Staircase {
        /// The privacy parameter.
        epsilon: f64,
    },
    /// A general cone: an LP per output, ratio rows lazily when there are many.
    Cone {
        /// Rows always present.
        fixed: Vec<ConeRow>,
        /// Two-term ratio rows.
        ratios: Vec<RatioRow>,
        /// Whether the ratio rows are added lazily.
        lazy: bool,
        /// The ratio rows of the first relaxation.
        initial: Vec<usize>,
    },
}

impl Pricer {
    /// The closed form for LDP (`staircase` = its epsilon), else the pricer of `cone` (no
    /// auxiliary coordinates).
    pub fn new(n: usize, cone: Option<&ColumnCone>, staircase: Option<f64>) -> Self {
        let (Some(cone), None) = (cone, staircase) else {
            return Pricer::Staircase {
                epsilon: staircase.unwrap_or(0.0),
            };
        };
        let mut fixed = Vec::new();
        let mut ratios = Vec::new();
        for row in &cone.rows {
            match row.as_slice() {
                &[(b, f), (a, minus)] if minus == -1.0 && f > 0.0 && a != b => {
                    ratios.push(RatioRow { a, b, factor: f })
                }
                _ => fixed.push(row.clone()),
            }
        }
        let lazy = ratios.len() > LAZY_ROWS_PER_INPUT * n;
        let initial = if lazy {
            let mut by_input: Vec<Vec<usize>> = vec![Vec::new(); n];
            for (k, r) in ratios.iter().enumerate() {
                by_input[r.a].push(k);
            }
            by_input
                .into_iter()
                .flat_map(|mut ks| {
                    ks.sort_by(|&i, &j| ratios[i].factor.total_cmp(&ratios[j].factor));
                    ks.truncate(INITIAL_ROWS_PER_INPUT);
                    ks
                })
                .collect()
        } else {
            (0..ratios.len()).collect()
        };
        Pricer::Cone {
            fixed,
            ratios,
            lazy,
            initial,
        }
    }

    /// The ratio rows of the first relaxation (empty for the closed form).
    pub fn initial_rows(&self) -> Vec<usize> {
        match self {
            Pricer::Staircase { .. } => Vec::new(),
            Pricer::Cone { initial, .. } => initial.clone(),
        }
    }

    /// Price reduced costs `d` (one per input). `active` holds the ratio rows of this output's
    /// relaxation and grows with the rows found violated.
    pub fn price(
        &self,
        d: &[f64],
        active: &mut Vec<usize>,
        backend: &dyn LpBackend,
        options: &SolveOptions,
    ) -> Result<Priced, BackendError> {
        match self {
            Pricer::Staircase { epsilon } => Ok(staircase(d, *epsilon)),
            Pricer::Cone {
                fixed,
                ratios,
                lazy,
                ..
            } => {
                let mut best_lower = f64::NEG_INFINITY;
                loop {
                    let mut lp = LinearProgram::new();
                    for &c in d {
                        lp.add_var(c, 0.0, 1.0);
                    }
                    for row in fixed {
                        lp.add_constraint(row.clone(), Sense::Ge, 0.0);
                    }
                    for &k in active.iter() {
                        let r = ratios[k];
                        lp.add_constraint(vec![(r.b, r.factor), (r.a, -1.0)], Sense::Ge, 0.0);
                    }
                    let s = backend.solve(&lp, options)?;
                    if !s.status.has_point() {
                        return Ok(Priced {
                            column: None,
                            lower: best_lower,
                        });
                    }
                    if let Some(b) = rigorous_lower_bound(&lp, &s) {
                        best_lower = best_lower.max(b);
                    }
                    let q: Vec<f64> = s.x.iter().map(|v| v.clamp(0.0, 1.0)).collect();
                    if !lazy {
                        return Ok(Priced {
                            column: Some(q),
                            lower: best_lower,
                        });
                    }
                    let added = add_violated(ratios, &q, active);
                    if added == 0 {
                        return Ok(Priced {
                            column: Some(q),
                            lower: best_lower,
                        });
                    }
                }
            }
        }
    }
}

/// The Lagrangian bound `sum_x p_x + sum_y min(0, lower_y)` for prices `p` and rigorous
/// lower bounds on each output's pricing minimum, rounded down with its error bound (a sum of
/// `n + outputs` terms; Higham, Sec. 3.1).
pub(crate) fn lagrangian_bound(prices: &[f64], lowers: &[f64]) -> f64 {
    let total = prices.iter().sum::<f64>() + lowers.iter().map(|l| l.min(0.0)).sum::<f64>();
    let magnitude = prices.iter().chain(lowers).map(|v| v.abs()).sum::<f64>();
    let error = ((prices.len() + lowers.len() + 4) as f64 * f64::EPSILON) * magnitude;
    (total - error).next_down()
}

/// Add to `active` the ratio rows `q` violates (the worst few per input); how many.
fn add_violated(ratios: &[RatioRow], q: &[f64], active: &mut Vec<usize>) -> usize {
    let n = q.len();
    let mut present = vec![false; ratios.len()];
    active.iter().for_each(|&k| present[k] = true);
    let mut worst: Vec<Vec<(f64, usize)>> = vec![Vec::new(); n];
    for (k, r) in ratios.iter().enumerate() {
        let excess = q[r.a] - r.factor * q[r.b];
        if !present[k] && excess > ROW_VIOLATION {
            worst[r.a].push((excess, k));
        }
    }
    let before = active.len();
    for mut list in worst {
        list.sort_by(|x, y| y.0.total_cmp(&x.0));
        active.extend(list.into_iter().take(ADDED_ROWS_PER_INPUT).map(|t| t.1));
    }
    active.len() - before
}

/// The closed-form LDP pricing (module docs), with its rounding error bounded: the value is a
/// sum of at most `2n` products of numbers in [0, 1] with `d`, so it errs by at most
/// `gamma_{2n+2} sum_x |d_x|` (Higham, Sec. 3.1), which is subtracted.
pub(crate) fn staircase(d: &[f64], epsilon: f64) -> Priced {
    let low = (-epsilon).exp();
    let q: Vec<f64> = d.iter().map(|&v| if v < 0.0 { 1.0 } else { low }).collect();
    let value: f64 = d.iter().zip(&q).map(|(a, b)| a * b).sum();
    let magnitude: f64 = d.iter().map(|v| v.abs()).sum();
    let k = 2 * d.len() + 8;
    let error = (k as f64 * f64::EPSILON) * magnitude;
    Priced {
        column: Some(q),
        lower: (value - error).next_down(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rays::staircase_rays;

    #[test]
    fn staircase_minimum_matches_every_box_scaled_ray() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for n in 2..8 {
            for _ in 0..20 {
                let eps = rng.gen_range(0.1..3.0);
                let d: Vec<f64> = (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect();
                let priced = staircase(&d, eps);
                // Brute force: every staircase ray scaled to max entry 1, and 0.
                let brute = staircase_rays(n, eps, 1 << 12)
                    .unwrap()
                    .into_iter()
                    .map(|r| {
                        let top = r.iter().cloned().fold(0.0, f64::max);
                        r.iter().zip(&d).map(|(v, c)| v / top * c).sum::<f64>()
                    })
                    .fold(0.0f64, f64::min);
                let col = priced.column.unwrap();
                let at: f64 = col.iter().zip(&d).map(|(v, c)| v * c).sum();
                assert!(priced.lower.min(0.0) <= brute.min(at) + 1e-15);
                assert!(at.min(0.0) <= brute + 1e-12, "{at} vs {brute}");
            }
        }
    }
}
