//! Exact sums of floating-point numbers in a fixed-point "long accumulator" (Kulisch and
//! Miranker, "The arithmetic of the digital computer: a new approach", SIAM Review 28(1), 1986).
//!
//! Every finite double is an integer multiple of `2^-1074`: `v = M 2^(e - 1074)` with a 53-bit
//! integer `M` and `0 <= e <= 2045`. The accumulator keeps the exact sum as 64-bit limbs of that
//! integer, each held in an `i128` so that additions need no carry until the headroom is used;
//! carries are propagated every `CARRY_EVERY` additions. Cost: O(1) per value, against the
//! growing expansion of Shewchuk's method.

/// Limbs: 2098 bits of value (`2^-1074 .. 2^1024`) plus carry room.
const LIMBS: usize = 35;
/// Each addition adds less than `2^117` to one limb; `i128` holds `2^127`.
const CARRY_EVERY: usize = 1000;

/// An exact running sum of doubles.
#[derive(Debug, Clone)]
pub struct LongAccumulator {
    limbs: [i128; LIMBS],
    pending: usize,
}

impl Default for LongAccumulator {
    fn default() -> Self {
        LongAccumulator {
            limbs: [0; LIMBS],
            pending: 0,
        }
    }
}

/// `2^e` for `-1074 <= e <= 1023`, exactly.
fn pow2(e: i32) -> f64 {
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (e + 1074))
    }
}

impl LongAccumulator {
    /// Add `v` exactly (`v` must be finite).
    pub fn add(&mut self, v: f64) {
        debug_assert!(v.is_finite());
        let bits = v.to_bits();
        let exponent = ((bits >> 52) & 0x7ff) as usize;
        let fraction = bits & ((1u64 << 52) - 1);
        let (mantissa, shift) = if exponent == 0 {
            (fraction, 0)
        } else {
            (fraction | (1u64 << 52), exponent - 1)
        };
        if mantissa == 0 {
            return;
        }
        let part = i128::from(mantissa) << (shift % 64);
        if bits >> 63 == 1 {
            self.limbs[shift / 64] -= part;
        } else {
            self.limbs[shift / 64] += part;
        }
        self.pending += 1;
        if self.pending >= CARRY_EVERY {
            self.carry();
        }
    }

    /// Propagate carries: every limb but the last in `[0, 2^64)`.
    fn carry(&mut self) {
        for i in 0..LIMBS - 1 {
            let high = self.limbs[i] >> 64;
            self.limbs[i] -= high << 64;
            self.limbs[i + 1] += high;
        }
        self.pending = 0;
    }

    /// The sum, rounded: exact sign (zero exactly when the sum is zero) and a relative error of
    /// a few units in the last place.
    pub fn value(&self) -> f64 {
        let mut limbs = self.limbs;
        for i in 0..LIMBS - 1 {
            let high = limbs[i] >> 64;
            limbs[i] -= high << 64;
            limbs[i + 1] += high;
        }
        let negative = limbs[LIMBS - 1] < 0;
        if negative {
            // Two's complement over the limbs: the magnitude as non-negative limbs.
            let mut borrow = 0i128;
            for limb in limbs.iter_mut() {
                let v = -*limb - borrow;
                let low = v & ((1i128 << 64) - 1);
                borrow = -((v - low) >> 64);
                *limb = low;
            }
        }
        // Non-negative terms summed from the smallest: relative error at most LIMBS ulps.
        let mut total = 0.0;
        for (i, &limb) in limbs.iter().enumerate() {
            if limb != 0 {
                let exponent = 64 * i as i32 - 1074;
                let (first, second) = if exponent > 1023 {
                    (1023, exponent - 1023)
                } else {
                    (exponent, 0)
                };
                total += limb as f64 * pow2(first) * pow2(second);
            }
        }
        if negative {
            -total
        } else {
            total
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(values: &[f64]) -> f64 {
        let mut acc = LongAccumulator::default();
        values.iter().for_each(|&v| acc.add(v));
        acc.value()
    }

    #[test]
    fn cancellation_is_exact() {
        assert_eq!(sum(&[0.1, 0.2, -0.1, -0.2]), 0.0);
        assert_eq!(sum(&[1e300, 1.0, -1e300]), 1.0);
        assert_eq!(sum(&[1.0, f64::MIN_POSITIVE * f64::EPSILON, -1.0]), 5e-324);
        assert_eq!(sum(&[-1.0, 0.5, 0.25]), -0.25);
        assert_eq!(sum(&[f64::MAX, -f64::MAX, 3.0]), 3.0);
    }

    #[test]
    fn many_terms_carry_correctly() {
        let mut values = vec![0.1; 100_000];
        values.extend(vec![-0.1; 100_000]);
        assert_eq!(sum(&values), 0.0);
        let large = vec![f64::MAX / 4.0; 3_000];
        let mut both = large.clone();
        both.extend(large.iter().map(|v| -v));
        both.push(-1.5);
        assert_eq!(sum(&both), -1.5);
        // 5000 times the smallest subnormal is a subnormal, exactly.
        assert_eq!(sum(&vec![5e-324; 5_000]), 5_000.0 * 5e-324);
        assert!((sum(&vec![0.1; 100_000]) - 10_000.0).abs() < 1e-9);
    }
}
