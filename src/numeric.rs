//! Outward-rounded arithmetic and the named tolerances used across mechsynth.
//!
//! # What a certified leakage guarantees
//!
//! Every leakage function in the `privacy` module returns an upper bound on the exact leakage
//! (in real arithmetic) of every channel whose entries are obtained from the emitted doubles by
//! a non-decreasing map `phi` with `phi(q)` within half a unit in the last place of `q`
//! (`phi(0) = 0`). Two such channels matter: the doubles themselves, and the shortest
//! round-trip decimals that reports print (JSON, TOML and CSV); a decimal read back exactly,
//! e.g. as a fraction, is such a channel. Priors, weights and distances are the doubles the
//! problem was read into.
//!
//! Half an ulp is a relative error of at most [`EMITTED_RELATIVE_ERROR`] = 2^-53 on a normal
//! number, so the ratio of two printed entries may exceed the ratio of their doubles by the
//! factor `(1 + 2^-53) / (1 - 2^-53)`: an absolute `2^-52` in the logarithm, which near a ratio
//! of 1 is far more than an ulp of a small leakage. [`log_ratio_up`] adds
//! [`EMITTED_LOG_SLACK`] for it after rounding the quotient up and widening the logarithm by
//! two units in the last place (libm's `ln` is within one); sums carry a relative error bound.
//! Because `phi` is non-decreasing, equal entries stay equal and a smaller entry never becomes
//! the larger, so comparisons of two entries of the channel (`a <= b`) need no slack
//! ([`entry_log_ratio_up`]).

/// Largest accepted deviation of a prior's sum from 1 (the prior is then divided by its sum).
pub const PRIOR_SUM_TOLERANCE: f64 = 1e-6;
/// A prior whose sum is further than this from 1 is renormalized with a warning.
pub const RENORMALIZE_NOTE_THRESHOLD: f64 = 1e-12;
/// Largest accepted deviation of a channel row's sum from 1 (for channels read from files).
pub const ROW_SUM_TOLERANCE: f64 = 1e-9;
/// Entries of a solver's point below this magnitude (negative) are solver noise, clipped to 0.
pub const SOLVER_NOISE: f64 = 1e-6;
/// Largest magnitude accepted for a value, weight, offset, loss or distance: squares and sums
/// of such numbers stay far inside double precision. Larger inputs are refused up front
/// (rescale the units instead).
pub const MAX_MAGNITUDE: f64 = 1e100;

/// Slack used when comparing a distance with a range-query radius.
pub const DISTANCE_TOLERANCE: f64 = 1e-9;
/// Relative slack used when deciding that a constraint is implied by a shorter path.
pub const IMPLIED_PATH_TOLERANCE: f64 = 1e-12;

/// Below this magnitude of the dividend a fused remainder may underflow, and quotients are
/// widened unconditionally.
const EXACT_REMAINDER_FLOOR: f64 = 1e-250;

/// Upper bound on the exact quotient `a / b` for finite `a >= 0`, `b > 0`: the rounded
/// quotient when the fused remainder shows it is not below the exact one, else one step up.
pub fn div_up(a: f64, b: f64) -> f64 {
    let q = a / b;
    // The remainder q b - a is computed with one rounding, which keeps its sign unless it
    // underflows; away from the subnormal range a zero remainder is exact.
    if q.is_finite() && a.abs() > EXACT_REMAINDER_FLOOR && q.mul_add(b, -a) >= 0.0 {
        q
    } else {
        q.next_up()
    }
}

/// Lower bound on the exact quotient `a / b` for finite `a >= 0`, `b > 0`.
pub fn div_down(a: f64, b: f64) -> f64 {
    let q = a / b;
    if q.is_finite() && a.abs() > EXACT_REMAINDER_FLOOR && q.mul_add(b, -a) <= 0.0 {
        q
    } else {
        q.next_down()
    }
}

