//! The report's profiles at each `ProfileLevel`: every entry of the quick leakage profile
//! against its definition computed here pair by pair (O(n^3), on random channels with zero
//! entries), `d-privacy` on a line lattice against every pair, and what `solve` leaves out
//! and says at each level.

use mechsynth::channel::Channel;
use mechsynth::domain::Domain;
use mechsynth::privacy::leakage_profile_within;
use mechsynth::solve::ProfileLevel;
use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// The profile's values are rounded outward from sums and logarithms of a few terms: they may
/// exceed the definition computed here by this much, absolute plus relative, and never fall
/// below it by more.
const LEAKAGE_TOLERANCE: f64 = 1e-9;

/// A channel from non-negative weights (a zero weight is a zero entry); a row of zeros gets
/// a one at its own index.
fn channel_of(weights: &[Vec<f64>]) -> Channel {
    let rows = weights
        .iter()
        .enumerate()
        .map(|(x, w)| {
            let total: f64 = w.iter().sum();
            if total == 0.0 {
                (0..w.len()).map(|y| f64::from(u8::from(y == x))).collect()
            } else {
                w.iter().map(|v| v / total).collect()
            }
        })
        .collect();
    Channel::new(rows).unwrap()
}

fn q(rows: &[Vec<f64>], x: usize, y: usize) -> f64 {
    rows[x][y]
}

/// `max ln(a / b)` over the listed ratios with `a > b` (`+inf` when `b = 0 < a`), floored at 0.
fn worst_log_ratio(ratios: impl Iterator<Item = (f64, f64)>) -> f64 {
    ratios
        .filter(|(a, b)| a > b)
        .map(|(a, b)| {
            if b == 0.0 {
                f64::INFINITY
            } else {
                (a / b).ln()
            }
        })
        .fold(0.0, f64::max)
}

/// The definitions, pair by pair and entry by entry.
fn naive_profile(rows: &[Vec<f64>], prior: &[f64]) -> BTreeMap<&'static str, f64> {
    let n = rows.len();
    let m = rows[0].len();
    let support: Vec<usize> = (0..n).filter(|&x| prior[x] > 0.0).collect();
    let lambda: Vec<f64> = (0..m)
        .map(|y| (0..n).map(|x| prior[x] * q(rows, x, y)).sum())
        .collect();
    let every_pair = |w: &dyn Fn(usize) -> f64, set: &[usize]| {
        let mut ratios = Vec::new();
        for y in 0..m {
            for &a in set {
                for &b in set {
                    ratios.push((w(a) * q(rows, a, y), w(b) * q(rows, b, y)));
                }
            }
        }
        worst_log_ratio(ratios.into_iter())
    };
    let all: Vec<usize> = (0..n).collect();
    let ldp = every_pair(&|_| 1.0, &all);
    let identifiability = every_pair(&|x| prior[x], &support);
    let mut lip: f64 = 0.0;
    for (y, &l) in lambda.iter().enumerate() {
        for &x in &support {
            let v = q(rows, x, y);
            if l > 0.0 {
                lip = lip.max(worst_log_ratio([(v, l), (l, v)].into_iter()));
            }
        }
    }
    let column_maxima: f64 = (0..m)
        .map(|y| support.iter().map(|&x| q(rows, x, y)).fold(0.0, f64::max))
        .sum();
    let information: f64 = (0..m)
        .flat_map(|y| support.iter().map(move |&x| (x, y)))
        .filter(|&(x, y)| q(rows, x, y) > 0.0)
        .map(|(x, y)| prior[x] * q(rows, x, y) * (q(rows, x, y) / lambda[y]).ln())
        .sum();
    [
        ("ldp", ldp),
        ("identifiability", identifiability),
        ("lip", lip),
        ("max-leakage", column_maxima.ln().max(0.0)),
        ("mutual-information", information.max(0.0)),
    ]
    .into_iter()
    .collect()
}

fn close(computed: f64, exact: f64) -> bool {
    if exact.is_infinite() {
        return computed == exact;
    }
    let slack = LEAKAGE_TOLERANCE * (1.0 + exact.abs());
    computed >= exact - slack && computed <= exact + slack
}

