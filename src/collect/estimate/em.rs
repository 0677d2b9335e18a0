//! Maximum likelihood by EM, the iterative Bayesian update: `pi <- pi .* (Q (c ./ (Q^T pi)))`,
//! from the uniform distribution, accelerated by SQUAREM (Varadhan and Roland 2008, scheme
//! S3) with a fallback to the plain step whenever the extrapolation would leave the simplex or
//! lower the likelihood. It stops when one plain EM step changes no frequency by more than
//! [`EM_TOLERANCE`].

use super::Estimator;
use crate::collect::{CollectError, Model};
use std::time::Instant;

/// EM stops when a plain step changes every frequency by at most this.
pub const EM_TOLERANCE: f64 = 1e-10;
/// EM gives up after this many plain steps (reported as not converged).
pub const EM_MAX_ITERATIONS: usize = 200_000;

/// The outcome of [`em`].
#[derive(Debug, Clone, PartialEq)]
pub struct EmResult {
    /// The maximum-likelihood frequencies.
    pub frequencies: Vec<f64>,
    /// Plain EM steps taken.
    pub iterations: usize,
    /// Whether the last step changed no frequency by more than the tolerance.
    pub converged: bool,
    /// The log-likelihood per report, `sum_y c_y ln lambda_y`.
    pub log_likelihood: f64,
    /// Whether the deadline stopped it before convergence.
    pub timed_out: bool,
}

/// Dense row-major channel for the EM steps.
struct Dense {
    n: usize,
    m: usize,
    q: Vec<f64>,
    /// `(a, b)` when the channel is `a` on the diagonal and `b` elsewhere (k-RR): the steps
    /// then take O(n) instead of O(n m).
    diagonal: Option<(f64, f64)>,
}

/// `(a, b)` when `rows` is square with every diagonal entry `a` and every other entry `b`.
fn diagonal_plus_constant(rows: &[Vec<f64>]) -> Option<(f64, f64)> {
    let n = rows.len();
    if n < 2 || rows.iter().any(|r| r.len() != n) {
        return None;
    }
    let (a, b) = (rows[0][0], rows[0][1]);
    let fits = rows.iter().enumerate().all(|(x, r)| {
        r.iter()
            .enumerate()
            .all(|(y, &v)| v == if x == y { a } else { b })
    });
    fits.then_some((a, b))
}

impl Dense {
    fn new(model: &Model) -> Self {
        let rows = model.channel.rows();
        Dense {
            n: model.inputs(),
            m: model.outputs(),
            q: rows.iter().flatten().copied().collect(),
            diagonal: diagonal_plus_constant(rows),
        }
    }

    fn lambda(&self, pi: &[f64], lambda: &mut [f64]) {
        if let Some((a, b)) = self.diagonal {
            // lambda_y = b sum(pi) + (a - b) pi_y
            let total: f64 = pi.iter().sum();
            for (l, p) in lambda.iter_mut().zip(pi) {
                *l = b * total + (a - b) * p;
            }
            return;
        }
        lambda.fill(0.0);
        for (row, p) in self.q.chunks_exact(self.m).zip(pi) {
            for (l, q) in lambda.iter_mut().zip(row) {
                *l += p * q;
            }
        }
    }

    fn log_likelihood(&self, pi: &[f64], c: &[f64], lambda: &mut [f64]) -> f64 {
        self.lambda(pi, lambda);
        c.iter()
            .zip(lambda.iter())
            .filter(|(cy, _)| **cy > 0.0)
            .map(|(cy, l)| cy * l.ln())
            .sum()
    }

    /// One EM step from `pi` into `next`.
    fn step(&self, pi: &[f64], c: &[f64], lambda: &mut [f64], next: &mut [f64]) {
        self.lambda(pi, lambda);
        for (l, cy) in lambda.iter_mut().zip(c) {
            *l = if *cy > 0.0 { cy / *l } else { 0.0 };
        }
        let mut total = 0.0;
        let ratio_sum: f64 = lambda.iter().sum();
        for x in 0..self.n {
            let s: f64 = match self.diagonal {
                // sum_y q[x][y] r_y = b sum(r) + (a - b) r_x
                Some((a, b)) => b * ratio_sum + (a - b) * lambda[x],
                None => {
                    let row = &self.q[x * self.m..(x + 1) * self.m];
                    row.iter().zip(lambda.iter()).map(|(q, r)| q * r).sum()
                }
            };
            next[x] = pi[x] * s;
            total += next[x];
        }
        next.iter_mut().for_each(|v| *v /= total);
    }
}

