//! Composition: the exact leakage of k independent releases, computed here from the
//! definition (every output tuple enumerated, no product channel), against `compose`.

use mechsynth::compose::report::ComposeOptions;
use mechsynth::compose::{compose, power, product, ComposeError, MAX_PRODUCT_ENTRIES};
use mechsynth::privacy::{ldp_leakage, lip_leakage};
use mechsynth::{solve, Channel, Problem, ProblemSpec, SolveOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// Exact values computed two ways in floating point agree to this.
const AGREEMENT: f64 = 1e-9;

fn krr(n: usize, eps: f64) -> Channel {
    let t = eps.exp() + n as f64 - 1.0;
    Channel::new(
        (0..n)
            .map(|x| {
                (0..n)
                    .map(|y| if x == y { eps.exp() / t } else { 1.0 / t })
                    .collect()
            })
            .collect(),
    )
    .unwrap()
}

/// `max_{x, tuple} |ln(P(tuple | x) / P(tuple))|` over every output tuple of `channels`,
/// enumerated with a mixed-radix counter (LIP, context-aware-lip eq. (8) on the joint release).
fn lip_by_definition(channels: &[&Channel], prior: &[f64]) -> f64 {
    let n = prior.len();
    let radix: Vec<usize> = channels.iter().map(|c| c.outputs()).collect();
    let mut digits = vec![0usize; channels.len()];
    let mut worst: f64 = 0.0;
    loop {
        let likelihood: Vec<f64> = (0..n)
            .map(|x| {
                channels
                    .iter()
                    .zip(&digits)
                    .map(|(c, &y)| c.get(x, y))
                    .product()
            })
            .collect();
        let marginal: f64 = likelihood.iter().zip(prior).map(|(l, p)| l * p).sum();
        if marginal > 0.0 {
            for l in &likelihood {
                worst = worst.max((l / marginal).ln().abs());
            }
        }
        // Next tuple.
        let mut i = digits.len();
        loop {
            if i == 0 {
                return worst;
            }
            i -= 1;
            digits[i] += 1;
            if digits[i] < radix[i] {
                break;
            }
            digits[i] = 0;
        }
    }
}

#[test]
fn krr_composes_to_k_eps_under_ldp_and_its_lip_matches_the_definition() {
    for (n, eps, k) in [(4, 1.0, 5), (3, 0.5, 3), (2, 2.0, 4), (5, 1.5, 2)] {
        let c = krr(n, eps);
        let prior: Vec<f64> = (1..=n).map(|i| i as f64).collect();
        let s: f64 = prior.iter().sum();
        let prior: Vec<f64> = prior.iter().map(|p| p / s).collect();
        let report = compose(&vec![&c; k], &prior, &ComposeOptions::default()).unwrap();
        let ldp = report.rows.iter().find(|r| r.notion == "ldp").unwrap();
        assert!(
            (ldp.exact - k as f64 * eps).abs() < AGREEMENT,
            "{} vs {}",
            ldp.exact,
            k as f64 * eps
        );
        let lip = report.rows.iter().find(|r| r.notion == "lip").unwrap();
        let reference = lip_by_definition(&vec![&c; k], &prior);
        assert!(
            (lip.exact - reference).abs() < AGREEMENT,
            "{} vs {reference}",
            lip.exact
        );
        assert!(lip.bound.unwrap() >= lip.exact - AGREEMENT, "Thm 4 fails");
    }
}

#[test]
fn ldp_of_identical_releases_is_k_times_and_lip_matches_the_definition() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..40 {
        let (n, m, k) = (
            rng.gen_range(2..=4),
            rng.gen_range(2..=4),
            rng.gen_range(2..=4),
        );
        let rows = (0..n)
            .map(|_| {
                let w: Vec<f64> = (0..m).map(|_| rng.gen_range(0.05..1.0)).collect();
                let s: f64 = w.iter().sum();
                let mut r: Vec<f64> = w.iter().map(|v| v / s).collect();
                let rest: f64 = r[1..].iter().sum();
                r[0] = 1.0 - rest;
                r
            })
            .collect();
        let c = Channel::new(rows).unwrap();
        let joint = power(&c, k).unwrap();
        assert!((ldp_leakage(&joint) - k as f64 * ldp_leakage(&c)).abs() < AGREEMENT);
        let w: Vec<f64> = (0..n).map(|_| rng.gen_range(0.05..1.0)).collect();
        let s: f64 = w.iter().sum();
        let prior: Vec<f64> = w.iter().map(|v| v / s).collect();
        let exact = lip_leakage(&joint, std::slice::from_ref(&prior));
        let reference = lip_by_definition(&vec![&c; k], &prior);
        assert!(
            (exact - reference).abs() < AGREEMENT,
            "{exact} vs {reference}"
        );
        // Post-processing: the k releases leak at least what one does (the relaxation that
        // `releases = k` under lip solves is a valid bound).
        let single = lip_by_definition(&[&c], &prior);
        assert!(reference >= single - AGREEMENT, "{reference} < {single}");
    }
}

