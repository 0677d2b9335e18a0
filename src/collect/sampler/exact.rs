//! Exact sampling from non-negative `f64` weights: the drawn outcome has probability exactly
//! `w_y / sum_j w_j` (as rational numbers), with no rounding anywhere.
//!
//! Every positive `f64` is `m 2^e` with an integer `m < 2^53` and `e >= -1074`, so on the scale
//! `2^e_min` of the row's smallest exponent every weight is an integer `W_y = m_y 2^(e_y -
//! e_min)` (up to 2,100 bits). The table keeps the prefix sums `P_k = r 2^s (W_0 + ... + W_k)`
//! as multi-limb integers of `L` 64-bit limbs, where the odd multiplier `r <= 255` and the shift
//! `s` put the total `T = P_last` in `(2^(64 L - 1), 2^(64 L)]`. A sample draws a uniform
//! `L`-limb integer `U`, rejects it when `U >= T` (probability below 1/2; with the best `r`
//! usually below 1%), and returns the bucket `k` with `P_(k-1) <= U < P_k`: each bucket has
//! exactly `r 2^s W_y` of the `T` accepted values.
//!
//! `U` is drawn lazily, most significant limb first: a draw reads one 64-bit word, and the
//! lower limbs only when the top limb of `U` ties the top limb of the bound it is compared
//! with (probability about `k / 2^64`). The result is the same function of the full `U`, so
//! the distribution is exact; the words consumed depend only on the generator's output, so a
//! seeded generator gives reproducible outcomes.

use crate::collect::CollectError;
use rand::RngCore;

/// Largest odd multiplier of the weights tried to bring the acceptance probability near 1.
const MAX_MULTIPLIER: u64 = 255;

/// `v = m 2^e` exactly, for finite `v > 0`.
fn decompose(v: f64) -> (u64, i32) {
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    }
}

/// Add `v 2^shift` to the little-endian integer `acc` (which must have room).
fn add_shifted(acc: &mut [u64], v: u64, shift: usize) {
    let (mut i, bit) = (shift / 64, shift % 64);
    let wide = (v as u128) << bit;
    let (sum, overflow) = acc[i].overflowing_add(wide as u64);
    acc[i] = sum;
    let mut carry = (wide >> 64) + overflow as u128;
    while carry != 0 {
        i += 1;
        let t = acc[i] as u128 + carry;
        acc[i] = t as u64;
        carry = t >> 64;
    }
}

/// `acc * r` (little-endian), one limb longer.
fn mul_small(acc: &[u64], r: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(acc.len() + 1);
    let mut carry = 0u128;
    for &a in acc {
        let t = a as u128 * r as u128 + carry;
        out.push(t as u64);
        carry = t >> 64;
    }
    out.push(carry as u64);
    out
}

/// Number of significant bits of the little-endian integer `acc`.
fn bit_length(acc: &[u64]) -> usize {
    acc.iter()
        .rposition(|&l| l != 0)
        .map_or(0, |i| 64 * i + 64 - acc[i].leading_zeros() as usize)
}

/// `acc - 1` in place (`acc >= 1`).
fn sub_one(acc: &mut [u64]) {
    for limb in acc.iter_mut() {
        let (d, borrow) = limb.overflowing_sub(1);
        *limb = d;
        if !borrow {
            return;
        }
    }
}

/// The top 64 bits of a positive little-endian integer of `bits` significant bits (all of
/// them when `bits <= 64`), and whether any bit below them is set.
fn top_word(acc: &[u64], bits: usize) -> (u64, bool) {
    if bits <= 64 {
        return (acc[0], false);
    }
    let low = bits - 64;
    let (i, bit) = (low / 64, low % 64);
    let word = if bit == 0 {
        acc[i]
    } else {
        (acc[i] >> bit) | (acc[i + 1] << (64 - bit))
    };
    let below = if bit == 0 {
        0
    } else {
        acc[i] & ((1u64 << bit) - 1)
    };
    (word, below != 0 || acc[..i].iter().any(|&l| l != 0))
}

