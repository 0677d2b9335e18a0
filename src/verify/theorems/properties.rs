//! Properties of LIP: post-processing, linkage, mixtures, composition and transferability.

use super::support::*;
use super::{Clock, Tally, TheoremCheck, THEOREM_TOLERANCE};
use crate::channel::Channel;
use crate::privacy::lip_leakage;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Every check of this group, `cases` random cases each.
pub(super) fn check(rng: &mut ChaCha8Rng, cases: usize, clock: &Clock) -> Vec<TheoremCheck> {
    let mut checks = Vec::new();
    // Lemma 1 (post-processing, linkage), Lemma 2 (modular).
    let mut post = Tally::new(
        "post-processing",
        "[CA-LIP] Lemma 1.4",
        "L_LIP(X;Z) <= L_LIP(X;Y) for X -> Y -> Z",
    );
    let mut link = Tally::new(
        "linkage",
        "[CA-LIP] Lemma 1.5",
        "L_LIP(S;Y) <= L_LIP(X;Y) for S -> X -> Y",
    );
    let mut modular = Tally::new(
        "modular",
        "[CA-LIP] Lemma 2",
        "eps-LIP under P_1 and P_2 implies eps-LIP under any mixture",
    );
    for _ in clock.range(cases) {
        let (n, p) = cases_of(rng);
        let q = channel(rng, n, n + 1);
        let outputs = rng.gen_range(2..=4);
        let w = channel(rng, n + 1, outputs);
        post.case(lip(&chain(&q, &w), &p), lip(&q, &p), &[&p], &[&q, &w]);
        let k = rng.gen_range(2..=4);
        let ps = prior(rng, k);
        let x_given_s = channel(rng, k, n);
        let px = x_given_s.output_marginal(&ps);
        let s_to_y = chain(&x_given_s, &q);
        link.case(
            lip(&s_to_y, &ps),
            lip(&q, &px),
            &[&ps, &px],
            &[&x_given_s, &q],
        );
        let p2 = prior(rng, n);
        let t = rng.gen_range(0.0..1.0);
        let mix: Vec<f64> = p
            .iter()
            .zip(&p2)
            .map(|(a, b)| t * a + (1.0 - t) * b)
            .collect();
        modular.case(
            lip(&q, &mix),
            lip(&q, &p).max(lip(&q, &p2)),
            &[&p, &p2, &mix],
            &[&q],
        );
    }
    checks.extend([post.done(), link.done(), modular.done()]);

    // Composition: Thm 4 (same data), Cor 4 (BP-LIP), Cor 5 (a correlated pair).
    let mut comp = Tally::new("composition", "[CA-LIP] Thm 4", "L_LIP(X; Y1, Y2) <= ln(P_min + exp(sum_k min{2eps_k, ln((e^eps_k-1+P_min)/P_min)}) (1 - P_min))");
    let mut comp_bp = Tally::new(
        "bp-composition",
        "[CA-LIP] Cor. 4",
        "the BP-LIP form of Thm 4 with min/max P_min^bp",
    );
    let mut seq = Tally::new("sequential-composition", "[CA-LIP] Cor. 5", "L_LIP(X1 X2; Y1 Y2) <= ln(P^min_joint + exp(sum_k min{2eps_k, ln((e^eps_k-1+P^k_min)/P^k_min)}) (1 - P^min_joint))");
    for _ in clock.range(cases) {
        let (n, p) = cases_of(rng);
        let (a, b) = (channel(rng, n, n), channel(rng, n, n));
        let pm = pmin(&p);
        let total: f64 = [&a, &b].iter().map(|c| prop1_bound(lip(c, &p), pm)).sum();
        comp.case(
            lip(&compose(&a, &b), &p),
            (pm + total.exp() * (1.0 - pm)).ln(),
            &[&p],
            &[&a, &b],
        );
        let p2 = prior(rng, n);
        let priors = vec![p.clone(), p2.clone()];
        let min_bp = pm.min(pmin(&p2));
        let max_bp = pm.max(pmin(&p2));
        let total_bp: f64 = [&a, &b]
            .iter()
            .map(|c| prop1_bound(lip_leakage(c, &priors), max_bp))
            .sum();
        comp_bp.case(
            lip_leakage(&compose(&a, &b), &priors),
            (min_bp + total_bp.exp() * (1.0 - min_bp)).ln(),
            &[&p, &p2],
            &[&a, &b],
        );
        // A correlated pair (X1, X2) on n1 x n2 symbols, Y_k from X_k alone.
        let (n1, n2) = (rng.gen_range(2..=3), rng.gen_range(2..=3));
        let joint = prior(rng, n1 * n2);
        let m1: Vec<f64> = (0..n1)
            .map(|i| (0..n2).map(|j| joint[i * n2 + j]).sum())
            .collect();
        let m2: Vec<f64> = (0..n2)
            .map(|j| (0..n1).map(|i| joint[i * n2 + j]).sum())
            .collect();
        let (q1, q2) = (channel(rng, n1, 2), channel(rng, n2, 2));
        let pair_rows: Vec<Vec<f64>> = (0..n1 * n2)
            .map(|k| {
                let (i, j) = (k / n2, k % n2);
                q1.rows()[i]
                    .iter()
                    .flat_map(|u| q2.rows()[j].iter().map(move |v| u * v))
                    .collect()
            })
            .collect();
        let pair = Channel::new(pair_rows).unwrap();
        let total_seq =
            prop1_bound(lip(&q1, &m1), pmin(&m1)) + prop1_bound(lip(&q2, &m2), pmin(&m2));
        let jm = pmin(&joint);
        seq.case(
            lip(&pair, &joint),
            (jm + total_seq.exp() * (1.0 - jm)).ln(),
            &[&joint],
            &[&q1, &q2],
        );
    }
    checks.extend([comp.done(), comp_bp.done(), seq.done()]);

    // Transferability: Lemma 3 and Cor. 7.
    let mut transfer = Tally::new(
        "transferability",
        "[CA-LIP] Lemma 3",
        "|L_LIP(M, P1) - L_LIP(M, P2)| <= ln(1 + D_TV(P1, P2) / min(P1_min, P2_min))",
    );
    for _ in clock.range(cases) {
        let (n, p) = cases_of(rng);
        let q = if rng.gen_bool(0.5) {
            channel(rng, n, n)
        } else {
            Channel::new(crate::verify::mimo_lip_rows(&p, rng.gen_range(0.5..3.0))).unwrap()
        };
        // A nearby prior: a small perturbation of p.
        let noise: Vec<f64> = (0..n).map(|_| rng.gen_range(0.0..0.2)).collect();
        let s: f64 = p.iter().zip(&noise).map(|(a, b)| a + b).sum();
        let p2: Vec<f64> = p.iter().zip(&noise).map(|(a, b)| (a + b) / s).collect();
        let eta = (1.0 + tv(&p, &p2) / pmin(&p).min(pmin(&p2))).ln();
        transfer.case((lip(&q, &p) - lip(&q, &p2)).abs(), eta, &[&p, &p2], &[&q]);
    }
    checks.push(transfer.done());
    let mut empirical = Tally::new("transferability-empirical", "[CA-LIP] Cor. 7", "with probability >= 1 - beta (beta = 0.05), |L(M(P^), P^) - L(M(P^), P)| <= ln(1 + sqrt(2/n (|X| - ln beta)) / (2c)); value = observed failure rate, bound = beta");
    for _ in clock.range(cases.div_ceil(20).max(5)) {
        let k = rng.gen_range(2..=4);
        let p = prior(rng, k);
        let samples = [20usize, 100, 1000][rng.gen_range(0..3)];
        let eps = rng.gen_range(0.5..3.0);
        let beta: f64 = 0.05;
        let trials = 200;
        let mut failures = 0;
        for _ in 0..trials {
            let mut counts = vec![0usize; k];
            for _ in 0..samples {
                let u: f64 = rng.gen_range(0.0..1.0);
                let mut acc = 0.0;
                let x = p
                    .iter()
                    .position(|v| {
                        acc += v;
                        u < acc
                    })
                    .unwrap_or(k - 1);
                counts[x] += 1;
            }
            let hat: Vec<f64> = counts.iter().map(|&c| c as f64 / samples as f64).collect();
            if hat.contains(&0.0) {
                continue; // c = 0: the bound is infinite and holds.
            }
            let m = Channel::from_solver_point(crate::verify::mimo_lip_rows(&hat, eps)).0;
            let gap = (lip(&m, &hat) - lip(&m, &p)).abs();
            let c = pmin(&hat).min(pmin(&p));
            let bar = (2.0 / samples as f64 * (k as f64 - beta.ln())).sqrt();
            if gap > (1.0 + bar / (2.0 * c)).ln() + THEOREM_TOLERANCE {
                failures += 1;
            }
        }
        let rate = failures as f64 / trials as f64;
        empirical.case(rate, beta, &[&p], &[]);
    }
    checks.push(empirical.done());

    checks
}
