//! Data collection with a channel: randomize records through it ([`sampler`], [`privatize`]),
//! turn the collected reports into estimates with standard errors ([`estimate`]), simulate
//! collections ([`simulate`]) and plan their size ([`plan`]).
//!
//! A channel comes from a file mechsynth reads (a `solve --format json` report or a TOML
//! `[channel]`) or from a named [`baseline`] mechanism; [`Model`] holds it with its domain and
//! output labels. The unary-encoding and hashing oracles (SUE/RAPPOR, OUE, OLH), whose
//! outputs are not a small matrix, have their own randomizer and estimator in
//! [`baseline::oracle`].

pub mod baseline;
pub mod estimate;
mod model;

pub mod plan;
pub mod privatize;
pub mod reports;
pub mod sampler;
pub mod simulate;

pub mod stats;

pub use model::Model;

use crate::error::ProblemError;
use std::path::PathBuf;

/// What can go wrong while collecting, estimating, simulating or planning.
#[derive(Debug, thiserror::Error)]
pub enum CollectError {
    /// The channel, domain or mechanism description is invalid.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    /// A record or report that cannot be used, with its line number (1-based) and value.
    #[error("line {line}: {what} `{value}`: {reason}")]
    Record {
        /// 1-based line number in the input.
        line: u64,
        /// What the line holds (record, report, count).
        what: &'static str,
        /// The offending value as written.
        value: String,
        /// Why it is rejected.
        reason: String,
    },
    /// A parameter or option with a value that cannot be used.
    #[error("invalid `{key}` = {value}: {reason}")]
    Invalid {
        /// The option or key.
        key: String,
        /// The value as given.
        value: String,
        /// Why it is rejected.
        reason: String,
    },
    /// The estimate asked for does not exist for this channel (a singular channel).
    #[error("{what} cannot be estimated from this channel: {reason}")]
    NotEstimable {
        /// The quantity asked for.
        what: String,
        /// Why (the channel is singular for it).
        reason: String,
    },
    /// The time limit ran out before the result could be computed.
    #[error("time limit: {what}")]
    TimeLimit {
        /// What was not finished.
        what: String,
    },
    /// Reading or writing failed.
    #[error("{action} {path}: {error}")]
    Io {
        /// `cannot read`, `cannot write`...
        action: &'static str,
        /// The file (`-` for standard input/output).
        path: PathBuf,
        /// The I/O error (in the message, so it prints once however the error is shown).
        error: std::io::Error,
    },
}

impl CollectError {
    /// An I/O failure of `action` on `path`; a reader that stopped at the time limit
    /// (`TimedOut`) is [`CollectError::TimeLimit`].
    pub fn io(action: &'static str, path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        let path = path.into();
        if error.kind() == std::io::ErrorKind::TimedOut {
            CollectError::TimeLimit {
                what: format!("{action} {}: {error}", path.display()),
            }
        } else {
            CollectError::Io {
                action,
                path,
                error,
            }
        }
    }
}

impl CollectError {
    /// Shorthand for [`CollectError::Invalid`].
    pub fn invalid(
        key: impl Into<String>,
        value: impl ToString,
        reason: impl Into<String>,
    ) -> Self {
        CollectError::Invalid {
            key: key.into(),
            value: value.to_string(),
            reason: reason.into(),
        }
    }

    /// Whether the error is about the input (bad file, record, option): exit code 2.
    pub fn is_bad_input(&self) -> bool {
        !matches!(
            self,
            CollectError::Io { .. } | CollectError::TimeLimit { .. }
        )
    }
}

/// Check that `eps` is a usable privacy parameter (finite, in `[0, MAX_EPSILON]`).
pub fn check_epsilon(key: &str, eps: f64) -> Result<f64, CollectError> {
    let max = crate::privacy::MAX_EPSILON;
    if eps.is_finite() && (0.0..=max).contains(&eps) {
        Ok(eps)
    } else {
        Err(CollectError::invalid(
            key,
            eps,
            format!("epsilon must be a finite number in [0, {max}]"),
        ))
    }
}

/// The UTF-8 byte order mark some editors write at the start of a text file.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// Line `line` (1-based) of a one-record-per-line input without the byte order mark that may
/// open the file (it would otherwise be part of the first record).
pub(crate) fn without_bom(line: u64, bytes: &[u8]) -> &[u8] {
    if line == 1 {
        bytes.strip_prefix(BYTE_ORDER_MARK).unwrap_or(bytes)
    } else {
        bytes
    }
}

#[cfg(test)]
mod bom_tests {
    use super::without_bom;

    #[test]
    fn only_the_first_lines_mark_is_removed() {
        assert_eq!(without_bom(1, b"\xEF\xBB\xBFno\n"), b"no\n");
        assert_eq!(without_bom(2, b"\xEF\xBB\xBFno\n"), b"\xEF\xBB\xBFno\n");
        assert_eq!(without_bom(1, b"yes"), b"yes");
    }
}
