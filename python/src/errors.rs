//! The exceptions of the package, and the library's errors mapped onto them as the command
//! line maps them onto exit codes: bad input is a `ValueError`, a run that certified nothing a
//! `RuntimeError`.

use mechsynth::{ProblemError, SolveError};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

create_exception!(
    mechsynth,
    InvalidInputError,
    PyValueError,
    "Bad input: a key, value or argument, named in the message with what to fix (the command line's exit code 2)."
);
create_exception!(
    mechsynth,
    NoCertifiedChannelError,
    PyRuntimeError,
    "No channel could be certified (the command line's exit code 5)."
);
create_exception!(
    mechsynth,
    TimeLimitError,
    PyRuntimeError,
    "The time limit ran out before the result was computed (the command line's exit code 4)."
);
create_exception!(
    mechsynth,
    SolverError,
    PyRuntimeError,
    "The backend failed (the command line's exit code 1)."
);

/// Add the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidInputError", py.get_type::<InvalidInputError>())?;
    m.add(
        "NoCertifiedChannelError",
        py.get_type::<NoCertifiedChannelError>(),
    )?;
    m.add("SolverError", py.get_type::<SolverError>())?;
    m.add("TimeLimitError", py.get_type::<TimeLimitError>())?;
    Ok(())
}

/// Bad input, with the library's message.
pub fn invalid(error: impl std::fmt::Display) -> PyErr {
    InvalidInputError::new_err(error.to_string())
}

/// A problem error (always bad input).
pub fn problem(error: ProblemError) -> PyErr {
    invalid(error)
}

/// A solve error, classified as `mechsynth solve` classifies it.
pub fn solve(error: SolveError) -> PyErr {
    use mechsynth_solvers::BackendError;
    match &error {
        SolveError::CertificationFailed { .. } => {
            NoCertifiedChannelError::new_err(error.to_string())
        }
        SolveError::MethodNotApplicable(_)
        | SolveError::TooLarge(_)
        | SolveError::Backend(BackendError::Unavailable(_))
        | SolveError::Backend(BackendError::Unsupported { .. }) => invalid(error),
        SolveError::Backend(_) => SolverError::new_err(error.to_string()),
    }
}

/// A value of an argument that is not one of the accepted ones.
pub fn bad_argument(name: &str, value: impl std::fmt::Display, accepted: &str) -> PyErr {
    invalid(format!("invalid `{name}` = {value}: {accepted}"))
}

/// A message of the library with its keys and flags named as the Python arguments are:
/// each `from` of `renames` becomes `to` (e.g. `channel.rows` -> `Q`, `--baseline` -> `name`),
/// then every remaining `` `--flag-name `` becomes `` `flag_name ``.
pub fn pythonic(message: &str, renames: &[(&str, &str)]) -> String {
    let mut text = message.to_string();
    for (from, to) in renames {
        text = text.replace(from, to);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("`--") {
        out.push_str(&rest[..at + 1]);
        rest = &rest[at + 3..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(rest.len());
        out.push_str(&rest[..end].replace('-', "_"));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A collection error, classified as the command line classifies it: bad input is an
/// [`InvalidInputError`], the time limit a [`TimeLimitError`], anything else (I/O) a
/// `RuntimeError`. Keys are renamed as [`pythonic`] does.
pub fn collect(error: mechsynth::collect::CollectError, renames: &[(&str, &str)]) -> PyErr {
    use mechsynth::collect::CollectError;
    let message = pythonic(&error.to_string(), renames);
    match &error {
        CollectError::TimeLimit { .. } => TimeLimitError::new_err(message),
        e if e.is_bad_input() => InvalidInputError::new_err(message),
        _ => PyRuntimeError::new_err(message),
    }
}

/// A composition error, classified as `mechsynth compose` classifies it (the time limit is a
/// [`TimeLimitError`], anything else bad input).
pub fn compose(error: mechsynth::compose::ComposeError, renames: &[(&str, &str)]) -> PyErr {
    let message = pythonic(&error.to_string(), renames);
    match error {
        mechsynth::compose::ComposeError::TimeLimit(_) => TimeLimitError::new_err(message),
        _ => InvalidInputError::new_err(message),
    }
}
