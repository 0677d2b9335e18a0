//! `mechsynth audit`: what a given channel really guarantees.

use crate::common::{emit, Format};
use anyhow::Result;
use mechsynth::{audit, AuditSpec};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct AuditArgs {
    /// The channel file.
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
}

/// Run `audit`; exit code 5 when a stated constraint does not hold.
pub fn run(args: AuditArgs) -> Result<u8> {
    let spec = AuditSpec::load(&args.file)?;
    let report = audit(&spec)?;
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Table => report.to_table(),
    };
    emit(&text, None)?;
    Ok(if report.all_hold { 0 } else { 5 })
}