/// Upper bound on `ln(x)` for `x > 0`; exactly 0 at `x == 1`.
pub fn ln_up(x: f64) -> f64 {
    if x == 1.0 {
        0.0
    } else {
        x.ln().next_up().next_up()
    }
}

/// Largest relative distance between a normal double and a real within half an ulp of it
/// (such as its shortest round-trip decimal): 2^-53.
pub const EMITTED_RELATIVE_ERROR: f64 = f64::EPSILON / 2.0;

/// An upper bound on `ln((1 + u) / (1 - u)) = 2u + 2u^3/3 + ...` for `u =`
/// [`EMITTED_RELATIVE_ERROR`], with room for the absolute error of entries below
/// [`TINY_FLOOR`] (2^-52 + 2^-72): what the logarithm of a ratio of emitted numbers may exceed
/// that of their doubles by.
pub const EMITTED_LOG_SLACK: f64 = f64::EPSILON * (1.0 + 1.0 / 1_048_576.0);

/// Below this magnitude (2^-960) a quantity of [`log_ratio_up`] may hold subnormal entries,
/// whose half-ulp error is absolute rather than relative: it is widened by `TINY_ABSOLUTE` (2^-1040).
pub const TINY_FLOOR: f64 = 1.0261342003245941e-289;

/// Absolute widening of a quantity below [`TINY_FLOOR`] (2^-1040): the half-ulp error of
/// subnormal entries (at most 2^-1075 each) times any total weight up to 2^35. Relative to
/// [`TINY_FLOOR`] it is 2^-80, inside [`EMITTED_LOG_SLACK`].
const TINY_ABSOLUTE: f64 = 8.487983164e-314;

/// `x + EMITTED_LOG_SLACK`, rounded up: an upper bound on the log-ratio of emitted numbers from
/// an upper bound `x` on the log-ratio of their doubles (infinities unchanged).
pub fn add_emitted_slack(x: f64) -> f64 {
    if x.is_finite() {
        (x + EMITTED_LOG_SLACK).next_up()
    } else {
        x
    }
}

/// Upper bound on `ln(A / B)` for every `A` within [`EMITTED_RELATIVE_ERROR`] (relative) of a
/// real `<= a` and every `B` likewise of a real `>= b`, where `a, b >= 0` bound non-negative
/// combinations of emitted entries with total weight at most 2^35 (see the module docs): `-inf`
/// when `a == 0` (no constraint binds), `+inf` when only `b == 0`. Not 0 at `a == b`: two
/// different bounds may be equal while the numbers they bound are not (for two entries of the
/// channel use [`entry_log_ratio_up`]).
pub fn log_ratio_up(a: f64, b: f64) -> f64 {
    if a == 0.0 {
        f64::NEG_INFINITY
    } else if b == 0.0 {
        f64::INFINITY
    } else if a.min(b) < TINY_FLOOR {
        // Subnormal entries: widen absolutely first.
        let (a, b) = (
            (a + TINY_ABSOLUTE).next_up(),
            (b - TINY_ABSOLUTE).next_down(),
        );
        if b <= 0.0 {
            f64::INFINITY
        } else {
            add_emitted_slack(ln_up(div_up(a, b)))
        }
    } else {
        add_emitted_slack(ln_up(div_up(a, b)))
    }
}

/// Upper bound on every non-negative combination of emitted numbers (total weight at most 2^35)
/// whose doubles combine exactly to at most `x >= 0`: `x (1 + 2^-52) + 2^-1040`, rounded up.
pub fn emitted_up(x: f64) -> f64 {
    ((x * (1.0 + f64::EPSILON)).next_up() + TINY_ABSOLUTE).next_up()
}

/// Lower bound on every non-negative combination of emitted numbers (total weight at most
/// 2^35) whose doubles combine exactly to at least `x >= 0`: `x (1 - 2^-52) - 2^-1040`,
/// rounded down, floored at 0.
pub fn emitted_down(x: f64) -> f64 {
    ((x * (1.0 - f64::EPSILON)).next_down() - TINY_ABSOLUTE)
        .next_down()
        .max(0.0)
}

