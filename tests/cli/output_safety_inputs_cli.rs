//! Files that a run of `mechsynth` reads through its inputs (a problem's points CSV, a channel
//! named by `--series-over`, transfer's `--data`, a `--domain` file's points CSV, a figures
//! manifest's points CSV) are inputs too: no output replaces them, even with `--force`, and a
//! `--domain` file's points CSV is found next to it from any working directory. Refusals exit
//! 2 and name the flag the user passed.

use crate::bin::{root, run_in, stderr};
use crate::output_safety_support::{assert_refused, scratch, write_channel};

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

/// `privatize -o` with `--force` writes through what is there: a FIFO receives the records (a
/// rename would replace it by a regular file), and a symbolic link keeps pointing at the file
/// it names, which receives them.
#[cfg(unix)]
#[test]
fn privatize_writes_through_fifos_and_symbolic_links() {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("special-outputs");
    write_channel(&dir);
    std::fs::write(dir.join("records.txt"), "0\n1\n1\n0\n").unwrap();
    let privatize = |out: &str| {
        run_in(
            &dir,
            &[
                "privatize",
                "--channel",
                "ch.toml",
                "records.txt",
                "-o",
                out,
                "--force",
            ],
        )
    };
    // A FIFO, read by a thread while the command writes.
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut text = String::new();
                std::fs::File::open(fifo)
                    .unwrap()
                    .read_to_string(&mut text)
                    .unwrap();
                text
            })
        };
        let o = privatize("fifo");
        assert!(o.status.success(), "{}", stderr(&o));
        // Checked before joining: a replaced FIFO would leave the reader waiting.
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
        let text = reader.join().unwrap();
        assert_eq!(text.lines().count(), 4, "{text:?}");
    }
    // A symbolic link to an existing file.
    std::fs::write(dir.join("target.txt"), "old\n").unwrap();
    std::os::unix::fs::symlink("target.txt", dir.join("link")).unwrap();
    let o = privatize("link");
    assert!(o.status.success(), "{}", stderr(&o));
    let link = std::fs::symlink_metadata(dir.join("link")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    let written = std::fs::read_to_string(dir.join("target.txt")).unwrap();
    assert_eq!(written.lines().count(), 4, "{written:?}");
}
