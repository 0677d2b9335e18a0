//! (eps, delta) relations and composition over k = 2..4 releases (context-aware-lip Cor. 3,
//! eq. (4), Lemma 2 with delta, Thm 4, Cor. 4, Cor. 5), on random channels and on tight ones.

use super::support::*;
use super::{Clock, Tally, TheoremCheck};
use crate::channel::Channel;
use crate::compose::bounds::{bp_theorem4_bound, sequential_bound};
use crate::compose::{power, product};
use crate::privacy::{ldp_delta, lip_delta, lip_leakage};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The per-output form, eq. (4): `max_{x, y} max((e^-eps Q[x][y] - lambda_y)^+, (lambda_y -
/// e^eps Q[x][y])^+)`, the smallest delta for which it holds.
pub fn per_output_lip_delta(channel: &Channel, prior: &[f64], epsilon: f64) -> f64 {
    let lambda = channel.output_marginal(prior);
    let (up, down) = (epsilon.exp(), (-epsilon).exp());
    let mut worst: f64 = 0.0;
    for (x, row) in channel.rows().iter().enumerate() {
        if prior[x] == 0.0 {
            continue;
        }
        for (q, l) in row.iter().zip(&lambda) {
            worst = worst.max(down * q - l).max(l - up * q);
        }
    }
    worst
}

/// The channel on which the converse of Cor. 3 is tight at `2 e^eps delta`: prior
/// `(e^-eps / 2, 1 - e^-eps / 2)`, rows `(a, 1 - a)` and `(0, 1)` for a small `a`: (eps,
/// a e^-eps / 2)-LIP, but its delta at 2 eps under LDP is `a`.
pub fn cor3_tight_case(epsilon: f64, a: f64) -> (Vec<f64>, Channel) {
    let p = 0.5 * (-epsilon).exp();
    let channel = Channel::new(vec![vec![a, 1.0 - a], vec![0.0, 1.0]]).expect("rows sum to 1");
    (vec![p, 1.0 - p], channel)
}

/// Every check of this group, `cases` random cases each.
pub(super) fn check(rng: &mut ChaCha8Rng, cases: usize, clock: &Clock) -> Vec<TheoremCheck> {
    let mut forward = Tally::new(
        "approximate-ldp-to-lip",
        "[CA-LIP] Cor. 3",
        "(eps, delta)-LDP => (eps, delta)-LIP: delta_LIP(eps) <= delta_LDP(eps)",
    );
    let mut converse = Tally::new(
        "approximate-lip-to-ldp",
        "[CA-LIP] Cor. 3",
        "(eps, delta)-LIP => (2 eps, (e^eps + 1) delta)-LDP: delta_LDP(2 eps) <= (e^eps + 1) delta_LIP(eps)",
    );
    let mut corrected = Tally::new(
        "approximate-lip-to-ldp-2e^eps",
        "[CA-LIP] Cor. 3, constant from its proof's chain",
        "(eps, delta)-LIP => (2 eps, 2 e^eps delta)-LDP (tight)",
    );
    let mut per_output = Tally::new(
        "per-output-form",
        "[CA-LIP] eq. (4)",
        "for discrete data, Def. 5's set form is equivalent to the per-output form (4): delta_set <= delta_per-output",
    );
    let mut modular = Tally::new(
        "modular-approximate",
        "[CA-LIP] Lemma 2",
        "(eps, delta)-LIP under P_1 and P_2 implies it under any mixture",
    );
    for case in clock.range(cases) {
        let (n, p) = cases_of(rng);
        let m = rng.gen_range(2..=n + 1);
        let q = channel(rng, n, m);
        let eps = rng.gen_range(0.05..2.5);
        let d_lip = lip_delta(&q, std::slice::from_ref(&p), eps);
        forward.case(d_lip, ldp_delta(&q, eps), &[&p], &[&q]);
        let d_ldp2 = ldp_delta(&q, 2.0 * eps);
        converse.case(d_ldp2, eps.exp_m1() * d_lip + 2.0 * d_lip, &[&p], &[&q]);
        corrected.case(d_ldp2, 2.0 * eps.exp() * d_lip, &[&p], &[&q]);
        per_output.case(d_lip, per_output_lip_delta(&q, &p, eps), &[&p], &[&q]);
        let p2 = prior(rng, n);
        let t = rng.gen_range(0.0..1.0);
        let mix: Vec<f64> = p
            .iter()
            .zip(&p2)
            .map(|(a, b)| t * a + (1.0 - t) * b)
            .collect();
        let d2 = lip_delta(&q, std::slice::from_ref(&p2), eps);
        modular.case(
            lip_delta(&q, std::slice::from_ref(&mix), eps),
            d_lip.max(d2),
            &[&p, &p2, &mix],
            &[&q],
        );
        // Tight cases: the two-input channel of `cor3_tight_case`, and the identity.
        if case % 4 == 0 {
            let a = rng.gen_range(0.01..0.2);
            let (tp, tq) = cor3_tight_case(eps, a);
            let d = lip_delta(&tq, std::slice::from_ref(&tp), eps);
            let d2 = ldp_delta(&tq, 2.0 * eps);
            converse.case(d2, (eps.exp() + 1.0) * d, &[&tp], &[&tq]);
            corrected.case(d2, 2.0 * eps.exp() * d, &[&tp], &[&tq]);
            let id = identity(n);
            let e = (n as f64).ln() + 0.01;
            let u = vec![1.0 / n as f64; n];
            per_output.case(
                lip_delta(&id, std::slice::from_ref(&u), e),
                per_output_lip_delta(&id, &u, e),
                &[&u],
                &[&id],
            );
        }
    }
    let mut checks = vec![
        forward.done(),
        converse.done(),
        corrected.done(),
        per_output.done(),
        modular.done(),
    ];
    checks.extend(composition(rng, cases, clock));
    checks
}

