//! Every leakage function bounds the exact leakage of the channel its doubles denote and of the
//! channel the reports' shortest decimals denote (JSON and CSV), at eps from 1e-6 to 30: an
//! independent recomputation in exact rationals with fixed-point logarithms (error bounded).

use crate::exact_arith::{
    self, exp_lower_fixed, exp_neg_upper_fixed, ln_error, ln_fixed, Rational,
};
use mechsynth::channel::Channel;
use mechsynth::privacy::{
    block_leakage, high_low_leakage, identifiability_leakage, ldp_delta, ldp_leakage, lip_delta,
    lip_leakage, matrix_leakage, max_leakage, mutual_information_up,
};
use num_bigint::BigInt;
use proptest::prelude::*;

/// The priors are multiples of 2^-PRIOR_BITS summing to 1 exactly.
const PRIOR_BITS: u32 = 10;

type Matrix = Vec<Vec<Rational>>;

/// An upper bound on an exact leakage in fixed point; `None` is `+inf`.
type Upper = Option<BigInt>;

fn max_upper(a: Upper, b: Upper) -> Upper {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        _ => None,
    }
}

fn div_ceil(a: BigInt, b: &BigInt) -> BigInt {
    if a >= BigInt::from(0u8) {
        (a + b - 1u8) / b
    } else {
        a / b
    }
}

/// Upper bound on `ln(a / b) / scale` (`+inf` when only `b` is zero, 0 floor).
fn log_ratio(a: &Rational, b: &Rational, scale: &Rational) -> Upper {
    if a.is_zero() || a.cmp(b) != std::cmp::Ordering::Greater {
        return Some(BigInt::from(0u8));
    }
    if b.is_zero() {
        return None;
    }
    let r = a.div(b);
    let up = ln_fixed(&r) + ln_error(&r);
    Some(div_ceil(up * &scale.d, &scale.n))
}

fn one() -> Rational {
    Rational::int(1)
}

/// `max ln(Q[a][y] w_a / (Q[b][y] w_b)) / scale(a, b)` over the listed ordered pairs.
fn pairs_leakage(
    q: &Matrix,
    w: &[Rational],
    pairs: &[(usize, usize)],
    scale: impl Fn(usize, usize) -> Rational,
) -> Upper {
    let mut worst = Some(BigInt::from(0u8));
    for &(a, b) in pairs {
        for (qa, qb) in q[a].iter().zip(&q[b]) {
            let l = log_ratio(&qa.mul(&w[a]), &qb.mul(&w[b]), &scale(a, b));
            worst = max_upper(worst, l);
        }
    }
    worst
}

fn all_pairs(set: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for &a in set {
        for &b in set {
            if a != b {
                out.push((a, b));
            }
        }
    }
    out
}

fn lambda(q: &Matrix, p: &[Rational], y: usize) -> Rational {
    (0..q.len()).fold(Rational::int(0), |s, x| s.add(&p[x].mul(&q[x][y])))
}

fn lip_exact(q: &Matrix, p: &[Rational]) -> Upper {
    let mut worst = Some(BigInt::from(0u8));
    for y in 0..q[0].len() {
        let l = lambda(q, p, y);
        for x in (0..q.len()).filter(|&x| !p[x].is_zero()) {
            worst = max_upper(worst, log_ratio(&q[x][y], &l, &one()));
            if !(q[x][y].is_zero() && l.is_zero()) {
                worst = max_upper(worst, log_ratio(&l, &q[x][y], &one()));
            }
        }
    }
    worst
}

fn max_leakage_exact(q: &Matrix) -> Upper {
    let sums: Vec<Rational> = q
        .iter()
        .map(|row| row.iter().fold(Rational::int(0), |s, v| s.add(v)))
        .collect();
    let mut total = Rational::int(0);
    for y in 0..q[0].len() {
        let top = (0..q.len())
            .map(|x| q[x][y].div(&sums[x]))
            .max_by(|a, b| a.cmp(b))
            .expect("rows");
        total = total.add(&top);
    }
    log_ratio(&total, &one(), &one())
}

fn mi_exact(q: &Matrix, p: &[Rational]) -> Upper {
    let mut sum = BigInt::from(0u8);
    for y in 0..q[0].len() {
        let l = lambda(q, p, y);
        for x in (0..q.len()).filter(|&x| !p[x].is_zero() && !q[x][y].is_zero()) {
            // ln 1 = 0 exactly: no error term (identical rows have mutual information 0).
            if q[x][y].cmp(&l) == std::cmp::Ordering::Equal {
                continue;
            }
            let r = q[x][y].div(&l);
            let mass = p[x].mul(&q[x][y]);
            sum += div_ceil((ln_fixed(&r) + ln_error(&r)) * &mass.n, &mass.d);
        }
    }
    Some(sum.max(BigInt::from(0u8)))
}

