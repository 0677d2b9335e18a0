//! The built `mechsynth` binary, run as a user would: subcommands, flags, output formats,
//! exit codes and messages. One test crate (one binary to link) for all of them.

#[path = "../support/bin.rs"]
mod bin;
mod guards_support;
mod html_support;
mod output_safety_support;

mod anytime_cli;
mod audit_closed_stderr_cli;
mod audit_inputs_cli;
mod cli;
mod cli_guards;
mod collect_cli;
mod collection_fixes_cli;
mod completions_cli;
mod compose_cli;
mod continuous_cli;
mod continuous_discrete_lip_cli;
mod conventions_cli;
mod curve_resume_cli;
mod curve_shard_cli;
mod explain_cli;
mod first_order_cli;
mod frequency_cli;
mod html_browser_cli;
mod html_cli;
mod input_checks_cli;
mod line_cli;
mod number_display_cli;
mod numeric_flags_cli;
mod output_labels_cli;
mod output_safety_cli;
mod output_safety_inputs_cli;
mod png_cli;
mod profile_cli;
mod simulate_guards_cli;
mod sweep_cli;
mod time_limit_cli;
mod transfer_limits_cli;
