//! Soundness suite: seeded random problems over every notion, pairs of notions and every
//! objective. For each, mechsynth's answer is judged against the test's own references:
//! every emitted channel is re-checked from the definitions (0 violations allowed); an
//! `optimal` report must be within the stated gap of a reference optimum (a naive dense LP or
//! conic program for linear objectives, the extreme-ray LP for column-convex ones when the
//! cone is small enough to enumerate);
//! a `bound` must never be beyond the reference optimum or the emitted channel's own value.
//! Run with `--nocapture` to see the counts.

use crate::soundness_ref::judge::{self, better_by};
use crate::soundness_ref::lp::Reference;
use crate::soundness_ref::tally::Tally;
use crate::soundness_ref::{draw, lp, rays, Case};
use mechsynth::solve::GapTolerance;
use mechsynth::{solve, Problem, SolveOptions};

/// The suite's seed: case i of a run is `draw::case(SEED, i)`.
const SEED: u64 = 0x5EED_2026;
/// Seed of the larger, ignored run (different problems).
const LARGE_SEED: u64 = 0x1A26_E5EE;
/// Problems in the default run.
const DEFAULT_CASES: u64 = 4000;
/// Problems in the larger run unless `SOUNDNESS_CASES` says otherwise.
const LARGE_CASES: u64 = 20_000;
/// Absolute slack for the reference solver's inexactness (asked for 1e-12, its scaled rows
/// still leave entries off by about 1e-10).
const REFERENCE_ABSOLUTE_SLACK: f64 = 1e-7;
/// Relative slack for the reference solver's inexactness.
const REFERENCE_RELATIVE_SLACK: f64 = 1e-6;
/// Wall-clock limit for one mechsynth solve.
const CASE_TIME_LIMIT_SECONDS: f64 = 30.0;
/// Worker threads (the suite is meant for small machines).
const THREADS: u64 = 2;

fn slack(reference: f64) -> f64 {
    REFERENCE_ABSOLUTE_SLACK + REFERENCE_RELATIVE_SLACK * reference.abs()
}

/// Solve `case` with mechsynth and judge the answer, counting into `t`.
fn check(case: &Case, t: &mut Tally) {
    t.begin(case);
    let problem = match Problem::from_spec(case.spec.clone()) {
        Ok(p) => p,
        Err(e) => {
            return t.fail(
                "rejected",
                case,
                format!("a valid problem was rejected: {e}"),
            )
        }
    };
    let mut options = SolveOptions::default();
    options.backend_options.time_limit_seconds = CASE_TIME_LIMIT_SECONDS;
    let report = match solve(&problem, &options) {
        Ok(r) => r,
        Err(e) => {
            let text = e.to_string();
            let kind = text
                .split('`')
                .nth(1)
                .map_or(text.clone(), |c| format!("certification failed ({c})"));
            t.count_status(&format!("error: {kind}"));
            return t.note(&format!("solve error: {kind}"), case, text);
        }
    };
    t.count_status(&report.status.to_string());
    let maximize = case.utility.maximize();
    let reference = lp::reference(case).or_else(|| rays::reference(case));
    let own = report.channel.as_ref().map(|c| c.rows().to_vec());
    let value = report.objective.filter(|v| v.is_finite());
    if let Some(q) = &own {
        judge::channel(case, &report, q, t);
    }
    let (ref_value, ref_bound) = match reference {
        None => return t.reference_unavailable += 1,
        Some(Reference::Failed(why)) => {
            t.reference_failed(&why);
            return t.note("reference failed", case, why);
        }
        Some(Reference::Infeasible) => {
            if own.is_some() {
                t.reference_failed(
                    "reference infeasible, but mechsynth's channel passes every check",
                );
            }
            return;
        }
        Some(Reference::Solved {
            value,
            bound,
            achievable,
        }) => {
            if let Some(a) = achievable {
                judge::achievable(case, &report, a, t);
            }
            (value, bound)
        }
    };
    if own.is_none() {
        let infeasible = report.status.to_string() == "infeasible";
        let reliable = ref_bound.is_some_and(|b| (b - ref_value).abs() <= slack(ref_value));
        if infeasible && reliable {
            t.fail(
                "infeasible",
                case,
                format!("reported infeasible; reference optimum {ref_value}"),
            );
        }
        return t.no_channel_but_feasible += 1;
    }
    // A rigorous reference bound is never beaten by a feasible channel.
    if let (Some(v), Some(rb)) = (value, ref_bound) {
        if better_by(v, rb, maximize) > slack(rb) {
            t.fail(
                "beyond-reference",
                case,
                format!("objective {v} beats the reference bound {rb}"),
            );
        }
    }
    if let Some(b) = ref_bound.filter(|b| (b - ref_value).abs() > slack(ref_value)) {
        t.reference_unreliable += 1;
        return t.note(
            "reference unreliable",
            case,
            format!("value {ref_value}, dual bound {b}"),
        );
    }
    t.compared += 1;
    if let Some(b) = report.bound {
        if better_by(b, ref_value, maximize) < -slack(ref_value) {
            t.fail(
                "bound",
                case,
                format!("bound {b} is beyond the reference optimum {ref_value}"),
            );
        }
    }
    // An `optimal` channel is within the gap of every achievable value (the reference's).
    if let (true, Some(v)) = (report.status.is_optimal(), value) {
        let worse = -better_by(v, ref_value, maximize);
        let allowed = GapTolerance::DEFAULT.allowed(v, ref_value);
        // Beyond the strict gap from the reference value and from its rigorous bound.
        let strict = worse > allowed
            && ref_bound
                .is_none_or(|b| -better_by(v, b, maximize) > GapTolerance::DEFAULT.allowed(v, b));
        if strict {
            t.beyond_strict_gap += 1;
            t.note(
                "beyond strict gap",
                case,
                format!("optimal at {v}; reference {ref_value}, reference bound {ref_bound:?}"),
            );
        }
        if worse > allowed + slack(ref_value) {
            t.fail(
                "optimal",
                case,
                format!(
                    "reported optimal at {v} (bound {:?}); reference optimum {ref_value}",
                    report.bound
                ),
            );
        }
    }
}

