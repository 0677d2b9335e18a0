//! OLH's hash and the intervals it gives: the buckets of three symbols coincide as often as
//! independent uniform buckets would (a binomial band), the 95% intervals of ranges, sums and
//! means cover at their level over simulated collections (a binomial band).

use mechsynth::collect::baseline::oracle::{
    oracle_estimates, FrequencyOracle, OracleReport, OracleSpec,
};
use mechsynth::collect::estimate::{Estimand, Query};
use mechsynth::collect::sampler::seeded_rng;
use mechsynth::Domain;
use rand::RngCore;

/// Half-width of the acceptance bands in standard errors (a correct implementation falls
/// outside one with probability about 3e-3; the seeds are fixed, so outcomes reproduce).
const BAND_SE: f64 = 3.0;

/// Seeds drawn for the collision frequencies.
const COLLISION_SEEDS: u64 = 200_000;

/// Simulated collections per coverage setting.
const REPLICATES: usize = 400;

/// The confidence level of the intervals checked.
const LEVEL: f64 = 0.95;

/// The hash family OLH's reports are made with (read off a report, so that the test follows
/// whatever `randomize` uses).
fn report_family(oracle: &dyn FrequencyOracle) -> OracleReport {
    oracle.randomize(0, &mut seeded_rng(0))
}

/// The buckets of the symbols `vs` under `seed`, found through `supports` (symbol `v` is in
/// bucket `b` when a report of bucket `b` supports it).
fn buckets(oracle: &dyn FrequencyOracle, g: u64, seed: u64, vs: &[usize]) -> Vec<u64> {
    let OracleReport::Hashed { family, .. } = report_family(oracle) else {
        panic!("OLH makes hashed reports");
    };
    vs.iter()
        .map(|&v| {
            (0..g)
                .find(|&bucket| {
                    oracle.supports(
                        &OracleReport::Hashed {
                            seed,
                            bucket,
                            family,
                        },
                        v,
                    )
                })
                .expect("every symbol has a bucket")
        })
        .collect()
}

/// At g = 4 (eps = ln 3) three symbols share a bucket with probability 1/16 when buckets are
/// independent; the linear hash of earlier versions gave about twice that for some triples.
#[test]
fn three_symbols_share_a_bucket_as_often_as_independent_buckets() {
    let oracle = OracleSpec::Olh.build(64, 3f64.ln()).unwrap();
    let g = 4;
    let expected = 1.0 / (g * g) as f64;
    let mut rng = seeded_rng(7);
    for triple in [[0, 1, 2], [0, 2, 4], [3, 10, 17], [5, 37, 63]] {
        let mut hits = 0u64;
        for _ in 0..COLLISION_SEEDS {
            let b = buckets(oracle.as_ref(), g, rng.next_u64(), &triple);
            hits += u64::from(b[0] == b[1] && b[1] == b[2]);
        }
        let rate = hits as f64 / COLLISION_SEEDS as f64;
        let se = (expected * (1.0 - expected) / COLLISION_SEEDS as f64).sqrt();
        assert!(
            (rate - expected).abs() <= BAND_SE * se,
            "symbols {triple:?}: collision rate {rate} vs {expected} +- {}",
            BAND_SE * se
        );
    }
}

/// A fixed population over `k` symbols: the number of users holding each symbol.
fn population(k: usize) -> Vec<u64> {
    (0..k).map(|v| 10 + (v as u64 * 7) % 23).collect()
}

