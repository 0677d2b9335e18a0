//! Certified frequency estimation under eps-LDP with a non-uniform prior beyond any ray
//! enumeration (`2^26 - 2` to `2^32 - 2` staircase rays): rays found by ascent and bounded by
//! the branch and bound over the patterns (docs/frequency.md, "Pricing without listing under
//! LDP"). Checked from the emitted numbers: LDP recomputed column by column, the MSE by the
//! count covariance (no Fisher information), and k-RR and random LDP channels never below the
//! bound.

use crate::references::wide_mse;
use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use rand::{Rng, SeedableRng};

/// The certified gap must be at most this, relative (a time limit may stop the rounds before
/// the design's own 1e-9).
const STATED_GAP: f64 = 1e-3;
/// The emitted channel's MSE from the count covariance agrees with the reported one to this.
const SAME_MSE: f64 = 1e-8;
/// Time limit per solve, seconds.
const TIME_LIMIT: f64 = 300.0;

/// k-RR at `eps` over `n` symbols.
fn krr(n: usize, eps: f64) -> Vec<Vec<f64>> {
    let a = eps.exp();
    (0..n)
        .map(|x| {
            (0..n)
                .map(|y| (if x == y { a } else { 1.0 }) / (a + n as f64 - 1.0))
                .collect()
        })
        .collect()
}

/// Two k-RR channels at random budgets up to `eps`, side by side with random weights: every
/// column keeps its ratios, and the rows still sum to one.
fn random_ldp(n: usize, eps: f64, rng: &mut impl Rng) -> Vec<Vec<f64>> {
    let w: f64 = rng.gen_range(0.05..0.95);
    let (left, right) = (
        krr(n, eps * rng.gen_range(0.2..1.0)),
        krr(n, eps * rng.gen_range(0.2..1.0)),
    );
    (0..n)
        .map(|x| {
            let l = left[x].iter().map(|v| w * v);
            l.chain(right[x].iter().map(|v| (1.0 - w) * v)).collect()
        })
        .collect()
}

fn is_ldp(rows: &[Vec<f64>], eps: f64) -> bool {
    (0..rows[0].len()).all(|y| {
        let hi = rows.iter().map(|r| r[y]).fold(0.0, f64::max);
        let lo = rows.iter().map(|r| r[y]).fold(f64::INFINITY, f64::min);
        hi <= eps.exp() * lo
    })
}

fn check(prior: &[f64], eps: f64) {
    let n = prior.len();
    let text = format!(
        "[domain]\nsize = {n}\nprior = {prior:?}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = {eps}\n[objective]\nkind = \"frequency-mse\"\n"
    );
    let spec = ProblemSpec::from_toml(&text, std::path::Path::new("ldp.toml")).unwrap();
    let mut options = SolveOptions::default();
    options.backend_options.time_limit_seconds = TIME_LIMIT;
    let report = solve(&Problem::from_spec(spec).unwrap(), &options).unwrap();
    let status = report.status.to_string();
    assert!(status == "optimal" || status == "feasible", "{status}");
    assert!(
        report
            .method_notes
            .iter()
            .any(|m| m.contains("branch and bound")),
        "{:?}",
        report.method_notes
    );
    let (value, bound) = (report.objective.unwrap(), report.bound.unwrap());
    assert!(bound <= value, "bound {bound} above {value}");
    assert!(value - bound <= STATED_GAP * value, "gap {value} - {bound}");
    let rows = report.channel.unwrap().rows().to_vec();
    assert!(is_ldp(&rows, eps), "the emitted channel is not {eps}-LDP");
    assert!((wide_mse(&rows, prior) - value).abs() <= SAME_MSE * value);
    // k-RR and random LDP channels never beat the bound.
    assert!(wide_mse(&krr(n, eps), prior) >= bound);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(n as u64);
    for _ in 0..10 {
        let c = random_ldp(n, eps, &mut rng);
        assert!(is_ldp(&c, eps));
        assert!(wide_mse(&c, prior) >= bound);
    }
}

#[test]
fn twenty_six_symbols_with_prior_proportional_to_i_are_certified() {
    let n = 26;
    let total = (n * (n + 1) / 2) as f64;
    let prior: Vec<f64> = (1..=n).map(|i| i as f64 / total).collect();
    check(&prior, 1.0);
}

#[test]
#[ignore = "not met yet: in 200 s at a high load the ascent was still adding rays and no round bounded every ray (docs/benchmarks.md)"]
fn thirty_two_symbols_with_a_geometric_prior_are_certified() {
    let n = 32;
    let weights: Vec<f64> = (0..n).map(|i| 2f64.powf(-(i as f64) / 8.0)).collect();
    let total: f64 = weights.iter().sum();
    let prior: Vec<f64> = weights.iter().map(|w| w / total).collect();
    check(&prior, 1.0);
}
