//! The exact sampler against independent references: its integer tables checked with exact
//! rational arithmetic (num-bigint, written here from the bits of each `f64`), its draws
//! against a reference that reads the same 64-bit words as one big integer, Monte Carlo
//! frequencies against a binomial band, and the realized leakage of the old alias table
//! against the new sampler on a channel with entries down to 1e-44.

use mechsynth::collect::baseline::BaselineSpec;
use mechsynth::collect::privatize::{privatize, realized_guarantee, MatchBy, RecordFormat};
use mechsynth::collect::sampler::{seeded_rng, AliasTable, ChannelSampler, ExactTable};
use mechsynth::collect::Model;
use mechsynth::privacy::{MetricSpec, PrivacySpec};
use mechsynth::{Channel, Domain};
use num_bigint::BigUint;
use rand::RngCore;

/// Half-width of the Monte Carlo band in binomial standard deviations (with the fixed seeds
/// the outcome is reproducible; a correct sampler leaves it with probability about 6e-7 per
/// cell).
const BAND_SIGMAS: f64 = 5.0;

/// The rounding that audit tolerates in a stated epsilon (`audit::ROUNDING_EXCESS`).
const ROUNDING_EXCESS: f64 = 1e-12;

/// `v = m 2^e` as exact integers, for finite `v >= 0` (IEEE 754 binary64 layout).
fn exact(v: f64) -> (BigUint, i64) {
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1u64 << 52) - 1);
    if biased == 0 {
        (BigUint::from(fraction), -1074)
    } else {
        (BigUint::from(fraction | (1u64 << 52)), biased - 1075)
    }
}

/// `v 2^1100` as an exact integer (every f64 below 2^-1100 ... is a multiple of 2^-1074).
fn scaled(v: f64) -> BigUint {
    let (m, e) = exact(v);
    m << ((e + 1100) as usize)
}

fn big(limbs: &[u64]) -> BigUint {
    limbs
        .iter()
        .rev()
        .fold(BigUint::from(0u32), |acc, &l| (acc << 64usize) + l)
}

/// Rows spanning 1 down to subnormals, with zeros, sums above and below 1.
fn hard_rows() -> Vec<Vec<f64>> {
    vec![
        vec![0.1, 0.0, 0.3, 0.6],
        vec![1.0 - 1e-300, 1e-300],
        vec![0.5, 5e-324, 0.25, 2.2250738585072014e-308, 0.25],
        vec![1e-300, 1e-200, 1e-100, 1e-50, 1e-20, 1.0],
        vec![0.7, 0.2, 0.1f64.next_up().next_up()],
        vec![0.7, 0.2, 0.1f64.next_down().next_down()],
        vec![1.0],
        vec![0.0, 0.0, 1e-300],
        vec![1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 0.0, 4.9e-324],
        (0..200).map(|i| (-0.5 * i as f64).exp() / 2.0).collect(),
    ]
}

#[test]
fn tables_hold_exactly_the_rationals_of_the_entries() {
    for row in hard_rows() {
        let t = ExactTable::new(&row).unwrap();
        let sum: BigUint = row.iter().map(|&v| scaled(v)).sum();
        let prefix: Vec<BigUint> = t.prefix_sums().iter().map(|p| big(p)).collect();
        let total = prefix.last().unwrap().clone();
        // Every positive entry has a bucket, and no zero entry has one.
        let positive: Vec<u32> = (0..row.len() as u32)
            .filter(|&y| row[y as usize] > 0.0)
            .collect();
        assert_eq!(t.outcomes(), &positive[..], "{row:?}");
        let mut previous = BigUint::from(0u32);
        for (k, p) in prefix.iter().enumerate() {
            let width = p - &previous;
            // width / total == w_y / sum, cross-multiplied.
            let y = t.outcomes()[k] as usize;
            assert_eq!(
                &width * &sum,
                scaled(row[y]) * &total,
                "row {row:?}, output {y}"
            );
            previous = p.clone();
        }
        if t.limbs() > 0 {
            // The draw is uniform below 2^(64 L); it is accepted below the total, which is more
            // than half of that range (rejection below 1/2).
            let range = BigUint::from(1u32) << (64 * t.limbs());
            assert!(&total * 2u32 > range && total <= range, "{row:?}");
            assert_eq!(big(&t.accept_limit()) + 1u32, total);
        }
    }
}

/// A generator that replays fixed words, then a seeded stream, recording all it gives.
struct Scripted {
    script: Vec<u64>,
    rest: rand_chacha::ChaCha20Rng,
    given: Vec<u64>,
}