/// The exact table of one distribution (see the module documentation).
#[derive(Debug, Clone)]
pub struct ExactTable {
    /// Limbs per integer (`L`); 0 when one outcome has all the weight.
    limbs: usize,
    /// Top limb of each prefix sum `P_0 .. P_(k-2)`.
    tops: Vec<u64>,
    /// The `L - 1` lower limbs of each of those prefix sums, most significant first.
    lows: Vec<u64>,
    /// `T - 1`, most significant limb first.
    limit: Vec<u64>,
    /// `T`, little-endian, `L + 1` limbs.
    total: Vec<u64>,
    /// The outcome of each bucket (the weights' indices with positive weight).
    outcome: Vec<u32>,
    /// The odd multiplier `r`.
    multiplier: u64,
    /// Each bucket holds `w_y r 2^exponent` values.
    exponent: i32,
}

impl ExactTable {
    /// Build from non-negative finite weights with a positive sum (they need not sum to 1: the
    /// table realizes `w_y / sum_j w_j` exactly).
    pub fn new(weights: &[f64]) -> Result<Self, CollectError> {
        let outcome = super::positive_outcomes(weights)?;
        if outcome.is_empty() {
            return Err(CollectError::invalid(
                "weights",
                format!("{weights:?}"),
                "weights need a positive sum",
            ));
        }
        let parts: Vec<(u64, i32)> = outcome
            .iter()
            .map(|&i| decompose(weights[i as usize]))
            .collect();
        let e_min = parts.iter().map(|p| p.1).min().unwrap_or(0);
        let span = parts
            .iter()
            .map(|p| (p.1 - e_min) as usize)
            .max()
            .unwrap_or(0);
        // Room for the largest weight, the carries of up to 2^32 terms and the multiplier.
        let room = (span + 53 + 32 + 8) / 64 + 2;
        let mut base = vec![0u64; room];
        for &(m, e) in &parts {
            add_shifted(&mut base, m, (e - e_min) as usize);
        }
        let k = outcome.len();
        if k == 1 {
            return Ok(ExactTable {
                limbs: 0,
                tops: Vec::new(),
                lows: Vec::new(),
                limit: Vec::new(),
                total: base,
                outcome,
                multiplier: 1,
                exponent: -e_min,
            });
        }
        // The multiplier r whose r T fills its power of two best (acceptance r T / 2^c).
        let (multiplier, _) = (1..=MAX_MULTIPLIER)
            .step_by(2)
            .map(|r| {
                let mut t = mul_small(&base, r);
                sub_one(&mut t);
                let c = bit_length(&t);
                let (word, _) = top_word(&t, c);
                let acceptance = word as f64 / 2f64.powi(c.min(64) as i32);
                (r, acceptance)
            })
            .fold((1, f64::NEG_INFINITY), |best, cand| {
                if cand.1 > best.1 {
                    cand
                } else {
                    best
                }
            });
        let mut t = mul_small(&base, multiplier);
        sub_one(&mut t);
        let c = bit_length(&t);
        let limbs = c.div_ceil(64);
        let s = 64 * limbs - c;
        let mut acc = vec![0u64; limbs + 1];
        let mut tops = Vec::with_capacity(k - 1);
        let mut lows = Vec::with_capacity((k - 1) * (limbs - 1));
        for (j, &(m, e)) in parts.iter().enumerate() {
            add_shifted(&mut acc, multiplier * m, (e - e_min) as usize + s);
            if j + 1 < k {
                tops.push(acc[limbs - 1]);
                lows.extend(acc[..limbs - 1].iter().rev());
            }
        }
        let mut limit = acc.clone();
        sub_one(&mut limit);
        debug_assert_eq!(limit[limbs], 0);
        let limit: Vec<u64> = limit[..limbs].iter().rev().copied().collect();
        Ok(ExactTable {
            limbs,
            tops,
            lows,
            limit,
            total: acc,
            outcome,
            multiplier,
            exponent: s as i32 - e_min,
        })
    }

