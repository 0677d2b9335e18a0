//! The truncated geometric mechanism followed by the Bayes remap, and the prices that certify
//! it (Ghosh, Roughgarden, Sundararajan, "Universally utility-maximizing privacy mechanisms",
//! STOC 2009 / SIAM J. Comput. 41(6), 2012).
//!
//! Points `0..n-1` of the line in order, `r = e^{-t}` with `t` the per-step log-ratio. The tents
//! `g_z[x] = r^{|x - z|}` are extreme rays of the column cone
//! `C = {q >= 0 : q_x <= e^t q_{x+1}, q_{x+1} <= e^t q_x}`. The Kac-Murdock-Szego matrix
//! `K[x][z] = r^{|x - z|}` has the tridiagonal inverse
//!
//! ```text
//! K^-1 = 1 / (1 - r^2) * tridiag(-r; 1, 1 + r^2, ..., 1 + r^2, 1; -r),
//! ```
//!
//! so the weights `mu = K^-1 1` are `1 / (1 + r)` at the ends and `(1 - r) / (1 + r)` inside
//! (all positive), and `G[x][z] = mu_z g_z[x]` is the truncated geometric mechanism (its rows
//! sum to 1). Output `z` is remapped to `y(z) = argmin_y c_y . g_z` (the Bayes decision for the
//! posterior of `z`), giving the channel `Q[x][y] = sum_{z : y(z) = y} mu_z g_z[x]`.
//!
//! Prices `u = K^-1 b` with `b_z = min_y c_y . g_z` satisfy `u . g_z = b_z` for every tent;
//! `sum_x u_x = mu . b` is the primal objective, so the Lagrangian bound of `pricing.rs` meets
//! the primal exactly when every `c_y - u` prices every column of `C` non-negatively.

use rayon::prelude::*;

/// The remapped geometric mechanism and its certifying prices, in line order.
#[derive(Debug, Clone)]
pub struct GeometricRemap {
    /// The per-step log-ratio `t`.
    pub log_ratio: f64,
    /// `r = e^{-t}`.
    pub ratio: f64,
    /// Tent weights `mu = K^-1 1`.
    pub weights: Vec<f64>,
    /// `y(z)`: the output each tent is sent to.
    pub output_of_tent: Vec<usize>,
    /// `b_z = min_y c_y . g_z`.
    pub tent_costs: Vec<f64>,
    /// The prices `u = K^-1 b`.
    pub prices: Vec<f64>,
    /// `mu . b`, the primal objective.
    pub objective: f64,
}

/// `(K v)_z = sum_x v_x r^{|x - z|}` for every z in O(n): one sweep each way.
pub fn tent_products(v: &[f64], r: f64) -> Vec<f64> {
    let n = v.len();
    let mut left = vec![0.0; n];
    let mut carry = 0.0;
    for z in 0..n {
        carry = v[z] + r * carry;
        left[z] = carry;
    }
    let mut carry = 0.0;
    for z in (0..n).rev() {
        // left[z] already counts v[z]; add the strictly-right part.
        left[z] += r * carry;
        carry = v[z] + r * carry;
    }
    left
}

/// `K^-1 v` with the tridiagonal inverse (n >= 2).
pub fn kms_inverse_times(v: &[f64], r: f64) -> Vec<f64> {
    let n = v.len();
    let scale = 1.0 / (1.0 - r * r);
    (0..n)
        .map(|x| {
            let diagonal = if x == 0 || x == n - 1 {
                1.0
            } else {
                1.0 + r * r
            };
            let mut s = diagonal * v[x];
            if x > 0 {
                s -= r * v[x - 1];
            }
            if x + 1 < n {
                s -= r * v[x + 1];
            }
            s * scale
        })
        .collect()
}

