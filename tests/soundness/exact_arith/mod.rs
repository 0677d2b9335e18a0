//! Exact rationals and fixed-point logarithms and exponentials on big integers: an
//! independent reference for the leakage of a channel given by doubles or by decimals.

use num_bigint::BigInt;
use std::cmp::Ordering;

/// Fractional bits of the fixed-point numbers (value = integer / 2^FRACTION_BITS).
pub const FRACTION_BITS: u64 = 320;
/// Error bound of [`ln_fixed`], in units of 2^-FRACTION_BITS, per unit of the binary exponent
/// of its argument plus one: truncation of about a hundred series terms, each below 4 units,
/// counted generously.
const LN_ERROR_UNITS: u64 = 4096;
/// Taylor terms of [`exp_lower_fixed`] after reducing the argument below 1/16: the next term
/// is below 2^-(4 * 41) / 41!, far below a unit.
const EXP_TERMS: u32 = 40;

/// A non-negative rational `n / d` with `d > 0`.
#[derive(Clone, Debug)]
pub struct Rational {
    /// Numerator.
    pub n: BigInt,
    /// Denominator (positive).
    pub d: BigInt,
}

fn pow2(k: u64) -> BigInt {
    BigInt::from(1u8) << k
}

impl Rational {
    /// The integer `v`.
    pub fn int(v: i64) -> Rational {
        Rational {
            n: BigInt::from(v),
            d: BigInt::from(1u8),
        }
    }

    /// The exact value of a finite non-negative double.
    pub fn from_f64(v: f64) -> Rational {
        assert!(v.is_finite() && v >= 0.0);
        let bits = v.to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (mantissa, e) = if exp == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), exp - 1075)
        };
        let m = BigInt::from(mantissa);
        if e >= 0 {
            Rational {
                n: m << e as u64,
                d: BigInt::from(1u8),
            }
        } else {
            Rational {
                n: m,
                d: pow2((-e) as u64),
            }
        }
    }

    /// The exact value of a decimal string such as `0.1999`, `2e-7` or `1.5E+3`.
    pub fn from_decimal(s: &str) -> Rational {
        let (mantissa, exponent) = match s.find(['e', 'E']) {
            Some(i) => (&s[..i], s[i + 1..].parse::<i64>().expect("exponent")),
            None => (s, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits: BigInt = format!("{int}{frac}").parse().expect("digits");
        let e = exponent - frac.len() as i64;
        let ten = |k: i64| BigInt::from(10u8).pow(k as u32);
        if e >= 0 {
            Rational {
                n: digits * ten(e),
                d: BigInt::from(1u8),
            }
        } else {
            Rational {
                n: digits,
                d: ten(-e),
            }
        }
    }

    /// `self + o`.
    pub fn add(&self, o: &Rational) -> Rational {
        Rational {
            n: &self.n * &o.d + &o.n * &self.d,
            d: &self.d * &o.d,
        }
    }

    /// `self * o`.
    pub fn mul(&self, o: &Rational) -> Rational {
        Rational {
            n: &self.n * &o.n,
            d: &self.d * &o.d,
        }
    }

    /// `self / o` for `o > 0`.
    pub fn div(&self, o: &Rational) -> Rational {
        Rational {
            n: &self.n * &o.d,
            d: &self.d * &o.n,
        }
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.n == BigInt::from(0u8)
    }

    /// Exact comparison.
    pub fn cmp(&self, o: &Rational) -> Ordering {
        (&self.n * &o.d).cmp(&(&o.n * &self.d))
    }

    /// `floor(self * 2^FRACTION_BITS)`.
    pub fn fixed_floor(&self) -> BigInt {
        (&self.n << FRACTION_BITS) / &self.d
    }

    /// `ceil(self * 2^FRACTION_BITS)`.
    pub fn fixed_ceil(&self) -> BigInt {
        ((&self.n << FRACTION_BITS) + &self.d - 1u8) / &self.d
    }
}

/// `atanh(z / 2^F) * 2^F` by its series, for |z| <= 2^F / 3 (error below 4 units per term).
fn atanh_fixed(z: &BigInt) -> BigInt {
    // Odd: the series of |z| (shifts of a negative number would floor towards -1).
    if *z < BigInt::from(0u8) {
        return -atanh_fixed(&-z);
    }
    let z2 = (z * z) >> FRACTION_BITS;
    let mut pow = z.clone();
    let mut sum = BigInt::from(0u8);
    let mut k = 1u32;
    while pow != BigInt::from(0u8) {
        sum += &pow / k;
        pow = (&pow * &z2) >> FRACTION_BITS;
        k += 2;
    }
    sum
}

/// `ln(r) * 2^F` for a positive rational, within [`ln_error`]`(r)` units.
pub fn ln_fixed(r: &Rational) -> BigInt {
    let k = r.n.bits() as i64 - r.d.bits() as i64;
    let (num, den) = if k >= 0 {
        (r.n.clone(), &r.d << k as u64)
    } else {
        (&r.n << (-k) as u64, r.d.clone())
    };
    // num / den in (1/2, 2): z = (f - 1) / (f + 1) in (-1/3, 1/3).
    let z = ((&num - &den) << FRACTION_BITS) / (&num + &den);
    let ln2 = atanh_fixed(&(pow2(FRACTION_BITS) / 3u8)) * 2u8;
    ln2 * k + atanh_fixed(&z) * 2u8
}

/// The error bound of [`ln_fixed`] in units.
pub fn ln_error(r: &Rational) -> BigInt {
    let k = (r.n.bits() as i64 - r.d.bits() as i64).unsigned_abs();
    BigInt::from(LN_ERROR_UNITS * (k + 2))
}

/// A lower bound on `e^x * 2^F` for a rational `x >= 0`: floored Taylor terms of `x / 2^s`
/// (all positive), squared `s` times with floors.
pub fn exp_lower_fixed(x: &Rational) -> BigInt {
    let s = (x.n.bits() as i64 - x.d.bits() as i64 + 5).max(0) as u64;
    let t = (&x.n << FRACTION_BITS) / (&x.d << s);
    let one = pow2(FRACTION_BITS);
    let mut term = one.clone();
    let mut sum = one;
    for k in 1..=EXP_TERMS {
        term = ((&term * &t) >> FRACTION_BITS) / k;
        sum += &term;
    }
    for _ in 0..s {
        sum = (&sum * &sum) >> FRACTION_BITS;
    }
    sum
}

/// An upper bound on `e^-x * 2^F` for a rational `x >= 0`.
pub fn exp_neg_upper_fixed(x: &Rational) -> BigInt {
    let lower = exp_lower_fixed(x);
    (pow2(2 * FRACTION_BITS) + &lower - 1u8) / lower
}