fn max_change(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// Maximize `sum_y c_y ln (Q^T pi)_y` over distributions `pi`.
pub fn em(model: &Model, c: &[f64], tolerance: f64, max_iterations: usize) -> EmResult {
    em_until(model, c, tolerance, max_iterations, None)
}

/// Plain EM steps between two looks at the clock.
const STEPS_PER_CLOCK_CHECK: usize = 64;

/// [`em`], stopping (not converged, `timed_out`) once `deadline` has passed.
pub fn em_until(
    model: &Model,
    c: &[f64],
    tolerance: f64,
    max_iterations: usize,
    deadline: Option<Instant>,
) -> EmResult {
    let d = Dense::new(model);
    let (n, m) = (d.n, d.m);
    let mut pi = vec![1.0 / n as f64; n];
    let (mut p1, mut p2, mut p3) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut lambda = vec![0.0; m];
    let mut iterations = 0;
    let mut converged = false;
    let mut timed_out = false;
    let mut next_check = STEPS_PER_CLOCK_CHECK;
    while iterations < max_iterations {
        if iterations >= next_check {
            next_check = iterations + STEPS_PER_CLOCK_CHECK;
            if deadline.is_some_and(|d| Instant::now() > d) {
                timed_out = true;
                break;
            }
        }
        d.step(&pi, c, &mut lambda, &mut p1);
        iterations += 1;
        if max_change(&pi, &p1) <= tolerance {
            pi.copy_from_slice(&p1);
            converged = true;
            break;
        }
        d.step(&p1, c, &mut lambda, &mut p2);
        iterations += 1;
        // SQUAREM S3: r = p1 - pi, v = p2 - 2 p1 + pi, alpha = -|r| / |v|.
        let r2: f64 = (0..n).map(|i| (p1[i] - pi[i]).powi(2)).sum();
        let v2: f64 = (0..n).map(|i| (p2[i] - 2.0 * p1[i] + pi[i]).powi(2)).sum();
        let alpha = if v2 > 0.0 { -(r2 / v2).sqrt() } else { -1.0 }.min(-1.0);
        for i in 0..n {
            let r = p1[i] - pi[i];
            let v = p2[i] - 2.0 * p1[i] + pi[i];
            p3[i] = pi[i] - 2.0 * alpha * r + alpha * alpha * v;
        }
        let inside = p3.iter().all(|v| *v >= 0.0) && p3.iter().sum::<f64>() > 0.0;
        let accepted = inside && {
            let s: f64 = p3.iter().sum();
            p3.iter_mut().for_each(|v| *v /= s);
            d.log_likelihood(&p3, c, &mut lambda) >= d.log_likelihood(&p2, c, &mut lambda)
        };
        if accepted {
            // Stabilizing EM step from the extrapolated point.
            d.step(&p3, c, &mut lambda, &mut pi);
            iterations += 1;
        } else {
            pi.copy_from_slice(&p2);
        }
    }
    let log_likelihood = d.log_likelihood(&pi, c, &mut lambda);
    EmResult {
        frequencies: pi,
        iterations,
        converged,
        log_likelihood,
        timed_out,
    }
}

/// The EM estimator.
#[derive(Debug, Clone, Copy)]
pub struct EmEstimator {
    /// Convergence tolerance (largest change of a frequency in one step).
    pub tolerance: f64,
    /// Most plain EM steps.
    pub max_iterations: usize,
    /// EM stops with [`CollectError::TimeLimit`] once this has passed.
    pub deadline: Option<Instant>,
}

impl Default for EmEstimator {
    fn default() -> Self {
        EmEstimator {
            tolerance: EM_TOLERANCE,
            max_iterations: EM_MAX_ITERATIONS,
            deadline: None,
        }
    }
}

impl Estimator for EmEstimator {
    fn name(&self) -> &'static str {
        "em"
    }

    fn frequencies(&self, model: &Model, c: &[f64]) -> Result<Vec<f64>, CollectError> {
        let r = em_until(model, c, self.tolerance, self.max_iterations, self.deadline);
        if r.timed_out {
            return Err(CollectError::TimeLimit {
                what: format!("EM stopped after {} steps, before converging", r.iterations),
            });
        }
        if !r.converged {
            return Err(CollectError::NotEstimable {
                what: "the EM estimate".into(),
                reason: format!(
                    "EM did not converge to {:e} in {} steps",
                    self.tolerance, r.iterations
                ),
            });
        }
        Ok(r.frequencies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collect::baseline::BaselineSpec;
    use crate::{Channel, Domain};

    /// EM on k-RR takes the O(n) diagonal-plus-constant steps; the same channel with its
    /// outputs reversed is no longer of that form and takes the dense steps. Both must reach
    /// the same maximum-likelihood frequencies.
    #[test]
    fn structured_and_dense_steps_reach_the_same_estimate() {
        let n = 12;
        let krr = Model::baseline(BaselineSpec::KRr, Domain::sized(n).unwrap(), 0.8).unwrap();
        assert!(diagonal_plus_constant(krr.channel.rows()).is_some());
        let reversed: Vec<Vec<f64>> = krr
            .channel
            .rows()
            .iter()
            .map(|r| r.iter().rev().copied().collect())
            .collect();
        assert!(diagonal_plus_constant(&reversed).is_none());
        let dense = Model::new(
            Channel::new(reversed).unwrap(),
            Domain::sized(n).unwrap(),
            "reversed".into(),
        )
        .unwrap();
        let counts: Vec<f64> = (0..n).map(|y| 1.0 + ((y * 7) % 5) as f64).collect();
        let total: f64 = counts.iter().sum();
        let c: Vec<f64> = counts.iter().map(|k| k / total).collect();
        let c_reversed: Vec<f64> = c.iter().rev().copied().collect();
        let a = em(&krr, &c, 1e-13, EM_MAX_ITERATIONS);
        let b = em(&dense, &c_reversed, 1e-13, EM_MAX_ITERATIONS);
        assert!(a.converged && b.converged);
        for (x, (p, q)) in a.frequencies.iter().zip(&b.frequencies).enumerate() {
            assert!((p - q).abs() < 1e-9, "symbol {x}: {p} vs {q}");
        }
        assert!((a.log_likelihood - b.log_likelihood).abs() < 1e-12);
    }
}