fn identity(n: usize) -> Channel {
    Channel::new(
        (0..n)
            .map(|x| (0..n).map(|y| f64::from(u8::from(x == y))).collect())
            .collect(),
    )
    .expect("identity rows")
}

/// Thm 4, Cor. 4 and Cor. 5 for k = 2..4 releases, on the exact product channel.
fn composition(rng: &mut ChaCha8Rng, cases: usize, clock: &Clock) -> Vec<TheoremCheck> {
    let mut same = Tally::new(
        "composition-k",
        "[CA-LIP] Thm 4",
        "k = 2..4 releases (identical, different, and tight eps-LIP channels): exact L_LIP of the product <= Thm 4",
    );
    let mut bp = Tally::new(
        "bp-composition-k",
        "[CA-LIP] Cor. 4",
        "k = 2..4 releases: exact BP-LIP leakage of the product <= Cor. 4",
    );
    let mut seq = Tally::new(
        "sequential-composition-k",
        "[CA-LIP] Cor. 5",
        "k = 2..3 correlated components, Y_k from X_k: exact L_LIP(X^k; Y^k) <= eq. (11)",
    );
    for case in clock.range(cases) {
        let k = rng.gen_range(2..=4);
        let (n, p) = cases_of(rng);
        let pm = pmin(&p);
        let q = if case % 3 == 0 {
            let notion = crate::privacy::PrivacySpec::Lip {
                epsilon: rng.gen_range(0.2..3.0),
                prior: None,
                delta: None,
                releases: None,
            };
            tight(rng, &p, notion).unwrap_or_else(|| channel(rng, n, n))
        } else {
            channel(rng, n, n)
        };
        let others: Vec<Channel> = (0..k).map(|_| channel(rng, n, n)).collect();
        let (joint, list): (Channel, Vec<&Channel>) = if case % 2 == 0 {
            (power(&q, k).expect("small"), vec![&q; k])
        } else {
            let refs: Vec<&Channel> = others.iter().collect();
            (product(&refs).expect("small"), refs)
        };
        let eps: Vec<f64> = list.iter().map(|c| lip(c, &p)).collect();
        same.case(
            lip(&joint, &p),
            bp_theorem4_bound(&eps, pm, pm),
            &[&p],
            &list,
        );
        let p2 = prior(rng, n);
        let priors = vec![p.clone(), p2.clone()];
        let eps_bp: Vec<f64> = list.iter().map(|c| lip_leakage(c, &priors)).collect();
        bp.case(
            lip_leakage(&joint, &priors),
            bp_theorem4_bound(&eps_bp, pm.min(pmin(&p2)), pm.max(pmin(&p2))),
            &[&p, &p2],
            &list,
        );
        // Correlated components X_1..X_k (k <= 3, 2..3 symbols each), Y_i from X_i alone.
        let kk = k.min(3);
        let sizes: Vec<usize> = (0..kk).map(|_| rng.gen_range(2..=3)).collect();
        let total: usize = sizes.iter().product();
        let joint_prior = prior(rng, total);
        let channels: Vec<Channel> = sizes.iter().map(|&s| channel(rng, s, 2)).collect();
        let (seq_channel, marginals) = sequence_channel(&sizes, &channels, &joint_prior);
        let eps_k: Vec<f64> = channels
            .iter()
            .zip(&marginals)
            .map(|(c, m)| lip(c, m))
            .collect();
        let mins: Vec<f64> = marginals.iter().map(|m| pmin(m)).collect();
        let refs: Vec<&Channel> = channels.iter().collect();
        seq.case(
            lip(&seq_channel, &joint_prior),
            sequential_bound(&eps_k, &mins, pmin(&joint_prior)),
            &[&joint_prior],
            &refs,
        );
    }
    vec![same.done(), bp.done(), seq.done()]
}

/// The channel from the tuple `(x_1..x_k)` (row-major over `sizes`) to `(y_1..y_k)` with
/// `Y_i` drawn from `channels[i]` given `x_i`, and the marginals of `joint`.
fn sequence_channel(
    sizes: &[usize],
    channels: &[Channel],
    joint: &[f64],
) -> (Channel, Vec<Vec<f64>>) {
    let total: usize = sizes.iter().product();
    let digits = |mut t: usize| {
        let mut d = vec![0; sizes.len()];
        for i in (0..sizes.len()).rev() {
            d[i] = t % sizes[i];
            t /= sizes[i];
        }
        d
    };
    let rows = (0..total)
        .map(|t| {
            digits(t)
                .iter()
                .zip(channels)
                .fold(vec![1.0], |acc, (&x, c)| {
                    acc.iter()
                        .flat_map(|a| c.rows()[x].iter().map(move |v| a * v))
                        .collect()
                })
        })
        .collect();
    let mut marginals: Vec<Vec<f64>> = sizes.iter().map(|&s| vec![0.0; s]).collect();
    for (t, &pt) in joint.iter().enumerate() {
        for (i, &x) in digits(t).iter().enumerate() {
            marginals[i][x] += pt;
        }
    }
    (Channel::from_rows_internal(rows), marginals)
}
