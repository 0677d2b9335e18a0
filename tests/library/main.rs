//! The library's API: synthesis methods, collection, composition, continuous mechanisms,
//! curves, geography and verification, each against closed forms or independent checks (a few
//! of them also through the built binary). One test crate for all of them.

#[path = "../support/bin.rs"]
mod bin;
#[path = "../support/references.rs"]
mod references;

mod approximate;
mod architecture;
mod bootstrap_bound;
mod collect;
mod compose;
mod compose_time_limit;
mod continuous;
mod continuous_noise_edges;
mod continuous_prior_weights;
mod continuous_request_edges;
mod curve;
mod estimand;
mod estimate_time_limit;
mod frequency_design;
mod geo_points;
mod geo_spanner;
mod histogram_pricing;
mod identifiability_threshold;
mod interval_coverage;
mod line_method;
mod olh_hash;
mod olh_plan;
mod plot_images;
mod plots;
mod polytrope;
mod problem_files;
mod profile_levels;
mod ratio_repair;
mod scale_methods;
mod simulate_agreement;
mod solve_edge_cases;
mod structured_baselines;
mod theorems;
mod verify_registry;
mod verify_theorems_time_limit;