#[test]
fn a_synthesized_lip_channel_composes_as_the_definition_says() {
    let text = "[domain]\nsize = 4\nprior = [0.1, 0.1, 0.1, 0.7]\n[[privacy]]\nnotion = \"lip\"\nepsilon = 2.0\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n";
    let problem =
        Problem::from_spec(ProblemSpec::from_toml(text, Path::new("t.toml")).unwrap()).unwrap();
    let c = solve(&problem, &SolveOptions::default())
        .unwrap()
        .channel
        .unwrap();
    let prior = [0.1, 0.1, 0.1, 0.7];
    for k in 1..=4 {
        let report = compose(&vec![&c; k], &prior, &ComposeOptions::default()).unwrap();
        let lip = report.rows.iter().find(|r| r.notion == "lip").unwrap();
        let reference = lip_by_definition(&vec![&c; k], &prior);
        assert!(
            (lip.exact - reference).abs() < AGREEMENT,
            "k = {k}: {} vs {reference}",
            lip.exact
        );
        assert!(lip.bound.unwrap() >= lip.exact, "Thm 4 at k = {k}");
    }
}

#[test]
fn releases_in_a_problem_file_meet_eps_together() {
    let file = |notion: &str| {
        format!("[domain]\nsize = 4\nprior = [0.1, 0.2, 0.3, 0.4]\n[[privacy]]\nnotion = \"{notion}\"\nepsilon = 3.0\nreleases = 3\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n")
    };
    let prior = [0.1, 0.2, 0.3, 0.4];
    // LDP: exactly the eps/k problem.
    let spec = |t: &str| {
        Problem::from_spec(ProblemSpec::from_toml(t, Path::new("t.toml")).unwrap()).unwrap()
    };
    let composed = solve(&spec(&file("ldp")), &SolveOptions::default()).unwrap();
    let single = solve(
        &spec(&file("ldp").replace("epsilon = 3.0\nreleases = 3", "epsilon = 1.0")),
        &SolveOptions::default(),
    )
    .unwrap();
    assert!((composed.objective.unwrap() - single.objective.unwrap()).abs() < 1e-9);
    let c = composed.channel.unwrap();
    assert!(ldp_leakage(&power(&c, 3).unwrap()) <= 3.0 + AGREEMENT);
    // LIP: the exact leakage of the three releases, recomputed here, is within eps.
    let report = solve(&spec(&file("lip")), &SolveOptions::default()).unwrap();
    let c = report.channel.unwrap();
    let check = &report.certificate.unwrap().checks[0];
    let reference = lip_by_definition(&[&c, &c, &c], &prior);
    assert!(reference <= 3.0 + AGREEMENT, "{reference}");
    assert!((check.achieved - reference).abs() < AGREEMENT);
    assert!(
        check.constraint.contains("3 releases, exact"),
        "{}",
        check.constraint
    );
}

#[test]
fn too_large_products_are_refused_naming_the_size() {
    let c = krr(8, 1.0);
    let err = power(&c, 8).unwrap_err();
    match &err {
        ComposeError::TooLarge {
            outputs, entries, ..
        } => {
            assert_eq!(*outputs, 8usize.pow(8));
            assert_eq!(*entries, 8usize.pow(9));
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains(&8usize.pow(9).to_string()));
    assert!(8usize.pow(9) > MAX_PRODUCT_ENTRIES);
    let other = krr(3, 1.0);
    assert!(matches!(
        product(&[&c, &other]),
        Err(ComposeError::InputMismatch { .. })
    ));
}