impl RngCore for Scripted {
    fn next_u64(&mut self) -> u64 {
        let w = if self.given.len() < self.script.len() {
            self.script[self.given.len()]
        } else {
            self.rest.next_u64()
        };
        self.given.push(w);
        w
    }
    fn next_u32(&mut self) -> u32 {
        self.next_u64() as u32
    }
    fn fill_bytes(&mut self, _: &mut [u8]) {
        unimplemented!()
    }
    fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), rand::Error> {
        unimplemented!()
    }
}

/// The bucket of `U` by a linear scan over the prefix sums, or `None` when `U` is rejected.
fn reference_bucket(prefix: &[BigUint], u: &BigUint) -> Option<usize> {
    prefix.iter().position(|p| u < p)
}

#[test]
fn draws_whose_top_word_ties_a_bound_read_the_lower_words_exactly() {
    // Rows whose prefix sums share their top limb: a tiny entry after a large one.
    let rows = [
        vec![0.5, 1e-300, 1e-300, 0.25, 0.25],
        vec![0.3, 1e-30, 0.7 - 1e-30, 1e-40],
        vec![0.6, 5e-324, 0.4],
    ];
    for row in rows {
        let t = ExactTable::new(&row).unwrap();
        let prefix: Vec<BigUint> = t.prefix_sums().iter().map(|p| big(p)).collect();
        let l = t.limbs();
        assert!(l > 1, "{row:?} should need several limbs");
        // Each bound, one below and one above it, and one with its lower limbs random, as the
        // words of the first attempt (most significant first).
        let range = BigUint::from(1u32) << (64 * l);
        let mut seed_rng = seeded_rng(7);
        let mut cases = Vec::new();
        for p in &prefix {
            let random_low = (p >> (64 * (l - 1)) << (64 * (l - 1)))
                + (0..l - 1).fold(BigUint::from(0u32), |acc, _| {
                    (acc << 64usize) + seed_rng.next_u64()
                });
            cases.extend([p.clone(), p - 1u32, p + 1u32, random_low]);
        }
        for (i, u) in cases.into_iter().filter(|u| *u < range).enumerate() {
            let mut words: Vec<u64> = u.iter_u64_digits().collect();
            words.resize(l, 0);
            words.reverse();
            let mut rng = Scripted {
                script: words,
                rest: rand_chacha::rand_core::SeedableRng::seed_from_u64(i as u64),
                given: Vec::new(),
            };
            let drawn = t.sample(&mut rng);
            let got = t.outcomes().iter().position(|&y| y as usize == drawn);
            // The sampler reads a prefix of these words; if U is accepted its bucket is a
            // function of U alone.
            if let Some(bucket) = reference_bucket(&prefix, &u) {
                assert_eq!(got, Some(bucket), "{row:?}: U = {u:#x}");
            }
        }
    }
}

#[test]
fn frequencies_fall_in_a_binomial_band() {
    const DRAWS: usize = 400_000;
    for (seed, row) in hard_rows().into_iter().enumerate() {
        let t = ExactTable::new(&row).unwrap();
        let mut rng = seeded_rng(100 + seed as u64);
        let mut counts = vec![0usize; row.len()];
        for _ in 0..DRAWS {
            counts[t.sample(&mut rng)] += 1;
        }
        let sum: f64 = row.iter().sum();
        for (y, &c) in counts.iter().enumerate() {
            let p = row[y] / sum;
            let mean = DRAWS as f64 * p;
            let sd = (DRAWS as f64 * p * (1.0 - p)).sqrt();
            assert!(
                (c as f64 - mean).abs() <= BAND_SIGMAS * sd + 1.0,
                "row {row:?}, output {y}: {c} draws, expected {mean}"
            );
            if row[y] == 0.0 {
                assert_eq!(c, 0);
            }
        }
    }
}

fn line_model(n: usize, eps: f64) -> Model {
    Model::baseline(
        BaselineSpec::TruncatedGeometric,
        Domain::sized(n).unwrap(),
        eps,
    )
    .unwrap()
}

/// `max over adjacent pairs and outputs of ln(p[a][y] / p[a+1][y])` of realized rows.
fn adjacent_leakage(rows: &[Vec<f64>]) -> f64 {
    let mut worst: f64 = 0.0;
    for w in rows.windows(2) {
        for (a, b) in [(&w[0], &w[1]), (&w[1], &w[0])] {
            for (p, q) in a.iter().zip(b.iter()) {
                if *p > 0.0 {
                    worst = worst.max((p / q).ln());
                }
            }
        }
    }
    worst
}