/// The remapped geometric mechanism for costs `costs[y][x]` (x in line order) at per-step
/// log-ratio `t > 0`; O(n m) plus the channel's O(n^2) in [`GeometricRemap::rows`].
pub fn geometric_remap(costs: &[Vec<f64>], t: f64) -> GeometricRemap {
    let n = costs.first().map_or(0, Vec::len);
    let r = (-t).exp();
    let weights: Vec<f64> = (0..n)
        .map(|z| {
            if z == 0 || z == n - 1 {
                1.0 / (1.0 + r)
            } else {
                (1.0 - r) / (1.0 + r)
            }
        })
        .collect();
    // For each tent, the cheapest output (ties: the smallest index).
    let best = costs
        .par_iter()
        .enumerate()
        .map(|(y, c)| (tent_products(c, r), y))
        .fold(
            || (vec![f64::INFINITY; n], vec![usize::MAX; n]),
            |(mut value, mut arg), (products, y)| {
                for z in 0..n {
                    if products[z] < value[z] || (products[z] == value[z] && y < arg[z]) {
                        value[z] = products[z];
                        arg[z] = y;
                    }
                }
                (value, arg)
            },
        )
        .reduce(
            || (vec![f64::INFINITY; n], vec![usize::MAX; n]),
            |(mut value, mut arg), (v2, a2)| {
                for z in 0..n {
                    if v2[z] < value[z] || (v2[z] == value[z] && a2[z] < arg[z]) {
                        value[z] = v2[z];
                        arg[z] = a2[z];
                    }
                }
                (value, arg)
            },
        );
    let (tent_costs, output_of_tent) = best;
    let prices = kms_inverse_times(&tent_costs, r);
    let objective = weights.iter().zip(&tent_costs).map(|(w, b)| w * b).sum();
    GeometricRemap {
        log_ratio: t,
        ratio: r,
        weights,
        output_of_tent,
        tent_costs,
        prices,
        objective,
    }
}

impl GeometricRemap {
    /// The channel rows `Q[x][y] = sum_{z : y(z) = y} mu_z r^{|x - z|}` in line order, with
    /// `outputs` columns.
    pub fn rows(&self, outputs: usize) -> Vec<Vec<f64>> {
        let n = self.weights.len();
        // r^k by exp for each k (no accumulated rounding).
        let t = self.log_ratio;
        let powers: Vec<f64> = (0..n).map(|k| (-(k as f64) * t).exp()).collect();
        (0..n)
            .into_par_iter()
            .map(|x| {
                let mut row = vec![0.0; outputs];
                for z in 0..n {
                    row[self.output_of_tent[z]] += self.weights[z] * powers[x.abs_diff(z)];
                }
                row
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `K v` and `K^-1 v` from the definition, by dense products.
    fn dense_kernel(n: usize, r: f64) -> Vec<Vec<f64>> {
        (0..n)
            .map(|x| (0..n).map(|z| r.powi(x.abs_diff(z) as i32)).collect())
            .collect()
    }

    #[test]
    fn sweeps_and_tridiagonal_inverse_match_dense_products() {
        for (n, r) in [(2usize, 0.3), (5, 0.9), (9, 0.05)] {
            let k = dense_kernel(n, r);
            let v: Vec<f64> = (0..n).map(|i| (i as f64 * 1.7).sin() + 0.2).collect();
            let kv = tent_products(&v, r);
            for z in 0..n {
                let direct: f64 = (0..n).map(|x| k[x][z] * v[x]).sum();
                assert!((kv[z] - direct).abs() < 1e-12, "n {n} z {z}");
            }
            let back = tent_products(&kms_inverse_times(&v, r), r);
            for z in 0..n {
                assert!((back[z] - v[z]).abs() < 1e-10, "n {n} z {z}");
            }
        }
    }

    #[test]
    fn geometric_rows_sum_to_one_and_remap_picks_the_cheapest_output() {
        let n = 7usize;
        // Absolute loss, uniform prior.
        let costs: Vec<Vec<f64>> = (0..n)
            .map(|y| (0..n).map(|x| x.abs_diff(y) as f64 / n as f64).collect())
            .collect();
        let g = geometric_remap(&costs, 0.4);
        for row in g.rows(n) {
            assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        let r = g.ratio;
        for z in 0..n {
            let value = |y: usize| -> f64 {
                (0..n)
                    .map(|x| costs[y][x] * r.powi(x.abs_diff(z) as i32))
                    .sum()
            };
            let best = (0..n).map(value).fold(f64::INFINITY, f64::min);
            assert!((value(g.output_of_tent[z]) - best).abs() < 1e-12);
        }
    }
}
