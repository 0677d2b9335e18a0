//! `privatize`: input indices through the library's exact sampler, without the GIL.

use super::{model_of, CHANNEL_RENAMES};
use crate::errors::{invalid, NoCertifiedChannelError};
use mechsynth::audit::Verdict;
use mechsynth::collect::privatize::realized_guarantee;
use mechsynth::collect::sampler::{secure_rng, seeded_rng, ChannelSampler};
use numpy::PyUntypedArrayMethods;
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArray2, PyReadonlyArrayDyn};
use pyo3::prelude::*;
use std::borrow::Cow;

/// Randomize every input index of `values` through `q` with the exact sampler `mechsynth
/// privatize` uses (each output drawn with exactly the row's probabilities, divided by the
/// row's exact sum); returns the output indices, int64 of the same shape. Without `seed` the
/// generator is ChaCha20 seeded from the operating system. With `privacy` (the constraints
/// the channel states), the channel the sampler realizes is checked against them first, as
/// the command line checks a channel file's, and nothing is drawn when one is exceeded.
#[pyfunction]
#[pyo3(signature = (q, values, *, seed=None, prior=None, domain=None, privacy=None))]
fn privatize<'py>(
    py: Python<'py>,
    q: PyReadonlyArray2<'py, f64>,
    values: PyReadonlyArrayDyn<'py, i64>,
    seed: Option<u64>,
    prior: Option<Vec<f64>>,
    domain: Option<&Bound<'py, PyAny>>,
    privacy: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i64>>> {
    let model = model_of(&q, domain, prior)?;
    let sampler = ChannelSampler::new(&model.channel)
        .map_err(|e| crate::errors::collect(e, CHANNEL_RENAMES))?;
    let stated = match privacy {
        Some(p) => crate::problem::privacy_list(p)?,
        None => Vec::new(),
    };
    if !stated.is_empty() {
        let realized = py
            .detach(|| realized_guarantee(&model, &sampler, &stated))
            .map_err(|e| crate::errors::collect(e, CHANNEL_RENAMES))?;
        if !realized.holds() {
            let violated: Vec<String> = realized
                .checks
                .iter()
                .filter(|c| c.verdict == Verdict::Violated)
                .map(|c| {
                    format!(
                        "{} (requested {}, achieved {}, excess {:.3e})",
                        c.check.constraint,
                        c.check.requested,
                        mechsynth::numeric::fixed_up(c.check.achieved, 9),
                        c.excess
                    )
                })
                .collect();
            return Err(NoCertifiedChannelError::new_err(format!(
                "the channel the sampler realizes does not meet the stated privacy: {}; nothing was privatized (`audit` shows the details)",
                violated.join(", ")
            )));
        }
    }
    let shape = values.shape().to_vec();
    let input: Cow<'_, [i64]> = match values.as_slice() {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(values.as_array().iter().copied().collect()),
    };
    let n = model.inputs() as u64;
    let drawn = py.detach(|| -> Result<Vec<i64>, (usize, i64)> {
        // Every value checked first (a pass that vectorizes), so that the draws need no check.
        if let Some(i) = input.iter().position(|&x| x as u64 >= n) {
            return Err((i, input[i]));
        }
        let mut rng = seed.map_or_else(secure_rng, seeded_rng);
        Ok(input
            .iter()
            .map(|&x| sampler.sample(x as usize, &mut rng) as i64)
            .collect())
    });
    let out = drawn.map_err(|(i, x)| {
        invalid(format!(
            "invalid `values` = {x} (at flat position {i}): not an input index; the channel has {n} inputs (0..{})",
            n - 1
        ))
    })?;
    PyArray1::from_vec(py, out).reshape(shape)
}

/// The warning of a seeded privatization, for the argument `name` (the command line's text).
#[pyfunction]
fn seed_warning(name: &str) -> String {
    mechsynth::collect::sampler::seed_warning(name)
}

/// Add the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(privatize, m)?)?;
    m.add_function(wrap_pyfunction!(seed_warning, m)?)?;
    Ok(())
}
