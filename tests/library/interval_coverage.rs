//! Coverage of every interval `estimate` prints, at fixed seeds: k-RR (inversion), OUE and OLH
//! frequencies and ranges, projected and EM at n = 64, for both estimands. For `sample` the
//! users' values are fixed across replicates and only the randomizer is redrawn; for
//! `population` the users are redrawn from the prior too. Hits are pooled over the symbols and
//! replicates and accepted within `BAND_SIGMAS` binomial standard deviations of the level (the
//! estimates of different symbols are nearly uncorrelated, O(1/n)).

use mechsynth::collect::baseline::oracle::{oracle_estimates, OracleSpec};
use mechsynth::collect::baseline::BaselineSpec;
use mechsynth::collect::estimate::{estimate, Estimand, EstimateOptions, EstimatorSpec, Query};
use mechsynth::collect::sampler::seeded_rng;
use mechsynth::collect::stats::{binomial, multinomial};
use mechsynth::collect::Model;
use mechsynth::Domain;
use rand::RngCore;

/// Nominal level of every interval.
const LEVEL: f64 = 0.95;
/// Width of the acceptance band, in binomial standard deviations.
const BAND_SIGMAS: f64 = 3.0;

fn assert_covers(name: &str, hits: usize, total: usize) {
    let share = hits as f64 / total as f64;
    let band = BAND_SIGMAS * (LEVEL * (1.0 - LEVEL) / total as f64).sqrt();
    assert!(
        (share - LEVEL).abs() <= band,
        "{name}: coverage {share:.4} over {total} intervals (band {band:.4})"
    );
}

/// A prior decreasing as 1/(x+1).
fn zipf(n: usize) -> Vec<f64> {
    let w: Vec<f64> = (0..n).map(|x| 1.0 / (x as f64 + 1.0)).collect();
    let s: f64 = w.iter().sum();
    w.iter().map(|v| v / s).collect()
}

/// The users' counts per symbol for a replicate: fixed (`sample`) or redrawn (`population`),
/// and the truth each interval is for.
fn users(
    fixed: &[u64],
    prior: &[f64],
    estimand: Estimand,
    rng: &mut dyn RngCore,
) -> (Vec<u64>, Vec<f64>) {
    let total: u64 = fixed.iter().sum();
    match estimand {
        Estimand::Sample => (
            fixed.to_vec(),
            fixed.iter().map(|&k| k as f64 / total as f64).collect(),
        ),
        Estimand::Population => (multinomial(total, prior, rng), prior.to_vec()),
    }
}

/// The truths of the frequencies and of `range:#0..#3`, in the order `estimate` answers.
fn truths(f: &[f64]) -> Vec<f64> {
    let mut t = f.to_vec();
    t.push(f[..4].iter().sum());
    t
}

fn queries() -> Vec<Query> {
    vec![
        Query::Frequencies,
        Query::Range {
            from: "#0".into(),
            to: "#3".into(),
        },
    ]
}

/// Coverage of a channel's estimator: `(hits, total)`.
fn channel_coverage(
    model: &Model,
    estimator: EstimatorSpec,
    users_n: u64,
    estimand: Estimand,
    replicates: usize,
    seed: u64,
) -> (usize, usize) {
    let prior = model.domain.prior().to_vec();
    let mut rng = seeded_rng(seed);
    let fixed = multinomial(users_n, &prior, &mut rng);
    let options = EstimateOptions {
        estimators: vec![estimator],
        queries: queries(),
        level: LEVEL,
        estimand,
        ..EstimateOptions::default()
    };
    let (mut hits, mut total) = (0, 0);
    for _ in 0..replicates {
        let (nx, f) = users(&fixed, &prior, estimand, &mut rng);
        let mut counts = vec![0u64; model.outputs()];
        for (x, &k) in nx.iter().enumerate() {
            for (c, v) in counts
                .iter_mut()
                .zip(multinomial(k, &model.channel.rows()[x], &mut rng))
            {
                *c += v;
            }
        }
        let report = estimate(model, &counts, &options, &mut rng).unwrap();
        for (e, t) in report.estimates.iter().zip(truths(&f)) {
            let i = e.estimate.expect("estimated");
            hits += usize::from(i.low <= t && t <= i.high);
            total += 1;
        }
    }
    (hits, total)
}

