//! Errors of the continuous-data area.

/// What went wrong in a continuous calibration or a transferability bound.
#[derive(Debug, thiserror::Error)]
pub enum ContinuousError {
    /// A parameter has a value that cannot be accepted (bad input).
    #[error("invalid `{key}` = {value}: {reason}")]
    Invalid {
        /// The key or flag, e.g. `prior.sd`.
        key: String,
        /// The offending value as written.
        value: String,
        /// Why it is rejected.
        reason: String,
    },
    /// The request is well formed but no noise level meets it (e.g. delta = 0 for a Gaussian).
    #[error("no noise level meets the target: {0}")]
    Infeasible(String),
    /// The time limit ran out before the calibration finished.
    #[error("time limit of {0:.1} s reached during the calibration")]
    TimeLimit(f64),
    /// The time limit ran out during a transferability simulation.
    #[error("time limit reached during the simulation (n = {n}: {done} of {trials} trials done)")]
    SimulationTimeLimit {
        /// The sample size being simulated.
        n: u64,
        /// Trials finished at that sample size.
        done: u32,
        /// Trials asked for.
        trials: u32,
    },
    /// A file could not be read or parsed.
    #[error("cannot read {path}: {message}")]
    Read {
        /// The file.
        path: String,
        /// What failed.
        message: String,
    },
}

impl ContinuousError {
    /// An [`ContinuousError::Invalid`] naming `key` and `value`.
    pub fn invalid(key: &str, value: impl std::fmt::Display, reason: impl Into<String>) -> Self {
        ContinuousError::Invalid {
            key: key.to_string(),
            value: value.to_string(),
            reason: reason.into(),
        }
    }

    /// Whether the error is the caller's input (exit code 2) rather than a runtime failure.
    pub fn is_bad_input(&self) -> bool {
        !matches!(
            self,
            ContinuousError::Infeasible(_)
                | ContinuousError::TimeLimit(_)
                | ContinuousError::SimulationTimeLimit { .. }
        )
    }
}

/// Check a finite positive parameter.
pub fn positive(key: &str, v: f64) -> Result<f64, ContinuousError> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(ContinuousError::invalid(
            key,
            v,
            "must be a finite number > 0",
        ))
    }
}

/// Check a finite parameter.
pub fn finite(key: &str, v: f64) -> Result<f64, ContinuousError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(ContinuousError::invalid(key, v, "must be a finite number"))
    }
}
