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
