//! The two estimands of `estimate`, `plan` and `simulate`: `sample` (the frequencies among
//! the users who reported; randomizer variance only) and `population` (the distribution they
//! were drawn from; plus the multinomial variance `f (1 - f) / N`). Each standard error is
//! checked against a closed form written out here for k-RR and OUE (the report counts are
//! binomial, so the variances follow from `Var Bin(n, r) = n r (1 - r)` alone), and `plan`
//! against `estimate` on the same users.

use mechsynth::collect::baseline::oracle::{oracle_estimates, OracleSpec};
use mechsynth::collect::baseline::BaselineSpec;
use mechsynth::collect::estimate::{estimate, Estimand, EstimateOptions, Query};
use mechsynth::collect::plan::{plan, PlanOptions, PlanTarget};
use mechsynth::collect::sampler::seeded_rng;
use mechsynth::collect::Model;
use mechsynth::Domain;

/// Relative agreement of two ways of computing the same variance (rounding only).
const RELATIVE_TOLERANCE: f64 = 1e-9;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= RELATIVE_TOLERANCE * b.abs().max(1e-300)
}

/// k-RR over `n` symbols: `(p, q)`, the probabilities of reporting the own and another symbol.
fn krr_pq(n: usize, eps: f64) -> (f64, f64) {
    let e = eps.exp();
    (e / (e + n as f64 - 1.0), 1.0 / (e + n as f64 - 1.0))
}

fn std_errors(model: &Model, counts: &[u64], estimand: Estimand) -> Vec<f64> {
    let options = EstimateOptions {
        estimand,
        ..EstimateOptions::default()
    };
    let report = estimate(model, counts, &options, &mut seeded_rng(1)).unwrap();
    assert_eq!(report.estimand, estimand);
    report
        .estimates
        .iter()
        .map(|e| {
            assert_eq!(e.estimand, Some(estimand), "{e:?}");
            e.estimate.unwrap().std_error
        })
        .collect()
}

/// k-RR frequency of symbol k from report share `c_k`: `(c_k - q) / (p - q)`. Given the users'
/// values, the count of reports k is a sum of Bernoulli(p) over the f_k N users holding k and
/// Bernoulli(q) over the others; drawn from the population it is Bin(N, lambda_k).
#[test]
fn krr_standard_errors_are_the_closed_forms_of_each_estimand() {
    let (n, eps) = (5, 1.0);
    let model = Model::baseline(BaselineSpec::KRr, Domain::sized(n).unwrap(), eps).unwrap();
    let (p, q) = krr_pq(n, eps);
    let counts = [900u64, 700, 500, 300, 600];
    let users: u64 = counts.iter().sum();
    let big_n = users as f64;
    let sample = std_errors(&model, &counts, Estimand::Sample);
    let population = std_errors(&model, &counts, Estimand::Population);
    for k in 0..n {
        let c = counts[k] as f64 / big_n;
        let f = (c - q) / (p - q);
        let conditional = (f * p * (1.0 - p) + (1.0 - f) * q * (1.0 - q)) / (p - q).powi(2);
        let marginal = c * (1.0 - c) / (p - q).powi(2);
        assert!(
            close(sample[k].powi(2), conditional / big_n),
            "sample, symbol {k}: {} vs {}",
            sample[k].powi(2),
            conditional / big_n
        );
        assert!(
            close(population[k].powi(2), marginal / big_n),
            "population, symbol {k}"
        );
        // The two differ by the multinomial variance of the share, f (1 - f) / N.
        assert!(close(
            population[k].powi(2) - sample[k].powi(2),
            f * (1.0 - f) / big_n
        ));
    }
}

