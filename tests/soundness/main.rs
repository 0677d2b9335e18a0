//! Soundness against independent references: the sampled soundness suite (`soundness`, with
//! its references in `soundness_ref`) and its pinned findings, property tests, and checks in
//! exact rational arithmetic.
//!
//! Property tests keep their regression files beside their source (`NAME.proptest-regressions`,
//! see `common::persistence`).

mod common;
mod exact_arith;
mod soundness_ref;

mod certify_property;
mod emitted_leakage;
mod encodings;
mod global_optima;
mod ldp_interior;
mod lip_interior;
mod ratio_interior;
mod repair_weight;
mod sampler_exact;
mod soundness;
mod soundness_regressions;
mod transfer;
