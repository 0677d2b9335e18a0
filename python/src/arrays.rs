//! numpy arrays in and out: a channel is a float64 array of shape (inputs, outputs).

use crate::errors::invalid;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// The rows of a channel given as a 2-D float64 array, read in place (any strides).
pub fn rows_of(name: &str, q: &PyReadonlyArray2<'_, f64>) -> PyResult<Vec<Vec<f64>>> {
    let view = q.as_array();
    if view.nrows() == 0 || view.ncols() == 0 {
        return Err(invalid(format!(
            "invalid `{name}`: an array of shape {:?}; a channel needs at least one row and one column",
            q.shape()
        )));
    }
    Ok(view.outer_iter().map(|row| row.to_vec()).collect())
}

/// `rows` as a new (inputs, outputs) float64 array that owns the flat buffer (moved, not
/// copied, into numpy).
pub fn array_of<'py>(py: Python<'py>, rows: &[Vec<f64>]) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let n = rows.len();
    let m = rows.first().map_or(0, Vec::len);
    let mut flat = Vec::with_capacity(n * m);
    for row in rows {
        flat.extend_from_slice(row);
    }
    PyArray1::from_vec(py, flat).reshape([n, m])
}
