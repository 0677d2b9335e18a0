//! The guarantee of the channel that [`super::privatize`] actually releases with.
//!
//! The sampler draws row `x` with probabilities exactly `Q[x][y] / S_x`, `S_x` the exact sum
//! of the row's numbers. A certificate speaks of the numbers `Q`, and a row whose numbers do
//! not sum to exactly 1 (a few units in the last place below 1 for a solved channel, up to
//! `ROW_SUM_TOLERANCE` either way for a file) changes every ratio between two rows by
//! `S_b / S_a`. The leakage here is computed on the realized rows `Q[x][y] / S_x`, with
//! outward rounding: each quotient is bracketed in mantissa-exponent form (no underflow for
//! entries down to subnormals) and each logarithm rounded up.

use super::super::sampler::ChannelSampler;
use super::super::{CollectError, Model};
use crate::audit::{AuditCheck, Verdict};
use crate::numeric::{div_up, ln_up};
use crate::privacy::{Check, PrivacySpec};
use rayon::prelude::*;

/// A realized probability `w / S`, bracketed: `[lo 2^lo_exp, hi 2^hi_exp]` with `hi`, `lo` in
/// `[1, 2)`; `hi = lo = 0` for a zero entry.
#[derive(Debug, Clone, Copy)]
struct Entry {
    hi: f64,
    hi_exp: i64,
    lo: f64,
    lo_exp: i64,
}

/// `v = m 2^k` with `m` in `[1, 2)`, exactly, for finite `v > 0`.
fn split(v: f64) -> (f64, i64) {
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mant, e) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    };
    let top = 63 - mant.leading_zeros() as i64;
    (mant as f64 / (1u64 << top) as f64, e + top)
}

/// `v` in `[0.25, 4)` brought into `[1, 2)`, exactly, with the exponent it moves.
fn normalize(mut v: f64, mut exp: i64) -> (f64, i64) {
    while v >= 2.0 {
        v /= 2.0;
        exp += 1;
    }
    while v < 1.0 {
        v *= 2.0;
        exp -= 1;
    }
    (v, exp)
}

impl Entry {
    fn new(w: f64, sum_lo: f64, sum_hi: f64) -> Entry {
        if w == 0.0 {
            return Entry {
                hi: 0.0,
                hi_exp: 0,
                lo: 0.0,
                lo_exp: 0,
            };
        }
        let (m, k) = split(w);
        let (hi, hi_exp) = normalize(div_up(m, sum_lo), k);
        let (lo, lo_exp) = normalize(crate::numeric::div_down(m, sum_hi), k);
        Entry {
            hi,
            hi_exp,
            lo,
            lo_exp,
        }
    }

    fn key_hi(&self) -> (i64, f64) {
        (self.hi_exp, self.hi)
    }

    fn key_lo(&self) -> (i64, f64) {
        (self.lo_exp, self.lo)
    }
}

/// An upper bound on `ln(a / b)` for realized entries `a`, `b` (`-inf` when `a = 0`, `+inf`
/// when only `b = 0`); values below 0 may be returned as 0.
fn ln_ratio_up(a: &Entry, b: &Entry) -> f64 {
    if a.hi == 0.0 {
        return f64::NEG_INFINITY;
    }
    if b.lo == 0.0 {
        return f64::INFINITY;
    }
    let r = div_up(a.hi, b.lo);
    let d = a.hi_exp - b.lo_exp;
    if d.abs() <= 1000 {
        // r is in (0.5, 2], so r 2^d is a normal number, exact.
        ln_up(r * 2f64.powi(d as i32))
    } else if d > 0 {
        let ln2_up = std::f64::consts::LN_2.next_up();
        (ln_up(r) + (d as f64 * ln2_up).next_up()).next_up()
    } else {
        0.0
    }
}

/// The rows the sampler realizes, with the exact row sums compared.
struct Realized {
    entries: Vec<Vec<Entry>>,
    /// Every row sums to exactly 1: the realized channel is the numbers themselves.
    sums_one: bool,
    /// Every row has the same exact sum: every ratio within a column is the numbers'.
    sums_equal: bool,
    /// The smallest and largest row sum (bounds).
    range: (f64, f64),
}

fn realized(model: &Model, sampler: &ChannelSampler) -> Realized {
    let sums: Vec<(Vec<u64>, i64)> = (0..sampler.inputs())
        .map(|x| sampler.row(x).exact_sum())
        .collect();
    let one = (vec![1u64], 0i64);
    let bounds: Vec<(f64, f64)> = (0..sampler.inputs())
        .map(|x| sampler.row(x).sum_bounds())
        .collect();
    let entries = model
        .channel
        .rows()
        .iter()
        .zip(&bounds)
        .map(|(row, &(lo, hi))| row.iter().map(|&w| Entry::new(w, lo, hi)).collect())
        .collect();
    Realized {
        entries,
        sums_one: sums.iter().all(|s| *s == one),
        sums_equal: sums.iter().all(|s| *s == sums[0]),
        range: bounds
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(a, b), &(lo, hi)| {
                (a.min(lo), b.max(hi))
            }),
    }
}

