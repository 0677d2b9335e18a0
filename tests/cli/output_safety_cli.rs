//! No run of `mechsynth` loses a file the user gave: an output is never one of the run's
//! inputs (compared as files: a hard link is the same file), never the same file as another
//! output of the run, and replaces an existing file only with `--force`. Refusals exit 2 and
//! name the flag the user passed. Files read through the inputs (a problem's points CSV, a
//! `--domain` file) are covered in `output_safety_inputs_cli.rs`.

use crate::bin::{run_in, stderr};
use crate::output_safety_support::{assert_refused, copy_problem, scratch, write_channel};

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
