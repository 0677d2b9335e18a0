//! Every flag of every subcommand that takes a number refuses NaN, infinities and values out
//! of its range with exit 2 and a message naming the flag and the value (the built binary).
//! The table below is kept complete by a test that reads `mechsynth SUB --help`: a flag that
//! is in neither the numeric table nor the list of other flags fails it.

use crate::bin::{run_in, stderr};
use crate::guards_support::scratch;
use std::collections::BTreeSet;

/// Values no numeric flag accepts.
const NOT_FINITE: [&str; 5] = ["NaN", "inf", "-inf", "-NaN", "infinity"];

/// Every numeric flag: subcommand, flag, and values out of its range (besides [`NOT_FINITE`]).
#[rustfmt::skip]
const NUMERIC: &[(&str, &str, &[&str])] = &[
    ("solve", "--epsilon", &["-1", "30.5", "1e6"]),
    ("solve", "--time-limit", &["0", "-1", "2e9"]),
    ("solve", "--gap", &["1", "-0.1"]),
    ("audit", "--epsilon", &["-1"]),
    ("audit", "--delta", &["-0.1", "1.5"]),
    ("verify", "--cases", &["0", "-1", "1.5", "1000000001"]),
    ("verify", "--seed", &["-1", "1.5", "18446744073709551616"]),
    ("verify", "--time-limit", &["0", "-3"]),
    ("privatize", "--epsilon", &["-1", "31"]),
    ("privatize", "--size", &["0", "1", "5001", "1e12"]),
    ("privatize", "--seed", &["-1", "0.5"]),
    ("privatize", "--time-limit", &["0"]),
    ("estimate", "--epsilon", &["-1", "31"]),
    ("estimate", "--size", &["1", "5001"]),
    ("estimate", "--level", &["0", "1", "-0.5", "0.9999999999999999", "95"]),
    ("estimate", "--bootstrap", &["-1", "100001", "4000000000"]),
    ("estimate", "--seed", &["-1"]),
    ("estimate", "--time-limit", &["0", "1e10"]),
    ("simulate", "--epsilon", &["-1", "31"]),
    ("simulate", "--size", &["1", "5001"]),
    ("simulate", "--users", &["0", "1000000000000001"]),
    ("simulate", "--trials", &["1", "1000001"]),
    ("simulate", "--seed", &["-1"]),
    ("simulate", "--noncompliance", &["-0.1", "1.1"]),
    ("simulate", "--level", &["0", "1", "0.9999999999999999"]),
    ("simulate", "--time-limit", &["0"]),
    ("plan", "--size", &["1", "5001"]),
    ("plan", "--rmse", &["0", "-1"]),
    ("plan", "--users", &["0", "-1"]),
    ("plan", "--epsilon", &["-1", "31"]),
    ("plan", "--time-limit", &["0"]),
    ("curve", "--time-limit", &["0"]),
    ("curve", "--point-time-limit", &["0", "-5"]),
    ("curve", "--gap", &["1", "-1"]),
    ("compose", "--releases", &["0", "1001"]),
    ("compose", "--delta-prime", &["0", "1"]),
    ("compose", "--time-limit", &["0"]),
    ("figures", "--point-time-limit", &["0"]),
    ("continuous", "--epsilon", &["0", "-1", "31", "1e6"]),
    ("continuous", "--delta", &["1", "-0.1"]),
    ("continuous", "--sensitivity", &["0", "-1"]),
    ("continuous", "--at", &[]),
    ("continuous", "--time-limit", &["0"]),
    ("continuous", "--noise", &["-1"]),
    ("transfer", "--samples", &["0", "1000000001"]),
    ("transfer", "--beta", &["0", "1"]),
    ("transfer", "--design-epsilon", &["0", "31"]),
    ("transfer", "--simulate", &["0", "10000001"]),
    ("transfer", "--sim-epsilon", &["0", "31"]),
    ("transfer", "--time-limit", &["0"]),
];

/// Numeric flags every subcommand takes (global flags), with values out of their range.
#[rustfmt::skip]
const GLOBAL_NUMERIC: &[(&str, &[&str])] = &[
    ("--threads", &["0", "-1", "1.5", "1025"]),
];

/// Other flags every subcommand takes (global flags).
const GLOBAL_OTHER: &[&str] = &["--quiet"];