#[test]
#[allow(clippy::needless_range_loop)] // y indexes two rows and their sums
fn alias_tables_break_the_line_guarantee_and_the_exact_sampler_keeps_it() {
    // 200 points at 0.5 per unit: entries down to e^-99.5 / 2, about 4e-44.
    let eps = 0.5;
    let model = line_model(200, eps);
    let rows = model.channel.rows();
    assert!(rows.iter().flatten().any(|&v| v > 0.0 && v < 1e-40));
    // The alias table realizes the tiny entries as 0 in some rows, not in others.
    let alias: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| AliasTable::new(r).unwrap().probabilities(r.len()))
        .collect();
    assert!(adjacent_leakage(&alias) > eps, "the alias table meets eps");
    // The exact sampler: every bucket is w_y / S_x exactly, so the realized ratio of two rows
    // is the rational (w_ay / w_by) (S_b / S_a), checked here with exact integers.
    let sampler = ChannelSampler::new(&model.channel).unwrap();
    let sums: Vec<BigUint> = rows
        .iter()
        .map(|r| r.iter().map(|&v| scaled(v)).sum())
        .collect();
    // e^0.5 = 1.6487212707001282; a tight channel meets it up to rounding of its numbers, so
    // each exact ratio is compared with e^0.5 (1 + ROUNDING_EXCESS) rounded up to a rational.
    let (num, den) = (
        BigUint::from(16_487_212_707_018u64),
        BigUint::from(10_000_000_000_000u64),
    );
    for a in 0..rows.len() - 1 {
        let b = a + 1;
        for y in 0..rows[a].len() {
            for (p, q) in [(a, b), (b, a)] {
                let (wp, wq) = (scaled(rows[p][y]), scaled(rows[q][y]));
                // Q~[p][y] / Q~[q][y] = wp S_q / (wq S_p) <= num / den.
                assert!(
                    &wp * &sums[q] * &den <= &wq * &sums[p] * &num,
                    "pair ({p}, {q}), output {y}"
                );
            }
            assert!(rows[a][y] == 0.0 || !sampler.row(a).outcomes().is_empty());
        }
    }
    let stated = [PrivacySpec::DPrivacy {
        epsilon: eps,
        metric: MetricSpec::Named("line".into()),
        approximate: None,
    }];
    let line = Model::new(
        model.channel.clone(),
        Domain::line(200).unwrap(),
        "line".into(),
    )
    .unwrap();
    assert!(16_487_212_707_018.0 / 1e13 >= eps.exp() * (1.0 + ROUNDING_EXCESS));
    let realized = realized_guarantee(&line, &sampler, &stated).unwrap();
    assert!(realized.holds(), "{realized:?}");
}

#[test]
fn a_row_normalization_that_breaks_the_stated_epsilon_is_reported() {
    // Realized rows [0.5, 0.5] and [0.2, 0.8] (ln 2.5); the numbers are scaled by 1 -+ 4e-10,
    // which hides 8e-10 of the leakage from a check of the numbers.
    let rows = vec![
        vec![0.4999999998, 0.4999999998],
        vec![0.20000000008, 0.80000000032],
    ];
    let channel = Channel::new(rows).unwrap();
    let stated_eps = 0.9162907311;
    assert!(mechsynth::privacy::ldp_leakage(&channel) <= stated_eps);
    let model = Model::new(channel, Domain::sized(2).unwrap(), "t".into()).unwrap();
    let sampler = ChannelSampler::new(&model.channel).unwrap();
    let stated = [PrivacySpec::Ldp {
        epsilon: stated_eps,
        delta: None,
        releases: None,
    }];
    let realized = realized_guarantee(&model, &sampler, &stated).unwrap();
    assert!(!realized.holds(), "{realized:?}");
    assert!(
        (realized.ldp - 2.5f64.ln()).abs() < 1e-12,
        "{}",
        realized.ldp
    );
}

#[test]
fn seeded_privatization_is_reproducible() {
    let model = line_model(50, 0.5);
    let records: String = (0..2000).map(|i| format!("{}\n", i % 50)).collect();
    let run = |seed| {
        let mut out = Vec::new();
        privatize(
            records.as_bytes(),
            Some(&mut out),
            &model,
            &RecordFormat::Lines,
            MatchBy::Label,
            &mut seeded_rng(seed),
        )
        .unwrap();
        out
    };
    assert_eq!(run(9), run(9));
    assert_ne!(run(9), run(10));
}
