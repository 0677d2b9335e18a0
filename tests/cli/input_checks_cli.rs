//! The built `mechsynth` binary refuses problem and channel files whose keys it would otherwise
//! read wrongly or drop: repeated domain values, distance-based losses and metrics on a `labels`
//! domain, keys that an objective kind or a loss table ignores, unknown keys of every notion.
//! Each refusal exits 2 and names the key and the value; so does a negative value of a numeric flag.

use crate::bin::{command, run, stderr};
use mechsynth::objective::OBJECTIVE_NAMES;
use mechsynth::privacy::NOTION_NAMES;
use std::path::PathBuf;
use std::process::Output;

/// A fresh folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mechsynth-inputs-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Write `text` as `dir/name` and solve it.
fn solve_text(dir: &std::path::Path, name: &str, text: &str) -> Output {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    run(&["solve", path.to_str().unwrap(), "--format", "json"])
}

/// The run exited 2 and its error contains every one of `needles`.
fn assert_refused(o: &Output, needles: &[&str]) {
    let text = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{text}");
    for needle in needles {
        assert!(text.contains(needle), "expected {needle:?} in: {text}");
    }
    assert!(!text.contains("panicked"), "{text}");
}

fn assert_solved(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
}

/// A problem with the given `[domain]` body, one eps = 1 LDP constraint and `objective` lines.
fn problem(domain: &str, objective: &str) -> String {
    format!("[domain]\n{domain}\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\n{objective}\n")
}

#[test]
fn repeated_domain_values_and_labels_are_refused() {
    let dir = scratch("repeated");
    let hamming = "kind = \"expected-loss\"\nloss = \"hamming\"";
    let o = solve_text(&dir, "v.toml", &problem("values = [1, 2, 2, 3]", hamming));
    assert_refused(&o, &["`domain.values[2]` = 2", "twice"]);
    // 2 and 2.0 are one number (one label "2").
    let o = solve_text(&dir, "w.toml", &problem("values = [2.0, 1, 2]", hamming));
    assert_refused(&o, &["`domain.values[2]` = 2", "twice"]);
    let o = solve_text(
        &dir,
        "l.toml",
        &problem("labels = [\"a\", \"b\", \"a\"]", hamming),
    );
    assert_refused(&o, &["`domain.labels` = \"a\"", "twice"]);
    std::fs::write(dir.join("pts.csv"), "name,x,y\na,0,0\nb,1,0\na,0,1\n").unwrap();
    let points = "points = { file = \"pts.csv\", x = \"x\", y = \"y\", label = \"name\" }";
    let o = solve_text(&dir, "p.toml", &problem(points, hamming));
    assert_refused(&o, &["`domain.points.label` = \"a\"", "lines 2 and 4"]);
    // Distinct values still solve.
    assert_solved(&solve_text(
        &dir,
        "ok.toml",
        &problem("values = [1, 2, 3]", hamming),
    ));
}

#[test]
fn labels_domain_refuses_what_needs_distances_and_keeps_the_rest() {
    let dir = scratch("labels");
    let labels = "labels = [\"a\", \"b\", \"c\"]";
    for (loss, shown) in [
        ("\"absolute\"", "\"absolute\""),
        ("\"squared\"", "\"squared\""),
        ("{ range = 1 }", "{ range = 1 }"),
    ] {
        let objective = format!("kind = \"expected-loss\"\nloss = {loss}");
        let o = solve_text(&dir, "l.toml", &problem(labels, &objective));
        assert_refused(
            &o,
            &[
                &format!("`objective.loss` = {shown}"),
                "`labels`",
                "`values`",
            ],
        );
        // The same loss on a domain with distances solves.
        let o = solve_text(&dir, "v.toml", &problem("values = [0, 1, 2]", &objective));
        assert_solved(&o);
    }
    let o = solve_text(&dir, "m.toml", &problem(labels, "kind = \"mmse-sum\""));
    assert_refused(&o, &["`objective.kind` = \"mmse-sum\"", "`labels`"]);
    let metric = format!(
        "[domain]\n{labels}\n[[privacy]]\nnotion = \"d-privacy\"\nepsilon = 1.0\nmetric = \"line\"\n[objective]\nkind = \"co-location\"\n"
    );
    let o = solve_text(&dir, "d.toml", &metric);
    assert_refused(&o, &["`privacy[0].metric` = \"line\"", "`labels`"]);
    for objective in [
        "kind = \"expected-loss\"\nloss = \"hamming\"",
        "kind = \"expected-loss\"\nloss = { matrix = [[0, 1, 2], [1, 0, 1], [2, 1, 0]] }",
        "kind = \"mmse-histogram\"",
        "kind = \"frequency-mse\"",
    ] {
        assert_solved(&solve_text(&dir, "ok.toml", &problem(labels, objective)));
    }
    // Index distances stay available where the symbols are numbers (`size = n`).
    let o = solve_text(
        &dir,
        "s.toml",
        &problem("size = 3", "kind = \"expected-loss\"\nloss = \"absolute\""),
    );
    assert_solved(&o);
}

