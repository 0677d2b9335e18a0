//! A ratio cone `{q >= 0 : q_a <= f_ab q_b}` whose pairs connect every input, with its bounds
//! closed under paths (in logs, the polytrope `{z : z_a - z_b <= L_ab}`), as the vertex search
//! of [`super::polytrope`] uses it.

use super::ColumnCone;

/// Gaps up to this, relative to the largest log bound, are ties.
const TIE_LOW: f64 = 1e-12;
/// Gaps above this, relative to the largest log bound, are real; between the two is ambiguous.
const TIE_HIGH: f64 = 1e-9;
/// Units of relative rounding per input in a computed vertex (products of closed factors).
const VERTEX_ROUNDING_UNITS: f64 = 4.0;
/// Most inputs the search handles (inputs are kept in a bit mask, and tree codes in a byte).
pub const POLYTROPE_MAX_INPUTS: usize = 63;

/// A ratio cone whose pairs connect every input, with its bounds closed under paths.
#[derive(Debug, Clone)]
pub struct RatioCone {
    pub(super) n: usize,
    /// `log[a * n + b]`: the closed bound on `ln q_a - ln q_b`.
    pub(super) log: Vec<f64>,
    /// `factor[a * n + b]`: the closed bound on `q_a / q_b`.
    pub(super) factor: Vec<f64>,
    pub(super) tie_low: f64,
    pub(super) tie_high: f64,
}

impl RatioCone {
    /// The ratio cone of `cone`, when every row is `q_a <= f q_b` (or `q >= 0`), there are no
    /// auxiliary coordinates or coupling rows, and the pairs connect every input in both
    /// directions; `None` otherwise.
    pub fn from_cone(cone: &ColumnCone) -> Option<Self> {
        let n = cone.n;
        if cone.aux != 0 || !cone.coupling.is_empty() || n == 0 || n > POLYTROPE_MAX_INPUTS {
            return None;
        }
        let mut factor = vec![f64::INFINITY; n * n];
        for x in 0..n {
            factor[x * n + x] = 1.0;
        }
        for row in &cone.rows {
            match row.as_slice() {
                [(_, c)] if *c > 0.0 => {}
                [(i, ci), (j, cj)] if i != j => {
                    // ci q_i + cj q_j >= 0 with one negative: q_neg <= (pos / |neg|) q_pos.
                    let ((b, cb), (a, ca)) = if *ci > 0.0 && *cj < 0.0 {
                        ((*i, *ci), (*j, *cj))
                    } else if *cj > 0.0 && *ci < 0.0 {
                        ((*j, *cj), (*i, *ci))
                    } else {
                        return None;
                    };
                    let f = cb / -ca;
                    let cell = &mut factor[a * n + b];
                    *cell = cell.min(f);
                }
                _ => return None,
            }
        }
        let mut log: Vec<f64> = factor.iter().map(|f| f.ln()).collect();
        for k in 0..n {
            for a in 0..n {
                let (fak, lak) = (factor[a * n + k], log[a * n + k]);
                if !fak.is_finite() {
                    continue;
                }
                for b in 0..n {
                    let f = fak * factor[k * n + b];
                    if f < factor[a * n + b] {
                        factor[a * n + b] = f;
                    }
                    let l = lak + log[k * n + b];
                    if l < log[a * n + b] {
                        log[a * n + b] = l;
                    }
                }
            }
        }
        let negative_cycle = (0..n).any(|x| factor[x * n + x] < 1.0);
        if factor.iter().any(|f| !f.is_finite()) || negative_cycle {
            return None;
        }
        let scale = log.iter().fold(1.0f64, |m, l| m.max(l.abs()));
        Some(RatioCone {
            n,
            log,
            factor,
            tie_low: TIE_LOW * scale,
            tie_high: TIE_HIGH * scale,
        })
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.n
    }

    /// A relative widening of a visited vertex that covers the exact vertex it stands for:
    /// a tie is decided from gaps up to `TIE_LOW` (taken to be rounding, which at these
    /// magnitudes is a thousand times smaller), a coordinate sums at most `n` bounds, and its
    /// value is a product of at most `n` rounded factors.
    pub fn vertex_widening(&self) -> f64 {
        (self.n as f64 * self.tie_low).exp_m1()
            + VERTEX_ROUNDING_UNITS * self.n as f64 * f64::EPSILON
    }

    /// The closed bound on `q_a / q_b`.
    pub fn factor(&self, a: usize, b: usize) -> f64 {
        self.factor[a * self.n + b]
    }
}