/// Run cases `0..count` of `seed` on [`THREADS`] threads and merge the counts.
fn run(seed: u64, count: u64) -> Tally {
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|k| {
                s.spawn(move || {
                    let mut t = Tally::default();
                    for i in (k..count).step_by(THREADS as usize) {
                        check(&draw::case(seed, i), &mut t);
                    }
                    t
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker"))
            .collect()
    });
    tallies.into_iter().fold(Tally::default(), Tally::merge)
}

fn run_and_assert(seed: u64, count: u64) {
    let start = std::time::Instant::now();
    let t = run(seed, count);
    let summary = format!("{t}\nelapsed {:.1} s", start.elapsed().as_secs_f64());
    println!("{summary}");
    assert_eq!(t.tried, count, "{summary}");
    if !t.notes.is_empty() {
        println!("\nnotes (not failures):\n{}", t.notes.join("\n\n"));
    }
    assert!(
        t.failures.is_empty(),
        "{summary}\n\nfailures:\n{}",
        t.failures.join("\n\n")
    );
}

#[test]
fn random_problems_are_sound() {
    run_and_assert(SEED, DEFAULT_CASES);
}

#[test]
#[ignore = "large run: SOUNDNESS_CASES=N cargo test --release --test soundness -- --ignored"]
fn many_random_problems_are_sound() {
    let count = std::env::var("SOUNDNESS_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(LARGE_CASES);
    run_and_assert(LARGE_SEED, count);
}

#[test]
#[ignore = "diagnosis: SOUNDNESS_CASE=i [SOUNDNESS_SEED=s] cargo test --release --test soundness one_case -- --ignored --nocapture"]
fn one_case() {
    let var = |k: &str| std::env::var(k).ok().and_then(|s| s.parse::<u64>().ok());
    let case = draw::case(
        var("SOUNDNESS_SEED").unwrap_or(SEED),
        var("SOUNDNESS_CASE").unwrap_or(0),
    );
    println!("{}", case.toml());
    let report = solve(
        &Problem::from_spec(case.spec.clone()).unwrap(),
        &SolveOptions::default(),
    );
    if let Ok(r) = &report {
        println!(
            "mechsynth: {} objective {:?} bound {:?}",
            r.status, r.objective, r.bound
        );
    }
    println!(
        "reference: {:?}",
        lp::reference(&case).or_else(|| rays::reference(&case))
    );
    let mut t = Tally::default();
    check(&case, &mut t);
    println!("{t}\n{}\n{}", t.failures.join("\n"), t.notes.join("\n"));
}

/// A 3-symbol LDP problem with Hamming loss whose reference reading uses `reference_eps`.
fn mismatched_case(spec_eps: f64, reference_eps: f64) -> Case {
    use crate::soundness_ref::{Constraint, Utility};
    use mechsynth::objective::{LossSpec, ObjectiveSpec};
    use mechsynth::privacy::PrivacySpec;
    let n = 3;
    let mut case = draw::case(SEED, 0);
    case.spec.domain = mechsynth::problem::DomainSpec {
        size: Some(n),
        ..Default::default()
    };
    case.spec.privacy = vec![PrivacySpec::Ldp {
        epsilon: spec_eps,
        delta: None,
        releases: None,
    }];
    case.spec.objective = ObjectiveSpec::ExpectedLoss {
        loss: LossSpec::Named("hamming".into()),
    };
    let pairs = (0..n)
        .flat_map(|a| {
            (0..n)
                .filter(move |&b| b != a)
                .map(move |b| (a, b, reference_eps))
        })
        .collect();
    let cost = (0..n)
        .map(|x| {
            (0..n)
                .map(|y| f64::from(u8::from(x != y)) / n as f64)
                .collect()
        })
        .collect();
    (case.n, case.prior, case.distances) = (n, vec![1.0 / n as f64; n], None);
    (case.constraints, case.notion_labels) = (vec![Constraint::Ratios(pairs)], vec!["ldp".into()]);
    case.utility = Utility::Linear {
        cost,
        maximize: false,
    };
    case
}

#[test]
fn the_judgement_catches_a_looser_channel_and_a_worse_optimum() {
    // mechsynth solves at eps = 1, the reference reads eps = 0.5: its channel is too leaky and
    // beats the reference optimum.
    let mut t = Tally::default();
    check(&mismatched_case(1.0, 0.5), &mut t);
    for kind in ["privacy", "beyond-reference"] {
        assert!(
            t.failure_counts.contains_key(kind),
            "{kind} not caught:\n{t}"
        );
    }
    // mechsynth solves at eps = 0.5, the reference reads eps = 1: its `optimal` channel and
    // its bound are worse than a channel the reference shows feasible.
    let mut t = Tally::default();
    check(&mismatched_case(0.5, 1.0), &mut t);
    for kind in ["optimal", "bound"] {
        assert!(
            t.failure_counts.contains_key(kind),
            "{kind} not caught:\n{t}"
        );
    }
}