/// Upper bound on `ln(phi(a) / phi(b))` for two entries `a, b` of the emitted channel (see the
/// module docs), floored at 0: exactly 0 when `a <= b` (then `phi(a) <= phi(b)`), `-inf` when
/// `a == 0`, `+inf` when only `b == 0`.
pub fn entry_log_ratio_up(a: f64, b: f64) -> f64 {
    if a == 0.0 {
        f64::NEG_INFINITY
    } else if a <= b {
        0.0
    } else {
        log_ratio_up(a, b)
    }
}

/// Higham's `gamma_k = k u / (1 - k u)` with `u = 2^-53` the unit roundoff, rounded up: the
/// relative error bound of a k-term dot product or sum computed in floating point.
pub fn gamma(k: usize) -> f64 {
    let ku = k as f64 * (f64::EPSILON / 2.0);
    (ku / (1.0 - ku)).next_up()
}

/// [`gamma`] with `u` taken as `f64::EPSILON` (twice the unit roundoff), for bounds whose
/// margin was derived with that coarser unit.
pub fn gamma_coarse(k: usize) -> f64 {
    let ku = k as f64 * f64::EPSILON;
    ku / (1.0 - ku)
}

/// `(s, e)` with `s = fl(a + b)` and `a + b = s + e` exactly (Knuth's TwoSum).
#[cfg(test)]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// The sign of the exact value of `sum(values) - target`, computed with a non-overlapping
/// floating-point expansion (Shewchuk, "Adaptive precision floating-point arithmetic", 1997):
/// `Greater`, `Equal` or `Less`, exactly.
pub fn exact_sum_cmp(values: &[f64], target: f64) -> std::cmp::Ordering {
    exact_sum_minus(values, target)
        .partial_cmp(&0.0)
        .unwrap_or(std::cmp::Ordering::Equal)
}

/// `sum(values) - target` with the sign of the exact value (zero exactly when it is zero) and
/// a magnitude within a few units of the exact one: the components of a non-overlapping
/// expansion (Shewchuk 1997), summed from the smallest. A plain floating-point sum decides
/// first when its error bound (Higham, Sec. 4.2) already fixes the sign.
pub fn exact_sum_minus(values: &[f64], target: f64) -> f64 {
    let (mut plain, mut magnitude) = (-target, target.abs());
    for &v in values {
        plain += v;
        magnitude += v.abs();
    }
    let error = (values.len() as f64 + 2.0) * f64::EPSILON * magnitude;
    if plain.abs() > 2.0 * error {
        return plain;
    }
    let mut acc = crate::long_sum::LongAccumulator::default();
    acc.add(-target);
    values.iter().for_each(|&v| acc.add(v));
    acc.value()
}

/// Relative error bound of a floating-point sum of `terms` non-negative products.
fn sum_relative_error(terms: usize) -> f64 {
    (terms as f64 + 2.0) * f64::EPSILON
}

/// `value` printed with `decimals` decimals, rounded up: the printed number is never below
/// `value` (for leakages, where a parameter printed below the true one would not hold).
/// Non-finite values print as Rust prints them.
pub fn fixed_up(value: f64, decimals: usize) -> String {
    let mut shown = format!("{value:.decimals$}");
    if !value.is_finite() {
        return shown;
    }
    let unit = 10f64.powi(-(decimals.min(300) as i32));
    // Each step moves the printed number up by about one unit in the last decimal.
    for _ in 0..4 {
        match shown.parse::<f64>() {
            Ok(v) if v < value => shown = format!("{:.decimals$}", v + 0.75 * unit),
            _ => break,
        }
    }
    shown
}

/// An interval `[lo, hi]` that contains the exact sum of non-negative `products`, each the
/// floating-point product of two exact numbers.
pub fn sum_bounds(products: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let mut sum = 0.0;
    let mut count = 0usize;
    for p in products {
        sum += p;
        count += 1;
    }
    sum_bounds_of(sum, count)
}