#[test]
fn krr_inversion_intervals_cover_for_both_estimands() {
    let domain = Domain::sized(8).unwrap().with_prior(zipf(8)).unwrap();
    // At eps = 4 the randomizer's variance is small beside f (1 - f), so the two estimands'
    // intervals differ (one estimand's interval misses the other's level).
    let model = Model::baseline(BaselineSpec::KRr, domain, 4.0).unwrap();
    for (i, estimand) in [Estimand::Sample, Estimand::Population]
        .into_iter()
        .enumerate()
    {
        let (h, t) = channel_coverage(
            &model,
            EstimatorSpec::Inversion,
            2000,
            estimand,
            600,
            10 + i as u64,
        );
        assert_covers(&format!("k-rr inversion {estimand:?}"), h, t);
    }
}

#[test]
fn projected_and_em_intervals_cover_at_64_symbols() {
    let domain = Domain::sized(64).unwrap().with_prior(zipf(64)).unwrap();
    let model = Model::baseline(BaselineSpec::KRr, domain, 1.0).unwrap();
    for (i, estimand) in [Estimand::Sample, Estimand::Population]
        .into_iter()
        .enumerate()
    {
        for (j, spec) in [EstimatorSpec::Projected, EstimatorSpec::Em]
            .into_iter()
            .enumerate()
        {
            let (h, t) =
                channel_coverage(&model, spec, 10_000, estimand, 60, 20 + (2 * i + j) as u64);
            assert_covers(&format!("k-rr {spec:?} {estimand:?}"), h, t);
        }
    }
}

#[test]
fn oracle_intervals_cover_for_both_estimands() {
    let n = 8;
    let prior = zipf(n);
    let domain = Domain::sized(n).unwrap();
    let users_n = 2000u64;
    for spec in [OracleSpec::Oue, OracleSpec::Olh] {
        let oracle = spec.build(n, 4.0).unwrap();
        for (i, estimand) in [Estimand::Sample, Estimand::Population]
            .into_iter()
            .enumerate()
        {
            let mut rng = seeded_rng(30 + i as u64);
            let fixed = multinomial(users_n, &prior, &mut rng);
            let (mut hits, mut total) = (0, 0);
            let replicates = if spec == OracleSpec::Olh { 200 } else { 600 };
            for _ in 0..replicates {
                let (nx, f) = users(&fixed, &prior, estimand, &mut rng);
                let mut support = vec![0u64; n];
                if spec == OracleSpec::Olh {
                    // Every user through the hashing randomizer.
                    for (x, &k) in nx.iter().enumerate() {
                        for _ in 0..k {
                            let r = oracle.randomize(x, &mut rng);
                            oracle.add_support(&r, &mut support);
                        }
                    }
                } else {
                    // Unary encoding: independent bits, exact binomial supports.
                    for (v, s) in support.iter_mut().enumerate() {
                        *s = binomial(nx[v], oracle.p(), &mut rng)
                            + binomial(users_n - nx[v], oracle.q(), &mut rng);
                    }
                }
                let rows = oracle_estimates(
                    oracle.as_ref(),
                    &domain,
                    &support,
                    users_n,
                    &queries(),
                    LEVEL,
                    estimand,
                )
                .unwrap();
                for (e, t) in rows.iter().zip(truths(&f)) {
                    let i = e.estimate.unwrap();
                    hits += usize::from(i.low <= t && t <= i.high);
                    total += 1;
                }
            }
            assert_covers(&format!("{} {estimand:?}", oracle.name()), hits, total);
        }
    }
}
