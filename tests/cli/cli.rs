//! The built `mechsynth` binary: output formats, flags, exit codes and error messages.

use crate::bin::{run, stderr, stdout, TempDir};
use std::path::{Path, PathBuf};

fn problem(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("problems")
        .join(name)
}

#[test]
fn solve_table_shows_status_objective_channel_and_leakage() {
    let o = run(&["solve", problem("ldp-hamming-5.toml").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    for needle in [
        "status     optimal",
        "objective",
        "channel Q[x][y]",
        "certificate",
        "ldp",
        "max-leakage",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn solve_json_has_the_documented_fields() {
    let o = run(&[
        "solve",
        problem("lip-binary-survey.toml").to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    for key in [
        "status",
        "objective",
        "channel",
        "leakage",
        "certificate",
        "solver",
        "timings",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["status"], "optimal");
    for notion in ["ldp", "lip", "max-leakage", "identifiability"] {
        assert!(v["leakage"][notion].is_number(), "leakage.{notion}");
    }
    let lip = v["certificate"]["checks"][0]["achieved"].as_f64().unwrap();
    assert!(lip <= 1.0);
}

#[test]
fn epsilon_override_changes_every_constraint() {
    let o = run(&[
        "solve",
        problem("ldp-hamming-5.toml").to_str().unwrap(),
        "--format",
        "json",
        "--epsilon",
        "2.0",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let expected = 4.0 / (2f64.exp() + 4.0);
    assert!((v["objective"].as_f64().unwrap() - expected).abs() < 1e-6);
    assert_eq!(v["certificate"]["checks"][0]["requested"], 2.0);
}

#[test]
fn bad_epsilon_flag_exits_2() {
    let o = run(&[
        "solve",
        problem("ldp-hamming-5.toml").to_str().unwrap(),
        "--epsilon",
        "-1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--epsilon"), "{}", stderr(&o));
}

#[test]
fn output_file_never_overwrites_the_problem_or_an_existing_file() {
    let dir = TempDir::new("output");
    let src = std::fs::read_to_string(problem("ldp-hamming-5.toml")).unwrap();
    let input = dir.write("p.toml", &src);
    let o = run(&[
        "solve",
        input.to_str().unwrap(),
        "-o",
        input.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&input).unwrap(),
        src,
        "the problem file was changed"
    );

    let out = dir.0.join("out.json");
    let o = run(&[
        "solve",
        input.to_str().unwrap(),
        "--format",
        "json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let first = std::fs::read_to_string(&out).unwrap();
    let o = run(&[
        "solve",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--force"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
}

#[test]
fn audit_of_a_solve_report_confirms_its_guarantee() {
    let dir = TempDir::new("audit");
    let out = dir.0.join("report.json");
    let o = run(&[
        "solve",
        problem("block-6.toml").to_str().unwrap(),
        "--format",
        "json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["audit", out.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["all_hold"], true);
    assert!(v["checks"][0]["achieved"].as_f64().unwrap() <= 1.0);
}

#[test]
fn audit_of_a_hand_made_channel_reports_its_true_leakage() {
    let dir = TempDir::new("handmade");
    // Warner's randomized response with truth probability 3/4: exactly ln 3-LDP.
    let file = dir.write(
        "rr.toml",
        "[channel]\nrows = [[0.75, 0.25], [0.25, 0.75]]\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n",
    );
    let o = run(&["audit", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(
        o.status.code(),
        Some(5),
        "ln 3 > 1 must fail the stated constraint"
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let ldp = v["leakage"]["ldp"].as_f64().unwrap();
    assert!(ldp >= 3f64.ln() && ldp < 3f64.ln() + 1e-12, "{ldp}");
    assert_eq!(v["all_hold"], false);
}

#[test]
fn audit_reports_infinite_leakage_as_inf() {
    let dir = TempDir::new("inf");
    let file = dir.write(
        "id.toml",
        "[channel]\nrows = [[1.0, 0.0], [0.0, 1.0]]\n[domain]\nline = 2\n",
    );
    let o = run(&["audit", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["leakage"]["ldp"], "inf");
    assert_eq!(v["leakage"]["d-privacy"], "inf");
    // The identity channel reveals X: no MMSE error, I(X;Y) = H(X) = ln 2, inversion MSE
    // sum_i lambda_i - 1 = 0.
    assert!(v["objectives"]["mmse-sum"].as_f64().unwrap().abs() < 1e-15);
    assert!(v["objectives"]["mmse-histogram"].as_f64().unwrap().abs() < 1e-15);
    let mi = v["objectives"]["mutual-information"].as_f64().unwrap();
    assert!((mi - 2f64.ln()).abs() < 1e-12, "{mi}");
    assert!(v["objectives"]["inversion-mse"].as_f64().unwrap().abs() < 1e-12);
}

/// Each bad input exits 2 with a message naming the offending key or value, and no panic.
#[test]
fn bad_inputs_exit_2_with_a_message_naming_key_and_value() {
    let dir = TempDir::new("bad");
    let head = "[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n";
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        ("prior-sum", format!("{head}[domain]\nsize = 2\nprior = [0.5, 0.6]\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n"), vec!["domain.prior", "sum to 1.1"]),
        ("neg-eps", format!("{head}[domain]\nsize = 2\n[[privacy]]\nnotion = \"ldp\"\nepsilon = -0.5\n"), vec!["privacy[0].epsilon", "-0.5"]),
        ("nan-eps", format!("{head}[domain]\nsize = 2\n[[privacy]]\nnotion = \"lip\"\nepsilon = nan\n"), vec!["privacy[0].epsilon", "NaN"]),
        ("unknown-notion", format!("{head}[domain]\nsize = 2\n[[privacy]]\nnotion = \"ldpp\"\nepsilon = 1.0\n"), vec!["ldpp", "did you mean `ldp`"]),
        ("unknown-key", format!("{head}[domain]\nsize = 2\nprior = [0.5, 0.5]\npriorr = 1\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n"), vec!["priorr", "did you mean `prior`"]),
        ("shape", format!("{head}[domain]\nsize = 3\n[[privacy]]\nnotion = \"context-ldp\"\nmatrix = [[0.0, 1.0], [1.0, 0.0]]\n"), vec!["privacy[0].matrix", "3 x 3"]),
        ("zero-prior-lip", format!("{head}[domain]\nsize = 3\nprior = [0.5, 0.5, 0.0]\n[[privacy]]\nnotion = \"lip\"\nepsilon = 1.0\n"), vec!["domain.prior", "entry 2 is 0"]),
        ("index-range", format!("{head}[domain]\nsize = 3\n[[privacy]]\nnotion = \"block\"\nepsilon = 1.0\nblocks = [[0, 1], [7]]\n"), vec!["privacy[0].blocks[1][0]", "7"]),
        ("unknown-label", format!("{head}[domain]\nlabels = [\"yes\", \"no\"]\n[[privacy]]\nnotion = \"high-low\"\nepsilon = 1.0\nsensitive = [\"yse\"]\n"), vec!["yse", "did you mean `yes`"]),
        ("unknown-metric", format!("{head}[domain]\nline = 3\n[[privacy]]\nnotion = \"d-privacy\"\nepsilon = 1.0\nmetric = \"euclidian\"\n"), vec!["euclidian", "did you mean `euclidean`"]),
        ("unknown-loss", "[objective]\nkind = \"expected-loss\"\nloss = \"haming\"\n[domain]\nsize = 2\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n".to_string(), vec!["haming", "did you mean `hamming`"]),
        ("mi-nan", format!("{head}[domain]\nsize = 2\n[[privacy]]\nnotion = \"mutual-information\"\nepsilon = nan\n"), vec!["privacy[0].epsilon", "NaN"]),
        ("users", "[objective]\nkind = \"inversion-mse\"\nusers = -3\n[domain]\nsize = 2\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n".to_string(), vec!["objective.users", "-3"]),
        ("unknown-objective", "[objective]\nkind = \"mmse-sun\"\n[domain]\nsize = 2\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n".to_string(), vec!["mmse-sun", "did you mean `mmse-sum`"]),
        ("syntax", "[domain\nsize = 2\n".to_string(), vec!["line 1"]),
    ];
    for (tag, text, needles) in cases {
        let file = dir.write(&format!("{tag}.toml"), &text);
        let o = run(&["solve", file.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{tag}: {err}");
        assert!(!err.contains("panicked"), "{tag}: {err}");
        for n in needles {
            assert!(err.contains(n), "{tag}: missing {n:?} in {err}");
        }
    }
}

#[test]
fn unreadable_file_exits_2_and_names_the_path() {
    let o = run(&["solve", "/nonexistent/problem.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/problem.toml"));
}

#[test]
fn broken_triangle_inequality_warns_but_solves() {
    let dir = TempDir::new("triangle");
    let file = dir.write(
        "t.toml",
        "[domain]\nsize = 3\n[[privacy]]\nnotion = \"d-privacy\"\nepsilon = 1.0\nmetric = [[0.0, 1.0, 5.0], [1.0, 0.0, 1.0], [5.0, 1.0, 0.0]]\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n",
    );
    let o = run(&["solve", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning") && stderr(&o).contains("not a metric"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn infeasible_problem_exits_3_without_a_channel() {
    let dir = TempDir::new("infeasible");
    // Identifiability needs max p / min p <= e^eps: 0.9 / 0.1 = 9 > e^1.
    let file = dir.write(
        "i.toml",
        "[domain]\nsize = 2\nprior = [0.9, 0.1]\n[[privacy]]\nnotion = \"identifiability\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n",
    );
    let o = run(&["solve", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["status"], "infeasible");
    assert!(v["channel"].is_null());
}

#[test]
fn verify_reports_checks_in_json_and_exits_6_when_a_claim_fails() {
    let dir = TempDir::new("verify");
    // Thm 2 of lip-data-aggregation at P1 = 0.01, eps = 2: its mechanism is not 2-LIP.
    let failing = dir.write(
        "thm2.toml",
        "[domain]\nvalues = [0, 1]\nprior = [0.99, 0.01]\n[[privacy]]\nnotion = \"lip\"\nepsilon = 2.0\n[objective]\nkind = \"mmse-sum\"\n",
    );
    let o = run(&["verify", failing.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let checks = v["checks"].as_array().unwrap();
    let thm2 = checks
        .iter()
        .find(|c| c["name"] == "binary-lip-optimum")
        .unwrap();
    for key in [
        "name",
        "citation",
        "channel",
        "feasible",
        "leakage",
        "objective",
        "optimum",
        "gap",
        "claim_holds",
    ] {
        assert!(thm2.get(key).is_some(), "missing {key} in {thm2}");
    }
    assert_eq!(thm2["feasible"], false);
    assert_eq!(thm2["claim_holds"], false);
    assert_eq!(v["all_hold"], false);
    // Where Thm 2's mechanism is feasible, every claim holds and the exit code is 0.
    let holding = dir.write(
        "thm2-ok.toml",
        "[domain]\nvalues = [0, 1]\nprior = [0.7, 0.3]\n[[privacy]]\nnotion = \"lip\"\nepsilon = 1.0\n[objective]\nkind = \"mmse-sum\"\n",
    );
    let o = run(&["verify", holding.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("binary-lip-optimum") && stdout(&o).contains("HOLDS"));
}

#[test]
fn verify_sweep_section_reports_the_smallest_counterexample() {
    let dir = TempDir::new("sweep");
    let file = dir.write(
        "sweep.toml",
        "[domain]\nvalues = [0, 1]\n[[privacy]]\nnotion = \"lip\"\nepsilon = 1.0\n[objective]\nkind = \"mmse-sum\"\n[sweep]\nepsilons = [0.5, 2.0]\npriors = [[0.5, 0.5], [0.95, 0.05]]\n",
    );
    let o = run(&["verify", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let entry = v["sweep"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "binary-lip-optimum")
        .unwrap();
    // 0.05 < 1/(e^0.5 + 1) = 0.378: the smallest epsilon already fails at the skewed prior.
    assert_eq!(entry["counterexample"]["epsilon"], 0.5);
    assert_eq!(entry["counterexample"]["prior"][1], 0.05);
    assert_eq!(entry["points"], 4);
}

#[test]
fn verify_theorems_runs_without_a_file() {
    let o = run(&["verify", "--theorems", "--cases", "20", "--format", "json"]);
    // Exit 6: Cor. 3's converse constant and eq. (4) (delta > 0) of context-aware-lip fail.
    assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let checks = v["theorems"]["checks"].as_array().unwrap();
    assert!(checks.len() >= 15);
    let failing: Vec<&str> = checks
        .iter()
        .filter(|c| c["holds"] != true)
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(failing, ["approximate-lip-to-ldp", "per-output-form"]);
    let o = run(&["verify"]);
    assert_eq!(o.status.code(), Some(2), "a file or --theorems is required");
}

#[test]
fn bad_sweep_grids_exit_2_naming_the_entry() {
    let dir = TempDir::new("badsweep");
    let base = "[domain]\nvalues = [0, 1]\n[[privacy]]\nnotion = \"lip\"\nepsilon = 1.0\n[objective]\nkind = \"mmse-sum\"\n";
    for (tag, grid, needle) in [
        (
            "eps",
            "[sweep]\nepsilons = [0.5, -1.0]\n",
            "sweep.epsilons[1]",
        ),
        (
            "prior",
            "[sweep]\npriors = [[0.5, 0.5], [0.7, 0.7]]\n",
            "sweep.priors[1]",
        ),
        (
            "key",
            "[sweep]\nepsilon = [0.5]\n",
            "did you mean `epsilons`",
        ),
    ] {
        let file = dir.write(&format!("{tag}.toml"), &format!("{base}{grid}"));
        let o = run(&["verify", file.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{tag}: {err}");
        assert!(err.contains(needle), "{tag}: missing {needle:?} in {err}");
        assert!(!err.contains("panicked"), "{tag}: {err}");
    }
}

/// A problem file with the given `[[privacy]]` body and objective, on `domain`.
fn problem_text(domain: &str, privacy: &str, objective: &str) -> String {
    format!("[domain]\n{domain}\n[[privacy]]\n{privacy}\n[objective]\n{objective}\n")
}

fn exit_and_stderr(args: &[&str]) -> (Option<i32>, String) {
    let o = run(args);
    (o.status.code(), stderr(&o))
}

#[test]
fn input_mistakes_name_the_key_the_user_wrote() {
    let dir = TempDir::new("mistakes");
    let cases = [
        (
            "string-eps",
            problem_text("size = 2", "notion = \"ldp\"\nepsilon = \"1.0\"", "kind = \"co-location\""),
            "privacy[0].epsilon",
        ),
        (
            "bool-eps",
            problem_text("size = 2", "notion = \"ldp\"\nepsilon = true", "kind = \"co-location\""),
            "privacy[0].epsilon",
        ),
        (
            "single-table",
            "[domain]\nsize = 2\n[privacy]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"co-location\"\n".to_string(),
            "[[privacy]]",
        ),
        (
            "empty-labels",
            problem_text("labels = []", "notion = \"ldp\"\nepsilon = 1.0", "kind = \"co-location\""),
            "domain.labels",
        ),
        (
            "huge-weight",
            problem_text("values = [0, 1, 2]", "notion = \"ldp\"\nepsilon = 1.0", "kind = \"mmse-sum\"\nweight = 1e300"),
            "objective.weight",
        ),
        (
            "huge-value",
            problem_text("values = [0, 1, 1e200]", "notion = \"ldp\"\nepsilon = 1.0", "kind = \"co-location\""),
            "domain.values[2]",
        ),
    ];
    for (tag, text, needle) in cases {
        let path = dir.write(&format!("{tag}.toml"), &text);
        let (code, err) = exit_and_stderr(&["solve", path.to_str().unwrap()]);
        assert_eq!(code, Some(2), "{tag}: {err}");
        assert!(err.contains(needle), "{tag}: expected `{needle}` in: {err}");
    }
}

/// Longest error message accepted for one out-of-range number (a full decimal of 1e300 is
/// over 300 characters).
const MAX_COMPACT_MESSAGE: usize = 250;

#[test]
fn out_of_range_numbers_are_printed_compactly_with_their_key() {
    let dir = TempDir::new("compact");
    let cases = [
        (
            "weight",
            problem_text(
                "values = [0, 1, 2]",
                "notion = \"ldp\"\nepsilon = 1.0",
                "kind = \"mmse-sum\"\nweight = 1e300",
            ),
            "objective.weight",
            "1e300",
        ),
        (
            "value",
            problem_text(
                "values = [0, 1, -1e250]",
                "notion = \"ldp\"\nepsilon = 1.0",
                "kind = \"co-location\"",
            ),
            "domain.values[2]",
            "-1e250",
        ),
        (
            "epsilon",
            problem_text(
                "size = 2",
                "notion = \"ldp\"\nepsilon = 1e300",
                "kind = \"co-location\"",
            ),
            "privacy[0].epsilon",
            "1e300",
        ),
    ];
    for (tag, text, key, shown) in cases {
        let path = dir.write(&format!("{tag}.toml"), &text);
        let (code, err) = exit_and_stderr(&["solve", path.to_str().unwrap()]);
        assert_eq!(code, Some(2), "{tag}: {err}");
        assert!(err.contains(key), "{tag}: expected `{key}` in: {err}");
        assert!(err.contains(shown), "{tag}: expected `{shown}` in: {err}");
        assert!(!err.contains("00000000"), "{tag}: a long decimal in: {err}");
        let line = err.lines().find(|l| l.contains(key)).unwrap_or("");
        assert!(
            line.len() <= MAX_COMPACT_MESSAGE,
            "{tag}: {} characters: {line}",
            line.len()
        );
    }
}

#[test]
fn output_path_that_is_a_directory_is_refused() {
    let dir = TempDir::new("outdir");
    let (code, err) = exit_and_stderr(&[
        "solve",
        problem("ldp-hamming-5.toml").to_str().unwrap(),
        "-o",
        dir.0.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("directory"), "{err}");
}

#[test]
fn a_prior_written_with_few_digits_is_renormalized_with_a_warning() {
    let dir = TempDir::new("prior");
    let path = dir.write(
        "p.toml",
        &problem_text(
            "size = 3\nprior = [0.3333333, 0.3333333, 0.3333333]",
            "notion = \"ldp\"\nepsilon = 1.0",
            "kind = \"expected-loss\"\nloss = \"hamming\"",
        ),
    );
    let (code, err) = exit_and_stderr(&["solve", path.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("divided by its sum"), "{err}");
}

fn solve_json(path: &Path) -> serde_json::Value {
    let o = run(&["solve", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn zero_epsilon_certifies_the_constant_channel_for_every_notion_that_allows_it() {
    let dir = TempDir::new("eps0");
    let notions = [
        "notion = \"ldp\"",
        "notion = \"lip\"",
        "notion = \"bp-lip\"\npriors = [[0.3, 0.7], [0.5, 0.5]]",
        "notion = \"max-leakage\"",
        "notion = \"mutual-information\"",
    ];
    for (i, notion) in notions.iter().enumerate() {
        let path = dir.write(
            &format!("z{i}.toml"),
            &problem_text(
                "size = 2\nprior = [0.3, 0.7]",
                &format!("{notion}\nepsilon = 0"),
                "kind = \"expected-loss\"\nloss = \"hamming\"",
            ),
        );
        let r = solve_json(&path);
        assert_eq!(r["status"], "optimal", "{notion}: {r}");
        // Any constant channel loses min(p) = 0.3 at best: report X = 1 always.
        let v = r["objective"].as_f64().unwrap();
        assert!((v - 0.3).abs() < 1e-9, "{notion}: {v}");
        let rows = r["channel"].as_array().unwrap();
        assert_eq!(rows[0], rows[1], "{notion}: rows must be exactly equal");
    }
}

#[test]
fn block_with_zero_epsilon_keeps_the_free_block_optimal() {
    // Rows 0 and 1 must be equal; row 2 is free: the co-location optimum is 1 + 1 = 2.
    let dir = TempDir::new("block0");
    let path = dir.write(
        "b.toml",
        &problem_text(
            "size = 3",
            "notion = \"block\"\nepsilon = 0\nblocks = [[0, 1], [2]]",
            "kind = \"co-location\"",
        ),
    );
    let r = solve_json(&path);
    assert_eq!(r["status"], "optimal");
    assert!((r["objective"].as_f64().unwrap() - 2.0).abs() < 1e-9, "{r}");
    assert!(r["bound"].as_f64().unwrap() >= r["objective"].as_f64().unwrap() - 1e-12);
}

#[test]
fn csv_output_is_the_json_channel_at_full_precision() {
    let p = problem("dprivacy-line-8.toml");
    let json = solve_json(&p);
    let o = run(&["solve", p.to_str().unwrap(), "--format", "csv"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("input,"));
    let rows = json["channel"].as_array().unwrap();
    for (line, row) in lines.zip(rows) {
        let values: Vec<f64> = line
            .split(',')
            .skip(1)
            .map(|v| v.parse().unwrap())
            .collect();
        let expected: Vec<f64> = row
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(values, expected);
    }
}

#[test]
fn audit_separates_rounding_from_violation() {
    // k-RR at eps = 1 written to 17 digits meets eps only up to rounding of its entries;
    // the same channel against eps = 0.9 is violated.
    let dir = TempDir::new("audit-verdicts");
    let e = 1f64.exp();
    let (p, q) = (e / (e + 2.0), 1.0 / (e + 2.0));
    let rows = format!("[[{p:?}, {q:?}, {q:?}], [{q:?}, {p:?}, {q:?}], [{q:?}, {q:?}, {p:?}]]");
    for (eps, expected_code) in [(1.0, 0), (0.9, 5)] {
        let path = dir.write(
            &format!("a{eps}.toml"),
            &format!(
                "[channel]\nrows = {rows}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = {eps:?}\n"
            ),
        );
        let o = run(&["audit", path.to_str().unwrap()]);
        assert_eq!(
            o.status.code(),
            Some(expected_code),
            "eps {eps}: {}",
            stdout(&o)
        );
    }
}

/// A missing file names the reason once (it was printed twice through the error chain), and a
/// continuous-mechanism file given to `solve` points to `mechsynth continuous`.
#[test]
fn missing_files_and_continuous_files_get_one_clear_message() {
    let out = run(&["solve", "no-such-problem.toml"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no-such-problem.toml"), "{err}");
    assert_eq!(err.matches("(os error 2)").count(), 1, "{err}");
    let continuous = problem("continuous-gaussian-lip.toml");
    let out = run(&["solve", continuous.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("mechsynth continuous"), "{err}");
}

/// One backend call reports nothing until it returns: the heartbeat repeats the current phase
/// on stderr every couple of seconds meanwhile (one LP on a 7 x 7 Euclidean grid, cut at 3 s).
#[test]
fn a_long_silent_solve_shows_a_heartbeat_on_stderr() {
    let n = 49;
    let weights: Vec<f64> = (0..n).map(|i| (1 + (i * 7) % 11) as f64).collect();
    let total: f64 = weights.iter().sum();
    let prior: Vec<String> = weights.iter().map(|w| format!("{:?}", w / total)).collect();
    let text = format!(
        "[domain]\ngrid = {{ rows = 7, cols = 7 }}\nprior = [{}]\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.5\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n",
        prior.join(", ")
    );
    let path = std::env::temp_dir().join(format!("heartbeat-{}.toml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let out = run(&[
        "solve",
        path.to_str().unwrap(),
        "--method",
        "lp",
        "--time-limit",
        "3",
    ]);
    let err = stderr(&out);
    assert!(err.contains("(still running)"), "{err}");
    std::fs::remove_file(&path).ok();
}

/// `verify --theorems --cases 0` checked nothing and reported every theorem as holding.
#[test]
fn verify_theorems_with_no_cases_is_bad_input() {
    let out = run(&["verify", "--theorems", "--cases", "0"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("`--cases`"), "{err}");
}

/// `--cases` and `--seed` only apply to `--theorems`; with a problem file alone they were
/// ignored.
#[test]
fn verify_cases_and_seed_need_theorems() {
    for flag in ["--cases", "--seed"] {
        let out = run(&["verify", "problems/ldp-hamming-5.toml", flag, "5"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{flag}: {err}");
        assert!(err.contains("--theorems"), "{flag}: {err}");
    }
}
