//! `--html FILE` of solve, audit, verify, curve and estimate (the built binary): the page shows
//! the numbers of the run's JSON (or CSV) exactly as written there, reads offline (no script,
//! no external resource), escapes the text it shows, names the command that made it, and
//! follows the output rules (never an input, never another output's file, an existing file
//! only with --force).

use crate::bin::{root, run_in, stderr, TempDir};
use crate::html_support::{assert_self_contained, make_pages, CHANNEL};

#[test]
fn every_page_shows_the_numbers_of_the_json_and_reads_offline() {
    let dir = TempDir::new("html-pages");
    for made in make_pages(&dir) {
        let page = std::fs::read_to_string(&made.page).unwrap();
        let what = made.sub;
        assert_self_contained(what, &page);
        for token in &made.tokens {
            // A table cell holding exactly the number as the output writes it.
            assert!(
                page.contains(&format!(">{token}<")),
                "{what}: {token} is not on the page"
            );
        }
        assert!(
            page.contains(&made.status),
            "{what}: no status {}",
            made.status
        );
        let foot = format!("mechsynth {}", env!("CARGO_PKG_VERSION"));
        assert!(page.contains(&foot), "{what}: no version");
        assert!(
            page.contains(&format!("<pre>mechsynth {what} ")),
            "{what}: the command is not shown"
        );
        assert!(page.trim_end().ends_with("</html>"), "{what}");
        if what != "estimate" && what != "verify" {
            assert!(page.contains("<svg"), "{what}: no drawing");
        }
    }
}

#[test]
fn text_from_the_inputs_and_the_command_is_escaped() {
    let dir = TempDir::new("html-escape");
    let text = std::fs::read_to_string(root().join("problems/ldp-hamming-5.toml"))
        .unwrap()
        .replace(
            "name = \"5-ary LDP, Hamming loss\"",
            "# </pre><script>alert(1)</script>\nname = \"a <b> & \\\"c\\\"\"",
        );
    dir.write("p.toml", &text);
    dir.write("ch.toml", CHANNEL);
    let o = run_in(dir.path(), &["solve", "p.toml", "--html", "p<q>.html"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(dir.path().join("p<q>.html")).unwrap();
    assert_self_contained("solve", &page);
    assert!(page.contains("a &lt;b&gt; &amp; &quot;c&quot;"), "{page}");
    assert!(page.contains("# &lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!page.contains("<b>") && !page.contains("</pre><script>"));
    // The command's file name holds `<` and `>`: shell-quoted, then escaped.
    assert!(
        page.contains("mechsynth solve p.toml --html &#39;p&lt;q&gt;.html&#39;"),
        "{page}"
    );

    let o = run_in(dir.path(), &["audit", "ch.toml", "--html", "a.html"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(dir.path().join("a.html")).unwrap();
    assert!(page.contains("# a &lt;channel&gt; &amp; &quot;quotes&quot;"));
    assert!(!page.contains("<channel>"));
}

/// The arguments of a quick run of each subcommand, in a folder holding `p.toml`, `ch.toml`
/// and `r.txt`.
const RUNS: &[&[&str]] = &[
    &["solve", "p.toml"],
    &["audit", "ch.toml"],
    &["verify", "p.toml"],
    &["curve", "p.toml", "--epsilons", "1"],
    &["estimate", "--channel", "ch.toml", "r.txt"],
];

#[test]
fn a_page_replaces_a_file_only_with_force_and_never_an_input() {
    let dir = TempDir::new("html-outputs");
    std::fs::copy(
        root().join("problems/ldp-hamming-5.toml"),
        dir.path().join("p.toml"),
    )
    .unwrap();
    dir.write("ch.toml", CHANNEL);
    dir.write("r.txt", "0\n1\n");
    for run in RUNS {
        let what = run[0];
        let old = dir.write("old.html", "keep me\n");
        let o = run_in(dir.path(), &[run, &["--html", "old.html"][..]].concat());
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        let refusal = "invalid `--html` = old.html: the file exists; pass --force";
        assert!(stderr(&o).contains(refusal), "{what}: {}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&old).unwrap(), "keep me\n");
        let o = run_in(
            dir.path(),
            &[run, &["--html", "old.html", "--force"][..]].concat(),
        );
        assert!(o.status.success(), "{what}: {}", stderr(&o));
        assert!(std::fs::read_to_string(&old)
            .unwrap()
            .starts_with("<!DOCTYPE html>"));

        // The input itself, even with --force.
        let input = run[1..].iter().rev().find(|a| a.contains('.')).unwrap();
        let before = std::fs::read(dir.path().join(input)).unwrap();
        let o = run_in(
            dir.path(),
            &[run, &["--html", input, "--force"][..]].concat(),
        );
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        assert!(stderr(&o).contains("that is the input file"), "{what}");
        assert_eq!(std::fs::read(dir.path().join(input)).unwrap(), before);

        let o = run_in(dir.path(), &[run, &["--html", "-"][..]].concat());
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        assert!(stderr(&o).contains("invalid `--html` = -"), "{what}");
        assert!(!stderr(&o).contains("panicked"), "{what}");
    }
    // Two flags naming one file.
    for (run, flag) in [(RUNS[0], "--svg"), (RUNS[0], "-o"), (RUNS[3], "--svg")] {
        let o = run_in(
            dir.path(),
            &[run, &[flag, "same.html", "--html", "same.html"][..]].concat(),
        );
        assert_eq!(o.status.code(), Some(2), "{run:?} {flag}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("writes the same file"),
            "{}",
            stderr(&o)
        );
        assert!(!dir.path().join("same.html").exists());
    }
}
