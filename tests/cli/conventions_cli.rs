//! Command-line conventions, through the built binary: `-` for standard input and output,
//! `--quiet`, `--threads`, `--prior` on the collection subcommands, tables cut to the
//! terminal's width.

use crate::bin::{command, root, run, run_in, run_with_stdin, stderr, stdout, TempDir};
use std::process::Output;

/// A problem file, a channel file and a two-symbol channel every test can read.
const PROBLEM: &str = "problems/ldp-hamming-5.toml";
const CHANNEL: &str = "examples/krr4.toml";

fn text_of(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

fn ok(o: &Output, what: &str) {
    assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(o));
}

fn refused(o: &Output, what: &str, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert!(err.contains(needle), "{what}: expected {needle:?} in {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

/// Every file argument that reads a whole file gives the same stdout when the file comes on
/// standard input as `-`.
#[test]
fn a_dash_reads_standard_input_wherever_a_file_is_read() {
    // (arguments with `@` where the file goes, the file)
    #[rustfmt::skip]
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "@", "--format", "csv"], PROBLEM),
        (&["audit", "@", "--format", "csv"], CHANNEL),
        (&["compose", "@", "--releases", "2", "--format", "csv"], CHANNEL),
        (&["transfer", "@", "--prior", "0.4,0.6", "--samples", "100", "--format", "csv"], "examples/channel.toml"),
        (&["continuous", "@", "--format", "csv"], "problems/continuous-gaussian-lip.toml"),
        (&["plan", "--channel", "@", "--rmse", "0.05", "--format", "csv"], CHANNEL),
        (&["plan", "--domain", "@", "--epsilon", "1", "--rmse", "0.05", "--format", "csv"], CHANNEL),
        (&["simulate", "--channel", "@", "--users", "100", "--trials", "3", "--seed", "1", "--format", "csv"], CHANNEL),
        (&["estimate", "--channel", "@", "REPORTS", "--format", "csv"], CHANNEL),
        (&["estimate", "--baseline", "k-rr", "--epsilon", "1", "--domain", "@", "REPORTS", "--format", "csv"], CHANNEL),
    ];
    let dir = TempDir::new("dash-input");
    let reports = dir.0.join("reports.txt");
    std::fs::write(&reports, "0\n1\n1\n3\n2\n1\n").unwrap();
    let reports = reports.to_str().unwrap();
    for (args, file) in cases {
        let args: Vec<&str> = args
            .iter()
            .map(|a| if *a == "REPORTS" { reports } else { a })
            .collect();
        let with_file: Vec<&str> = args
            .iter()
            .map(|a| if *a == "@" { *file } else { a })
            .collect();
        let with_dash: Vec<&str> = args
            .iter()
            .map(|a| if *a == "@" { "-" } else { a })
            .collect();
        let a = run(&with_file);
        let b = run_with_stdin(&with_dash, &text_of(file));
        let what = with_dash.join(" ");
        assert_eq!(a.status.code(), b.status.code(), "{what}: {}", stderr(&b));
        assert!(!stdout(&a).is_empty(), "{what}: {}", stderr(&a));
        // A report may name its source: the file, or `-`.
        assert_eq!(
            stdout(&a).replace(*file, "-"),
            stdout(&b),
            "{what}: {}",
            stderr(&b)
        );
    }
}

