//! Errors of the problem area: reading, validating and resolving problem files and channels.

use std::path::PathBuf;

/// What is wrong with a problem, a channel or a file, naming the key and the value.
#[derive(Debug, thiserror::Error)]
pub enum ProblemError {
    /// A key has a value mechsynth cannot accept.
    #[error("invalid `{key}` = {value}: {reason}")]
    InvalidValue {
        /// Dotted path of the key, e.g. `privacy[0].epsilon`.
        key: String,
        /// The offending value as written.
        value: String,
        /// Why it is rejected.
        reason: String,
    },
    /// A name that is not one of the known names.
    #[error("unknown {what} `{value}` in `{key}`{}; expected one of: {}", suggestion_text(.suggestion), .expected.join(", "))]
    UnknownName {
        /// What kind of name (notion, metric, loss ...).
        what: &'static str,
        /// Dotted path of the key.
        key: String,
        /// The name as written.
        value: String,
        /// The accepted names.
        expected: Vec<String>,
        /// The nearest accepted name, if one is close.
        suggestion: Option<String>,
    },
    /// A required key is missing or keys conflict.
    #[error("`{key}`: {reason}")]
    Structure {
        /// Dotted path of the key or section.
        key: String,
        /// What is missing or conflicting.
        reason: String,
    },
    /// A recognized but not yet supported feature.
    #[error("`{key}` = {value} is not supported yet: {reason}")]
    Unsupported {
        /// Dotted path of the key.
        key: String,
        /// The value as written.
        value: String,
        /// What to do instead.
        reason: String,
    },
    /// The file could not be parsed.
    #[error("cannot parse {path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// Parser message (with line and column where known) and suggestions.
        message: String,
    },
    /// The file could not be read.
    #[error("cannot read {path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error (in the message, so it prints once however the error is shown).
        error: std::io::Error,
    },
}

fn suggestion_text(s: &Option<String>) -> String {
    match s {
        Some(s) => format!(" (did you mean `{s}`?)"),
        None => String::new(),
    }
}

impl ProblemError {
    /// Shorthand for [`ProblemError::InvalidValue`].
    pub fn invalid(
        key: impl Into<String>,
        value: impl ToString,
        reason: impl Into<String>,
    ) -> Self {
        ProblemError::InvalidValue {
            key: key.into(),
            value: value.to_string(),
            reason: reason.into(),
        }
    }

    /// Shorthand for [`ProblemError::Structure`].
    pub fn structure(key: impl Into<String>, reason: impl Into<String>) -> Self {
        ProblemError::Structure {
            key: key.into(),
            reason: reason.into(),
        }
    }

    /// An [`ProblemError::UnknownName`] with the nearest accepted name as suggestion.
    pub fn unknown(
        what: &'static str,
        key: impl Into<String>,
        value: &str,
        expected: &[&str],
    ) -> Self {
        ProblemError::UnknownName {
            what,
            key: key.into(),
            value: value.to_string(),
            expected: expected.iter().map(|s| s.to_string()).collect(),
            suggestion: nearest(value, expected).map(str::to_string),
        }
    }
}

/// The accepted name closest to `value`, if it is plausibly a typo of it.
pub fn nearest<'a>(value: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let value = value.to_lowercase();
    candidates
        .iter()
        .map(|c| (strsim::levenshtein(&value, c), *c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Magnitudes at or above this are shown in scientific notation in messages.
const SCIENTIFIC_ABOVE: f64 = 1e15;
/// Non-zero magnitudes below this are shown in scientific notation in messages.
const SCIENTIFIC_BELOW: f64 = 1e-5;

/// Format a number compactly for messages: the shortest round-trip decimal, in scientific
/// notation (`1e300`, `2.5e-12`) when it is huge or tiny, so no value prints hundreds of digits.
pub fn show_number(v: f64) -> String {
    let a = v.abs();
    if v.is_finite() && v != 0.0 && !(SCIENTIFIC_BELOW..SCIENTIFIC_ABOVE).contains(&a) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// Format a list of numbers compactly for messages.
pub fn show_list(values: &[f64]) -> String {
    let parts: Vec<String> = values.iter().map(|&v| show_number(v)).collect();
    format!("[{}]", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_and_tiny_numbers_are_shown_compactly() {
        assert_eq!(show_number(1e300), "1e300");
        assert_eq!(show_number(-2.5e-12), "-2.5e-12");
        assert_eq!(show_number(0.25), "0.25");
        assert_eq!(show_number(0.0), "0");
        assert_eq!(show_number(f64::INFINITY), "inf");
        assert_eq!(show_list(&[1e200, 3.0]), "[1e200, 3]");
    }

    #[test]
    fn nearest_suggests_close_names_only() {
        let names = ["ldp", "lip", "bp-lip", "max-leakage"];
        assert_eq!(nearest("max-leakge", &names), Some("max-leakage"));
        assert_eq!(nearest("bplip", &names), Some("bp-lip"));
        assert_eq!(nearest("completely-different", &names), None);
    }

    #[test]
    fn unknown_name_message_names_key_value_and_suggestion() {
        let e = ProblemError::unknown("notion", "privacy[0].notion", "ldpp", &["ldp", "lip"]);
        let text = e.to_string();
        assert!(text.contains("privacy[0].notion") && text.contains("ldpp"));
        assert!(text.contains("did you mean `ldp`"));
    }
}
