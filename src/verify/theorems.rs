//! `verify --theorems`: the relations between notions stated in context-aware-lip.txt and
//! lip-data-aggregation.txt, checked on random channels and on tight (adversarial) ones, each
//! reported as holding over every case tried or failing with a counterexample.

use crate::channel::Channel;
use crate::objective::ObjectiveSpec;
use crate::privacy::{
    identifiability_leakage, ldp_leakage, lip_leakage, max_leakage, mutual_information_up,
    PrivacySpec,
};
use crate::problem::{DomainSpec, Problem, ProblemSpec};
use crate::rays::{lip_vertices, staircase_rays};
use crate::solve::{solve, SolveOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// A bound holds when `value <= bound + THEOREM_TOLERANCE` (leakages are outward rounded).
pub const THEOREM_TOLERANCE: f64 = 1e-9;
/// Random cases per theorem.
pub const DEFAULT_CASES: usize = 200;

/// A case where a claimed bound fails.
#[derive(Debug, Clone, Serialize)]
pub struct TheoremCounterexample {
    /// The prior(s) involved.
    pub priors: Vec<Vec<f64>>,
    /// The channel(s) involved.
    pub channels: Vec<Vec<Vec<f64>>>,
    /// The quantity the theorem bounds.
    pub value: f64,
    /// The theorem's bound.
    pub bound: f64,
}

/// One theorem's verdict.
#[derive(Debug, Clone, Serialize)]
pub struct TheoremCheck {
    /// Short identifier.
    pub name: &'static str,
    /// Paper and statement number.
    pub citation: &'static str,
    /// The claim checked.
    pub statement: &'static str,
    /// Whether it held in every case.
    pub holds: bool,
    /// Cases tried.
    pub cases: usize,
    /// The smallest `bound - value` seen (negative when it fails).
    pub worst_margin: f64,
    /// The worst failing case.
    pub counterexample: Option<TheoremCounterexample>,
    /// Extra findings (exact constants).
    pub notes: Vec<String>,
}

/// All theorem checks.
#[derive(Debug, Clone, Serialize)]
pub struct TheoremReport {
    /// One per theorem.
    pub checks: Vec<TheoremCheck>,
    /// Whether all hold.
    pub all_hold: bool,
}

struct Tally {
    check: TheoremCheck,
}

impl Tally {
    fn new(name: &'static str, citation: &'static str, statement: &'static str) -> Self {
        Tally {
            check: TheoremCheck {
                name,
                citation,
                statement,
                holds: true,
                cases: 0,
                worst_margin: f64::INFINITY,
                counterexample: None,
                notes: Vec::new(),
            },
        }
    }

    /// Record `value <= bound` for one case.
    fn case(&mut self, value: f64, bound: f64, priors: &[&[f64]], channels: &[&Channel]) {
        self.check.cases += 1;
        let margin = if value.is_infinite() && bound.is_infinite() && value > 0.0 {
            0.0
        } else {
            bound - value
        };
        if margin < self.check.worst_margin {
            self.check.worst_margin = margin;
            if margin < -THEOREM_TOLERANCE {
                self.check.holds = false;
                self.check.counterexample = Some(TheoremCounterexample {
                    priors: priors.iter().map(|p| p.to_vec()).collect(),
                    channels: channels.iter().map(|c| c.rows().to_vec()).collect(),
                    value,
                    bound,
                });
            }
        }
    }

    fn done(self) -> TheoremCheck {
        self.check
    }
}

fn prior(rng: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    // Half of the priors are skewed, with one small entry.
    let skew = rng.gen_bool(0.5);
    let mut w: Vec<f64> = (0..n).map(|_| rng.gen_range(0.05..1.0)).collect();
    if skew {
        w[rng.gen_range(0..n)] = rng.gen_range(0.001..0.05);
    }
    let s: f64 = w.iter().sum();
    let mut p: Vec<f64> = w.iter().map(|v| v / s).collect();
    let rest: f64 = p[1..].iter().sum();
    p[0] = 1.0 - rest;
    p
}

fn channel(rng: &mut ChaCha8Rng, n: usize, m: usize) -> Channel {
    let rows = (0..n)
        .map(|_| {
            let w: Vec<f64> = (0..m).map(|_| rng.gen_range(0.02..1.0)).collect();
            let s: f64 = w.iter().sum();
            w.iter().map(|v| v / s).collect::<Vec<f64>>()
        })
        .map(|mut r| {
            let rest: f64 = r[1..].iter().sum();
            r[0] = 1.0 - rest;
            r
        })
        .collect();
    Channel::new(rows).expect("rows are distributions")
}

/// A tight channel: the certified MMSE optimum under `notion` for random values (its columns
/// are extreme rays, so every constraint it uses is met with equality).
fn tight(rng: &mut ChaCha8Rng, p: &[f64], notion: PrivacySpec) -> Option<Channel> {
    let n = p.len();
    let values: Vec<f64> = (0..n).map(|_| rng.gen_range(-3.0..3.0)).collect();
    let spec = ProblemSpec {
        name: None,
        description: None,
        domain: DomainSpec {
            values: Some(values),
            prior: Some(p.to_vec()),
            ..DomainSpec::default()
        },
        privacy: vec![notion],
        objective: ObjectiveSpec::MmseSum {
            weight: None,
            offset: None,
        },
        expected: None,
        sweep: None,
    };
    let problem = Problem::from_spec(spec).ok()?;
    solve(&problem, &SolveOptions::default()).ok()?.channel
}

fn lip(c: &Channel, p: &[f64]) -> f64 {
    lip_leakage(c, std::slice::from_ref(&p.to_vec()))
}

fn pmin(p: &[f64]) -> f64 {
    p.iter().cloned().fold(f64::INFINITY, f64::min)
}

/// context-aware-lip.txt Prop. 1: `min(2 eps, ln((e^eps - 1 + P_min) / P_min))`.
pub fn prop1_bound(eps: f64, p_min: f64) -> f64 {
    (2.0 * eps).min(((eps.exp() - 1.0 + p_min) / p_min).ln())
}

/// context-aware-lip.txt Thm 1 (converse): `ln(P_min + e^eps (1 - P_min))`.
pub fn ldp_to_lip_bound(eps: f64, p_min: f64) -> f64 {
    (p_min + eps.exp() * (1.0 - p_min)).ln()
}

/// The exact LDP leakage of the worst eps-LIP channel under `p` (context-aware-lip.txt
/// Thm 1, eq. 9): the largest `ln(r_x' / r_x)` over the LIP cone's extreme rays (a ratio of
/// two coordinates is maximized at an extreme ray, and every ray is a column of some channel).
pub fn exact_lip_to_ldp(p: &[f64], eps: f64) -> f64 {
    let rays = lip_vertices(p, eps, 1 << 20).unwrap_or_default();
    rays.iter()
        .map(|r| {
            let hi = r.iter().cloned().fold(0.0, f64::max);
            let lo = r.iter().cloned().fold(f64::INFINITY, f64::min);
            (hi / lo).ln()
        })
        .fold(0.0, f64::max)
}

/// The product channel of independent releases `Y_1, Y_2` of the same input.
fn compose(a: &Channel, b: &Channel) -> Channel {
    let rows = a
        .rows()
        .iter()
        .zip(b.rows())
        .map(|(ra, rb)| {
            ra.iter()
                .flat_map(|u| rb.iter().map(move |v| u * v))
                .collect()
        })
        .collect();
    Channel::new(rows).expect("products of distributions")
}

/// `W` after `Q`: the channel `X -> Z`.
fn chain(q: &Channel, w: &Channel) -> Channel {
    let rows = q
        .rows()
        .iter()
        .map(|r| {
            (0..w.outputs())
                .map(|z| r.iter().enumerate().map(|(y, v)| v * w.get(y, z)).sum())
                .collect()
        })
        .collect();
    Channel::from_solver_point(rows).0
}

fn tv(a: &[f64], b: &[f64]) -> f64 {
    0.5 * a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f64>()
}

fn cases_of(rng: &mut ChaCha8Rng) -> (usize, Vec<f64>) {
    let n = rng.gen_range(2..=5);
    (n, prior(rng, n))
}

/// Run every theorem check with `cases` random cases each (reproducible from `seed`).
pub fn check_theorems(seed: u64, cases: usize) -> TheoremReport {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut checks = Vec::new();

    // LIP -> LDP: 2 eps, Prop. 1, and the exact constant of Thm 1.
    let mut two = Tally::new(
        "lip-implies-2eps-ldp",
        "lip-data-aggregation.txt Thm 1",
        "eps-LIP implies 2eps-LDP",
    );
    let mut p1 = Tally::new(
        "lip-to-ldp-prop1",
        "context-aware-lip.txt Prop. 1",
        "eps-LIP implies min{2eps, ln((e^eps-1+P_min)/P_min)}-LDP",
    );
    let mut exact = Tally::new("lip-to-ldp-exact", "context-aware-lip.txt Thm 1, eq. (9)", "eps-LIP implies eps~(P)-LDP, eps~(P) the exact constant of eq. (9) (computed from the LIP cone's extreme rays); Prop. 1 bounds it");
    for _ in 0..cases {
        let (n, p) = cases_of(&mut rng);
        let eps = rng.gen_range(0.1..3.0);
        let m = n + rng.gen_range(0..2);
        let mut chans = vec![channel(&mut rng, n, m)];
        if let Some(t) = tight(
            &mut rng,
            &p,
            PrivacySpec::Lip {
                epsilon: eps,
                prior: None,
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
        "lip-data-aggregation.txt Thm 1",
        "eps-LDP implies eps-LIP",
    );
    let mut tighter = Tally::new(
        "ldp-to-lip",
        "context-aware-lip.txt Thm 1 (converse)",
        "eps-LDP implies ln(P_min + e^eps (1 - P_min))-LIP",
    );
    for _ in 0..cases {
        let (n, p) = cases_of(&mut rng);
        let eps = rng.gen_range(0.1..3.0);
        let mut chans = vec![
            channel(&mut rng, n, n + 1),
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
        "context-aware-lip.txt Thm 2",
        "eps-LDP implies ln(min P_min^bp + e^eps (1 - min P_min^bp))-BP-LIP",
    );
    let mut bp_b = Tally::new(
        "bp-lip-to-ldp",
        "context-aware-lip.txt Thm 2 (converse)",
        "eps-BP-LIP implies min{2eps, ln((e^eps-1+max P_min^bp)/max P_min^bp)}-LDP",
    );
    for _ in 0..cases {
        let (n, a) = cases_of(&mut rng);
        let b = prior(&mut rng, n);
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
        let mut chans = vec![channel(&mut rng, n, n)];
        if let Some(t) = tight(
            &mut rng,
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
        "context-aware-lip.txt Thm 3.1",
        "eps-LIP implies (2eps + D_inf(P))-DI",
    );
    let mut di_b = Tally::new(
        "di-to-lip",
        "context-aware-lip.txt Thm 3.1 (converse)",
        "eps-DI implies ln[P_min + (1 - P_min) e^(eps + D_inf(P))]-LIP",
    );
    let mut mip = Tally::new(
        "lip-implies-mip",
        "context-aware-lip.txt Thm 3.2; lip-data-aggregation.txt Prop. 1",
        "eps-LIP implies eps-MIP (I(X;Y) <= eps)",
    );
    let mut mil = Tally::new(
        "lip-implies-mil",
        "context-aware-lip.txt Thm 3.3",
        "eps-LIP implies eps-MIL (maximal leakage <= eps)",
    );
    for _ in 0..cases {
        let (n, p) = cases_of(&mut rng);
        let eps = rng.gen_range(0.1..3.0);
        let d_inf = (p.iter().cloned().fold(0.0, f64::max) / pmin(&p)).ln();
        let mut chans = vec![channel(&mut rng, n, n)];
        if let Some(t) = tight(
            &mut rng,
            &p,
            PrivacySpec::Lip {
                epsilon: eps,
                prior: None,
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
    let mut not_mip = Tally::new("mip-does-not-imply-lip", "context-aware-lip.txt Thm 3.2-3.3 (converses)", "eps-MIP / eps-MIL do not imply eps'-LIP for any eps' (exhibited: I and MIL below 0.01 with LIP = inf)");
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

    // Lemma 1 (post-processing, linkage), Lemma 2 (modular).
    let mut post = Tally::new(
        "post-processing",
        "context-aware-lip.txt Lemma 1.4",
        "L_LIP(X;Z) <= L_LIP(X;Y) for X -> Y -> Z",
    );
    let mut link = Tally::new(
        "linkage",
        "context-aware-lip.txt Lemma 1.5",
        "L_LIP(S;Y) <= L_LIP(X;Y) for S -> X -> Y",
    );
    let mut modular = Tally::new(
        "modular",
        "context-aware-lip.txt Lemma 2",
        "eps-LIP under P_1 and P_2 implies eps-LIP under any mixture",
    );
    for _ in 0..cases {
        let (n, p) = cases_of(&mut rng);
        let q = channel(&mut rng, n, n + 1);
        let outputs = rng.gen_range(2..=4);
        let w = channel(&mut rng, n + 1, outputs);
        post.case(lip(&chain(&q, &w), &p), lip(&q, &p), &[&p], &[&q, &w]);
        let k = rng.gen_range(2..=4);
        let ps = prior(&mut rng, k);
        let x_given_s = channel(&mut rng, k, n);
        let px = x_given_s.output_marginal(&ps);
        let s_to_y = chain(&x_given_s, &q);
        link.case(
            lip(&s_to_y, &ps),
            lip(&q, &px),
            &[&ps, &px],
            &[&x_given_s, &q],
        );
        let p2 = prior(&mut rng, n);
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
    let mut comp = Tally::new("composition", "context-aware-lip.txt Thm 4", "L_LIP(X; Y1, Y2) <= ln(P_min + exp(sum_k min{2eps_k, ln((e^eps_k-1+P_min)/P_min)}) (1 - P_min))");
    let mut comp_bp = Tally::new(
        "bp-composition",
        "context-aware-lip.txt Cor. 4",
        "the BP-LIP form of Thm 4 with min/max P_min^bp",
    );
    let mut seq = Tally::new("sequential-composition", "context-aware-lip.txt Cor. 5", "L_LIP(X1 X2; Y1 Y2) <= ln(P^min_joint + exp(sum_k min{2eps_k, ln((e^eps_k-1+P^k_min)/P^k_min)}) (1 - P^min_joint))");
    for _ in 0..cases {
        let (n, p) = cases_of(&mut rng);
        let (a, b) = (channel(&mut rng, n, n), channel(&mut rng, n, n));
        let pm = pmin(&p);
        let total: f64 = [&a, &b].iter().map(|c| prop1_bound(lip(c, &p), pm)).sum();
        comp.case(
            lip(&compose(&a, &b), &p),
            (pm + total.exp() * (1.0 - pm)).ln(),
            &[&p],
            &[&a, &b],
        );
        let p2 = prior(&mut rng, n);
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
        let joint = prior(&mut rng, n1 * n2);
        let m1: Vec<f64> = (0..n1)
            .map(|i| (0..n2).map(|j| joint[i * n2 + j]).sum())
            .collect();
        let m2: Vec<f64> = (0..n2)
            .map(|j| (0..n1).map(|i| joint[i * n2 + j]).sum())
            .collect();
        let (q1, q2) = (channel(&mut rng, n1, 2), channel(&mut rng, n2, 2));
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
        "context-aware-lip.txt Lemma 3",
        "|L_LIP(M, P1) - L_LIP(M, P2)| <= ln(1 + D_TV(P1, P2) / min(P1_min, P2_min))",
    );
    for _ in 0..cases {
        let (n, p) = cases_of(&mut rng);
        let q = if rng.gen_bool(0.5) {
            channel(&mut rng, n, n)
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
    let mut empirical = Tally::new("transferability-empirical", "context-aware-lip.txt Cor. 7", "with probability >= 1 - beta (beta = 0.05), |L(M(P^), P^) - L(M(P^), P)| <= ln(1 + sqrt(2/n (|X| - ln beta)) / (2c)); value = observed failure rate, bound = beta");
    for _ in 0..cases.div_ceil(20).max(5) {
        let k = rng.gen_range(2..=4);
        let p = prior(&mut rng, k);
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

    TheoremReport {
        all_hold: checks.iter().all(|c| c.holds),
        checks,
    }
}

impl TheoremReport {
    /// A human-readable rendering.
    pub fn to_table(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        for c in &self.checks {
            let verdict = if c.holds { "HOLDS" } else { "FAILS" };
            let _ = writeln!(
                s,
                "{:<28} {verdict}  {} cases, worst margin {:.3e}   {}",
                c.name, c.cases, c.worst_margin, c.citation
            );
            let _ = writeln!(s, "  {}", c.statement);
            if let Some(x) = &c.counterexample {
                let _ = writeln!(
                    s,
                    "  counterexample: value {} > bound {}; priors {:?}; channels {:?}",
                    x.value, x.bound, x.priors, x.channels
                );
            }
            for n in &c.notes {
                let _ = writeln!(s, "  {n}");
            }
        }
        s
    }
}