/// Smallest eps for which the realized rows are eps-LDP (outward rounded).
fn realized_ldp(r: &Realized) -> f64 {
    let outputs = r.entries.first().map_or(0, Vec::len);
    (0..outputs)
        .into_par_iter()
        .map(|y| {
            let column = r.entries.iter().map(|row| &row[y]);
            let positive = column.clone().filter(|e| e.hi > 0.0).count();
            if positive == 0 {
                return 0.0;
            }
            if positive < r.entries.len() {
                return f64::INFINITY;
            }
            let top = column
                .clone()
                .max_by(|a, b| a.key_hi().partial_cmp(&b.key_hi()).unwrap());
            let bottom = column.min_by(|a, b| a.key_lo().partial_cmp(&b.key_lo()).unwrap());
            ln_ratio_up(top.unwrap(), bottom.unwrap()).max(0.0)
        })
        .reduce(|| 0.0, f64::max)
}

/// `max over pairs (a, b) and outputs y of ln(Q~[a][y] / Q~[b][y]) / unit[a][b]`, rounded up.
fn realized_pairs(r: &Realized, unit: &[Vec<f64>], pairs: &[(usize, usize)]) -> f64 {
    pairs
        .par_iter()
        .map(|&(a, b)| {
            let l = r.entries[a]
                .iter()
                .zip(&r.entries[b])
                .map(|(p, q)| ln_ratio_up(p, q))
                .fold(0.0f64, f64::max);
            let u = unit[a][b];
            if l == 0.0 {
                0.0
            } else if u == 0.0 {
                f64::INFINITY
            } else {
                div_up(l, u)
            }
        })
        .reduce(|| 0.0, f64::max)
}

/// A notion made only of ratios within columns (unchanged when every row is divided by the
/// same number).
fn ratio_notion(spec: &PrivacySpec) -> bool {
    match spec {
        PrivacySpec::Ldp { delta, .. } => delta.unwrap_or(0.0) == 0.0,
        PrivacySpec::DPrivacy { .. } | PrivacySpec::ContextLdp { .. } => true,
        _ => false,
    }
}

/// What the sampler realizes, against what was stated.
#[derive(Debug, Clone)]
pub struct RealizedGuarantee {
    /// eps-LDP of the realized rows (outward rounded).
    pub ldp: f64,
    /// Each stated constraint recomputed on the realized rows, with audit's verdict.
    pub checks: Vec<AuditCheck>,
    /// Stated constraints not recomputed (the rows do not sum to exactly 1 and the notion is
    /// not a ratio notion handled here): their certificate speaks of the numbers only.
    pub not_recomputed: Vec<String>,
    /// Bounds on the smallest and the largest exact row sum.
    pub row_sums: (f64, f64),
    /// Every row sums to exactly 1: the realized channel is exactly the numbers.
    pub exact_rows: bool,
}

impl RealizedGuarantee {
    /// Whether no recomputed constraint is violated (each holds, or holds up to rounding).
    pub fn holds(&self) -> bool {
        self.checks.iter().all(|c| c.verdict != Verdict::Violated)
    }
}

/// The leakage of the channel `sampler` realizes for `model`, against the `stated` privacy
/// constraints: LDP always; `ldp` (one release, delta 0), `d-privacy` and `context-ldp`
/// recomputed on the realized rows; other notions recomputed only when every row sums to
/// exactly 1 (then the realized channel is the numbers).
pub fn realized_guarantee(
    model: &Model,
    sampler: &ChannelSampler,
    stated: &[PrivacySpec],
) -> Result<RealizedGuarantee, CollectError> {
    let r = realized(model, sampler);
    let ldp = if r.sums_equal {
        crate::privacy::ldp_leakage(&model.channel)
    } else {
        realized_ldp(&r)
    };
    let domain = &model.domain;
    let mut checks = Vec::new();
    let mut not_recomputed = Vec::new();
    let mut warnings = Vec::new();
    for (i, spec) in stated.iter().enumerate() {
        let key = format!("privacy[{i}]");
        let notion = spec.resolve_to_check(&key, domain, &mut warnings)?;
        if r.sums_one || (r.sums_equal && ratio_notion(spec)) {
            checks.extend(notion.check(&model.channel));
            continue;
        }
        let achieved = match spec {
            PrivacySpec::Ldp {
                epsilon,
                delta,
                releases,
            } if delta.unwrap_or(0.0) == 0.0 && releases.unwrap_or(1) == 1 => {
                Some(("ldp", *epsilon, ldp))
            }
            PrivacySpec::DPrivacy {
                epsilon, metric, ..
            } => {
                let unit = metric.distances(&format!("{key}.metric"), domain, &mut warnings)?;
                let coordinates = domain.has_geometry().then(|| domain.coordinates());
                let pairs = crate::privacy::checked_pairs_at(&unit, coordinates.as_deref());
                Some(("d-privacy", *epsilon, realized_pairs(&r, &unit, &pairs)))
            }
            PrivacySpec::ContextLdp { epsilon, matrix } => {
                let pairs = crate::privacy::checked_pairs(matrix, matrix.len());
                let eps = epsilon.unwrap_or(1.0);
                let scaled = realized_pairs(&r, matrix, &pairs);
                Some(("context-ldp", eps, scaled))
            }
            _ => None,
        };
        match achieved {
            Some((name, requested, achieved)) => checks.push(Check {
                constraint: name.into(),
                requested,
                achieved,
            }),
            None => not_recomputed.push(notion.key().to_string()),
        }
    }
    Ok(RealizedGuarantee {
        ldp,
        checks: checks.into_iter().map(AuditCheck::new).collect(),
        not_recomputed,
        row_sums: r.range,
        exact_rows: r.sums_one,
    })
}
