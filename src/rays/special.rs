//! Closed-form extreme-ray generators for the two cones that dominate in practice.

/// Relative tolerance for deciding that a free coordinate sits on a bound.
const BOUND_TOLERANCE: f64 = 1e-12;

/// The extreme rays of the eps-LDP cone `{q >= 0 : q_x <= e^eps q_x'}`: the `2^n - 2`
/// non-constant "staircase" patterns in `{1, e^eps}^n` (Kairouz, Oh, Viswanath, Theorem 2; the
/// constant pattern is their sum's direction for n >= 2). At `eps = 0` or `n = 1` the cone is a
/// single ray. `None` when the count exceeds `limit`.
pub fn staircase_rays(n: usize, epsilon: f64, limit: usize) -> Option<Vec<Vec<f64>>> {
    if epsilon == 0.0 || n <= 1 {
        return Some(vec![vec![1.0; n]]);
    }
    if n >= usize::BITS as usize - 1 || (1usize << n) - 2 > limit {
        return None;
    }
    let high = epsilon.exp();
    Some(
        (1..(1usize << n) - 1)
            .map(|bits| {
                (0..n)
                    .map(|x| if bits >> x & 1 == 1 { high } else { 1.0 })
                    .collect()
            })
            .collect(),
    )
}

/// The extreme rays of the eps-LIP cone for a full-support prior `p`, normalized to
/// `lambda = p . q = 1`: the vertices of `{q in [e^-eps, e^eps]^n : p . q = 1}`, where every
/// coordinate is at a bound except at most one (docs/design-notes.md, "Extreme rays"). `None` when the candidate count
/// `n 2^(n-1)` exceeds `limit`.
pub fn lip_vertices(prior: &[f64], epsilon: f64, limit: usize) -> Option<Vec<Vec<f64>>> {
    let n = prior.len();
    if epsilon == 0.0 {
        return Some(vec![vec![1.0; n]]);
    }
    if n == 0 || n >= usize::BITS as usize - 2 || n * (1usize << (n - 1)) > limit {
        return None;
    }
    let (low, high) = ((-epsilon).exp(), epsilon.exp());
    let mut out: Vec<Vec<f64>> = Vec::new();
    for free in 0..n {
        for bits in 0..1usize << (n - 1) {
            let mut q = vec![0.0; n];
            let mut rest = 0.0;
            for (bit, x) in (0..n).filter(|&x| x != free).enumerate() {
                q[x] = if bits >> bit & 1 == 1 { high } else { low };
                rest += prior[x] * q[x];
            }
            let value = (1.0 - rest) / prior[free];
            let slack = BOUND_TOLERANCE * high;
            if value < low - slack || value > high + slack {
                continue;
            }
            // A free coordinate on a bound is a vertex found again from another `free`: keep
            // it once, from the smallest index at a bound.
            let at_bound = (value - low).abs() <= slack || (value - high).abs() <= slack;
            if at_bound && (0..free).any(|x| q[x] == low || q[x] == high) {
                continue;
            }
            q[free] = value.clamp(low, high);
            out.push(q);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staircase_counts_and_patterns() {
        let rays = staircase_rays(3, 1.0, 100).unwrap();
        assert_eq!(rays.len(), 6);
        assert!(rays
            .iter()
            .all(|r| r.iter().all(|&v| v == 1.0 || v == 1f64.exp())));
        assert!(staircase_rays(20, 1.0, 1000).is_none());
        assert_eq!(staircase_rays(4, 0.0, 10).unwrap().len(), 1);
    }

    #[test]
    fn lip_vertices_lie_on_the_hyperplane_inside_the_box() {
        let p = [0.2, 0.3, 0.5];
        let eps: f64 = 0.7;
        let rays = lip_vertices(&p, eps, 1000).unwrap();
        assert!(!rays.is_empty());
        for q in &rays {
            let lambda: f64 = p.iter().zip(q).map(|(a, b)| a * b).sum();
            assert!((lambda - 1.0).abs() < 1e-12, "{q:?}");
            let inside = q.iter().filter(|&&v| v != eps.exp() && v != (-eps).exp());
            assert!(inside.count() <= 1, "{q:?}");
        }
    }
}
