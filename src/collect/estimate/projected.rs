//! The inversion estimate projected onto the probability simplex (Euclidean projection): a
//! distribution, biased where the inversion is negative. Its interval is bootstrapped.

use super::{Estimator, Inversion};
use crate::collect::stats::project_to_simplex;
use crate::collect::{CollectError, Model};

/// Inversion, then projection onto the simplex.
#[derive(Debug, Default)]
pub struct ProjectedInversion {
    inversion: Inversion,
}

impl Estimator for ProjectedInversion {
    fn name(&self) -> &'static str {
        "projected"
    }

    fn frequencies(&self, model: &Model, c: &[f64]) -> Result<Vec<f64>, CollectError> {
        Ok(project_to_simplex(&self.inversion.frequencies(model, c)?))
    }
}
