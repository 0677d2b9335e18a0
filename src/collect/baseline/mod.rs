//! Named baseline mechanisms, usable wherever a channel is. Each implements [`Baseline`]
//! (one file per family) and has a variant of the serde-tagged [`BaselineSpec`]. The
//! unary-encoding and hashing oracles, whose outputs are not a small matrix, implement
//! [`oracle::FrequencyOracle`] instead.

mod geometric;
pub mod oracle;
mod planar;
mod randomized;
mod structured;

pub use geometric::{Exponential, Geometric, TruncatedGeometric};
pub use planar::PlanarLaplace;
pub use randomized::{HadamardResponse, KRr, Mangat, Warner};
pub use structured::{HadamardBlocks, HadamardHighLow};

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
    /// Hadamard response over the sensitive set of high-low LDP (needs `--sensitive`).
    HadamardHighLow,
    /// Hadamard response within each block of block-structured LDP (needs `--blocks`).
    HadamardBlock,
}

/// What the structured baselines need: the sensitive set (high-low) or the partition (blocks),
/// as symbol indices.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Structure {
    /// Sensitive symbols, for `hadamard-high-low`.
    pub sensitive: Vec<usize>,
    /// Blocks of a partition, for `hadamard-block`.
    pub blocks: Vec<Vec<usize>>,
}

impl BaselineSpec {
    /// Every matrix baseline.
    pub const ALL: [BaselineSpec; 10] = [
        BaselineSpec::KRr,
        BaselineSpec::Warner,
        BaselineSpec::Mangat,
        BaselineSpec::Geometric,
        BaselineSpec::TruncatedGeometric,
        BaselineSpec::Exponential,
        BaselineSpec::PlanarLaplace,
        BaselineSpec::Hadamard,
        BaselineSpec::HadamardHighLow,
        BaselineSpec::HadamardBlock,
    ];

    /// The mechanism (a structured one without its structure applies nowhere).
    pub fn mechanism(self) -> Box<dyn Baseline> {
        self.with_structure(&Structure::default())
    }

    /// The mechanism, with the structure the structured baselines need.
    pub fn with_structure(self, structure: &Structure) -> Box<dyn Baseline> {
        match self {
            BaselineSpec::KRr => Box::new(KRr),
            BaselineSpec::Warner => Box::new(Warner),
            BaselineSpec::Mangat => Box::new(Mangat),
            BaselineSpec::Geometric => Box::new(Geometric),
            BaselineSpec::TruncatedGeometric => Box::new(TruncatedGeometric),
            BaselineSpec::Exponential => Box::new(Exponential),
            BaselineSpec::PlanarLaplace => Box::new(PlanarLaplace::default()),
            BaselineSpec::Hadamard => Box::new(HadamardResponse),
            BaselineSpec::HadamardHighLow => Box::new(HadamardHighLow {
                sensitive: structure.sensitive.clone(),
            }),
            BaselineSpec::HadamardBlock => Box::new(HadamardBlocks {
                blocks: structure.blocks.clone(),
            }),
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        self.mechanism().name()
    }

    /// Its channel at `eps` over `domain`, after checking `eps`.
    pub fn build(self, domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError> {
        self.build_with(domain, eps, &Structure::default())
    }

    /// As [`BaselineSpec::build`], with the structure of the structured baselines.
    pub fn build_with(
        self,
        domain: &Domain,
        eps: f64,
        structure: &Structure,
    ) -> Result<BaselineChannel, CollectError> {
        super::check_epsilon("--epsilon", eps)?;
        let m = self.with_structure(structure);
        if !m.applies(domain) {
            let what = match self {
                BaselineSpec::HadamardHighLow => format!(
                    "needs --sensitive with symbols of this domain of {} symbols",
                    domain.size()
                ),
                BaselineSpec::HadamardBlock => format!(
                    "needs --blocks, a partition of this domain of {} symbols",
                    domain.size()
                ),
                _ => format!("does not apply to this domain of {} symbols", domain.size()),
            };
            return Err(CollectError::invalid("--baseline", m.name(), what));
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
