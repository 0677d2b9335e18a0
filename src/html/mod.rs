//! Shareable single-file HTML pages of `solve`, `audit`, `verify`, `curve` and `estimate`:
//! inline CSS and inline SVG only, no scripts and no external resources, so a page reads the
//! same offline, attached to a mail or archived beside the data.
//!
//! Every number on a page is written as the run's machine-readable output writes it: the JSON
//! reports' numbers as `serde_json` serializes them ([`json_number`]), the curve's as its CSV
//! does ([`crate::curve::csv_number`]). Every text is escaped ([`escape`]).

mod audit;
mod curve;
mod estimate;
mod page;
mod parts;
mod solve;
mod verify;

pub use audit::audit_page;
pub use curve::{curve_page, CurveInputs};
pub use estimate::estimate_page;
pub use page::{Cell, Page};
pub use solve::solve_page;
pub use verify::{verify_page, VerifyParts};

/// The version of mechsynth that writes the pages.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Input files longer than this many bytes are shown truncated.
pub const MAX_SOURCE_BYTES: usize = 256 * 1024;

/// What made a page: the command line, shown shell-quoted at its foot with [`VERSION`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    /// The arguments, program name first.
    pub argv: Vec<String>,
}

impl Provenance {
    /// From the arguments of a run; the program's path (the first argument) is shown as
    /// `mechsynth`, the same wherever the binary is installed.
    pub fn new(argv: impl IntoIterator<Item = String>) -> Self {
        let mut argv: Vec<String> = argv.into_iter().collect();
        match argv.first_mut() {
            Some(first) => *first = "mechsynth".into(),
            None => argv.push("mechsynth".into()),
        }
        Provenance { argv }
    }

    /// The command line, each argument shell-quoted ([`shell_quote`]).
    pub fn command_line(&self) -> String {
        self.argv
            .iter()
            .map(|a| shell_quote(a))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// An input file shown on a page: its name and its text (absent when it could not be read,
/// e.g. standard input already consumed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The path as the user gave it.
    pub name: String,
    /// The file's text.
    pub text: Option<String>,
}

/// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references: safe in element
/// content and in quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A number as the JSON reports write it: `serde_json`'s shortest round-trip decimal for a
/// finite value (`1.0`, `1e-9`, `0.5953903248085579`), and `inf`, `-inf` or `nan` otherwise
/// (as [`crate::float_serde::serialize_number`] writes them).
pub fn json_number(v: f64) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        serde_json::to_string(&v).unwrap_or_else(|_| format!("{v:?}"))
    }
}

/// `arg` as a POSIX shell reads it back: unchanged when it holds only letters, digits and
/// `@%+=:,./_-` (and is not empty), otherwise in single quotes (a `'` written `'\''`).
pub fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_for_content_and_attributes() {
        assert_eq!(
            escape(r#"a<b & "c" > 'd'"#),
            "a&lt;b &amp; &quot;c&quot; &gt; &#39;d&#39;"
        );
    }

    #[test]
    fn numbers_are_written_as_the_json_reports_write_them() {
        for v in [
            1.0,
            1e-9,
            0.1,
            1.0613732115416497e-12,
            123456789.0,
            -0.0,
            1e300,
        ] {
            assert_eq!(json_number(v), serde_json::to_string(&v).unwrap());
        }
        assert_eq!(json_number(f64::INFINITY), "inf");
        assert_eq!(json_number(f64::NEG_INFINITY), "-inf");
        assert_eq!(json_number(f64::NAN), "nan");
    }

    #[test]
    fn arguments_are_shell_quoted() {
        assert_eq!(shell_quote("problems/a-b.toml"), "problems/a-b.toml");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("$HOME"), "'$HOME'");
        let p = Provenance::new([
            "/usr/bin/mechsynth".to_string(),
            "solve".into(),
            "x y".into(),
        ]);
        assert_eq!(p.command_line(), "mechsynth solve 'x y'");
    }
}
