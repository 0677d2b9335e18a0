//! The hockey-stick (E-) divergence `E_gamma(P || Q) = sup_S P(S) - gamma Q(S)
//! = int (p(y) - gamma q(y))^+ dy` (context-aware-lip Definition 8), by quadrature, and in closed
//! form for two Gaussians (Lemma 4 with Proposition 3 for the other order).

use super::normal::std_cdf;
use super::quadrature::{integrate, Integral};

/// `E_gamma(P || Q)` over `[lo, hi]` by adaptive Gauss–Kronrod, to absolute tolerance `tol`;
/// `tail` is a bound on `P`'s mass outside `[lo, hi]` (which bounds the neglected part of the
/// integral, since `(p - gamma q)^+ <= p`) and is added to the error.
pub fn hockey_stick(
    p: impl Fn(f64) -> f64,
    q: impl Fn(f64) -> f64,
    gamma: f64,
    (lo, hi): (f64, f64),
    breaks: &[f64],
    tol: f64,
    tail: f64,
) -> Integral {
    let r = integrate(|y| (p(y) - gamma * q(y)).max(0.0), lo, hi, breaks, tol);
    Integral {
        value: r.value,
        error: r.error + tail,
    }
}

/// Lemma 4 (context-aware-lip eq. (23)) as printed: for `f = N(mu1, s1^2)`, `g = N(mu2, s2^2)`
/// with `s1 > s2`, `E_gamma(f || g) = 1 + Q((y_u - mu1)/s1) - Q((y_l - mu1)/s1)
/// - gamma [1 + Q((y_u - mu2)/s2) - Q((y_l - mu2)/s2)]`, `y_l <= y_u` the roots of
/// `f = gamma g` (`Q = 1 - Phi`). When `f > gamma g` everywhere (no root) the value is
/// `1 - gamma`. Returns `None` when `s1 <= s2` (outside the lemma's hypothesis).
pub fn lemma4(mu1: f64, s1: f64, mu2: f64, s2: f64, gamma: f64) -> Option<f64> {
    if s1 <= s2 {
        return None;
    }
    // ln f - ln g - ln gamma = a y^2 + b y + c, a > 0 when s1 > s2.
    let a = 0.5 / (s2 * s2) - 0.5 / (s1 * s1);
    let b = mu1 / (s1 * s1) - mu2 / (s2 * s2);
    let c =
        -mu1 * mu1 / (2.0 * s1 * s1) + mu2 * mu2 / (2.0 * s2 * s2) + (s2 / s1).ln() - gamma.ln();
    let disc = b * b - 4.0 * a * c;
    if disc <= 0.0 {
        return Some(1.0 - gamma);
    }
    let root = disc.sqrt();
    // Stable roots of a y^2 + b y + c.
    let qq = -0.5 * (b + b.signum() * root);
    let (r1, r2) = (qq / a, c / qq);
    let (yl, yu) = (r1.min(r2), r1.max(r2));
    let upper_q = |z: f64| std_cdf(-z);
    let mass_f = 1.0 + upper_q((yu - mu1) / s1) - upper_q((yl - mu1) / s1);
    let mass_g = 1.0 + upper_q((yu - mu2) / s2) - upper_q((yl - mu2) / s2);
    Some(mass_f - gamma * mass_g)
}

/// `E_gamma(N(mu1, s1^2) || N(mu2, s2^2))` for any `s1, s2 > 0`, `gamma > 0`: Lemma 4 when
/// `s1 > s2`; Proposition 3 (`E_gamma(P||Q) = 1 - gamma + gamma E_{1/gamma}(Q||P)`) and Lemma 4
/// when `s1 < s2`; the equal-variance case directly (one crossing point).
pub fn gaussian_hockey_stick(mu1: f64, s1: f64, mu2: f64, s2: f64, gamma: f64) -> f64 {
    if s1 > s2 {
        return lemma4(mu1, s1, mu2, s2, gamma).expect("s1 > s2");
    }
    if s1 < s2 {
        let swapped = lemma4(mu2, s2, mu1, s1, 1.0 / gamma).expect("s2 > s1");
        return (1.0 - gamma + gamma * swapped).max(0.0);
    }
    // Equal variances: ln f - ln g = (mu1 - mu2)(2y - mu1 - mu2) / (2 s^2) >= ln gamma.
    let s = s1;
    let d = mu1 - mu2;
    if d == 0.0 {
        return (1.0 - gamma).max(0.0);
    }
    let t = gamma.ln() * s * s / d + 0.5 * (mu1 + mu2);
    if d > 0.0 {
        // Region y >= t.
        (std_cdf(-(t - mu1) / s) - gamma * std_cdf(-(t - mu2) / s)).max(0.0)
    } else {
        (std_cdf((t - mu1) / s) - gamma * std_cdf((t - mu2) / s)).max(0.0)
    }
}
