//! Relations between notions: LIP and LDP both ways with the exact constant, BP-LIP and LDP,
//! and LIP against DI, MIP and MIL.

use super::support::*;
use super::{Clock, Tally, TheoremCheck};
use crate::channel::Channel;
use crate::privacy::{
    identifiability_leakage, ldp_leakage, lip_leakage, max_leakage, mutual_information_up,
    PrivacySpec,
};
use crate::rays::staircase_rays;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Every check of this group, `cases` random cases each.
pub(super) fn check(rng: &mut ChaCha8Rng, cases: usize, clock: &Clock) -> Vec<TheoremCheck> {
    let mut checks = Vec::new();
    // LIP -> LDP: 2 eps, Prop. 1, and the exact constant of Thm 1.
    let mut two = Tally::new(
        "lip-implies-2eps-ldp",
        "[LIP-agg] Thm 1",
        "eps-LIP implies 2eps-LDP",
    );
    let mut p1 = Tally::new(
        "lip-to-ldp-prop1",
        "[CA-LIP] Prop. 1",
        "eps-LIP implies min{2eps, ln((e^eps-1+P_min)/P_min)}-LDP",
    );
    let mut exact = Tally::new("lip-to-ldp-exact", "[CA-LIP] Thm 1, eq. (9)", "eps-LIP implies eps~(P)-LDP, eps~(P) the exact constant of eq. (9) (computed from the LIP cone's extreme rays); Prop. 1 bounds it");
    for _ in clock.range(cases) {
        let (n, p) = cases_of(rng);
        let eps = rng.gen_range(0.1..3.0);
        let m = n + rng.gen_range(0..2);
        let mut chans = vec![channel(rng, n, m)];
        if let Some(t) = tight(
            rng,
            &p,
            PrivacySpec::Lip {
                epsilon: eps,
                prior: None,
                delta: None,
                releases: None,
            },
        ) {
            chans.push(t);
        }
        chans.push(Channel::new(crate::verify::mimo_lip_rows(&p, eps)).expect("rows sum to 1"));
        let e_exact = exact_lip_to_ldp(&p, eps);
        exact.case(e_exact, prop1_bound(eps, pmin(&p)), &[&p], &[]);
        for c in &chans {
            let l = lip(c, &p);
            let d = ldp_leakage(c);
            two.case(d, 2.0 * l, &[&p], &[c]);
            p1.case(d, prop1_bound(l, pmin(&p)), &[&p], &[c]);
            if l <= eps {
                exact.case(d, e_exact, &[&p], &[c]);
            }
        }
    }
    let p_uniform = [0.25; 4];
    let p_skewed = [0.01, 0.33, 0.33, 0.33];
    for (label, p) in [
        ("P2 = uniform(4)", &p_uniform[..]),
        ("P1 = [0.01, 0.33, 0.33, 0.33]", &p_skewed[..]),
    ] {
        for eps in [0.5, 1.0, 2.0] {
            exact.check.notes.push(format!(
                "{label}, eps = {eps}: exact {:.6}, Prop. 1 {:.6}, 2eps {:.1}",
                exact_lip_to_ldp(p, eps),
                prop1_bound(eps, pmin(p)),
                2.0 * eps
            ));
        }
    }
    checks.extend([two.done(), p1.done(), exact.done()]);

    // LDP -> LIP.
    let mut plain = Tally::new(
        "ldp-implies-eps-lip",
        "[LIP-agg] Thm 1",
        "eps-LDP implies eps-LIP",
    );
    let mut tighter = Tally::new(
        "ldp-to-lip",
        "[CA-LIP] Thm 1 (converse)",
        "eps-LDP implies ln(P_min + e^eps (1 - P_min))-LIP",
    );
    for _ in clock.range(cases) {
        let (n, p) = cases_of(rng);
        let eps = rng.gen_range(0.1..3.0);
        let mut chans = vec![
            channel(rng, n, n + 1),
            Channel::new(crate::verify::krr(n, eps)).unwrap(),
        ];
        for r in staircase_rays(n, eps, 64)
            .unwrap_or_default()
            .into_iter()
            .take(6)
        {
            // The staircase column with the rest spread over a constant column: tight for LDP.
            let scale = 1.0 / r.iter().cloned().fold(0.0, f64::max);
            let rows: Vec<Vec<f64>> = r.iter().map(|v| vec![v * scale, 1.0 - v * scale]).collect();
            if let Ok(c) = Channel::new(rows) {
                chans.push(c);
            }
        }
        for c in &chans {
            let d = ldp_leakage(c);
            let l = lip(c, &p);
            plain.case(l, d, &[&p], &[c]);
            tighter.case(l, ldp_to_lip_bound(d, pmin(&p)), &[&p], &[c]);
        }
    }
    checks.extend([plain.done(), tighter.done()]);

    // BP-LIP vs LDP (Thm 2).
    let mut bp_a = Tally::new(
        "ldp-to-bp-lip",
        "[CA-LIP] Thm 2",
        "eps-LDP implies ln(min P_min^bp + e^eps (1 - min P_min^bp))-BP-LIP",
    );
    let mut bp_b = Tally::new(
        "bp-lip-to-ldp",
        "[CA-LIP] Thm 2 (converse)",
        "eps-BP-LIP implies min{2eps, ln((e^eps-1+max P_min^bp)/max P_min^bp)}-LDP",
    );
    for _ in clock.range(cases) {
        let (n, a) = cases_of(rng);
        let b = prior(rng, n);
        let eps = rng.gen_range(0.1..3.0);
        let priors = vec![a.clone(), b.clone()];
        let min_bp = pmin(&a).min(pmin(&b));
        // max over the segment of min_x P(x): concave and piecewise linear; a fine grid plus
        // the end points is a lower bound on it, which makes the claimed bound larger (safe).
        let max_bp = (0..=1000)
            .map(|k| {
                let t = k as f64 / 1000.0;
                (0..n)
                    .map(|x| t * a[x] + (1.0 - t) * b[x])
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(0.0, f64::max);
        let mut chans = vec![channel(rng, n, n)];
        if let Some(t) = tight(
            rng,
            &a,
            PrivacySpec::BpLip {
                epsilon: eps,
                priors: priors.clone(),
            },
        ) {
            chans.push(t);
        }
        for c in &chans {
            let d = ldp_leakage(c);
            let l = lip_leakage(c, &priors);
            bp_a.case(l, ldp_to_lip_bound(d, min_bp), &[&a, &b], &[c]);
            bp_b.case(d, prop1_bound(l, max_bp), &[&a, &b], &[c]);
        }
    }
    checks.extend([bp_a.done(), bp_b.done()]);

    // LIP vs DI, MIP, MIL (Thm 3).
    let mut di_a = Tally::new(
        "lip-to-di",
        "[CA-LIP] Thm 3.1",
        "eps-LIP implies (2eps + D_inf(P))-DI",
    );
    let mut di_b = Tally::new(
        "di-to-lip",
        "[CA-LIP] Thm 3.1 (converse)",
        "eps-DI implies ln[P_min + (1 - P_min) e^(eps + D_inf(P))]-LIP",
    );
    let mut mip = Tally::new(
        "lip-implies-mip",
        "[CA-LIP] Thm 3.2; [LIP-agg] Prop. 1",
        "eps-LIP implies eps-MIP (I(X;Y) <= eps)",
    );
    let mut mil = Tally::new(
        "lip-implies-mil",
        "[CA-LIP] Thm 3.3",
        "eps-LIP implies eps-MIL (maximal leakage <= eps)",
    );
    for _ in clock.range(cases) {
        let (n, p) = cases_of(rng);
        let eps = rng.gen_range(0.1..3.0);
        let d_inf = (p.iter().cloned().fold(0.0, f64::max) / pmin(&p)).ln();
        let mut chans = vec![channel(rng, n, n)];
        if let Some(t) = tight(
            rng,
            &p,
            PrivacySpec::Lip {
                epsilon: eps,
                prior: None,
                delta: None,
                releases: None,
            },
        ) {
            chans.push(t);
        }
        for c in &chans {
            let l = lip(c, &p);
            let di = identifiability_leakage(c, &p);
            di_a.case(di, 2.0 * l + d_inf, &[&p], &[c]);
            di_b.case(
                l,
                (pmin(&p) + (1.0 - pmin(&p)) * (di + d_inf).exp()).ln(),
                &[&p],
                &[c],
            );
            mip.case(mutual_information_up(c, &p), l, &[&p], &[c]);
            mil.case(max_leakage(c, &p), l, &[&p], &[c]);
        }
    }
    checks.extend([di_a.done(), di_b.done(), mip.done(), mil.done()]);

    // MIP and MIL do not imply LIP: a channel with a zero entry has infinite LIP leakage while
    // its mutual information and maximal leakage are as small as one likes.
    let mut not_mip = Tally::new("mip-does-not-imply-lip", "[CA-LIP] Thm 3.2-3.3 (converses)", "eps-MIP / eps-MIL do not imply eps'-LIP for any eps' (exhibited: I and MIL below 0.01 with LIP = inf)");
    let d = 1e-3;
    let example = Channel::new(vec![vec![1.0, 0.0], vec![1.0 - d, d]]).unwrap();
    let half = [0.5, 0.5];
    let small = mutual_information_up(&example, &half).max(max_leakage(&example, &half));
    // The claim "does not imply" holds when the exhibited channel has small MIP/MIL and
    // infinite LIP: record `small <= 0.01` and `LIP = inf` as value <= bound pairs.
    not_mip.case(small, 0.01, &[&half], &[&example]);
    not_mip.case(
        0.0,
        if lip(&example, &half).is_infinite() {
            0.0
        } else {
            -1.0
        },
        &[&half],
        &[&example],
    );
    checks.push(not_mip.done());

    checks
}
