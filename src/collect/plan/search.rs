//! The smallest epsilon meeting a variance bound when the variance jumps: OLH's bucket count
//! `g = round(e^eps) + 1` grows by one at each `eps = ln(m + 1/2)`, and its variance jumps up
//! there, so it is not monotone in epsilon and a bisection over the whole range can stop at a
//! later, larger epsilon than the first that meets the bound.
//!
//! Between two jumps (a *segment*, where the oracle's parameters other than `e^eps` are fixed)
//! the variance decreases in epsilon: each symbol's variance is
//! `(f p (1 - p) + (1 - f) q (1 - q)) / (p - q)^2`, both of whose terms decrease in `p` for a
//! fixed `q`, and `p` grows with `e^eps`. So the least variance of a segment is at its right
//! end, and the first feasible segment is found by binary search over the segments' right
//! ends, which assumes the segments' least variances decrease from one segment to the next
//! (true of OLH: at the right end `e^eps = g - 1/2` both terms fall as `g` grows; checked
//! numerically by a test). Inside that segment the variance is monotone, so bisection finds
//! the smallest epsilon.

use super::EPSILON_RESOLUTION;

/// Segment right ends are evaluated this far inside the segment (relative to
/// [`EPSILON_RESOLUTION`]), so that rounding of `ln` and `exp` cannot put the point into the
/// next segment.
const RIGHT_END_INSET: f64 = 1e-3 * EPSILON_RESOLUTION;

/// The segments of `[0, max]` cut at `jump(1) < jump(2) < ...`: segment `m` is
/// `[jump(m), jump(m + 1))` (`jump(0)` read as 0); the last ends at `max`.
struct Segments<'a> {
    jump: &'a dyn Fn(u64) -> f64,
    max: f64,
    /// The index of the last segment (the last jump at or below `max`).
    last: u64,
}

impl Segments<'_> {
    fn start(&self, m: u64) -> f64 {
        if m == 0 {
            0.0
        } else {
            (self.jump)(m)
        }
    }

    /// The point of segment `m` where its variance is least (up to the inset).
    fn right_end(&self, m: u64) -> f64 {
        if m >= self.last {
            self.max
        } else {
            ((self.jump)(m + 1) - RIGHT_END_INSET).max(self.start(m))
        }
    }
}

/// The smallest epsilon in `[0, max]` with `variance(eps) <= bound`, for a variance that
/// decreases within each segment cut by `jump` (increasing, `jump(m)` for `m >= 1`) and
/// whose segment minima decrease from segment to segment.
pub(super) fn smallest_epsilon_piecewise(
    variance: &dyn Fn(f64) -> f64,
    bound: f64,
    jump: &dyn Fn(u64) -> f64,
    max: f64,
) -> Option<f64> {
    // The number of jumps at or below `max`, by doubling then bisection on the index.
    let (mut lo, mut hi) = (0u64, 1u64);
    while jump(hi) <= max {
        lo = hi;
        hi = hi.checked_mul(2)?;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if jump(mid) <= max {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let segments = Segments {
        jump,
        max,
        last: lo,
    };
    let feasible = |m: u64| variance(segments.right_end(m)) <= bound;
    if !feasible(segments.last) {
        return None;
    }
    // The first segment whose right end meets the bound.
    let (mut lo, mut hi) = (0u64, segments.last);
    if feasible(0) {
        hi = 0;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if feasible(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    // Bisection inside segment `hi`, where the variance is monotone.
    let (mut a, mut b) = (segments.start(hi), segments.right_end(hi));
    if variance(a) <= bound {
        return Some(a);
    }
    while b - a > EPSILON_RESOLUTION {
        let mid = 0.5 * (a + b);
        if variance(mid) <= bound {
            b = mid;
        } else {
            a = mid;
        }
    }
    Some(b)
}