/// [`sum_bounds`] of `count` non-negative products whose floating-point sum, added in order,
/// is `sum`.
pub fn sum_bounds_of(sum: f64, count: usize) -> (f64, f64) {
    if sum == 0.0 {
        return (0.0, 0.0);
    }
    let rel = sum_relative_error(count);
    (
        (sum * (1.0 - rel)).next_down().max(0.0),
        (sum * (1.0 + rel)).next_up(),
    )
}

/// `ln(a/b) / scale` rounded up, where `scale > 0` is the privacy-matrix entry of the pair.
/// A zero scale allows no leakage at all, so any positive log-ratio gives `+inf`.
pub fn scaled_log_ratio_up(a: f64, b: f64, scale: f64) -> f64 {
    let l = log_ratio_up(a, b);
    if l <= 0.0 {
        return l;
    }
    if scale == 0.0 {
        f64::INFINITY
    } else {
        div_up(l, scale)
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn fixed_up_never_prints_below_the_value() {
        // Values whose nearest 9-decimal rendering is below them.
        for v in [
            1.6997061794_f64,
            0.26509217147,
            1e-10,
            0.1234567891,
            2.0 / 3.0,
            5.0,
        ] {
            for decimals in [0, 3, 6, 9] {
                let shown = fixed_up(v, decimals);
                let back: f64 = shown.parse().unwrap();
                assert!(back >= v, "{v} shown as {shown}");
                // At most one unit in the last decimal above.
                assert!(
                    back - v <= 10f64.powi(-(decimals as i32)) * (1.0 + 1e-9),
                    "{v} shown as {shown}"
                );
            }
        }
        assert_eq!(fixed_up(1.6997061794, 9), "1.699706180");
        assert_eq!(fixed_up(0.25, 1), "0.3");
        assert_eq!(fixed_up(f64::INFINITY, 6), "inf");
    }
    use super::*;
    use proptest::prelude::*;

    /// Reference: Shewchuk's growing expansion.
    fn expansion_sum_minus(values: &[f64], target: f64) -> f64 {
        let (mut plain, mut magnitude) = (-target, target.abs());
        for &v in values {
            plain += v;
            magnitude += v.abs();
        }
        let error = (values.len() as f64 + 2.0) * f64::EPSILON * magnitude;
        if plain.abs() > 2.0 * error {
            return plain;
        }
        let mut expansion: Vec<f64> = vec![-target];
        let mut grown: Vec<f64> = Vec::with_capacity(values.len() + 1);
        for &v in values {
            let mut q = v;
            grown.clear();
            for &h in &expansion {
                let (s, e) = two_sum(q, h);
                if e != 0.0 {
                    grown.push(e);
                }
                q = s;
            }
            grown.push(q);
            std::mem::swap(&mut expansion, &mut grown);
        }
        // Components increase in magnitude and do not overlap: the largest non-zero one carries
        // the sign, and their sum from the smallest is within an ulp of the exact value.
        let top = expansion.iter().rev().find(|c| **c != 0.0).copied();
        match top {
            None => 0.0,
            Some(t) => {
                let total: f64 = expansion.iter().sum();
                if total == 0.0 || total.signum() != t.signum() {
                    t
                } else {
                    total
                }
            }
        }
    }

    proptest! {
        #[test]
        fn long_accumulator_agrees_with_an_expansion(
            parts in proptest::collection::vec((-1.0f64..1.0, -60i32..60), 1..200),
            target in 0.0f64..2.0,
        ) {
            let values: Vec<f64> = parts.iter().map(|&(m, e)| m * 2f64.powi(e)).collect();
            // Cancel the plain sum almost exactly, so the exact path runs.
            let plain: f64 = values.iter().sum();
            let target = if target < 1.0 { plain } else { plain.next_up() };
            let fast = exact_sum_minus(&values, target);
            let slow = expansion_sum_minus(&values, target);
            prop_assert_eq!(fast.partial_cmp(&0.0), slow.partial_cmp(&0.0));
            prop_assert!((fast - slow).abs() <= 8.0 * f64::EPSILON * slow.abs());
        }
    }

    #[test]
    fn ln_up_is_an_upper_bound_and_exact_at_one() {
        assert_eq!(ln_up(1.0), 0.0);
        for x in [0.1, 0.5, 2.0, std::f64::consts::E, 1e6] {
            assert!(ln_up(x) > x.ln());
        }
    }

    #[test]
    fn exact_quotients_are_not_widened_and_inexact_ones_are_bracketed() {
        assert_eq!(div_up(0.3, 0.3), 1.0);
        assert_eq!(div_down(0.75, 0.25), 3.0);
        for (a, b) in [(1.0, 3.0), (0.1, 0.7), (2.0, 0.3)] {
            let (lo, hi) = (div_down(a, b), div_up(a, b));
            // lo * b <= a <= hi * b exactly (checked with fused multiply-add).
            assert!(lo.mul_add(b, -a) <= 0.0 && hi.mul_add(b, -a) >= 0.0);
            assert!(lo < hi);
        }
    }

    #[test]
    fn exact_sums_are_compared_exactly() {
        use std::cmp::Ordering::*;
        // In exact arithmetic of the doubles (checked with Python's fractions):
        // 0.1 + 0.2 + 0.7 = 1 - 2.8e-17 and 0.1 + 0.2 + next_up(0.7) = 1 + 8.3e-17.
        assert_eq!(exact_sum_cmp(&[0.5, 0.25, 0.25], 1.0), Equal);
        assert_eq!(exact_sum_cmp(&[0.1, 0.2, 0.7], 1.0), Less);
        assert_eq!(exact_sum_cmp(&[0.1, 0.2, 0.7f64.next_up()], 1.0), Greater);
        assert_eq!(exact_sum_cmp(&[1.0, 1e-300], 1.0), Greater);
    }

    #[test]
    fn log_ratio_handles_zeros() {
        assert_eq!(log_ratio_up(0.0, 0.0), f64::NEG_INFINITY);
        assert_eq!(log_ratio_up(0.5, 0.0), f64::INFINITY);
        assert_eq!(entry_log_ratio_up(0.3, 0.3), 0.0);
        assert_eq!(entry_log_ratio_up(0.2, 0.3), 0.0);
        assert!(log_ratio_up(0.3, 0.3) >= EMITTED_LOG_SLACK);
        assert!(log_ratio_up(1.0, std::f64::consts::E.recip()) >= 1.0);
        // A subnormal denominator within the absolute widening gives no finite bound.
        assert_eq!(log_ratio_up(1e-300, 5e-324), f64::INFINITY);
    }

    #[test]
    fn sum_bounds_bracket_the_sum() {
        let terms = [0.1, 0.2, 0.3];
        let (lo, hi) = sum_bounds(terms);
        assert!(lo < 0.6 && 0.6 < hi);
        assert_eq!(sum_bounds([0.0, 0.0]), (0.0, 0.0));
    }

    #[test]
    fn scaled_ratio_with_zero_scale_is_infinite() {
        assert_eq!(scaled_log_ratio_up(0.6, 0.3, 0.0), f64::INFINITY);
        assert!(scaled_log_ratio_up(0.6, 0.3, 2.0) >= 2f64.ln() / 2.0);
    }

    /// The constants are what their docs say (values checked in exact binary arithmetic).
    #[test]
    fn emitted_constants_are_the_stated_powers_of_two() {
        assert_eq!(EMITTED_RELATIVE_ERROR, 2f64.powi(-53));
        assert_eq!(EMITTED_LOG_SLACK, 2f64.powi(-52) + 2f64.powi(-72));
        assert_eq!(TINY_FLOOR, 2f64.powi(-960));
        assert_eq!(TINY_ABSOLUTE, 2f64.powi(-1040));
    }
}