fn weights(n: usize) -> impl Strategy<Value = Vec<Vec<f64>>> {
    // A third of the entries are zero.
    proptest::collection::vec(
        proptest::collection::vec(prop_oneof![1 => Just(0.0), 2 => 0.01f64..1.0], n),
        n,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every entry of the quick profile of a sized domain is its definition.
    #[test]
    fn the_quick_leakage_profile_is_the_definition(
        (w, p) in (2usize..7).prop_flat_map(|n| (weights(n), proptest::collection::vec(0.05f64..1.0, n)))
    ) {
        let channel = channel_of(&w);
        let total: f64 = p.iter().sum();
        let prior: Vec<f64> = p.iter().map(|v| v / total).collect();
        let domain = Domain::sized(w.len()).unwrap().with_prior(prior).unwrap();
        let (profile, left_out) = leakage_profile_within(&channel, &domain, false);
        prop_assert!(left_out.is_empty());
        let naive = naive_profile(channel.rows(), domain.prior());
        prop_assert_eq!(profile.len(), naive.len(), "{:?} vs {:?}", profile, naive);
        for (key, exact) in naive {
            let computed = profile[key];
            prop_assert!(close(computed, exact), "{}: {} vs {}", key, computed, exact);
        }
    }

    /// On a line lattice past the generic screening's size, the quick profile keeps d-privacy,
    /// and its value is the worst `ln(Q[a][y] / Q[b][y]) / |a - b|` over every pair.
    #[test]
    fn d_privacy_on_a_line_is_the_worst_pair(w in weights(70)) {
        let channel = channel_of(&w);
        let domain = Domain::line(70).unwrap();
        let (profile, left_out) = leakage_profile_within(&channel, &domain, false);
        prop_assert!(left_out.is_empty());
        let rows = channel.rows();
        let mut exact: f64 = 0.0;
        for a in 0..70 {
            for b in (0..70).filter(|&b| b != a) {
                let distance = (a as f64 - b as f64).abs();
                let r = worst_log_ratio(rows[a].iter().copied().zip(rows[b].iter().copied()));
                exact = exact.max(r / distance);
            }
        }
        prop_assert!(close(profile["d-privacy"], exact), "{} vs {}", profile["d-privacy"], exact);
    }
}

/// On a grid past the quick size, d-privacy (about n^2 pairs by every output) is left out of
/// the quick profile and named; the full profile has it.
#[test]
fn d_privacy_on_a_grid_is_left_out_of_the_quick_profile() {
    let n = 144;
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|x| (0..n).map(|y| if x == y { 3.0 } else { 1.0 }).collect())
        .collect();
    let channel = channel_of(&rows);
    let domain = Domain::grid(12, 12).unwrap();
    let (quick, left_out) = leakage_profile_within(&channel, &domain, false);
    assert_eq!(left_out, ["d-privacy"]);
    assert!(!quick.contains_key("d-privacy"));
    let (full, left_out) = leakage_profile_within(&channel, &domain, true);
    assert!(left_out.is_empty());
    // k-RR-like: the worst ratio, 3, between neighbours one apart.
    assert!(close(full["d-privacy"], 3f64.ln()), "{full:?}");
    for (k, v) in &quick {
        assert_eq!(full[k].to_bits(), v.to_bits(), "{k}");
    }
}

fn ldp_hamming(n: usize) -> Problem {
    let text = format!(
        "[domain]\nsize = {n}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n"
    );
    Problem::from_spec(ProblemSpec::from_toml(&text, Path::new("t.toml")).unwrap()).unwrap()
}

/// At 120 inputs the default leaves out the O(n^3) objectives and says how to get them; the
/// full profile has them; every entry both have is the same number; `none` has no profile.
/// Each profile's time is in the timings.
#[test]
fn solve_computes_the_profile_its_level_asks_for() {
    let p = ldp_hamming(120);
    let at = |profile| {
        solve(
            &p,
            &SolveOptions {
                profile,
                ..SolveOptions::default()
            },
        )
        .unwrap()
    };
    let auto = at(ProfileLevel::Auto);
    let full = at(ProfileLevel::Full);
    let none = at(ProfileLevel::None);
    for kind in ["inversion-mse", "frequency-mse"] {
        assert!(!auto.objectives.contains_key(kind), "{:?}", auto.objectives);
        assert!(full.objectives[kind].is_finite(), "{:?}", full.objectives);
    }
    assert_eq!(auto.profile_notes.len(), 1, "{:?}", auto.profile_notes);
    let note = &auto.profile_notes[0];
    assert!(
        note.contains("inversion-mse, frequency-mse") && note.contains("--profile full"),
        "{note}"
    );
    assert!(full.profile_notes.is_empty(), "{:?}", full.profile_notes);
    assert_eq!(auto.leakage, full.leakage);
    for (k, v) in &auto.objectives {
        assert_eq!(full.objectives[k].to_bits(), v.to_bits(), "{k}");
    }
    assert!(none.leakage.is_empty() && none.objectives.is_empty());
    assert!(none.profile_notes[0].contains("--profile none"));
    assert!(none.certificate.as_ref().unwrap().all_hold);
    for r in [&auto, &full, &none] {
        let t = &r.timings;
        assert!(t.leakage_profile_ms >= 0.0 && t.objective_profile_ms >= 0.0);
        assert!(t.leakage_profile_ms + t.objective_profile_ms <= t.total_ms);
    }
    assert_eq!(none.timings.leakage_profile_ms, 0.0);
}

/// Up to 100 inputs the default profile is the full one.
#[test]
fn small_channels_get_every_entry_by_default() {
    let r = solve(&ldp_hamming(8), &SolveOptions::default()).unwrap();
    assert!(
        r.objectives.contains_key("inversion-mse"),
        "{:?}",
        r.objectives
    );
    assert!(r.objectives.contains_key("frequency-mse"));
    assert!(r.profile_notes.is_empty());
}
