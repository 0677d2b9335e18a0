//! No run of `mechsynth` loses a file the user gave: an output is never one of the run's
//! inputs (compared as files: a hard link is the same file), never the same file as another
//! output of the run, and replaces an existing file only with `--force`. Refusals exit 2 and
//! name the flag the user passed. A `--domain` file's points CSV is found next to it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mechsynth-safety-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Copy `problems/NAME` into `dir` as `to`.
fn copy_problem(name: &str, dir: &Path, to: &str) -> PathBuf {
    let path = dir.join(to);
    std::fs::copy(root().join("problems").join(name), &path).unwrap();
    path
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mechsynth"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The run exited 2 with an error naming `flag` (as "invalid `FLAG` = ...").
fn assert_refused(o: &Output, flag: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
    let named = format!("invalid `{flag}` = ");
    assert!(
        stderr(o).contains(&named),
        "expected {named}: {}",
        stderr(o)
    );
}

/// A channel file for compose, transfer and privatize: 2-RR at eps = ln 3 on a binary domain.
fn write_channel(dir: &Path) -> PathBuf {
    let path = dir.join("ch.toml");
    std::fs::write(&path, "[channel]\nrows = [[0.75, 0.25], [0.25, 0.75]]\n").unwrap();
    path
}

/// Item 1: the sweep's --csv and --svg of continuous, compose and transfer.
#[test]
fn sweep_outputs_never_replace_inputs_and_need_force() {
    let dir = scratch("sweep");
    let problem = copy_problem("continuous-gaussian-lip.toml", &dir, "cg.toml");
    let before = std::fs::read(&problem).unwrap();
    for flag in ["--csv", "--svg"] {
        for force in [false, true] {
            let mut args = vec!["continuous", "cg.toml", "--sweep", "epsilon=1,2", flag];
            args.push("cg.toml");
            if force {
                args.push("--force");
            }
            let o = run_in(&dir, &args);
            assert_refused(&o, flag);
            assert!(stderr(&o).contains("input file"), "{}", stderr(&o));
            assert_eq!(std::fs::read(&problem).unwrap(), before);
        }
    }
    write_channel(&dir);
    let channel_bytes = std::fs::read(dir.join("ch.toml")).unwrap();
    let compose = ["compose", "ch.toml", "--sweep", "releases=1,2"];
    let transfer = [
        "transfer",
        "ch.toml",
        "--prior",
        "0.5,0.5",
        "--sweep",
        "samples=10,100",
    ];
    for base in [&compose[..], &transfer[..]] {
        for flag in ["--csv", "--svg"] {
            let o = run_in(&dir, &[base, &[flag, "ch.toml", "--force"]].concat());
            assert_refused(&o, flag);
            assert_eq!(std::fs::read(dir.join("ch.toml")).unwrap(), channel_bytes);
        }
        // An ordinary existing file: refused without --force, replaced with it.
        std::fs::write(dir.join("old.csv"), "keep me\n").unwrap();
        let o = run_in(&dir, &[base, &["--csv", "old.csv"]].concat());
        assert_refused(&o, "--csv");
        assert_eq!(
            std::fs::read_to_string(dir.join("old.csv")).unwrap(),
            "keep me\n"
        );
        let o = run_in(&dir, &[base, &["--csv", "old.csv", "--force"]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(dir.join("old.csv")).unwrap();
        assert!(text.starts_with("series,"), "{text}");
    }
}

/// Item 2: `transfer --emit-problem` takes --force; --svg errors name --svg.
#[test]
fn emit_problem_and_svg_errors_name_their_flag() {
    let dir = scratch("emit");
    write_channel(&dir);
    std::fs::write(dir.join("emit.toml"), "old\n").unwrap();
    let args = [
        "transfer",
        "ch.toml",
        "--prior",
        "0.5,0.5",
        "--samples",
        "1000",
        "--design-epsilon",
        "1",
        "--emit-problem",
        "emit.toml",
    ];
    let o = run_in(&dir, &args);
    assert_refused(&o, "--emit-problem");
    assert_eq!(
        std::fs::read_to_string(dir.join("emit.toml")).unwrap(),
        "old\n"
    );
    let o = run_in(&dir, &[&args[..], &["--force"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let written = std::fs::read_to_string(dir.join("emit.toml")).unwrap();
    assert!(written.contains("bp-lip"), "{written}");
    let o = run_in(
        &dir,
        &[&args[..8], &["--emit-problem", "ch.toml", "--force"]].concat(),
    );
    assert_refused(&o, "--emit-problem");

    copy_problem("block-6.toml", &dir, "p.toml");
    std::fs::write(dir.join("old.svg"), "old\n").unwrap();
    for cmd in [
        vec!["solve", "p.toml", "--svg", "old.svg"],
        vec!["audit", "ch.toml", "--svg", "old.svg"],
        vec!["curve", "p.toml", "--epsilons", "1", "--svg", "old.svg"],
    ] {
        let o = run_in(&dir, &cmd);
        assert_refused(&o, "--svg");
        assert!(!stderr(&o).contains("`-o`"), "{}", stderr(&o));
        assert_eq!(
            std::fs::read_to_string(dir.join("old.svg")).unwrap(),
            "old\n"
        );
    }
}

/// Item 3: two outputs of one run on one file.
#[test]
fn two_outputs_on_one_file_are_refused() {
    let dir = scratch("twice");
    copy_problem("block-6.toml", &dir, "p.toml");
    for existing in [false, true] {
        if existing {
            std::fs::write(dir.join("o1.txt"), "old\n").unwrap();
        }
        let o = run_in(
            &dir,
            &[
                "solve", "p.toml", "-o", "o1.txt", "--svg", "o1.txt", "--force",
            ],
        );
        assert_refused(&o, "--svg");
        assert!(stderr(&o).contains("`-o`"), "{}", stderr(&o));
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("o1.txt")).unwrap(),
        "old\n"
    );
    let o = run_in(
        &dir,
        &[
            "continuous",
            "--prior",
            "normal(0,1)",
            "--epsilon",
            "1",
            "--delta",
            "0.01",
        ]
        .iter()
        .chain(&["--sweep", "epsilon=1,2", "--csv", "same", "--svg", "./same"])
        .copied()
        .collect::<Vec<_>>(),
    );
    assert_refused(&o, "--svg");
    assert!(!dir.join("same").exists());
}

/// Item 4: a hard link to the problem file is the problem file.
#[cfg(unix)]
#[test]
fn hard_link_to_the_input_is_the_input() {
    let dir = scratch("hardlink");
    let problem = copy_problem("block-6.toml", &dir, "p.toml");
    let before = std::fs::read(&problem).unwrap();
    std::fs::hard_link(&problem, dir.join("hard.toml")).unwrap();
    let o = run_in(&dir, &["solve", "p.toml", "-o", "hard.toml", "--force"]);
    assert_refused(&o, "-o");
    assert!(stderr(&o).contains("input file"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&problem).unwrap(), before);
}

/// Item 5: files the run reads besides the one named on the command line.
#[test]
fn files_read_through_the_inputs_are_inputs() {
    let dir = scratch("points");
    std::fs::create_dir_all(dir.join("pc")).unwrap();
    std::fs::write(dir.join("pc/pts.csv"), "name,x,y\na,0,0\nb,1,0\nc,0,1\n").unwrap();
    std::fs::write(
        dir.join("pc/p.toml"),
        "[domain]\npoints = { file = \"pts.csv\", x = \"x\", y = \"y\", label = \"name\" }\n\
         [[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n",
    )
    .unwrap();
    let points = std::fs::read(dir.join("pc/pts.csv")).unwrap();
    let ok = run_in(&dir, &["solve", "pc/p.toml"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    for cmd in [
        vec!["solve", "pc/p.toml", "-o", "pc/pts.csv", "--force"],
        vec!["solve", "pc/p.toml", "--svg", "pc/pts.csv", "--force"],
        vec![
            "curve",
            "pc/p.toml",
            "--epsilons",
            "1",
            "-o",
            "pc/pts.csv",
            "--force",
        ],
    ] {
        let o = run_in(&dir, &cmd);
        assert_refused(&o, cmd[cmd.len() - 3]);
        assert_eq!(std::fs::read(dir.join("pc/pts.csv")).unwrap(), points);
    }
    // privatize: the channel file, the --domain file's points CSV and the records.
    let channel = write_channel(&dir);
    let channel_bytes = std::fs::read(&channel).unwrap();
    std::fs::write(dir.join("records.txt"), "0\n1\n1\n").unwrap();
    let records = std::fs::read(dir.join("records.txt")).unwrap();
    let cases: [(&[&str], &str, &[u8]); 3] = [
        (&["--channel", "ch.toml"], "ch.toml", &channel_bytes),
        (&["--channel", "ch.toml"], "records.txt", &records),
        (
            &["--oracle", "oue", "--epsilon", "1", "--domain", "pc/p.toml"],
            "pc/pts.csv",
            &points,
        ),
    ];
    for (mechanism, target, bytes) in cases {
        let o = run_in(
            &dir,
            &[
                &["privatize"][..],
                mechanism,
                &[
                    "records.txt",
                    "--match",
                    "index",
                    "--seed",
                    "1",
                    "-o",
                    target,
                    "--force",
                ],
            ]
            .concat(),
        );
        assert_refused(&o, "-o");
        assert_eq!(std::fs::read(dir.join(target)).unwrap(), bytes);
    }
    // A channel of compose named through --series-over, and transfer's --data.
    std::fs::copy(&channel, dir.join("ch2.toml")).unwrap();
    let o = run_in(
        &dir,
        &["compose", "ch.toml", "--sweep", "releases=1,2"]
            .iter()
            .chain(&[
                "--series-over",
                "channel=a=ch.toml|b=ch2.toml",
                "--csv",
                "ch2.toml",
            ])
            .chain(&["--force"])
            .copied()
            .collect::<Vec<_>>(),
    );
    assert_refused(&o, "--csv");
    assert_eq!(std::fs::read(dir.join("ch2.toml")).unwrap(), channel_bytes);
    std::fs::write(dir.join("data.csv"), "v\n0\n1\n1\n").unwrap();
    let o = run_in(
        &dir,
        &["transfer", "ch.toml", "--data", "data.csv", "--column", "v"]
            .iter()
            .chain(&["--sweep", "beta=0.01,0.05", "--svg", "data.csv", "--force"])
            .copied()
            .collect::<Vec<_>>(),
    );
    assert_refused(&o, "--svg");
    assert_eq!(
        std::fs::read_to_string(dir.join("data.csv")).unwrap(),
        "v\n0\n1\n1\n"
    );
}

/// Item 6: `--domain FILE` reads the points CSV next to FILE, from any working directory.
#[test]
fn domain_points_file_is_relative_to_the_domain_file() {
    let elsewhere = scratch("domain");
    let domain = root().join("problems/paris-landmarks.toml");
    let domain = domain.to_str().unwrap();
    let plan = run_in(
        &elsewhere,
        &[
            "plan",
            "--domain",
            domain,
            "--rmse",
            "0.01",
            "--epsilon",
            "1",
        ],
    );
    assert!(plan.status.success(), "{}", stderr(&plan));
    std::fs::write(elsewhere.join("records.txt"), "0\n1\n2\n").unwrap();
    let privatize = run_in(
        &elsewhere,
        &[
            "privatize",
            "--oracle",
            "oue",
            "--epsilon",
            "1",
            "--domain",
            domain,
        ]
        .iter()
        .chain(&["--match", "index", "--seed", "1", "records.txt"])
        .copied()
        .collect::<Vec<_>>(),
    );
    assert!(privatize.status.success(), "{}", stderr(&privatize));
    let simulate = run_in(
        &elsewhere,
        &[
            "simulate",
            "--oracle",
            "oue",
            "--epsilon",
            "1",
            "--domain",
            domain,
        ]
        .iter()
        .chain(&["--users", "100", "--trials", "2", "--seed", "1"])
        .copied()
        .collect::<Vec<_>>(),
    );
    assert!(simulate.status.success(), "{}", stderr(&simulate));
}

/// `figures` writes `<stem>.csv` next to nothing it reads: a manifest's points CSV of the same
/// name in --out is refused even with --force.
#[test]
fn figures_never_replace_a_manifests_points_file() {
    let dir = scratch("figures");
    std::fs::write(dir.join("m.csv"), "name,x,y\na,0,0\nb,1,0\n").unwrap();
    std::fs::write(
        dir.join("m.toml"),
        "[domain]\npoints = { file = \"m.csv\", x = \"x\", y = \"y\", label = \"name\" }\n\
         [[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n\
         [objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n\
         [curve]\ngrid = \"1\"\n",
    )
    .unwrap();
    let points = std::fs::read(dir.join("m.csv")).unwrap();
    let o = run_in(&dir, &["figures", ".", "--out", ".", "--force"]);
    assert_refused(&o, "--out");
    assert!(stderr(&o).contains("input file"), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.join("m.csv")).unwrap(), points);
}
