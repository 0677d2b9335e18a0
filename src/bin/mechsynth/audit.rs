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
    /// Exit 5 also when a constraint holds only up to floating-point rounding.
    #[arg(long)]
    strict: bool,
}

/// Run `audit`; exit code 5 when a stated constraint is violated (with `--strict`, also when
/// it holds only up to rounding).
pub fn run(args: AuditArgs) -> Result<u8> {
    let spec = AuditSpec::load(&args.file)?;
    let report = audit(&spec)?;
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Table => report.to_table(),
        Format::Csv => report.to_csv(),
    };
    emit(&text, None)?;
    let holds = if args.strict {
        report.all_certified
    } else {
        report.all_hold
    };
    Ok(if holds { 0 } else { 5 })
}
