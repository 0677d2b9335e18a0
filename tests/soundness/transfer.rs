//! Transferability: Lemma 3 is never below the exact change in leakage; Corollary 7 fails with
//! frequency below beta in simulation; the emitted BP-LIP design covers the confidence set.

use mechsynth::channel::Channel;
use mechsynth::continuous::transfer as tr;
use mechsynth::privacy::lip_leakage;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Rounding slack on comparisons of leakages (outward-rounded logs).
const LEAK_SLACK: f64 = 1e-9;

fn normalize(v: Vec<f64>) -> Vec<f64> {
    let s: f64 = v.iter().sum();
    v.into_iter().map(|x| x / s).collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: crate::common::persistence(),
        ..ProptestConfig::default()
    })]

    #[test]
    fn lemma3_bounds_the_change_in_leakage(
        raw_rows in prop::collection::vec(prop::collection::vec(0.01f64..1.0, 3), 3),
        p1 in prop::collection::vec(0.02f64..1.0, 3),
        p2 in prop::collection::vec(0.02f64..1.0, 3),
    ) {
        let rows: Vec<Vec<f64>> = raw_rows.into_iter().map(normalize).collect();
        let channel = Channel::new(rows).unwrap();
        let (p1, p2) = (normalize(p1), normalize(p2));
        let l1 = lip_leakage(&channel, std::slice::from_ref(&p1));
        let l2 = lip_leakage(&channel, std::slice::from_ref(&p2));
        prop_assert!((l1 - l2).abs() <= tr::lemma3_eta(&p1, &p2) + LEAK_SLACK);
    }
}

fn empirical(rng: &mut ChaCha8Rng, p: &[f64], n: u64) -> Vec<f64> {
    let mut counts = vec![0u64; p.len()];
    for _ in 0..n {
        let u: f64 = rng.gen();
        let mut acc = 0.0;
        let mut k = p.len() - 1;
        for (i, &pi) in p.iter().enumerate() {
            acc += pi;
            if u < acc {
                k = i;
                break;
            }
        }
        counts[k] += 1;
    }
    counts.iter().map(|&c| c as f64 / n as f64).collect()
}

#[test]
fn corollary7_fails_less_often_than_beta() {
    // Fig. 6(c) setting: binary, P_X(0) = 0.3, eq. (19) designed for the empirical prior.
    let truth = [0.3, 0.7];
    let (beta, eps, trials) = (0.05, 1.0, 4000u32);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for n in [50u64, 200, 1000] {
        let (mut bound_fails, mut tv_fails) = (0u32, 0u32);
        for _ in 0..trials {
            let phat = empirical(&mut rng, &truth, n);
            if phat.contains(&0.0) {
                continue;
            }
            let channel = Channel::new(tr::equation19(&phat, eps)).unwrap();
            let gap = (lip_leakage(&channel, std::slice::from_ref(&phat))
                - lip_leakage(&channel, &[truth.to_vec()]))
            .abs();
            let c = tr::p_min(&phat).min(tr::p_min(&truth));
            if gap > tr::corollary7_eta(n, 2, beta, c) + LEAK_SLACK {
                bound_fails += 1;
            }
            if 2.0 * tr::total_variation(&phat, &truth) > tr::corollary7_radius(n, 2, beta) {
                tv_fails += 1;
            }
        }
        eprintln!(
            "n = {n}: Cor. 7 failures {bound_fails}/{trials}, TV-radius failures {tv_fails}/{trials}"
        );
        // One-sided 99.9% binomial bound: beta T + 3.1 sqrt(beta (1 - beta) T).
        let limit =
            beta * f64::from(trials) + 3.1 * (beta * (1.0 - beta) * f64::from(trials)).sqrt();
        assert!(
            f64::from(bound_fails) <= limit,
            "n = {n}: {bound_fails} failures"
        );
        assert!(
            f64::from(tv_fails) <= limit,
            "n = {n}: {tv_fails} TV failures"
        );
    }
}

#[test]
fn confidence_vertices_cover_the_l1_ball_and_the_design_holds_there() {
    let phat = vec![0.5, 0.3, 0.2];
    let radius = 0.3;
    let vertices = tr::confidence_vertices(&phat, radius).unwrap();
    let labels: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let text = tr::bp_lip_problem(&labels, &phat, radius, 1.0).unwrap();
    let dir = std::env::temp_dir().join(format!("mechsynth-transfer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bp.toml");
    std::fs::write(&path, text).unwrap();
    let problem = mechsynth::Problem::load(&path).unwrap();
    let report = mechsynth::solve(&problem, &mechsynth::SolveOptions::default()).unwrap();
    let channel = report.channel.clone().expect("a channel");
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut inside = 0;
    while inside < 2000 {
        let d: Vec<f64> = (0..3).map(|_| rng.gen_range(-0.15..0.15)).collect();
        let mean = d.iter().sum::<f64>() / 3.0;
        let p: Vec<f64> = phat.iter().zip(&d).map(|(a, b)| a + b - mean).collect();
        let l1: f64 = p.iter().zip(&phat).map(|(a, b)| (a - b).abs()).sum();
        if l1 > radius || p.iter().any(|&x| x <= 0.0) {
            continue;
        }
        inside += 1;
        // Inside the hull: every coordinate above the lower bound of the vertices.
        for x in 0..3 {
            let lower = vertices.iter().map(|v| v[x]).fold(f64::INFINITY, f64::min);
            assert!(p[x] >= lower - 1e-12);
        }
        assert!(
            lip_leakage(&channel, std::slice::from_ref(&p)) <= 1.0 + 1e-6,
            "{p:?}"
        );
    }
}

#[test]
fn corollary6_as_printed_misses_the_third_term_and_the_log_fixes_it() {
    // P1 = (0.5, 0.5), P2 = (0.2, 0.8), eps = 1: TV = 0.3, c = 0.2, eta = ln 2.5.
    let (p1, p2, eps) = ([0.5, 0.5], [0.2, 0.8], 1.0);
    let tv = tr::total_variation(&p1, &p2);
    let eta = tr::lemma3_eta(&p1, &p2);
    let third = ((f64::exp(eps) - 1.0 + 0.5) / 0.5).ln();
    // As printed: TV is under the threshold, yet eta + eps (1.916) is not the smallest term.
    assert!(tv <= tr::corollary6_threshold(eps, 0.5, 0.2));
    assert!(
        eta + eps > third && (eta + eps - 1.9163).abs() < 1e-4 && (third - 1.4899).abs() < 1e-4
    );
    assert!(tr::bound12(eps, eta, 0.5) < eta + eps);
    // With the logarithm, the threshold agrees with the direct comparison on a grid.
    for i in 1..40 {
        let t = 0.5 * f64::from(i) / 40.0;
        let q = [0.5 - t, 0.5 + t];
        let (tv, eta) = (tr::total_variation(&p1, &q), tr::lemma3_eta(&p1, &q));
        let smallest = eta + eps <= (2.0 * eps).min(third) + 1e-12;
        let predicted = tv <= tr::corollary6_threshold_with_log(eps, 0.5, 0.5 - t) + 1e-12;
        assert_eq!(smallest, predicted, "t = {t}");
    }
}
