//! `--png FILE` wherever an SVG is written (`solve`, `audit`, `curve`, the sweeps of
//! `continuous`, `compose` and `transfer`) and `figures --png`: a PNG image rendered with the
//! bundled font, the same bytes on every run, under the output rules of every file (never
//! replaced without `--force`, never the same file as another output); `--svg x.png` is
//! refused, naming `--png`.

use crate::bin::{root, run_in, stderr};
use crate::output_safety_support::{assert_refused, copy_problem, scratch, write_channel};

/// The eight bytes every PNG file starts with.
const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

fn assert_png(path: &std::path::Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        bytes.starts_with(&PNG_SIGNATURE),
        "{} is a PNG",
        path.display()
    );
    let image = resvg::tiny_skia::Pixmap::decode_png(&bytes).expect("a PNG that decodes");
    assert!(image.width() > 100 && image.height() > 100);
    bytes
}

#[test]
fn solve_audit_and_curve_write_png_with_or_without_svg() {
    let dir = scratch("png-commands");
    copy_problem("ldp-hamming-5.toml", &dir, "p.toml");
    let o = run_in(
        &dir,
        &[
            "solve", "p.toml", "--svg", "q.svg", "--png", "q.png", "-o", "r.json", "--format",
            "json",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(dir.join("q.svg"))
        .unwrap()
        .starts_with("<svg"));
    let first = assert_png(&dir.join("q.png"));
    // The same run again gives the same bytes.
    let o = run_in(&dir, &["solve", "p.toml", "--png", "q.png", "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        std::fs::read(dir.join("q.png")).unwrap() == first,
        "reproducible PNG"
    );
    let o = run_in(&dir, &["audit", "r.json", "--png", "a.png"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_png(&dir.join("a.png"));
    let o = run_in(
        &dir,
        &[
            "curve",
            "p.toml",
            "--epsilons",
            "1,2",
            "--png",
            "c.png",
            "-o",
            "c.csv",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_png(&dir.join("c.png"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sweeps_write_png() {
    let dir = scratch("png-sweep");
    write_channel(&dir);
    let o = run_in(
        &dir,
        &[
            "compose",
            "ch.toml",
            "--sweep",
            "releases=1:3:3",
            "--csv",
            "s.csv",
            "--png",
            "s.png",
            "--title",
            "T",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_png(&dir.join("s.png"));
    // --png needs --sweep; --title is honoured with --png alone.
    let o = run_in(&dir, &["compose", "ch.toml", "--png", "t.png"]);
    assert_refused(&o, "--png");
    assert!(stderr(&o).contains("needs `--sweep"), "{}", stderr(&o));
    assert!(!dir.join("t.png").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn png_outputs_follow_the_output_rules() {
    let dir = scratch("png-rules");
    copy_problem("ldp-hamming-5.toml", &dir, "p.toml");
    write_channel(&dir);
    std::fs::write(dir.join("old.png"), "keep me\n").unwrap();
    let runs: Vec<Vec<&str>> = vec![
        vec!["solve", "p.toml", "--png", "old.png"],
        vec!["audit", "ch.toml", "--png", "old.png"],
        vec!["curve", "p.toml", "--epsilons", "1", "--png", "old.png"],
        vec![
            "compose",
            "ch.toml",
            "--sweep",
            "releases=1,2",
            "--png",
            "old.png",
        ],
    ];
    for args in &runs {
        let o = run_in(&dir, args);
        assert_refused(&o, "--png");
        assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
        assert_eq!(
            std::fs::read_to_string(dir.join("old.png")).unwrap(),
            "keep me\n"
        );
    }
    // Two flags naming one file, and --png naming the input.
    let o = run_in(
        &dir,
        &[
            "solve",
            "p.toml",
            "--svg",
            "same.png.svg",
            "--png",
            "same.png.svg",
        ],
    );
    assert_refused(&o, "--png");
    assert!(stderr(&o).contains("same file"), "{}", stderr(&o));
    let o = run_in(&dir, &["audit", "ch.toml", "--png", "ch.toml", "--force"]);
    assert_refused(&o, "--png");
    assert!(stderr(&o).contains("input file"), "{}", stderr(&o));
    // --svg naming a .png file is refused, pointing to --png.
    for args in [
        vec!["solve", "p.toml", "--svg", "x.PNG"],
        vec!["curve", "p.toml", "--epsilons", "1", "--svg", "x.png"],
        vec![
            "compose",
            "ch.toml",
            "--sweep",
            "releases=1,2",
            "--svg",
            "x.png",
        ],
    ] {
        let o = run_in(&dir, &args);
        assert_refused(&o, "--svg");
        assert!(stderr(&o).contains("use `--png"), "{}", stderr(&o));
    }
    for name in ["same.png.svg", "x.PNG", "x.png"] {
        assert!(!dir.join(name).exists(), "{name} written");
    }
    let o = run_in(&dir, &["solve", "p.toml", "--png", "old.png", "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_png(&dir.join("old.png"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn figures_png_writes_a_png_beside_each_svg() {
    let dir = scratch("png-figures");
    let manifests = dir.join("manifests");
    std::fs::create_dir_all(&manifests).unwrap();
    let text = std::fs::read_to_string(
        root()
            .join("figures")
            .join("lip-data-aggregation-fig5-uniform.toml"),
    )
    .unwrap();
    let small = text.replace("grid = \"1:5:9\"", "grid = \"1,2\"");
    std::fs::write(manifests.join("fig.toml"), small).unwrap();
    let o = run_in(&dir, &["figures", "manifests", "--out", "out", "--png"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("out/fig.png"), "{}", stderr(&o));
    assert_png(&dir.join("out").join("fig.png"));
    // Again: every output exists, so nothing is written without --force.
    let o = run_in(&dir, &["figures", "manifests", "--out", "out", "--png"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