#[test]
fn standard_input_is_read_by_one_argument_only() {
    #[rustfmt::skip]
    let cases: &[(&[&str], &str)] = &[
        (&["privatize", "--channel", "-", "-"], "`INPUT` = -: `--channel` = - reads standard input already"),
        (&["estimate", "--channel", "-", "--counts", "-"], "`--counts` = -: `--channel` = -"),
        (&["simulate", "--channel", "-", "--priors", "-"], "`--priors` = -: `--channel` = -"),
        (&["plan", "--channel", "-", "--domain", "-", "--rmse", "0.1"], ""),
        (&["compose", "-", "-"], "`CHANNEL` = -: `CHANNEL` = - reads standard input already"),
    ];
    for (args, needle) in cases {
        let o = run_with_stdin(args, &text_of(CHANNEL));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_dash_output_is_standard_output_when_the_report_goes_elsewhere() {
    let dir = TempDir::new("dash-output");
    let report = dir.0.join("report.json");
    let report = report.to_str().unwrap();
    let problem = root().join(PROBLEM);
    let problem = problem.to_str().unwrap();

    // `-o -` is where the report goes anyway.
    let plain = run(&["solve", PROBLEM, "--format", "csv"]);
    let dashed = run(&["solve", PROBLEM, "--format", "csv", "-o", "-"]);
    ok(&dashed, "solve -o -");
    assert_eq!(stdout(&plain), stdout(&dashed));
    assert!(!root().join("-").exists(), "a file named - was written");

    // The heatmap on stdout, the report in a file.
    let o = run_in(&dir.0, &["solve", problem, "--svg", "-", "-o", report]);
    ok(&o, "solve --svg - -o FILE");
    assert!(stdout(&o).starts_with("<svg"), "{}", stdout(&o));
    assert!(std::fs::read_to_string(report).unwrap().contains("optimal"));
    assert!(!dir.0.join("-").exists());

    // Two documents cannot share stdout.
    let o = run_in(&dir.0, &["solve", problem, "--svg", "-"]);
    refused(
        &o,
        "solve --svg -",
        "invalid `--svg` = -: standard output carries the report",
    );
    let o = run_in(&dir.0, &["solve", problem, "--svg", "-", "-o", "-"]);
    refused(
        &o,
        "solve --svg - -o -",
        "`-o` = - writes standard output already",
    );
    let o = run_in(
        &dir.0,
        &[
            "audit",
            &root().join(CHANNEL).to_string_lossy(),
            "--svg",
            "-",
        ],
    );
    refused(&o, "audit --svg -", "invalid `--svg` = -");
}

#[test]
fn folders_refuse_a_dash_and_say_why() {
    for (args, needle) in [
        (
            &["figures", "-"][..],
            "invalid `DIR` = -: it names a folder",
        ),
        (
            &["figures", "figures", "--out", "-"][..],
            "invalid `--out` = -",
        ),
        (&["man", "--out", "-"][..], "invalid `--out` = -"),
        (
            &["curve", PROBLEM, "-o", "-", "--resume"][..],
            "invalid `-o` = -: --resume continues the CSV in a file",
        ),
    ] {
        refused(&run(args), &args.join(" "), needle);
    }
}

#[test]
fn quiet_silences_warnings_and_notes_but_not_errors() {
    // --seed prints a warning; --epsilon that overrides the file's prints a note.
    let loud = run_with_stdin(
        &[
            "privatize",
            "--baseline",
            "k-rr",
            "--epsilon",
            "1",
            "--size",
            "3",
            "--seed",
            "7",
        ],
        "0\n1\n2\n",
    );
    ok(&loud, "privatize --seed");
    assert!(stderr(&loud).contains("warning"), "{}", stderr(&loud));
    for quiet in ["--quiet", "-q"] {
        let o = run_with_stdin(
            &[
                quiet,
                "privatize",
                "--baseline",
                "k-rr",
                "--epsilon",
                "1",
                "--size",
                "3",
                "--seed",
                "7",
            ],
            "0\n1\n2\n",
        );
        ok(&o, quiet);
        assert_eq!(stderr(&o), "", "{quiet}");
        assert_eq!(stdout(&o), stdout(&loud), "{quiet} changes no result");
    }
    let o = run(&["solve", PROBLEM, "--epsilon", "0.5", "--quiet"]);
    ok(&o, "solve --epsilon --quiet");
    assert_eq!(stderr(&o), "");
    let o = run(&["solve", "no-such-file.toml", "-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("error: "),
        "errors stay: {}",
        stderr(&o)
    );
}

#[test]
fn threads_change_no_result() {
    let args = [
        "curve",
        "problems/lip-binary-survey.toml",
        "--epsilons",
        "0.5,1,2,3",
    ];
    let one = run(&[&["--threads", "1"][..], &args[..]].concat());
    let two = run(&[&args[..], &["--threads", "2"][..]].concat());
    ok(&one, "--threads 1");
    ok(&two, "--threads 2");
    let strip = |o: &Output| -> String {
        // The last column holds each point's time.
        stdout(o)
            .lines()
            .map(|l| l.rsplit_once(',').map_or(l, |(head, _)| head).to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&one), strip(&two));
}

#[test]
fn prior_on_the_collection_subcommands_is_the_domain_files_prior() {
    let dir = TempDir::new("prior-flag");
    let domain = dir.0.join("domain.toml");
    std::fs::write(&domain, "[domain]\nsize = 3\nprior = [0.6, 0.3, 0.1]\n").unwrap();
    let domain = domain.to_str().unwrap();
    #[rustfmt::skip]
    let pairs: &[(&[&str], &[&str])] = &[
        (&["plan", "--size", "3", "--prior", "0.6,0.3,0.1", "--target", "mean", "--epsilon", "1", "--rmse", "0.05", "--format", "csv"],
         &["plan", "--domain", domain, "--target", "mean", "--epsilon", "1", "--rmse", "0.05", "--format", "csv"]),
        (&["simulate", "--baseline", "k-rr", "--epsilon", "1", "--size", "3", "--prior", "0.6,0.3,0.1", "--users", "500", "--trials", "4", "--seed", "3", "--format", "csv"],
         &["simulate", "--baseline", "k-rr", "--epsilon", "1", "--domain", domain, "--users", "500", "--trials", "4", "--seed", "3", "--format", "csv"]),
    ];
    for (flag, file) in pairs {
        let a = run(flag);
        let b = run(file);
        ok(&a, &flag.join(" "));
        ok(&b, &file.join(" "));
        assert_eq!(stdout(&a), stdout(&b), "{}", flag.join(" "));
    }
    // The prior changes the result where it matters (the mean of a skewed prior).
    let uniform = run(&[
        "plan",
        "--size",
        "3",
        "--target",
        "mean",
        "--epsilon",
        "1",
        "--rmse",
        "0.05",
    ]);
    assert_ne!(stdout(&uniform), stdout(&run(pairs[0].0)));
    // privatize takes it too (over a channel file, whose prior it replaces).
    let o = run_with_stdin(
        &[
            "privatize",
            "--channel",
            CHANNEL,
            "--prior",
            "0.25,0.25,0.25,0.25",
            "--seed",
            "1",
            "-q",
        ],
        "0\n1\n",
    );
    ok(&o, "privatize --prior");
    assert_eq!(stdout(&o).lines().count(), 2);
}

#[test]
fn prior_is_checked_as_a_problem_files_prior() {
    #[rustfmt::skip]
    let cases: &[(&str, &str)] = &[
        ("0.5,0.5", "has 2 entries but the domain has 3 symbols"),
        ("0.5,0.6,-0.1", "invalid `--prior[2]` = -0.1"),
        ("0.2,0.2,0.2", "invalid `--prior` = [0.2, 0.2, 0.2]"),
        ("a,b,c", "must be comma-separated probabilities"),
    ];
    for (prior, needle) in cases {
        for sub in [
            &["plan", "--size", "3", "--epsilon", "1", "--rmse", "0.1"][..],
            &[
                "simulate",
                "--baseline",
                "k-rr",
                "--epsilon",
                "1",
                "--size",
                "3",
                "--users",
                "9",
            ][..],
            &[
                "privatize",
                "--baseline",
                "k-rr",
                "--epsilon",
                "1",
                "--size",
                "3",
            ][..],
        ] {
            let args = [sub, &["--prior", prior][..]].concat();
            refused(&run(&args), &args.join(" "), needle);
        }
    }
}

#[test]
fn wide_tables_are_cut_to_the_terminal_with_a_note() {
    let wide = "problems/dprivacy-line-8.toml";
    let o = command()
        .current_dir(root())
        .args(["solve", wide])
        .env("COLUMNS", "50")
        .output()
        .unwrap();
    ok(&o, "COLUMNS=50 solve");
    let text = stdout(&o);
    let (table, note) = text.trim_end().rsplit_once('\n').unwrap();
    assert!(
        table.lines().all(|l| l.chars().count() <= 50),
        "a line wider than 50: {text}"
    );
    assert!(note.starts_with('('), "the note is the last line: {text}");
    assert!(
        note.contains("cut at 50 columns; the whole table: --format csv"),
        "{text}"
    );
    // Without a terminal (a pipe, no COLUMNS) nothing is cut.
    let whole = run(&["solve", wide]);
    assert!(whole.stdout.len() > o.stdout.len());
    assert!(!stdout(&whole).contains("cut at"));
    assert!(stdout(&whole).lines().any(|l| l.chars().count() > 50));
}
