//! `mechsynth privatize`: randomize records through a channel, a baseline or an oracle.

use crate::common::{check_outputs, Output, UsageError};
use crate::input::{check_time_limit, deadline_after, materialize, open};
use crate::mechanism::{Mechanism, MechanismArgs};
use anyhow::{bail, Context, Result};
use mechsynth::collect::privatize::{
    privatize, privatize_oracle, MatchBy, PrivatizeSummary, RecordFormat,
};
use mechsynth::collect::sampler::{secure_rng, seeded_rng, CollectRng};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args)]
pub struct PrivatizeArgs {
    #[command(flatten)]
    mechanism: MechanismArgs,
    /// The records: one value per line, or a CSV file with --column; `-` reads standard input.
    #[arg(default_value = "-")]
    input: PathBuf,
    /// Privatize this column of a CSV file with a header (the other columns are copied).
    #[arg(long)]
    column: Option<String>,
    /// How records name their symbol: by label, by numeric value, or by 0-based index.
    #[arg(long = "match", value_enum, default_value = "label")]
    by: MatchByArg,
    /// Seed the generator (reproducible, hence NOT private: for tests only).
    #[arg(long, value_parser = crate::numbers::seed())]
    seed: Option<u64>,
    /// Write to FILE instead of stdout (written to a temporary file, renamed when complete).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Allow -o to replace an existing file (never the records or the mechanism's files).
    #[arg(long)]
    force: bool,
    /// Give up after this many seconds (nothing is left in -o).
    #[arg(long, default_value_t = 3600.0, value_parser = crate::numbers::seconds())]
    time_limit: f64,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum MatchByArg {
    Label,
    Value,
    Index,
}

fn pass(
    args: &PrivatizeArgs,
    mechanism: &Mechanism,
    input: &Path,
    out: Option<&mut dyn Write>,
    rng: &mut CollectRng,
    start: Instant,
) -> Result<PrivatizeSummary> {
    let format = match &args.column {
        Some(c) => RecordFormat::Csv { column: c.clone() },
        None => RecordFormat::Lines,
    };
    let by = match args.by {
        MatchByArg::Label => MatchBy::Label,
        MatchByArg::Value => MatchBy::Value,
        MatchByArg::Index => MatchBy::Index,
    };
    let reader = open(input, "privatize", start, args.time_limit)?;
    Ok(match mechanism {
        Mechanism::Channel(model) => privatize(reader, out, model, &format, by, rng)?,
        Mechanism::Oracle(oracle, domain) => {
            privatize_oracle(reader, out, oracle.as_ref(), domain, &format, by, rng)?
        }
    })
}

/// Run `privatize`: nothing is written unless every record is in the domain.
pub fn run(args: PrivatizeArgs) -> Result<u8> {
    let start = Instant::now();
    check_time_limit(args.time_limit)?;
    let mechanism = args.mechanism.load()?;
    if args.seed.is_some() {
        log_line!("warning: --seed makes the randomization reproducible by anyone who knows the seed; seeded output is NOT private (use it for tests only)");
    }
    let mut rng = args.seed.map_or_else(secure_rng, seeded_rng);
    let (input, _spool) = materialize(&args.input, deadline_after(start, args.time_limit)?)?;
    let summary = match &args.output {
        Some(out) => {
            let mut inputs = vec![args.input.clone()];
            inputs.extend(args.mechanism.input_files());
            let output = Output {
                flag: "-o",
                path: out,
            };
            check_outputs(&[output], &inputs, args.force)?;
            // A FIFO, a device or a socket is written to as it is (after a check pass, so that a
            // bad record writes nothing); renaming a file over it would replace it.
            if std::fs::metadata(out).is_ok_and(|m| !m.is_file()) {
                no_records(
                    &pass(&args, &mechanism, &input, None, &mut rng, start)?,
                    &args.input,
                )?;
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(out)
                    .with_context(|| format!("cannot write {}", out.display()))?;
                let mut w = BufWriter::with_capacity(1 << 20, file);
                let summary = pass(&args, &mechanism, &input, Some(&mut w), &mut rng, start)?;
                w.flush()
                    .with_context(|| format!("cannot write {}", out.display()))?;
                log_line!("privatized {} records", summary.records);
                return Ok(0);
            }
            // A symbolic link is written through: the file it points to is replaced, the link
            // stays.
            let resolved = std::fs::canonicalize(out).unwrap_or_else(|_| out.clone());
            let out = &resolved;
            let name = out
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let tmp = out.with_file_name(format!(".{name}.partial-{}", std::process::id()));
            let guard = crate::input::TempFile(tmp.clone());
            let file = std::fs::File::create(&tmp)
                .with_context(|| format!("cannot write {}", tmp.display()))?;
            let mut w = BufWriter::with_capacity(1 << 20, file);
            let summary = pass(&args, &mechanism, &input, Some(&mut w), &mut rng, start)?;
            w.flush()
                .with_context(|| format!("cannot write {}", tmp.display()))?;
            drop(w);
            no_records(&summary, &args.input)?;
            std::fs::rename(&tmp, out)
                .with_context(|| format!("cannot write {}", out.display()))?;
            std::mem::forget(guard);
            log_line!("wrote {}", out.display());
            summary
        }
        None => {
            // Check every record first, so that a bad record leaves stdout empty.
            no_records(
                &pass(&args, &mechanism, &input, None, &mut rng, start)?,
                &args.input,
            )?;
            let stdout = std::io::stdout();
            let mut w = BufWriter::with_capacity(1 << 20, stdout.lock());
            let summary = pass(&args, &mechanism, &input, Some(&mut w), &mut rng, start)?;
            w.flush().context("cannot write to standard output")?;
            summary
        }
    };
    log_line!("privatized {} records", summary.records);
    Ok(0)
}

fn no_records(summary: &PrivatizeSummary, input: &Path) -> Result<()> {
    if summary.records == 0 {
        bail!(UsageError(format!(
            "invalid input {}: it holds no records",
            input.display()
        )));
    }
    Ok(())
}
