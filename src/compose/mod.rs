//! Composition: the leakage of k independent releases of the same input, computed exactly on
//! the product channel, against the bounds the papers state.
//!
//! - [`mod@product`]: the product channel `Q1 x ... x Qk` over `m1 * ... * mk` outputs;
//! - [`bounds`]: Thm 4 and Cor. 4/5 of B. Jiang, M. Seif, R. Tandon and M. Li, "Context-Aware
//!   Local Information Privacy", IEEE Trans. Inf. Forensics Security 16, 2021, doi:10.1109/TIFS.2021.3087350; basic and
//!   advanced (Dwork, Rothblum and Vadhan, FOCS 2010) composition for LDP;
//! - [`report`]: the exact leakage of the joint release under every computable notion, each
//!   with its bound, ratio and gap (`mechsynth compose`);
//! - [`notion`]: `releases = k` in a `[[privacy]]` entry: a channel whose k-fold release meets
//!   the requested eps.

pub mod report;

pub use crate::privacy::composition::{
    advanced_composition, basic_composition, bounds, notion, power, product, product_size,
    product_until, sequential_bound, theorem4_bound, ComposeError, ComposedLdp, ComposedLip,
    MAX_PRODUCT_ENTRIES,
};
pub use report::{compose, ComposeReport, ComposeRow};

use crate::privacy::composition::check_deadline;
