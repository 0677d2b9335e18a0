//! Long end-to-end scale checks of the built binary (minutes each on two cores). Not part of
//! `cargo test --release --workspace` (`test = false` in Cargo.toml); run them with
//! `cargo test --release --test scale`.

#[path = "../support/bin.rs"]
mod bin;
#[path = "../support/references.rs"]
mod references;

mod frequency_grid;
mod frequency_ldp;
mod polytrope_grid;
mod tiled_cli;