/// Upper bound on `sum_y (a_y - f b_y)^+` for fixed-point `f` (a lower bound on the factor,
/// which is at least 1: a term with `a_y <= b_y` is exactly 0 and carries no rounding unit).
fn excess(a: &[Rational], f_lower: &BigInt, b: &[Rational]) -> BigInt {
    a.iter()
        .zip(b)
        .filter(|(a, b)| a.cmp(b) == std::cmp::Ordering::Greater)
        .map(|(a, b)| a.fixed_ceil() - ((f_lower * b.fixed_floor()) >> exact_arith::FRACTION_BITS))
        .filter(|t| *t > BigInt::from(0u8))
        .sum()
}

fn ldp_delta_exact(q: &Matrix, eps: f64) -> Upper {
    let f = exp_lower_fixed(&Rational::from_f64(eps));
    let pairs = all_pairs(&(0..q.len()).collect::<Vec<_>>());
    pairs.iter().map(|&(a, b)| excess(&q[a], &f, &q[b])).max()
}

fn lip_delta_exact(q: &Matrix, p: &[Rational], eps: f64) -> Upper {
    let e = Rational::from_f64(eps);
    let (up, down) = (exp_lower_fixed(&e), exp_neg_upper_fixed(&e));
    let m = q[0].len();
    let l: Vec<Rational> = (0..m).map(|y| lambda(q, p, y)).collect();
    let mut worst = BigInt::from(0u8);
    for row in q
        .iter()
        .zip(p)
        .filter(|(_, p)| !p.is_zero())
        .map(|(r, _)| r)
    {
        // (e^-eps q - lambda)^+ and (lambda - e^eps q)^+, each bounded above.
        // A term with `q <= lambda` is exactly 0 (`e^-eps <= 1`) and carries no rounding unit.
        let below: BigInt = row
            .iter()
            .zip(&l)
            .filter(|(q, l)| q.cmp(l) == std::cmp::Ordering::Greater)
            .map(|(q, l)| {
                ((&down * q.fixed_ceil()) >> exact_arith::FRACTION_BITS) + 1u8 - l.fixed_floor()
            })
            .filter(|t| *t > BigInt::from(0u8))
            .sum();
        worst = worst.max(below).max(excess(&l, &up, row));
    }
    Some(worst)
}

/// Asserts `reported >= exact` (an infinite report bounds anything).
fn holds(name: &str, reported: f64, exact: &Upper, label: &str) -> Result<(), TestCaseError> {
    if reported == f64::INFINITY {
        return Ok(());
    }
    let shown = Rational::from_f64(reported.max(0.0)).fixed_floor();
    let fine = exact.as_ref().is_some_and(|e| shown >= *e);
    prop_assert!(
        fine,
        "{name} of the {label} channel: reported {reported:e} below exact"
    );
    Ok(())
}

/// The channel the rows denote: doubles, their JSON decimals and their CSV (Debug) decimals.
fn denotations(rows: &[Vec<f64>]) -> Vec<(&'static str, Matrix)> {
    let map = |f: &dyn Fn(f64) -> Rational| -> Matrix {
        rows.iter()
            .map(|r| r.iter().map(|&v| f(v)).collect())
            .collect()
    };
    vec![
        ("f64", map(&Rational::from_f64)),
        (
            "json",
            map(&|v| Rational::from_decimal(&serde_json::to_string(&v).expect("json"))),
        ),
        ("csv", map(&|v| Rational::from_decimal(&format!("{v:?}")))),
    ]
}

/// A channel whose column ratios reach about `e^eps` (entries `b_y e^(eps t)`, `t` in
/// [-1/2, 1/2], often at the ends), rows normalized; and a dyadic prior summing to 1.
fn channel_and_prior() -> impl Strategy<Value = (f64, Vec<Vec<f64>>, Vec<f64>)> {
    (-6.0f64..1.48, 2usize..5, 2usize..5).prop_flat_map(|(log_eps, n, m)| {
        let eps = 10f64.powf(log_eps);
        let t = prop_oneof![Just(-0.5), Just(0.5), -0.5f64..0.5];
        (
            Just(eps),
            proptest::collection::vec(proptest::collection::vec(t, m), n),
            proptest::collection::vec(0.05f64..1.0, m),
            proptest::collection::vec(1u32..100, n),
        )
            .prop_map(move |(eps, t, base, w)| {
                let rows: Vec<Vec<f64>> = t
                    .iter()
                    .map(|tr| {
                        let row: Vec<f64> = tr
                            .iter()
                            .zip(&base)
                            .map(|(t, b)| b * (eps * t).exp())
                            .collect();
                        let s: f64 = row.iter().sum();
                        row.iter().map(|v| v / s).collect()
                    })
                    .collect();
                let total: u32 = w.iter().sum();
                let mut k: Vec<u32> = w
                    .iter()
                    .map(|v| (v << PRIOR_BITS) / total)
                    .map(|v| v.max(1))
                    .collect();
                let rest: u32 = k[1..].iter().sum();
                k[0] = (1u32 << PRIOR_BITS).saturating_sub(rest).max(1);
                let scale = f64::from(k.iter().sum::<u32>());
                (eps, rows, k.iter().map(|&v| f64::from(v) / scale).collect())
            })
    })
}

