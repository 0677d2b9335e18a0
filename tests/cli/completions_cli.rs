//! `mechsynth completions SHELL` and `mechsynth man`, through the built binary: the scripts
//! know every subcommand and flag `--help` lists, the bash script completes in a real bash,
//! and the committed man pages in `docs/man/` are the ones the binary generates.

use crate::bin::{command, root, run, run_in, stderr, stdout, TempDir};
use crate::numeric_flags_cli::subcommands;
use std::collections::BTreeSet;

/// The long flags `mechsynth SUB --help` lists.
fn long_flags(sub: &str) -> BTreeSet<String> {
    stdout(&run(&[sub, "--help"]))
        .split_whitespace()
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| {
            w.trim_end_matches([',', '.', ')', '`'])
                .split(['=', '`'])
                .next()
                .unwrap()
                .to_string()
        })
        .filter(|w| w.len() > 2 && w[2..].chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        .collect()
}

#[test]
fn every_shell_script_names_every_subcommand_and_flag() {
    let subs = subcommands();
    assert!(subs.len() >= 14, "{subs:?}");
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = run(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        let script = stdout(&o);
        for sub in &subs {
            assert!(script.contains(sub.as_str()), "{shell}: no `{sub}`");
            for flag in long_flags(sub) {
                // Flags the help text only mentions in prose are flags of other commands.
                if stdout(&run(&[sub, "--help"])).contains(&format!("  {flag}"))
                    || stdout(&run(&[sub, "--help"])).contains(&format!(", {flag}"))
                {
                    // fish lists a long flag as `-l name`.
                    let spelled = match shell {
                        "fish" => format!("-l {}", &flag[2..]),
                        _ => flag.clone(),
                    };
                    assert!(script.contains(&spelled), "{shell}: no `{sub} {flag}`");
                }
            }
        }
    }
    let o = run(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("tcsh"), "{}", stderr(&o));
}

/// What bash's completion of `words` (the last one being completed) offers, with the
/// script of `mechsynth completions bash` loaded; `None` when bash is not installed.
fn bash_completes(words: &[&str]) -> Option<String> {
    let dir = TempDir::new("bash-completion");
    let script = dir.0.join("mechsynth.bash");
    std::fs::write(&script, &run(&["completions", "bash"]).stdout).unwrap();
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{}'; COMP_POINT=${{#COMP_LINE}}; _mechsynth mechsynth '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        words.len() - 1,
        words.join(" "),
        words[words.len() - 1],
        words[words.len().saturating_sub(2)],
    );
    let o = std::process::Command::new("bash")
        .args(["--norc", "-c", &program])
        .output()
        .ok()?;
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    Some(String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn the_bash_script_completes_subcommands_and_flags_in_bash() {
    let Some(offered) = bash_completes(&["mechsynth", "so"]) else {
        eprintln!("skipped: no bash to run the completion script in");
        return;
    };
    assert_eq!(offered.trim(), "solve", "{offered}");
    let offered = bash_completes(&["mechsynth", "solve", "--ti"]).unwrap();
    assert_eq!(offered.trim(), "--time-limit", "{offered}");
    let offered = bash_completes(&["mechsynth", "solve", "--method", "lin"]).unwrap();
    assert_eq!(offered.trim(), "line", "{offered}");
}

#[test]
fn the_committed_man_pages_are_the_generated_ones() {
    let dir = TempDir::new("man-pages");
    let o = run_in(&dir.0, &["man", "--out", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let names = |folder: &std::path::Path| -> BTreeSet<String> {
        std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".1"))
            .collect()
    };
    let committed = root().join("docs/man");
    let fresh = names(&dir.0);
    assert_eq!(
        fresh,
        names(&committed),
        "docs/man is out of step: run `mechsynth man --out docs/man --force`"
    );
    assert_eq!(fresh.len(), subcommands().len() + 1);
    for name in &fresh {
        let a = std::fs::read(dir.0.join(name)).unwrap();
        let b = std::fs::read(committed.join(name)).unwrap();
        assert!(
            a == b,
            "docs/man/{name} is out of step: run `mechsynth man --out docs/man --force`"
        );
    }
    // One page on stdout is the same page.
    let solve = run(&["man", "solve"]);
    assert_eq!(
        solve.stdout,
        std::fs::read(committed.join("mechsynth-solve.1")).unwrap()
    );
    // Every flag of `solve --help` is on its page (roff writes `-` as `\-`).
    let page = stdout(&solve).replace("\\-", "-");
    for flag in long_flags("solve") {
        if stdout(&run(&["solve", "--help"])).contains(&format!("  {flag}")) {
            assert!(page.contains(&flag), "mechsynth-solve.1 lacks {flag}");
        }
    }
}

#[test]
fn man_refuses_to_overwrite_and_names_unknown_subcommands() {
    let dir = TempDir::new("man-force");
    assert_eq!(
        run_in(&dir.0, &["man", "--out", "."]).status.code(),
        Some(0)
    );
    let again = run_in(&dir.0, &["man", "--out", "."]);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    assert_eq!(
        run_in(&dir.0, &["man", "--out", ".", "--force"])
            .status
            .code(),
        Some(0)
    );
    let o = command().args(["man", "nope"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nope") && stderr(&o).contains("solve"));
}
