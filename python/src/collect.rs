//! Channels outside a solve: leakage, audit, baselines, composition, and the collection steps
//! (privatize, estimate, simulate, plan).

use pyo3::prelude::*;

/// Add the functions to the module.
pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