    /// Draw one outcome (an index into the weights).
    #[inline]
    pub fn sample<R: RngCore + ?Sized>(&self, rng: &mut R) -> usize {
        if self.limbs == 0 {
            return self.outcome[0] as usize;
        }
        loop {
            let u = rng.next_u64();
            let bound = self.limit[0];
            if self.limbs == 1 {
                if u > bound {
                    continue;
                }
                let k = self.tops.partition_point(|&t| t <= u);
                return self.outcome[k] as usize;
            }
            if u > bound {
                continue;
            }
            if u < bound {
                let k = self.tops.partition_point(|&t| t < u);
                if self.tops.get(k) != Some(&u) {
                    return self.outcome[k] as usize;
                }
            }
            if let Some(k) = self.resolve_tie(u, rng) {
                return self.outcome[k] as usize;
            }
        }
    }

    /// The rare draw whose top limb ties a bound: read lower limbs of `U` as needed. `None`
    /// when `U` is rejected.
    #[cold]
    fn resolve_tie<R: RngCore + ?Sized>(&self, top: u64, rng: &mut R) -> Option<usize> {
        let mut drawn = vec![top];
        let mut limb = |i: usize, rng: &mut R| {
            while drawn.len() <= i {
                drawn.push(rng.next_u64());
            }
            drawn[i]
        };
        // U <= T - 1?
        for i in 0..self.limbs {
            match limb(i, rng).cmp(&self.limit[i]) {
                std::cmp::Ordering::Less => break,
                std::cmp::Ordering::Greater => return None,
                std::cmp::Ordering::Equal => {}
            }
        }
        // The number of prefix sums P_j <= U (they increase with j).
        let (mut lo, mut hi) = (0, self.tops.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let mut at_most = true;
            for i in 0..self.limbs {
                let p = self.prefix_limb(mid, i);
                let u = limb(i, rng);
                if p != u {
                    at_most = p < u;
                    break;
                }
            }
            if at_most {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Some(lo)
    }

    /// Limb `i` (0 = most significant) of the prefix sum `P_j`, `j < k - 1`.
    fn prefix_limb(&self, j: usize, i: usize) -> u64 {
        if i == 0 {
            self.tops[j]
        } else {
            self.lows[j * (self.limbs - 1) + i - 1]
        }
    }

    /// The outcomes of positive weight, in bucket order.
    pub fn outcomes(&self) -> &[u32] {
        &self.outcome
    }

    /// Limbs per integer of the table (0 when one outcome has all the weight).
    pub fn limbs(&self) -> usize {
        self.limbs
    }

    /// The prefix sums `P_0, ..., P_(k-1) = T` of the buckets, each as `L + 1` little-endian
    /// limbs: bucket `k` is drawn with probability exactly `(P_k - P_(k-1)) / T`.
    pub fn prefix_sums(&self) -> Vec<Vec<u64>> {
        let l = self.limbs;
        let mut out: Vec<Vec<u64>> = (0..self.tops.len())
            .map(|j| {
                let mut le: Vec<u64> = (0..l).rev().map(|i| self.prefix_limb(j, i)).collect();
                le.push(0);
                le
            })
            .collect();
        out.push(self.total.clone());
        out
    }

    /// `T - 1` as `L` little-endian limbs: the largest accepted value of `U`.
    pub fn accept_limit(&self) -> Vec<u64> {
        self.limit.iter().rev().copied().collect()
    }

    /// `(r, x)`: every bucket holds `w_y r 2^x` of the values, so `T = S r 2^x` with `S` the
    /// exact sum of the weights.
    pub fn scale(&self) -> (u64, i32) {
        (self.multiplier, self.exponent)
    }

    /// The exact sum `S` of the weights as `(M, x)`, `S = M 2^x` with `M` odd (little-endian
    /// limbs, no leading zero limbs): equal sums have equal representations.
    pub fn exact_sum(&self) -> (Vec<u64>, i64) {
        // T / r is an integer: the buckets are r times integers.
        let mut q = vec![0u64; self.total.len()];
        let mut rem = 0u128;
        for i in (0..self.total.len()).rev() {
            let cur = (rem << 64) | self.total[i] as u128;
            q[i] = (cur / self.multiplier as u128) as u64;
            rem = cur % self.multiplier as u128;
        }
        debug_assert_eq!(rem, 0, "the total is a multiple of the multiplier");
        let zeros = q
            .iter()
            .position(|&l| l != 0)
            .map_or(0, |i| 64 * i + q[i].trailing_zeros() as usize);
        let shifted = shift_right(&q, zeros);
        let len = shifted.iter().rposition(|&l| l != 0).map_or(0, |i| i + 1);
        (shifted[..len].to_vec(), zeros as i64 - self.exponent as i64)
    }

    /// Bounds `[lo, hi]` on the exact sum of the weights (valid while it is a normal `f64`).
    pub fn sum_bounds(&self) -> (f64, f64) {
        let (m, x) = self.exact_sum();
        let bits = bit_length(&m);
        let (word, sticky) = top_word(&m, bits);
        let (lo, hi) = u64_bounds(word, sticky);
        let scale = x + bits as i64 - bits.min(64) as i64;
        (ldexp_down(lo, scale), ldexp_up(hi, scale))
    }
}

/// `acc >> bits`, little-endian.
fn shift_right(acc: &[u64], bits: usize) -> Vec<u64> {
    let (limbs, bit) = (bits / 64, bits % 64);
    (limbs..acc.len())
        .map(|i| {
            let lo = acc[i] >> bit;
            let hi = if bit == 0 {
                0
            } else {
                acc.get(i + 1).map_or(0, |&h| h << (64 - bit))
            };
            lo | hi
        })
        .collect()
}

/// `f64` bounds on `word` (plus something below 1 when `sticky`).
fn u64_bounds(word: u64, sticky: bool) -> (f64, f64) {
    let f = word as f64;
    let exact = f as u128 == word as u128;
    let lo = if f as u128 > word as u128 {
        f.next_down()
    } else {
        f
    };
    let hi = if (f as u128) < word as u128 || (exact && sticky) {
        f.next_up()
    } else {
        f
    };
    (lo, hi)
}

/// `2^k` for `-1022 <= k <= 1023`.
fn pow2(k: i64) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// `v 2^k`, exact when the result is a normal number.
fn ldexp(mut v: f64, mut k: i64) -> f64 {
    while k > 1000 {
        v *= pow2(1000);
        k -= 1000;
    }
    while k < -1000 {
        v *= pow2(-1000);
        k += 1000;
    }
    v * pow2(k)
}

/// A lower bound on `v 2^k` for `v >= 0`.
fn ldexp_down(v: f64, k: i64) -> f64 {
    let r = ldexp(v, k);
    if r.is_normal() {
        r
    } else {
        r.next_down().max(0.0)
    }
}

/// An upper bound on `v 2^k` for `v >= 0`.
fn ldexp_up(v: f64, k: i64) -> f64 {
    let r = ldexp(v, k);
    if r.is_normal() {
        r
    } else {
        r.next_up()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decompose_is_exact() {
        for v in [1.0, 0.1, 5e-324, 2.2e-308, 1e-300, 3.5, f64::MAX] {
            let (m, e) = decompose(v);
            assert_eq!(
                m as f64 * 2f64.powi(e.max(-1022)) * 2f64.powi((e + 1022).min(0)),
                v
            );
        }
    }

    #[test]
    fn sum_bounds_bracket_the_exact_sum() {
        let t = ExactTable::new(&[0.5, 0.25, 0.25]).unwrap();
        assert_eq!(t.sum_bounds(), (1.0, 1.0));
        let t = ExactTable::new(&[0.1, 0.2, 0.7]).unwrap();
        let (lo, hi) = t.sum_bounds();
        assert!(
            lo <= 1.0 && 1.0 <= hi && hi - lo <= 2.0 * f64::EPSILON,
            "{lo} {hi}"
        );
    }
}
