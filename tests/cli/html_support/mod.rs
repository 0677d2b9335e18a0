//! Helpers of the `--html` tests (`html_cli.rs`, `html_browser_cli.rs`): the five pages made
//! beside their machine-readable output, the numbers of that output as it writes them, and the
//! checks every page passes.

#![allow(dead_code)]

use crate::bin::{root, run_in, stderr, stdout, TempDir};
use std::path::PathBuf;

/// A channel with a comment and a constraint: 2-RR at eps = ln 3, which meets eps = 1.2.
pub const CHANNEL: &str = "# a <channel> & \"quotes\"\n[channel]\nrows = [[0.75, 0.25], [0.25, 0.75]]\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.2\n";

/// One page a subcommand wrote and the numbers its JSON (or CSV) output holds.
pub struct Made {
    /// The subcommand.
    pub sub: &'static str,
    /// The page.
    pub page: PathBuf,
    /// The status text the page must show.
    pub status: String,
    /// Every number (and status) of the output that the page must show, as written there.
    pub tokens: Vec<String>,
}

/// Every scalar of a JSON document with its path (`gap.absolute`, `checks.0.objective`) and
/// its text as written (a string without its quotes): the numbers exactly as the JSON writes
/// them, with no parsing and printing in between.
pub fn json_leaves(json: &str) -> Vec<(String, String)> {
    struct Scan<'a> {
        s: &'a [u8],
        i: usize,
        out: Vec<(String, String)>,
    }
    impl Scan<'_> {
        fn ws(&mut self) {
            while self.s[self.i].is_ascii_whitespace() {
                self.i += 1;
            }
        }
        fn string(&mut self) -> String {
            self.i += 1;
            let start = self.i;
            while self.s[self.i] != b'"' {
                self.i += if self.s[self.i] == b'\\' { 2 } else { 1 };
            }
            self.i += 1;
            String::from_utf8_lossy(&self.s[start..self.i - 1]).into_owned()
        }
        fn value(&mut self, path: String) {
            self.ws();
            let join = |k: &str| {
                if path.is_empty() {
                    k.to_string()
                } else {
                    format!("{path}.{k}")
                }
            };
            match self.s[self.i] {
                open @ (b'{' | b'[') => {
                    self.i += 1;
                    let mut n = 0;
                    loop {
                        self.ws();
                        if matches!(self.s[self.i], b'}' | b']') {
                            self.i += 1;
                            break;
                        }
                        if self.s[self.i] == b',' {
                            self.i += 1;
                            continue;
                        }
                        let key = if open == b'{' {
                            let k = self.string();
                            self.ws();
                            assert_eq!(self.s[self.i], b':');
                            self.i += 1;
                            k
                        } else {
                            n += 1;
                            (n - 1).to_string()
                        };
                        self.value(join(&key));
                    }
                }
                b'"' => {
                    let s = self.string();
                    self.out.push((path, s));
                }
                _ => {
                    let start = self.i;
                    while !matches!(self.s[self.i], b',' | b'}' | b']')
                        && !self.s[self.i].is_ascii_whitespace()
                    {
                        self.i += 1;
                    }
                    let token = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
                    self.out.push((path, token));
                }
            }
        }
    }
    let mut scan = Scan {
        s: json.as_bytes(),
        i: 0,
        out: Vec::new(),
    };
    scan.value(String::new());
    scan.out
}

/// The leaves whose path starts with one of `prefixes` and whose text is a number (or `inf`).
fn numbers(leaves: &[(String, String)], prefixes: &[&str]) -> Vec<String> {
    leaves
        .iter()
        .filter(|(p, _)| prefixes.iter().any(|x| p.starts_with(x)))
        .filter(|(_, t)| t.parse::<f64>().is_ok())
        .map(|(_, t)| t.clone())
        .collect()
}

fn leaf<'a>(leaves: &'a [(String, String)], path: &str) -> &'a str {
    &leaves.iter().find(|(p, _)| p == path).unwrap().1
}

