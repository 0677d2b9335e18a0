//! The built binary's collection subcommands: privatize, estimate, simulate and plan; their
//! output formats, exit codes and messages.

use crate::bin::{run, run_with_stdin, stderr, stdout, TempDir};
use std::path::Path;

const CHANNEL: &str = r#"
[domain]
labels = ["no", "yes"]
prior = [0.7, 0.3]
[channel]
rows = [[0.75, 0.25], [0.25, 0.75]]
"#;

fn records(n_no: usize, n_yes: usize) -> String {
    let mut s = String::new();
    for i in 0..(n_no + n_yes) {
        s.push_str(if i < n_no { "no\n" } else { "yes\n" });
    }
    s
}

#[test]
fn privatize_then_estimate_recovers_the_frequencies() {
    let dir = TempDir::new("roundtrip");
    let channel = dir.write_arg("channel.toml", CHANNEL);
    let input = dir.write_arg("records.txt", &records(7000, 3000));
    let reports = dir.arg("reports.txt");
    let o = run(&[
        "privatize",
        "--channel",
        &channel,
        &input,
        "--seed",
        "4",
        "-o",
        &reports,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("NOT private"), "{}", stderr(&o));
    let o = run(&[
        "estimate",
        "--channel",
        &channel,
        &reports,
        "--format",
        "json",
        "--estimator",
        "inversion,em,posterior-mean",
        "--query",
        "frequencies,range:no..yes",
        "--seed",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["users"], 10000);
    let estimates = v["estimates"].as_array().unwrap();
    let inv_yes = estimates
        .iter()
        .find(|e| e["estimator"] == "inversion" && e["quantity"] == "frequency[yes]")
        .unwrap();
    let (low, high) = (
        inv_yes["estimate"]["low"].as_f64().unwrap(),
        inv_yes["estimate"]["high"].as_f64().unwrap(),
    );
    // 0.3 lies in the interval for this seed; the interval is about +-0.02 wide.
    assert!(low < 0.3 && 0.3 < high && high - low < 0.05, "{inv_yes}");
    let total = estimates
        .iter()
        .find(|e| e["estimator"] == "inversion" && e["quantity"] == "range[no..yes]")
        .unwrap();
    assert!((total["estimate"]["value"].as_f64().unwrap() - 1.0).abs() < 1e-12);
    assert!(estimates
        .iter()
        .any(|e| e["estimator"] == "em" && e["interval"] == "inversion (range-clipped)"));
    assert!(estimates
        .iter()
        .any(|e| e["estimator"] == "posterior-mean" && e["interval"] == "credible (domain prior)"));
}

#[test]
fn a_value_outside_the_domain_exits_2_naming_the_line_and_writes_nothing() {
    let dir = TempDir::new("outside");
    let channel = dir.write_arg("channel.toml", CHANNEL);
    let input = dir.write_arg("records.txt", "no\nyes\nmaybe\nno\n");
    let out = dir.arg("out.txt");
    let o = run(&["privatize", "--channel", &channel, &input, "-o", &out]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("line 3") && stderr(&o).contains("maybe"),
        "{}",
        stderr(&o)
    );
    assert!(!Path::new(&out).exists());
    assert!(std::fs::read_dir(&dir.0).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .contains("partial")));
    // Without -o nothing reaches stdout either.
    let o = run(&["privatize", "--channel", &channel, &input]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
}

#[test]
fn output_files_are_not_overwritten_without_force() {
    let dir = TempDir::new("force");
    let channel = dir.write_arg("channel.toml", CHANNEL);
    let input = dir.write_arg("records.txt", "no\nyes\n");
    let out = dir.write_arg("out.txt", "keep me\n");
    let o = run(&["privatize", "--channel", &channel, &input, "-o", &out]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me\n");
    let o = run(&[
        "privatize",
        "--channel",
        &channel,
        &input,
        "-o",
        &out,
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 2);
}

#[test]
fn csv_columns_are_privatized_in_place_by_value() {
    let dir = TempDir::new("csv");
    let input = dir.write_arg(
        "people.csv",
        "id,age,city\n1,2,\"Paris, FR\"\n2,0,Lyon\n3,4.0,Nice\n",
    );
    let o = run(&[
        "privatize",
        "--baseline",
        "truncated-geometric",
        "--epsilon",
        "1",
        "--size",
        "5",
        "--column",
        "age",
        "--match",
        "value",
        "--seed",
        "3",
        &input,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "id,age,city");
    assert!(
        lines[1].starts_with("1,") && lines[1].ends_with(",\"Paris, FR\""),
        "{text}"
    );
    assert_eq!(lines.len(), 4);
    let o = run(&[
        "privatize",
        "--baseline",
        "k-rr",
        "--epsilon",
        "1",
        "--size",
        "5",
        "--column",
        "height",
        &input,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("height"), "{}", stderr(&o));
}

#[test]
fn oracles_privatize_and_estimate() {
    let dir = TempDir::new("oracle");
    let input = dir.write_arg("records.txt", &"0\n1\n2\n3\n".repeat(500));
    let reports = dir.arg("reports.txt");
    for oracle in ["sue", "oue", "olh"] {
        let o = run(&[
            "privatize",
            "--oracle",
            oracle,
            "--epsilon",
            "2",
            "--size",
            "4",
            "--seed",
            "1",
            &input,
            "-o",
            &reports,
            "--force",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let o = run(&[
            "estimate",
            "--oracle",
            oracle,
            "--epsilon",
            "2",
            "--size",
            "4",
            &reports,
            "--format",
            "csv",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(
            text.starts_with("estimator,quantity,estimate,std_error,low,high,interval,estimand\n"),
            "{text}"
        );
        assert_eq!(
            text.lines().filter(|l| l.starts_with(oracle)).count(),
            4,
            "{text}"
        );
    }
}

#[test]
fn estimate_from_counts_warns_about_negative_frequencies() {
    let dir = TempDir::new("counts");
    let channel = dir.write_arg("channel.toml", CHANNEL);
    let counts = dir.write_arg("counts.csv", "output,count\nno,90\nyes,10\n");
    let o = run(&["estimate", "--channel", &channel, "--counts", &counts]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("negative frequencies"),
        "{}",
        stderr(&o)
    );
    let bad = dir.write_arg("bad.csv", "no,90\nperhaps,10\n");
    let o = run(&["estimate", "--channel", &channel, "--counts", &bad]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("line 2") && stderr(&o).contains("perhaps"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_singular_channel_says_what_cannot_be_estimated() {
    let dir = TempDir::new("singular");
    let channel = dir.write_arg(
        "channel.toml",
        "[channel]\nrows = [[0.5, 0.5], [0.5, 0.5], [0.2, 0.8]]\n",
    );
    let counts = dir.write_arg("counts.csv", "y0,40\ny1,60\n");
    let o = run(&[
        "estimate",
        "--channel",
        &channel,
        "--counts",
        &counts,
        "--query",
        "frequencies,range:0..2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("rank"), "{}", stderr(&o));
    // The total frequency is estimable; single frequencies are not.
    assert!(stdout(&o).contains("range[0..2]"), "{}", stdout(&o));
    assert!(stdout(&o).contains("n/a"), "{}", stdout(&o));
}

#[test]
fn simulate_reports_analytic_values_beside_empirical_ones() {
    let o = run(&[
        "simulate",
        "--baseline",
        "k-rr",
        "--epsilon",
        "1",
        "--size",
        "16",
        "--users",
        "1000000000",
        "--trials",
        "1000",
        "--estimator",
        "inversion,posterior-mean",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["trials"], 1000);
    let names: Vec<&str> = v["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| !m["analytic"].is_null())
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    for needle in [
        "frequency-mse",
        "mean-squared-error",
        "mmse-sum",
        "mmse-histogram",
    ] {
        assert!(names.contains(&needle), "{names:?}");
    }
    let o = run(&[
        "simulate",
        "--oracle",
        "oue",
        "--epsilon",
        "1",
        "--size",
        "8",
        "--users",
        "1000",
        "--trials",
        "200",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&[
        "simulate",
        "--baseline",
        "k-rr",
        "--epsilon",
        "1",
        "--size",
        "4",
        "--users",
        "100",
        "--noncompliance",
        "1.5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--noncompliance"), "{}", stderr(&o));
}

#[test]
fn plan_compares_the_channel_with_the_baselines() {
    let dir = TempDir::new("plan");
    let channel = dir.write_arg("channel.toml", CHANNEL);
    let o = run(&[
        "plan",
        "--channel",
        &channel,
        "--rmse",
        "0.01",
        "--target",
        "prevalence",
        "--symbol",
        "yes",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let rows = v["rows"].as_array().unwrap();
    // Warner at the channel's own LDP level (ln 3) is the same channel.
    let own = rows[0]["users_needed"].as_u64().unwrap();
    let warner = rows.iter().find(|r| r["mechanism"] == "warner").unwrap();
    assert_eq!(warner["users_needed"].as_u64().unwrap(), own);
    // Var of the inversion around the realized frequency: 0.25*0.75/(0.5^2) = 0.75 per user.
    assert_eq!(own, 7500);
    let o = run(&["plan", "--size", "8", "--rmse", "0.01", "--users", "100000"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("k-rr"), "{}", stdout(&o));
    let o = run(&["plan", "--size", "8", "--rmse", "-1"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_baseline_without_a_domain_or_epsilon_is_bad_input() {
    let o = run(&["privatize", "--baseline", "k-rr", "--size", "4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--epsilon"), "{}", stderr(&o));
    let o = run(&[
        "privatize",
        "--baseline",
        "warner",
        "--epsilon",
        "1",
        "--size",
        "4",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("warner"), "{}", stderr(&o));
}

#[test]
fn simulate_with_groups_of_users_and_their_own_priors() {
    let dir = TempDir::new("groups");
    let priors = dir.write_arg(
        "priors.csv",
        "users,p0,p1,p2\n3000,0.8,0.1,0.1\n2000,0.1,0.1,0.8\n",
    );
    let o = run(&[
        "simulate",
        "--baseline",
        "k-rr",
        "--epsilon",
        "1",
        "--size",
        "3",
        "--priors",
        &priors,
        "--trials",
        "3000",
        "--level",
        "0.999",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["users"], 5000);
    for m in v["metrics"].as_array().unwrap() {
        if m["estimator"] == "inversion" {
            assert_eq!(m["agrees"], true, "{m}");
        } else {
            // The posterior's MMSE assumes users from the domain prior: no analytic value.
            assert!(m["analytic"].is_null(), "{m}");
        }
    }
    let bad = dir.write_arg("bad.csv", "3000,0.8,0.2\n");
    let o = run(&[
        "simulate",
        "--baseline",
        "k-rr",
        "--epsilon",
        "1",
        "--size",
        "3",
        "--priors",
        &bad,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 1"), "{}", stderr(&o));
}

#[test]
fn plan_without_a_level_or_with_no_users_is_bad_input_naming_the_flag() {
    let o = run(&["plan", "--size", "8", "--rmse", "0.01"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("--epsilon") && stderr(&o).contains("--users"),
        "{}",
        stderr(&o)
    );
    let o = run(&["plan", "--size", "8", "--rmse", "0.01", "--users", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("`--users` = 0"), "{}", stderr(&o));
}

#[test]
fn privatize_onto_its_own_input_names_the_input_file() {
    let dir = TempDir::new("same-file");
    let channel = dir.write_arg("channel.toml", CHANNEL);
    let input = dir.write_arg("records.txt", "no\nyes\n");
    let o = run(&["privatize", "--channel", &channel, &input, "-o", &input]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("that is the input file"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "no\nyes\n");
}

#[test]
fn simulate_prints_rows_only_for_the_requested_estimators() {
    let o = run(&[
        "simulate",
        "--baseline",
        "k-rr",
        "--epsilon",
        "1",
        "--size",
        "4",
        "--users",
        "1000",
        "--trials",
        "50",
        "--estimator",
        "inversion",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let metrics = v["metrics"].as_array().unwrap();
    assert!(!metrics.is_empty());
    assert!(
        metrics.iter().all(|m| m["estimator"] == "inversion"),
        "{metrics:?}"
    );
}

/// `plan` refuses flags it would ignore: `--epsilon` with `--users` (the users fix the
/// epsilon), and `--symbol` without `--target prevalence`.
#[test]
fn plan_refuses_flags_it_would_ignore() {
    let o = run(&[
        "plan",
        "--size",
        "4",
        "--rmse",
        "0.01",
        "--epsilon",
        "1",
        "--users",
        "100",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = run(&[
        "plan",
        "--size",
        "4",
        "--rmse",
        "0.01",
        "--epsilon",
        "1",
        "--symbol",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--symbol"), "{}", stderr(&o));
    let o = run(&[
        "plan",
        "--size",
        "4",
        "--rmse",
        "0.01",
        "--epsilon",
        "1",
        "--target",
        "prevalence",
        "--symbol",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A channel file whose channel no longer meets the privacy it states (a row edited by hand)
/// is refused by the collection commands; the file as solved is accepted.
#[test]
fn a_channel_that_breaks_its_stated_privacy_is_refused() {
    let dir = std::env::temp_dir().join(format!("tampered-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let problem =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/ldp-hamming-5.toml");
    let o = run(&["solve", problem.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let good = dir.join("good.json");
    std::fs::write(&good, serde_json::to_string(&report).unwrap()).unwrap();
    report["channel"][0] = serde_json::json!([0.96, 0.01, 0.01, 0.01, 0.01]);
    let bad = dir.join("bad.json");
    std::fs::write(&bad, serde_json::to_string(&report).unwrap()).unwrap();
    let records = dir.join("records.txt");
    std::fs::write(&records, "0\n1\n").unwrap();
    let o = run(&[
        "privatize",
        "--channel",
        bad.to_str().unwrap(),
        records.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("does not meet"), "{}", stderr(&o));
    let o = run(&[
        "privatize",
        "--channel",
        good.to_str().unwrap(),
        records.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

/// `--counts -` reads the counts from standard input, with the same result as from a file.
#[test]
fn estimate_reads_counts_from_standard_input() {
    let dir = TempDir::new("counts-stdin");
    let channel = dir.write_arg("channel.toml", CHANNEL);
    let text = "output,count\nno,70\nyes,30\n";
    let counts = dir.write_arg("counts.csv", text);
    let from_file = run(&["estimate", "--channel", &channel, "--counts", &counts]);
    assert_eq!(from_file.status.code(), Some(0), "{}", stderr(&from_file));
    let from_stdin = run_with_stdin(&["estimate", "--channel", &channel, "--counts", "-"], text);
    assert_eq!(from_stdin.status.code(), Some(0), "{}", stderr(&from_stdin));
    assert_eq!(from_stdin.stdout, from_file.stdout);
    assert!(String::from_utf8_lossy(&from_stdin.stdout).contains("yes"));
}

/// `simulate` on a singular channel says why the inversion rows are missing (every trial
/// fails), and which estimator applies.
#[test]
fn simulate_names_a_singular_channel() {
    let dir = TempDir::new("simulate-singular");
    let channel = dir.write_arg(
        "channel.toml",
        "[channel]\nrows = [[0.6, 0.4], [0.5, 0.5], [0.4, 0.6]]\n",
    );
    let o = run(&[
        "simulate",
        "--channel",
        &channel,
        "--users",
        "500",
        "--trials",
        "4",
        "--seed",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stderr(&o);
    assert!(
        text.contains("rank 2 < 3 inputs") && text.contains("posterior-mean applies"),
        "{text}"
    );
}

/// `plan --symbol` reads symbols as `estimate` does: a label, or `#K` for the 0-based index K.
/// On values [1, 2.5, 4, 8, 16] a bare `2` is not a label and is refused (it was silently
/// taken as index 2, the value 4); `2.5` and `#1` name the same symbol.
#[test]
fn plan_symbols_are_labels_or_hash_indices() {
    let dir = TempDir::new("plan-symbol");
    let domain = dir.write_arg(
        "values.toml",
        "[domain]\nvalues = [1, 2.5, 4, 8, 16]\nprior = [0.05, 0.1, 0.15, 0.3, 0.4]\n",
    );
    let plan = |symbol: &str| {
        run(&[
            "plan",
            "--domain",
            &domain,
            "--rmse",
            "0.01",
            "--epsilon",
            "1",
            "--target",
            "prevalence",
            "--symbol",
            symbol,
            "--format",
            "json",
        ])
    };
    let o = plan("2");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`--symbol`") && stderr(&o).contains("#K"),
        "{}",
        stderr(&o)
    );
    let (label, index) = (plan("2.5"), plan("#1"));
    assert_eq!(label.status.code(), Some(0), "{}", stderr(&label));
    assert_eq!(stdout(&label), stdout(&index));
    assert_eq!(plan("#5").status.code(), Some(2));
}

/// A channel whose LDP level is infinite gives the baselines no epsilon to match: `plan` says
/// to give `--epsilon` (it printed every baseline as `inf` without a word).
#[test]
fn plan_asks_for_epsilon_when_the_channels_ldp_is_infinite() {
    let dir = TempDir::new("plan-infinite");
    let channel = dir.write_arg(
        "mangat.toml",
        "[domain]\nlabels = [\"no\", \"yes\"]\nprior = [0.7, 0.3]\n[channel]\nrows = [[0.6, 0.4], [0.0, 1.0]]\n",
    );
    let o = run(&["plan", "--channel", &channel, "--rmse", "0.01"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("give --epsilon"), "{}", stderr(&o));
    let o = run(&[
        "plan",
        "--channel",
        &channel,
        "--rmse",
        "0.01",
        "--epsilon",
        "1",
    ]);
    assert!(!stderr(&o).contains("give --epsilon"), "{}", stderr(&o));
}

/// A byte order mark opening a one-value-per-line file (as some editors write) is not part of
/// the first record: `privatize` and `estimate` read the file as without it.
#[test]
fn a_byte_order_mark_is_not_part_of_the_first_record() {
    let dir = TempDir::new("bom");
    let channel = dir.write_arg("channel.toml", CHANNEL);
    let answers = dir.write_arg("answers.txt", "\u{feff}no\nyes\nno\n");
    let o = run(&["privatize", "--channel", &channel, &answers, "--seed", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 3);
    let reports = dir.write_arg("reports.txt", "\u{feff}yes\nno\nyes\n");
    let o = run(&[
        "estimate",
        "--channel",
        &channel,
        &reports,
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Rows `[0.5, 0.5]` and `[0.2, 0.8]` scaled by `1 - 4e-10` and `1 + 4e-10`: the numbers'
/// largest ratio is `2.5 (1 - 4e-10) / (1 + 4e-10)`, whose log (0.91629073107) is within the
/// stated 0.9162907311, but the sampler draws each row divided by its exact sum, and those rows'
/// ratio is exactly 2.5 (ln 2.5 = 0.91629073187), above it.
const ROW_SUMS_HIDE_LEAKAGE: &str = r#"
[domain]
labels = ["a", "b"]
[channel]
rows = [[0.4999999998, 0.4999999998], [0.20000000008, 0.80000000032]]
[[privacy]]
notion = "ldp"
epsilon = 0.9162907311
"#;

#[test]
fn privatize_refuses_a_channel_whose_sampled_rows_leak_more_than_stated() {
    let dir = TempDir::new("realized");
    let channel = dir.write_arg("channel.toml", ROW_SUMS_HIDE_LEAKAGE);
    let input = dir.write_arg("records.txt", "a\nb\n");
    let out = dir.arg("out.txt");
    let o = run(&["privatize", "--channel", &channel, &input, "-o", &out]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    let err = stderr(&o);
    // ln 2.5 rounded up to 9 decimals.
    assert!(err.contains("realized ldp 0.916290732"), "{err}");
    assert!(!Path::new(&out).exists());
    assert!(o.stdout.is_empty());
}

#[test]
fn privatize_reports_the_realized_guarantee_of_a_channel_that_holds() {
    let dir = TempDir::new("realized-ok");
    let channel = dir.write_arg(
        "channel.toml",
        &format!("{CHANNEL}[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0986122887\n"),
    );
    let input = dir.write_arg("records.txt", "no\nyes\n");
    let out = dir.arg("out.txt");
    let o = run(&["privatize", "--channel", &channel, &input, "-o", &out]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // ln 3 = 1.098612288668..., rounded up.
    assert!(
        stderr(&o).contains("realized ldp 1.098612289"),
        "{}",
        stderr(&o)
    );
}
