//! Composition of releases: the product channel of independent releases, the composition
//! bounds the papers state, and the notions `releases = k` of an `ldp` or `lip` entry.
//!
//! - [`mod@product`]: the product channel `Q1 x ... x Qk` over `m1 * ... * mk` outputs;
//! - [`bounds`]: Thm 4 and Cor. 4/5 of B. Jiang, M. Seif, R. Tandon and M. Li, "Context-Aware
//!   Local Information Privacy", IEEE Trans. Inf. Forensics Security 16, 2021, doi:10.1109/TIFS.2021.3087350; basic and
//!   advanced (Dwork, Rothblum and Vadhan, FOCS 2010) composition for LDP;
//! - [`notion`]: `releases = k` in a `[[privacy]]` entry: a channel whose k-fold release meets
//!   the requested eps.

pub mod bounds;
pub mod notion;
pub mod product;

pub use bounds::{advanced_composition, basic_composition, sequential_bound, theorem4_bound};
pub use notion::{ComposedLdp, ComposedLip};
pub use product::{power, product, product_size, product_until, MAX_PRODUCT_ENTRIES};

use std::time::Instant;

/// [`ComposeError::TimeLimit`] naming `stage` when `deadline` has passed.
pub(crate) fn check_deadline(deadline: Option<Instant>, stage: &str) -> Result<(), ComposeError> {
    match deadline {
        Some(d) if Instant::now() >= d => Err(ComposeError::TimeLimit(stage.to_string())),
        _ => Ok(()),
    }
}

/// A count computed with saturating arithmetic: `more than 2^64` when it saturated.
fn show_count(v: usize) -> String {
    if v == usize::MAX {
        "more than 2^64".into()
    } else {
        v.to_string()
    }
}

/// Errors of composition.
#[derive(Debug, thiserror::Error)]
pub enum ComposeError {
    /// The product channel would be too large.
    #[error("the product channel needs {} entries ({inputs} inputs x {} outputs), above the limit of {limit}; use fewer releases or smaller channels", show_count(*entries), show_count(*outputs))]
    TooLarge {
        /// Inputs.
        inputs: usize,
        /// Outputs of the product (saturating).
        outputs: usize,
        /// Entries needed (saturating).
        entries: usize,
        /// The limit, [`MAX_PRODUCT_ENTRIES`].
        limit: usize,
    },
    /// The channels have different numbers of inputs.
    #[error("channel {index} has {found} inputs, but the first has {expected}; composed releases must share their input")]
    InputMismatch {
        /// Index of the offending channel.
        index: usize,
        /// Inputs of the first channel.
        expected: usize,
        /// Inputs of this one.
        found: usize,
    },
    /// The deadline passed before the leakage was computed (the stage it stopped in).
    #[error("the time limit ran out while {0}")]
    TimeLimit(String),
    /// A bad parameter.
    #[error("{key} = {value}: {reason}")]
    Invalid {
        /// The parameter.
        key: String,
        /// Its value.
        value: String,
        /// What is wrong.
        reason: String,
    },
}
