//! Named baseline mechanisms, usable wherever a channel is. Each implements [`Baseline`]
//! (one file per family) and has a variant of the serde-tagged [`BaselineSpec`]. The
//! unary-encoding and hashing oracles, whose outputs are not a small matrix, implement
//! [`oracle::FrequencyOracle`] instead.

mod geometric;
pub mod oracle;
mod planar;
mod randomized;

pub use geometric::{Exponential, Geometric, TruncatedGeometric};
pub use planar::PlanarLaplace;
pub use randomized::{HadamardResponse, KRr, Mangat, Warner};

use super::CollectError;
use crate::channel::Channel;
use crate::domain::Domain;
use serde::{Deserialize, Serialize};

/// A baseline's channel over a domain, with output labels when they are not the inputs'.
#[derive(Debug, Clone)]
pub struct BaselineChannel {
    /// The channel.
    pub channel: Channel,
    /// Output labels (`None`: the input labels, or `y0, y1, ...` for other sizes).
    pub output_labels: Option<Vec<String>>,
}

/// A closed-form mechanism with one privacy parameter.
pub trait Baseline {
    /// Its name, as on the command line.
    fn name(&self) -> &'static str;
    /// Whether it is defined on `domain` (size, geometry).
    fn applies(&self, domain: &Domain) -> bool;
    /// Its channel at `eps` over `domain` (errors when it does not apply).
    fn channel(&self, domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError>;
}

/// The matrix baselines, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum BaselineSpec {
    /// k-ary randomized response (eps-LDP).
    KRr,
    /// Warner's randomized response (binary domains; k-RR with k = 2).
    Warner,
    /// Mangat's improved response (binary; `Q[1][1] = 1`, `Q[0][1] = e^-eps`).
    Mangat,
    /// The geometric mechanism `x + Z`, `P(Z = z)` proportional to `e^{-eps |z|}`, on symbol
    /// indices; outputs within `n - 1` of the domain, the two tails beyond reported as one
    /// output each.
    Geometric,
    /// The truncated geometric mechanism on symbol indices (tails folded onto the ends).
    TruncatedGeometric,
    /// The exponential mechanism, `Q[x][y]` proportional to `e^{-eps d(x, y) / 2}` over the
    /// domain's natural distance (eps-d-private).
    Exponential,
    /// Planar Laplace on a grid domain, each point snapped to its nearest cell
    /// (eps-geo-indistinguishable in Euclidean distance).
    PlanarLaplace,
    /// Hadamard response (eps-LDP), `2^ceil(log2(n + 1))` outputs.
    Hadamard,
}

impl BaselineSpec {
    /// Every matrix baseline.
    pub const ALL: [BaselineSpec; 8] = [
        BaselineSpec::KRr,
        BaselineSpec::Warner,
        BaselineSpec::Mangat,
        BaselineSpec::Geometric,
        BaselineSpec::TruncatedGeometric,
        BaselineSpec::Exponential,
        BaselineSpec::PlanarLaplace,
        BaselineSpec::Hadamard,
    ];

    /// The mechanism.
    pub fn mechanism(self) -> Box<dyn Baseline> {
        match self {
            BaselineSpec::KRr => Box::new(KRr),
            BaselineSpec::Warner => Box::new(Warner),
            BaselineSpec::Mangat => Box::new(Mangat),
            BaselineSpec::Geometric => Box::new(Geometric),
            BaselineSpec::TruncatedGeometric => Box::new(TruncatedGeometric),
            BaselineSpec::Exponential => Box::new(Exponential),
            BaselineSpec::PlanarLaplace => Box::new(PlanarLaplace::default()),
            BaselineSpec::Hadamard => Box::new(HadamardResponse),
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        self.mechanism().name()
    }

    /// Its channel at `eps` over `domain`, after checking `eps`.
    pub fn build(self, domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError> {
        super::check_epsilon("--epsilon", eps)?;
        let m = self.mechanism();
        if !m.applies(domain) {
            return Err(CollectError::invalid(
                "--baseline",
                m.name(),
                format!("does not apply to this domain of {} symbols", domain.size()),
            ));
        }
        m.channel(domain, eps)
    }
}

/// Wrap rows computed by a closed form as a validated channel.
pub(crate) fn wrap(
    rows: Vec<Vec<f64>>,
    labels: Option<Vec<String>>,
) -> Result<BaselineChannel, CollectError> {
    Ok(BaselineChannel {
        channel: Channel::new(rows)?,
        output_labels: labels,
    })
}