/// Over `REPLICATES` collections of the fixed population at `eps`, the fraction of 95%
/// intervals of each query that contain the population's value.
fn coverage(k: usize, eps: f64, seed: u64) -> Vec<(String, f64)> {
    let oracle = OracleSpec::Olh.build(k, eps).unwrap();
    let domain = Domain::sized(k).unwrap();
    let counts = population(k);
    let users: u64 = counts.iter().sum();
    let truth = |w: &[f64], scaled: bool| {
        let f: f64 = w.iter().zip(&counts).map(|(a, &c)| a * c as f64).sum();
        if scaled {
            f
        } else {
            f / users as f64
        }
    };
    let queries = vec![
        Query::Range {
            from: "#0".into(),
            to: format!("#{}", k / 4 - 1),
        },
        Query::Range {
            from: format!("#{}", k / 4),
            to: format!("#{}", 3 * k / 4),
        },
        Query::Sum,
        Query::Mean,
    ];
    let values = domain.numeric_values();
    let weights: Vec<(Vec<f64>, bool)> = queries
        .iter()
        .map(|q| match q {
            Query::Range { from, to } => {
                let (a, b): (usize, usize) = (from[1..].parse().unwrap(), to[1..].parse().unwrap());
                let w = (0..k)
                    .map(|v| f64::from(u8::from((a..=b).contains(&v))))
                    .collect();
                (w, false)
            }
            Query::Sum => (values.clone(), true),
            _ => (values.clone(), false),
        })
        .collect();
    let mut rng = seeded_rng(seed);
    let mut covered = vec![0usize; queries.len()];
    let mut names = vec![String::new(); queries.len()];
    for _ in 0..REPLICATES {
        let mut support = vec![0u64; k];
        for (x, &c) in counts.iter().enumerate() {
            for _ in 0..c {
                oracle.add_support(&oracle.randomize(x, &mut rng), &mut support);
            }
        }
        let est = oracle_estimates(
            oracle.as_ref(),
            &domain,
            &support,
            users,
            &queries,
            LEVEL,
            // The users' values are held fixed across replicates: the sample estimand.
            Estimand::Sample,
        )
        .unwrap();
        for (i, (e, (w, scaled))) in est.iter().zip(&weights).enumerate() {
            names[i].clone_from(&e.quantity);
            covered[i] += usize::from(e.estimate.unwrap().contains(truth(w, *scaled)));
        }
    }
    names
        .into_iter()
        .zip(covered)
        .map(|(n, c)| (n, c as f64 / REPLICATES as f64))
        .collect()
}

fn assert_covers(k: usize, eps: f64, seed: u64) {
    let se = (LEVEL * (1.0 - LEVEL) / REPLICATES as f64).sqrt();
    let rates = coverage(k, eps, seed);
    for (name, rate) in &rates {
        eprintln!("k = {k}, eps = {eps}: {name} covered {rate}");
    }
    for (name, rate) in rates {
        assert!(
            (rate - LEVEL).abs() <= BAND_SE * se,
            "k = {k}, eps = {eps}: {name} covered {rate}, outside {LEVEL} +- {}",
            BAND_SE * se
        );
    }
}

/// k = 64, eps = 4 (g = 56): the linear hash's intervals covered 81-87%.
#[test]
fn intervals_of_ranges_sums_and_means_cover_at_k64_eps4() {
    assert_covers(64, 4.0, 11);
}

/// k = 32, eps = 3 (g = 21): the linear hash's intervals covered 84-92%.
#[test]
fn intervals_of_ranges_sums_and_means_cover_at_k32_eps3() {
    assert_covers(32, 3.0, 12);
}

/// Reports in the old `SEED:BUCKET` form are decoded with the linear hash they were made with
/// (the support counts `estimate` prints are the linear hash's), with a warning.
#[test]
fn old_reports_are_decoded_with_the_linear_hash_and_warned_about() {
    use mechsynth::collect::baseline::oracle::HashFamily;
    let (k, eps) = (8, 1.0);
    let oracle = OracleSpec::Olh.build(k, eps).unwrap();
    let mut rng = seeded_rng(31);
    let mut text = String::new();
    let mut support = vec![0u64; k];
    for i in 0..200u64 {
        let (seed, bucket) = (rng.next_u64(), i % 4);
        let report = OracleReport::Hashed {
            seed,
            bucket,
            family: HashFamily::Linear,
        };
        oracle.add_support(&report, &mut support);
        text.push_str(&format!("{seed:016x}:{bucket}\n"));
    }
    let path = std::env::temp_dir().join(format!("olh-legacy-{}.txt", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let out = crate::bin::command()
        .args([
            "estimate",
            "--oracle",
            "olh",
            "--epsilon",
            "1",
            "--size",
            "8",
        ])
        .arg(&path)
        .args(["--format", "json"])
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("200 of 200 OLH reports"), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let counts: Vec<u64> = json["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(counts, support);
}