/// Run `args` in `dir`; it must succeed.
fn ok(dir: &TempDir, args: &[&str]) -> String {
    let o = run_in(dir.path(), args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// Run each of the five subcommands with `--html` beside its JSON (or CSV) output, in `dir`.
pub fn make_pages(dir: &TempDir) -> Vec<Made> {
    let problem = root().join("problems/ldp-hamming-5.toml");
    let problem = problem.to_str().unwrap();
    dir.write("ch.toml", CHANNEL);
    dir.write("reports.txt", "0\n1\n1\n0\n1\n1\n1\n");
    let mut made = Vec::new();

    let args = ["solve", problem, "--format", "json", "-o", "solve.json"];
    ok(dir, &[&args[..], &["--html", "solve.html"]].concat());
    let json = std::fs::read_to_string(dir.path().join("solve.json")).unwrap();
    let leaves = json_leaves(&json);
    let prefixes = [
        "objective",
        "bound",
        "gap.absolute",
        "gap.relative",
        "leakage.",
        "certificate.checks",
        "channel.",
    ];
    made.push(Made {
        sub: "solve",
        page: dir.path().join("solve.html"),
        status: leaf(&leaves, "status").to_string(),
        tokens: numbers(&leaves, &prefixes),
    });

    let json = ok(
        dir,
        &[
            "audit",
            "ch.toml",
            "--format",
            "json",
            "--html",
            "audit.html",
        ],
    );
    let leaves = json_leaves(&json);
    made.push(Made {
        sub: "audit",
        page: dir.path().join("audit.html"),
        status: leaf(&leaves, "checks.0.verdict").to_string(),
        tokens: numbers(&leaves, &["leakage.", "checks.", "objectives.", "channel."]),
    });

    let json = ok(
        dir,
        &[
            "verify",
            problem,
            "--format",
            "json",
            "--html",
            "verify.html",
        ],
    );
    let leaves = json_leaves(&json);
    let entries = ["objective", "claimed_value", "optimum", "gap", "leakage"];
    let prefixes: Vec<String> = std::iter::once("optimum".to_string())
        .chain((0..8).flat_map(|i| entries.iter().map(move |e| format!("checks.{i}.{e}"))))
        .collect();
    let prefixes: Vec<&str> = prefixes.iter().map(String::as_str).collect();
    made.push(Made {
        sub: "verify",
        page: dir.path().join("verify.html"),
        status: "holds".into(),
        tokens: numbers(&leaves, &prefixes),
    });

    let args = ["curve", problem, "--epsilons", "0.5,1", "-o", "curve.csv"];
    ok(dir, &[&args[..], &["--html", "curve.html"]].concat());
    let csv = std::fs::read_to_string(dir.path().join("curve.csv")).unwrap();
    let tokens = csv
        .lines()
        .skip(1)
        .flat_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            [f[1], f[2], f[4], f[5]].map(str::to_string)
        })
        .filter(|t| !t.is_empty())
        .collect();
    made.push(Made {
        sub: "curve",
        page: dir.path().join("curve.html"),
        status: csv
            .lines()
            .nth(1)
            .unwrap()
            .split(',')
            .nth(3)
            .unwrap()
            .into(),
        tokens,
    });

    let args = ["estimate", "--channel", "ch.toml", "reports.txt", "--query"];
    let json = ok(
        dir,
        &[
            &args[..],
            &[
                "frequencies,mean",
                "--format",
                "json",
                "--html",
                "estimate.html",
            ],
        ]
        .concat(),
    );
    let leaves = json_leaves(&json);
    made.push(Made {
        sub: "estimate",
        page: dir.path().join("estimate.html"),
        status: format!("{} reports", leaf(&leaves, "users")),
        tokens: numbers(&leaves, &["estimates.", "counts.", "level"]),
    });
    for m in &made {
        assert!(m.tokens.len() >= 4, "{}: {:?}", m.sub, m.tokens);
    }
    made
}

/// The page reads offline: no script, no resource fetched from anywhere (the only `http`
/// in it is the SVG namespace).
pub fn assert_self_contained(what: &str, page: &str) {
    let lower = page.to_ascii_lowercase();
    assert!(lower.starts_with("<!doctype html>"), "{what}");
    for banned in [
        "<script", "src=", "href=", "url(", "@import", "<link", "<iframe",
    ] {
        assert!(!lower.contains(banned), "{what}: the page holds {banned}");
    }
    let stripped = lower
        .replace("xmlns=\"http://www.w3.org/2000/svg\"", "")
        .replace("xmlns:xlink=\"http://www.w3.org/1999/xlink\"", "");
    assert!(
        !stripped.contains("http://") && !stripped.contains("https://"),
        "{what}: the page refers to the network"
    );
}
