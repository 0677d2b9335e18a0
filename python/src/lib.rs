//! `mechsynth._native`: the Rust side of the Python package `mechsynth`.
//!
//! The functions here take and return plain values (JSON text of the library's serde types,
//! numpy arrays, numbers); the Python package (`python/mechsynth/`) wraps them in classes with
//! keyword arguments, docstrings and pickling. Every long call releases the GIL.

mod arrays;
mod collect;
mod curve;
mod errors;
mod problem;
mod solve;

use pyo3::prelude::*;

/// The module `mechsynth._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    problem::register(m)?;
    solve::register(m)?;
    collect::register(m)?;
    curve::register(m)?;
    Ok(())
}