/// OUE: each symbol's bit is 1 with probability p = 1/2 for its holders and q = 1/(e^eps + 1)
/// for the others, independently; the population adds f (1 - f) / N per frequency and
/// -f_i f_j / N between two, so a range of two symbols adds (f_a + f_b)(1 - f_a - f_b) / N.
#[test]
fn oue_standard_errors_are_the_closed_forms_of_each_estimand() {
    let (n, eps) = (4, 1.0);
    let oracle = OracleSpec::Oue.build(n, eps).unwrap();
    let domain = Domain::sized(n).unwrap();
    let (p, q) = (0.5, 1.0 / (eps.exp() + 1.0));
    let users = 5000u64;
    let big_n = users as f64;
    let support = [1900u64, 1700, 1500, 1400];
    let queries = [
        Query::Frequencies,
        Query::Range {
            from: "0".into(),
            to: "1".into(),
        },
    ];
    let f: Vec<f64> = support
        .iter()
        .map(|&s| (s as f64 / big_n - q) / (p - q))
        .collect();
    let bit_var = |fv: f64| (fv * p * (1.0 - p) + (1.0 - fv) * q * (1.0 - q)) / (p - q).powi(2);
    for estimand in [Estimand::Sample, Estimand::Population] {
        let rows = oracle_estimates(
            oracle.as_ref(),
            &domain,
            &support,
            users,
            &queries,
            0.95,
            estimand,
        )
        .unwrap();
        let extra = |share: f64| match estimand {
            Estimand::Sample => 0.0,
            Estimand::Population => share * (1.0 - share),
        };
        for k in 0..n {
            let se = rows[k].estimate.unwrap().std_error;
            let want = (bit_var(f[k]) + extra(f[k])) / big_n;
            assert!(
                close(se * se, want),
                "{estimand:?} {k}: {} vs {want}",
                se * se
            );
            assert_eq!(rows[k].estimand, Some(estimand));
        }
        let range = rows[n].estimate.unwrap().std_error;
        let want = (bit_var(f[0]) + bit_var(f[1]) + extra(f[0] + f[1])) / big_n;
        assert!(
            close(range * range, want),
            "{estimand:?} range {} vs {want}",
            range * range
        );
    }
}

/// `plan`'s RMSE at N users is the standard error `estimate` reports for the same estimand
/// on N users whose reports fall exactly as expected at the prior.
#[test]
fn plan_and_estimate_agree_for_each_estimand() {
    let (n, eps) = (4, 1.0);
    let domain = Domain::sized(n).unwrap();
    let model = Model::baseline(BaselineSpec::KRr, domain.clone(), eps).unwrap();
    let (p, q) = krr_pq(n, eps);
    let users = 40_000u64;
    // Uniform prior: every output has share 1/n, so the counts are exact.
    let counts = vec![users / n as u64; n];
    for estimand in [Estimand::Sample, Estimand::Population] {
        let options = PlanOptions {
            target: PlanTarget::Prevalence { symbol: 0 },
            rmse: 0.01,
            estimand,
            users: None,
            epsilon: Some(eps),
            deadline: None,
            progress: None,
        };
        let report = plan(Some(&model), &domain, &options).unwrap();
        assert_eq!(report.estimand, estimand);
        let planned = report.rows[0].per_user_variance;
        let se = std_errors(&model, &counts, estimand)[0];
        assert!(close(planned / users as f64, se * se), "{estimand:?}");
        // The closed form at f = 1/n.
        let f = 1.0 / n as f64;
        let conditional = (f * p * (1.0 - p) + (1.0 - f) * q * (1.0 - q)) / (p - q).powi(2);
        let want = match estimand {
            Estimand::Sample => conditional,
            Estimand::Population => conditional + f * (1.0 - f),
        };
        assert!(close(planned, want), "{estimand:?}: {planned} vs {want}");
        // OUE's row: its bit variance (plus f (1 - f) for the population).
        let oue = report.rows.iter().find(|r| r.mechanism == "oue").unwrap();
        let (po, qo) = (0.5, 1.0 / (eps.exp() + 1.0));
        let bit = (f * po * (1.0 - po) + (1.0 - f) * qo * (1.0 - qo)) / (po - qo).powi(2);
        let want = match estimand {
            Estimand::Sample => bit,
            Estimand::Population => bit + f * (1.0 - f),
        };
        assert!(close(oue.per_user_variance, want), "oue {estimand:?}");
    }
}

/// A level next to 1 gives finite intervals (they were infinite: the quantile of
/// `0.5 + level / 2`, rounded to 1), for a channel's and an oracle's estimates.
#[test]
fn levels_next_to_one_give_finite_intervals() {
    let level = 0.9999999999999999;
    let model = Model::baseline(BaselineSpec::KRr, Domain::sized(3).unwrap(), 1.0).unwrap();
    let options = EstimateOptions {
        level,
        ..EstimateOptions::default()
    };
    let report = estimate(&model, &[500, 300, 200], &options, &mut seeded_rng(1)).unwrap();
    let oracle = OracleSpec::Oue.build(3, 1.0).unwrap();
    let domain = Domain::sized(3).unwrap();
    let rows = oracle_estimates(
        oracle.as_ref(),
        &domain,
        &[500, 400, 300],
        1000,
        &[Query::Frequencies],
        level,
        Estimand::Sample,
    )
    .unwrap();
    for e in report.estimates.iter().chain(&rows) {
        let i = e.estimate.unwrap();
        assert!(
            i.low.is_finite() && i.high.is_finite() && i.low < i.high,
            "{e:?}"
        );
        // Wider than 8 standard errors each side, narrower than 9.
        let half = (i.high - i.low) / 2.0;
        assert!(
            half > 8.0 * i.std_error && half < 9.0 * i.std_error,
            "{e:?}"
        );
    }
}