/// The keys an objective kind needs besides `kind`, for a 3-symbol domain.
fn required_keys(kind: &str) -> &'static str {
    match kind {
        "expected-loss" => "loss = \"hamming\"\n",
        _ => "",
    }
}

#[test]
fn a_key_that_an_objective_kind_ignores_is_refused() {
    let dir = scratch("objective-keys");
    let o = solve_text(
        &dir,
        "c.toml",
        &problem("size = 3", "kind = \"co-location\"\nloss = \"absolute\""),
    );
    assert_refused(&o, &["`objective.loss` = \"absolute\"", "co-location"]);
    for kind in OBJECTIVE_NAMES {
        let objective = format!("kind = \"{kind}\"\n{}", required_keys(kind));
        assert_solved(&solve_text(
            &dir,
            "ok.toml",
            &problem("size = 3", &objective),
        ));
        let o = solve_text(
            &dir,
            "bad.toml",
            &problem("size = 3", &format!("{objective}bogus_key = 1\n")),
        );
        assert_refused(&o, &["bogus_key"]);
    }
    let both = "kind = \"expected-loss\"\nloss = { matrix = [[0, 1, 1], [1, 0, 1], [1, 1, 0]], range = 1 }";
    let o = solve_text(&dir, "both.toml", &problem("size = 3", both));
    assert_refused(&o, &["`objective.loss`", "`matrix` or `range`"]);
    let typo = "kind = \"expected-loss\"\nloss = { rang = 1 }";
    let o = solve_text(&dir, "typo.toml", &problem("size = 3", typo));
    assert_refused(&o, &["`objective.loss.rang` = 1", "did you mean `range`"]);
}

#[test]
fn an_unknown_key_of_any_notion_is_refused() {
    let dir = scratch("notion-keys");
    for notion in NOTION_NAMES {
        let text = format!(
            "[domain]\nsize = 3\n[[privacy]]\nnotion = \"{notion}\"\nbogus_key = 1\n[objective]\nkind = \"co-location\"\n"
        );
        let o = solve_text(&dir, "n.toml", &text);
        assert_refused(&o, &["unknown field `bogus_key`"]);
    }
}

/// Outside TOML problem files (a solve report read back as JSON), a loss table with a key its
/// variant does not use is refused by the loss type itself.
#[test]
fn a_loss_table_with_a_stray_key_does_not_deserialize() {
    use mechsynth::objective::LossSpec;
    for text in [
        r#"{"range": 1.0, "foo": 2}"#,
        r#"{"matrix": [[0.0]], "range": 1.0}"#,
    ] {
        assert!(serde_json::from_str::<LossSpec>(text).is_err(), "{text}");
    }
    let range: LossSpec = serde_json::from_str(r#"{"range": 1.0}"#).unwrap();
    assert_eq!(range, LossSpec::Range { range: 1.0 });
}

/// An MMSE of `0 * f(X)` is 0 for every channel: it was solved as "maximize" (the sign of a
/// zero weight) and is now refused; a negative weight is an MSE like any other.
#[test]
fn mmse_sum_with_weight_zero_is_refused() {
    let dir = scratch("weight");
    let o = solve_text(
        &dir,
        "z.toml",
        &problem("size = 3", "kind = \"mmse-sum\"\nweight = 0"),
    );
    assert_refused(&o, &["`objective.weight` = 0"]);
    let o = solve_text(
        &dir,
        "n.toml",
        &problem("size = 3", "kind = \"mmse-sum\"\nweight = -2"),
    );
    assert_solved(&o);
    assert!(String::from_utf8_lossy(&o.stdout).contains("\"goal\": \"minimize\""));
}

/// A negative number given to a numeric flag reaches the flag's own check, which names the
/// flag and the value (clap alone called `-1` an unexpected argument), for every subcommand.
#[test]
fn negative_flag_values_get_the_flags_own_message() {
    let problem = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/ldp-hamming-5.toml");
    for (args, needle) in [
        (
            vec!["solve", problem, "--time-limit", "-1"],
            "`--time-limit` = -1",
        ),
        (vec!["solve", problem, "--gap", "-1"], "`--gap` = -1"),
        (
            vec!["verify", problem, "--time-limit", "-5"],
            "`--time-limit` = -5",
        ),
    ] {
        let o = command().args(&args).output().unwrap();
        assert_refused(&o, &[needle]);
    }
}