/// Flags whose value is text that carries numbers (a list, a grid, a prior), parsed after
/// clap: the arguments of a run, the flag and a bad value in it; the message names the flag
/// (a prior's message names the entry, `prior.sd`).
#[rustfmt::skip]
const TEXT_NUMBERS: &[(&[&str], &str, &str)] = &[
    (&["continuous", "continuous-gaussian-lip.toml"], "--range", "NaN,1"),
    (&["continuous", "continuous-gaussian-lip.toml"], "--range", "0,inf"),
    (&["continuous", "--epsilon", "1", "--delta", "0.01"], "--prior", "normal(0,NaN)"),
    (&["continuous", "--epsilon", "1", "--mechanism", "laplace"], "--prior", "discrete(0:inf,1:0.5)"),
    (&["curve", "ldp-hamming-5.toml"], "--epsilons", "NaN,1"),
    (&["curve", "ldp-hamming-5.toml"], "--sizes", "inf"),
    (&["curve", "ldp-hamming-5.toml"], "--priors", "NaN"),
    (&["curve", "ldp-hamming-5.toml"], "--users", "-inf"),
    (&["curve", "ldp-hamming-5.toml", "--epsilons", "1,2"], "--shard", "0/3"),
    (&["curve", "ldp-hamming-5.toml", "--epsilons", "1,2"], "--shard", "NaN/3"),
    (&["transfer", "--simulate", "1", "--true-prior", "0.5,0.5"], "--sim-samples", "NaN"),
    (&["transfer", "--simulate", "1"], "--true-prior", "NaN,0.5"),
    (&["transfer", "ch.toml"], "--prior", "inf,0.5"),
    (&["plan", "--size", "2", "--rmse", "0.1", "--epsilon", "1"], "--prior", "NaN,0.5"),
    (&["simulate", "--baseline", "k-rr", "--epsilon", "1", "--size", "2", "--users", "10"], "--prior", "inf,0.5"),
    (&["privatize", "--baseline", "k-rr", "--epsilon", "1", "--size", "2"], "--prior", "0.5,-inf"),
    (&["compose", "ch.toml"], "--bp-priors", "NaN,0.5"),
    (&["compose", "ch.toml"], "--sweep", "releases=inf,2"),
    (&["compose", "ch.toml"], "--sweep", "delta-prime=NaN,0.1"),
];

/// Every other flag (no value, a file, a name or a choice), by subcommand.
#[rustfmt::skip]
const OTHER: &[(&str, &[&str])] = &[
    ("solve", &["--format", "--solver", "--method", "--profile", "--explain", "--output", "--force", "--svg", "--html", "--png", "--help"]),
    ("audit", &["--format", "--strict", "--svg", "--html", "--force", "--png", "--help"]),
    ("verify", &["--sweep", "--theorems", "--format", "--solver", "--html", "--force", "--help"]),
    ("privatize", &["--channel", "--baseline", "--oracle", "--domain", "--prior", "--sensitive", "--blocks", "--column", "--match", "--output", "--force", "--help"]),
    ("estimate", &["--channel", "--baseline", "--oracle", "--domain", "--prior", "--sensitive", "--blocks", "--counts", "--column", "--estimator", "--query", "--estimand", "--format", "--html", "--force", "--help"]),
    ("simulate", &["--channel", "--baseline", "--oracle", "--domain", "--prior", "--sensitive", "--blocks", "--sampling", "--estimator", "--priors", "--estimand", "--format", "--help"]),
    ("plan", &["--channel", "--baseline", "--domain", "--prior", "--target", "--symbol", "--estimand", "--format", "--help"]),
    ("curve", &["--epsilons", "--sizes", "--priors", "--users", "--compare", "--no-registry", "--mechanisms", "--output", "--svg", "--html", "--force", "--resume", "--solver", "--title", "--png", "--shard", "--merge", "--help"]),
    ("compose", &["--bp-priors", "--format", "--sweep", "--series-over", "--only", "--csv", "--svg", "--title", "--y-label", "--force", "--png", "--help"]),
    ("figures", &["--out", "--force", "--png", "--help"]),
    ("continuous", &["--prior", "--data", "--column", "--edges", "--mechanism", "--notion", "--range", "--criterion", "--verify", "--format", "--plot", "--sweep", "--series-over", "--only", "--csv", "--svg", "--title", "--y-label", "--force", "--png", "--help"]),
    ("completions", &["--help"]),
    ("man", &["--out", "--force", "--help"]),
    ("transfer", &["--prior", "--data", "--column", "--true-prior", "--family", "--emit-problem", "--sim-samples", "--format", "--sweep", "--series-over", "--only", "--csv", "--svg", "--title", "--y-label", "--force", "--png", "--help"]),
];

