//! A calibration request: the prior, the mechanism, the notion and the target.

use super::error::{positive, ContinuousError};
use super::lip::Criterion;
use super::prior::Prior;

/// The mechanism family whose parameter is calibrated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MechanismKind {
    /// `Y = X + N(0, sigma^2)`.
    Gaussian,
    /// `Y = X + Lap(0, b)`.
    Laplace,
    /// `Y = X` w.p. lambda, else a fresh prior draw (context-aware-lip eq. (20)).
    Sampling,
}

/// The privacy notion the noise must meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Notion {
    /// (eps, delta)-LIP (context-aware-lip Definition 5).
    Lip,
    /// (eps, delta)-LDP (Definition 1) for data of a given range.
    Ldp,
}

/// Everything a calibration needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Prior of X.
    pub prior: Prior,
    /// Mechanism family.
    pub mechanism: MechanismKind,
    /// Notion.
    pub notion: Notion,
    /// Target eps.
    pub epsilon: f64,
    /// Target delta.
    pub delta: f64,
    /// Data range `[lo, hi]`: LIP's worst case runs over it; LDP's sensitivity is its width.
    pub range: Option<(f64, f64)>,
    /// LDP sensitivity (default: the range's width).
    pub sensitivity: Option<f64>,
    /// One data point for instance-dependent calibration (Corollary 10).
    pub at: Option<f64>,
    /// LIP condition: Definition 5 or Corollary 9.
    pub criterion: Criterion,
}

/// Largest target eps: the divergences are integrated to about 1e-13 (see [`MIN_LIP_DELTA`])
/// and e^-30 is 9.4e-14, so beyond this the quadrature cannot tell `e^eps` apart from
/// infinity (at 1e6 it overflows and the calibration returned NaN); the same bound as
/// [`crate::privacy::MAX_EPSILON`] for the discrete notions.
pub const MAX_EPSILON: f64 = crate::privacy::MAX_EPSILON;

/// The smallest positive delta of a LIP calibration: the hockey-stick divergences are
/// integrated to about 1e-13 ([`super::convolution::INNER_TOLERANCE`]), and below this the
/// bisection would chase quadrature error (it reported no feasible noise at 1e-13).
pub const MIN_LIP_DELTA: f64 = 1e-12;

