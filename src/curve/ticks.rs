//! Axis ticks: 1-2-5 steps with plain labels (`0.001`, `0.02`, `500`), powers of ten written
//! `10⁻⁴` or `2×10⁻⁵` beyond [`PLAIN_EXPONENTS`]; never `316.2278` or `3.2e-4`.

/// Decimal exponents whose 1-2-5 values are written as plain numbers (`0.001` to `50000`);
/// outside them a label reads `10⁻⁴`, `2×10⁵`.
pub const PLAIN_EXPONENTS: std::ops::RangeInclusive<i32> = -3..=4;

/// The most ticks an axis gets, however long it is.
const MAX_TICKS: usize = 11;

/// Superscript digits for exponents.
const SUPERSCRIPT: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

fn superscript(e: i32) -> String {
    let mut s = String::new();
    if e < 0 {
        s.push('⁻');
    }
    for d in e.unsigned_abs().to_string().bytes() {
        s.push(SUPERSCRIPT[usize::from(d - b'0')]);
    }
    s
}

/// The label of `mantissa × 10^exponent` (mantissa a small whole number or a short decimal).
fn scaled(mantissa: f64, exponent: i32) -> String {
    if PLAIN_EXPONENTS.contains(&exponent) {
        let decimals = usize::try_from(-exponent).unwrap_or(0) + decimals_of(mantissa);
        let v = mantissa * 10f64.powi(exponent);
        return trim_zero(format!("{v:.decimals$}"));
    }
    let m = trim_zero(format!("{mantissa:.*}", decimals_of(mantissa)));
    if m == "1" {
        format!("10{}", superscript(exponent))
    } else if m == "-1" {
        format!("-10{}", superscript(exponent))
    } else {
        format!("{m}×10{}", superscript(exponent))
    }
}

/// Decimals a mantissa needs (at most 3).
fn decimals_of(m: f64) -> usize {
    (0..3)
        .find(|d| {
            let s = 10f64.powi(*d as i32);
            ((m * s).round() - m * s).abs() < 1e-6
        })
        .unwrap_or(3)
}

fn trim_zero(s: String) -> String {
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// The label of a tick value on a log axis (a 1-2-5 value).
pub fn log_label(v: f64) -> String {
    let e = v.log10().floor() as i32;
    let m = (v / 10f64.powi(e) * 1e6).round() / 1e6;
    // Rounding can land on 10: that is the next decade.
    if m >= 10.0 {
        scaled(1.0, e + 1)
    } else {
        scaled(m, e)
    }
}

/// The label of a tick value on a linear axis whose ticks are `step` apart.
pub fn linear_label(v: f64, step: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let step_exp = step.log10().floor() as i32;
    let big = v.abs().log10().floor() as i32;
    if step_exp >= *PLAIN_EXPONENTS.start() && big <= *PLAIN_EXPONENTS.end() + 1 {
        let decimals = usize::try_from(-step_exp).unwrap_or(0);
        return trim_zero(format!("{v:.decimals$}"));
    }
    // A power of ten with the mantissa to the step's precision.
    let e = big;
    let digits = usize::try_from(e - step_exp).unwrap_or(0).min(3);
    let m = (v / 10f64.powi(e) * 10f64.powi(digits as i32)).round() / 10f64.powi(digits as i32);
    scaled(m, e)
}

/// Candidate tick sets of a log axis over `lo..hi` (data values, both positive), finest
/// first: every 1-2-5 value, then every decade, then every 2nd, 3rd, 5th, 10th decade.
pub fn log_candidates(lo: f64, hi: f64) -> Vec<Vec<f64>> {
    let (e0, e1) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let inside = |v: f64| v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9);
    let mut out = Vec::new();
    let fine: Vec<f64> = (e0..=e1)
        .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)))
        .filter(|v| inside(*v))
        .collect();
    out.push(fine);
    for every in [1, 2, 3, 5, 10, 20, 50] {
        let decades: Vec<f64> = (e0..=e1)
            .filter(|e| e.rem_euclid(every) == 0)
            .map(|e| 10f64.powi(e))
            .filter(|v| inside(*v))
            .collect();
        out.push(decades);
    }
    out.retain(|t| t.len() <= MAX_TICKS);
    out
}

/// The 1-2-5 step giving at most `count` intervals over `span`.
fn nice_step(span: f64, count: usize) -> f64 {
    let raw = span / count.max(1) as f64;
    let e = raw.log10().floor();
    let base = 10f64.powf(e);
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * base)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * base)
}

/// Candidate tick sets of a linear axis over `lo..hi`, each with its step, finest first.
pub fn linear_candidates(lo: f64, hi: f64) -> Vec<(Vec<f64>, f64)> {
    let span = hi - lo;
    if !(span.is_finite() && span > 0.0) {
        return vec![(vec![lo], 1.0)];
    }
    let mut out: Vec<(Vec<f64>, f64)> = Vec::new();
    for count in (1..=MAX_TICKS - 1).rev() {
        let step = nice_step(span, count);
        if out.last().is_some_and(|(_, s)| *s == step) {
            continue;
        }
        let first = (lo / step).ceil() as i64;
        let last = (hi / step).floor() as i64;
        let ticks: Vec<f64> = (first..=last).map(|k| k as f64 * step).collect();
        if ticks.len() <= MAX_TICKS {
            out.push((ticks, step));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_plain() {
        assert_eq!(log_label(0.001), "0.001");
        assert_eq!(log_label(0.02), "0.02");
        assert_eq!(log_label(500.0), "500");
        assert_eq!(log_label(1e-4), "10⁻⁴");
        assert_eq!(log_label(2e-5), "2×10⁻⁵");
        assert_eq!(log_label(1e6), "10⁶");
        assert_eq!(linear_label(0.30000000000000004, 0.1), "0.3");
        assert_eq!(linear_label(-0.0, 0.1), "0");
        assert_eq!(linear_label(2500.0, 500.0), "2500");
        assert_eq!(linear_label(3e-6, 1e-6), "3×10⁻⁶");
        assert_eq!(linear_label(2e7, 5e6), "2×10⁷");
    }

    #[test]
    fn candidates_are_125() {
        let c = log_candidates(1e-4, 1e3);
        assert!(c.iter().all(|t| t.len() <= MAX_TICKS));
        assert_eq!(c[0].len(), 8, "decades only: {:?}", c[0]);
        let l = linear_candidates(0.0, 1.0);
        assert_eq!(l[0].0.len(), 11);
        assert_eq!(l[0].1, 0.1);
    }
}