/// The largest plain floating-point log-ratio in a column and `|ln(q / lambda)|`: evaluation
/// points for the delta forms where their terms are near zero.
fn plain_leakages(rows: &[Vec<f64>], prior: &[f64]) -> (f64, f64) {
    let (mut ldp, mut lip) = (0.0f64, 0.0f64);
    for y in 0..rows[0].len() {
        let l: f64 = rows.iter().zip(prior).map(|(r, p)| p * r[y]).sum();
        for a in rows {
            lip = lip.max((a[y] / l).ln().abs());
            for b in rows {
                ldp = ldp.max((a[y] / b[y]).ln());
            }
        }
    }
    (ldp, lip)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: crate::common::persistence(),
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_leakage_bounds_the_exact_leakage_of_the_emitted_numbers(
        (eps, rows, prior) in channel_and_prior()
    ) {
        let n = rows.len();
        let channel = Channel::new(rows.clone()).expect("a channel");
        let line: Vec<Vec<f64>> = (0..n)
            .map(|i| (0..n).map(|j| (i as f64 - j as f64).abs()).collect())
            .collect();
        let blocks = vec![vec![0], (1..n).collect::<Vec<_>>()];
        let everyone: Vec<usize> = (0..n).collect();
        let (within, across) = block_leakage(&channel, &blocks);
        let (plain_ldp, plain_lip) = plain_leakages(&rows, &prior);
        let p: Vec<Rational> = prior.iter().map(|&v| Rational::from_f64(v)).collect();
        let ones = vec![one(); n];
        for (label, q) in denotations(&rows) {
            let unit = |a: usize, b: usize| Rational::from_f64(line[a][b]);
            let cases: Vec<(&str, f64, Upper)> = vec![
                ("ldp", ldp_leakage(&channel), pairs_leakage(&q, &ones, &all_pairs(&everyone), |_, _| one())),
                ("lip", lip_leakage(&channel, std::slice::from_ref(&prior)), lip_exact(&q, &p)),
                ("d-privacy on a line", matrix_leakage(&channel, &line), pairs_leakage(&q, &ones, &all_pairs(&everyone), unit)),
                ("block within", within, pairs_leakage(&q, &ones, &all_pairs(&blocks[1]), |_, _| one())),
                (
                    "block across",
                    across,
                    pairs_leakage(&q, &ones, &all_pairs(&everyone).into_iter().filter(|&(a, b)| (a == 0) != (b == 0)).collect::<Vec<_>>(), |_, _| one()),
                ),
                ("high-low", high_low_leakage(&channel, &[0]), pairs_leakage(&q, &ones, &(1..n).map(|x| (0, x)).collect::<Vec<_>>(), |_, _| one())),
                ("identifiability", identifiability_leakage(&channel, &prior), pairs_leakage(&q, &p, &all_pairs(&everyone), |_, _| one())),
                ("max-leakage", max_leakage(&channel, &prior), max_leakage_exact(&q)),
                ("mutual information", mutual_information_up(&channel, &prior), mi_exact(&q, &p)),
                ("ldp delta at the plain leakage", ldp_delta(&channel, plain_ldp), ldp_delta_exact(&q, plain_ldp)),
                ("ldp delta at eps / 2", ldp_delta(&channel, eps / 2.0), ldp_delta_exact(&q, eps / 2.0)),
                ("lip delta at the plain leakage", lip_delta(&channel, std::slice::from_ref(&prior), plain_lip), lip_delta_exact(&q, &p, plain_lip)),
                ("lip delta at eps / 4", lip_delta(&channel, std::slice::from_ref(&prior), eps / 4.0), lip_delta_exact(&q, &p, eps / 4.0)),
            ];
            for (name, reported, exact) in &cases {
                holds(name, *reported, exact, label)?;
            }
        }
    }
}

/// The reference itself: ln 2, ln(1 + 2^-60) and e^30 against known values.
#[test]
fn the_reference_logarithm_and_exponential_are_accurate() {
    use exact_arith::FRACTION_BITS;
    let within = |fixed: BigInt, value: f64, tolerance: f64| {
        let shown = Rational {
            n: fixed,
            d: BigInt::from(1u8) << FRACTION_BITS,
        };
        let lo = Rational::from_f64(value - tolerance);
        let hi = Rational::from_f64(value + tolerance);
        assert!(shown.cmp(&lo).is_ge() && shown.cmp(&hi).is_le(), "{value}");
    };
    within(ln_fixed(&Rational::int(2)), std::f64::consts::LN_2, 1e-16);
    // ln(1 + x) = x - x^2 / 2 + ...: within 2^-120 of x = 2^-60.
    let x = Rational::from_f64(2f64.powi(-60));
    let l = ln_fixed(&Rational::int(1).add(&x));
    assert!((l - x.fixed_floor()).magnitude().bits() <= FRACTION_BITS - 119);
    // e^30 = 10686474581524.46...
    within(
        exp_lower_fixed(&Rational::int(30)),
        10_686_474_581_524.463,
        0.01,
    );
}