impl Request {
    /// Check the request; names the offending key.
    pub fn validate(&self) -> Result<(), ContinuousError> {
        positive("epsilon", self.epsilon)?;
        if self.epsilon > MAX_EPSILON {
            return Err(ContinuousError::invalid(
                "epsilon",
                self.epsilon,
                format!("must be at most {MAX_EPSILON}: the quadrature (accurate to about 1e-13) cannot resolve e^-eps below e^-{MAX_EPSILON}"),
            ));
        }
        if !(self.delta.is_finite() && (0.0..1.0).contains(&self.delta)) {
            return Err(ContinuousError::invalid(
                "delta",
                self.delta,
                "must be in [0, 1)",
            ));
        }
        if self.notion == Notion::Lip && self.delta > 0.0 && self.delta < MIN_LIP_DELTA {
            return Err(ContinuousError::invalid(
                "delta",
                self.delta,
                format!(
                    "LIP is calibrated by quadrature accurate to about 1e-13, so a delta below {MIN_LIP_DELTA:e} cannot be told from that error; give delta >= {MIN_LIP_DELTA:e} or 0 (pure LIP, Laplace noise on a discrete prior)"
                ),
            ));
        }
        if let Some((lo, hi)) = self.range {
            if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                return Err(ContinuousError::invalid(
                    "range",
                    format!("[{lo}, {hi}]"),
                    "needs finite lo <= hi",
                ));
            }
        }
        if let Some(s) = self.sensitivity {
            positive("sensitivity", s)?;
        }
        if let Some(x) = self.at {
            super::error::finite("at", x)?;
            if let Some((lo, hi)) = self.range {
                if !(lo..=hi).contains(&x) {
                    return Err(ContinuousError::invalid(
                        "at",
                        x,
                        format!("the data point must lie in the data range [{lo}, {hi}]"),
                    ));
                }
            }
        }
        if self.notion == Notion::Ldp && self.sensitivity().is_none() {
            return Err(ContinuousError::invalid(
                "sensitivity",
                "none",
                "LDP needs the data range (`range`) or `sensitivity`",
            ));
        }
        if self.notion == Notion::Ldp && self.mechanism == MechanismKind::Sampling {
            return Err(ContinuousError::invalid(
                "mechanism",
                "sampling",
                "the sampling mechanism releases X itself with probability lambda; it is not \
                 (eps, delta)-LDP for any lambda > delta on continuous data; use notion = lip",
            ));
        }
        let continuous = !self.prior.is_discrete();
        if self.mechanism == MechanismKind::Sampling && !continuous {
            return Err(ContinuousError::invalid(
                "prior.kind",
                "discrete",
                "the sampling mechanism's divergences (and Prop. 2) assume a continuous prior \
                 (no atom at the released value); use a continuous prior",
            ));
        }
        if self.notion == Notion::Lip
            && continuous
            && self.at.is_none()
            && self.range.is_none()
            && self.mechanism != MechanismKind::Sampling
        {
            return Err(ContinuousError::invalid(
                "range",
                "none",
                "LIP for every input needs a bounded data range (over all of R the worst input \
                 leaks delta -> 1); give `range` or one data point `at`",
            ));
        }
        if self.delta == 0.0
            && self.notion == Notion::Lip
            && (self.mechanism != MechanismKind::Laplace || continuous)
        {
            return Err(ContinuousError::invalid(
                "delta",
                0,
                "pure eps-LIP is computed for Laplace noise on a discrete prior only; \
                 Gaussian and sampling mechanisms need delta > 0",
            ));
        }
        // LIP bounds the inputs of the prior: with a discrete prior those are its points, so
        // a data range would be ignored and a data point must be one of them.
        if let (Notion::Lip, Prior::Discrete { points, .. }) = (self.notion, &self.prior) {
            if points.len() < 2 {
                return Err(ContinuousError::invalid(
                    "prior",
                    format!("discrete({}:1)", points.first().copied().unwrap_or(f64::NAN)),
                    "a one-point prior makes X known before anything is released: every noise level (none included) leaks nothing, so there is nothing to calibrate; give a prior with at least two points",
                ));
            }
            if let Some((lo, hi)) = self.range {
                return Err(ContinuousError::invalid(
                    "range",
                    format!("[{lo}, {hi}]"),
                    "LIP with a discrete prior covers exactly the prior's points; a data range \
                     does not apply (leave it out, or give one of the points as `at`)",
                ));
            }
            if let Some(x) = self.at.filter(|x| !points.contains(x)) {
                return Err(ContinuousError::invalid(
                    "at",
                    x,
                    format!(
                        "LIP with a discrete prior is defined at the prior's points {points:?}; \
                         {x} is not one of them"
                    ),
                ));
            }
        }
        if self.delta == 0.0
            && self.notion == Notion::Ldp
            && self.mechanism == MechanismKind::Gaussian
        {
            return Err(ContinuousError::invalid(
                "delta",
                0,
                "the Gaussian mechanism is never pure eps-LDP; give delta > 0",
            ));
        }
        Ok(())
    }

    /// The LDP sensitivity: given, or the range's width.
    pub fn sensitivity(&self) -> Option<f64> {
        self.sensitivity.or_else(|| {
            self.range
                .map(|(lo, hi)| hi - lo)
                .or_else(|| match &self.prior {
                    Prior::Discrete { points, .. } => {
                        let (a, b) = self.prior.central_interval(0.5);
                        (points.len() > 1).then_some(b - a)
                    }
                    _ => None,
                })
                .filter(|&d| d > 0.0)
        })
    }

    /// The inputs LIP is checked over: the one point, or the range, or the support.
    pub fn lip_range(&self) -> (f64, f64) {
        match (self.at, self.range) {
            (Some(x), _) => (x, x),
            (None, Some(r)) => r,
            (None, None) => self.prior.central_interval(0.5),
        }
    }
}