/// The run exited 2 with an error naming `flag` and `value` and saying what is accepted.
fn assert_refused(o: &std::process::Output, what: &str, flag: &str, value: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    let named = format!("invalid `{flag}` = {value}");
    assert!(err.contains(&named), "{what}: expected {named:?}: {err}");
    assert!(err.contains("must be"), "{what}: no accepted range: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

#[test]
fn every_numeric_flag_refuses_non_finite_and_out_of_range_values() {
    let dir = scratch("numeric-flags");
    for (sub, flag, out_of_range) in NUMERIC {
        for value in NOT_FINITE.iter().chain(out_of_range.iter()) {
            let what = format!("{sub} {flag} {value}");
            assert_refused(&run_in(&dir, &[sub, flag, value]), &what, flag, value);
            let joined = format!("{flag}={value}");
            assert_refused(&run_in(&dir, &[sub, &joined]), &what, flag, value);
        }
    }
}

#[test]
fn global_numeric_flags_refuse_out_of_range_values_before_and_after_the_subcommand() {
    let dir = scratch("global-numeric-flags");
    for (flag, out_of_range) in GLOBAL_NUMERIC {
        for value in NOT_FINITE.iter().chain(out_of_range.iter()) {
            let what = format!("{flag} {value}");
            let before = [*flag, *value, "completions", "bash"];
            assert_refused(&run_in(&dir, &before), &what, flag, value);
            let joined = format!("{flag}={value}");
            let after = ["completions", "bash", &joined];
            assert_refused(&run_in(&dir, &after), &what, flag, value);
        }
    }
}

#[test]
fn text_flags_refuse_non_finite_numbers() {
    let dir = scratch("text-numbers");
    for (args, flag, value) in TEXT_NUMBERS {
        let mut all: Vec<&str> = args.to_vec();
        all.extend([*flag, *value]);
        let o = run_in(&dir, &all);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {err}");
        let name = flag.trim_start_matches('-');
        assert!(
            err.contains(name),
            "{all:?}: the message names no flag: {err}"
        );
        assert!(!err.contains("panicked"), "{all:?}: {err}");
    }
}

/// The flags `mechsynth SUB --help` lists.
fn flags_of(sub: &str) -> BTreeSet<String> {
    let o = run_in(&std::env::temp_dir(), &[sub, "--help"]);
    assert_eq!(o.status.code(), Some(0), "{sub} --help");
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|line| {
            let t = line.trim_start();
            let t = t.strip_prefix("-o, ").unwrap_or(t);
            let t = if t.len() > 4 && t.as_bytes()[0] == b'-' && &t[2..4] == ", " {
                &t[4..]
            } else {
                t
            };
            t.starts_with("--").then(|| {
                t.split(|c: char| c.is_whitespace() || c == '=')
                    .next()
                    .unwrap()
                    .to_string()
            })
        })
        .collect()
}

/// The subcommands `mechsynth --help` lists.
pub(crate) fn subcommands() -> Vec<String> {
    let o = run_in(&std::env::temp_dir(), &["--help"]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let commands = text.split("Commands:").nth(1).expect("a Commands section");
    commands
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|name| name != "help")
        .collect()
}

#[test]
fn the_table_covers_every_flag_of_every_subcommand() {
    let subs = subcommands();
    assert!(subs.len() >= 12, "{subs:?}");
    for sub in &subs {
        let numeric: BTreeSet<&str> = NUMERIC
            .iter()
            .filter(|(s, _, _)| s == sub)
            .map(|(_, f, _)| *f)
            .collect();
        let numeric: BTreeSet<&str> = numeric
            .into_iter()
            .chain(GLOBAL_NUMERIC.iter().map(|(f, _)| *f))
            .collect();
        let other: BTreeSet<&str> = OTHER
            .iter()
            .filter(|(s, _)| s == sub)
            .flat_map(|(_, fs)| fs.iter().copied())
            .chain(GLOBAL_OTHER.iter().copied())
            .collect();
        let listed = flags_of(sub);
        for flag in &listed {
            assert!(
                numeric.contains(flag.as_str()) || other.contains(flag.as_str()),
                "`{sub} {flag}` is in neither table: add it to NUMERIC (with its range) or OTHER"
            );
        }
        for flag in numeric.iter().chain(&other) {
            assert!(
                listed.contains(*flag),
                "`{sub} {flag}` is in a table but not in `{sub} --help`"
            );
        }
    }
}
