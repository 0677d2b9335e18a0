//! `mechsynth privatize`: randomize records through a channel, a baseline or an oracle.

use crate::common::{check_outputs, Output, UsageError};
use crate::input::{check_time_limit, deadline_after, materialize, open};
use crate::mechanism::{Mechanism, MechanismArgs};
use anyhow::{bail, Context, Result};
use mechsynth::collect::baseline::BaselineSpec;
use mechsynth::collect::privatize::{
    privatize_oracle, privatize_sampled, realized_guarantee, MatchBy, PrivatizeSummary,
    RecordFormat,
};
use mechsynth::collect::sampler::{secure_rng, seeded_rng, ChannelSampler, CollectRng};
use mechsynth::collect::Model;
use mechsynth::privacy::PrivacySpec;
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
    sampler: Option<&ChannelSampler>,
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
        Mechanism::Channel(model) => {
            let sampler = sampler.context("a channel is privatized with its sampler")?;
            privatize_sampled(reader, out, model, sampler, &format, by, rng)?
        }
        Mechanism::Oracle(oracle, domain) => {
            privatize_oracle(reader, out, oracle.as_ref(), domain, &format, by, rng)?
        }
    })
}

/// Run `privatize`: nothing is written unless every record is in the domain.
pub fn run(mut args: PrivatizeArgs) -> Result<u8> {
    let start = Instant::now();
    // `-o -` is standard output, where the reports go without -o.
    if args
        .output
        .as_deref()
        .is_some_and(mechsynth::source::is_stdio)
    {
        args.output = None;
    }
    let mut files = args.mechanism.files().to_vec();
    files.push(("INPUT", Some(args.input.as_path())));
    crate::common::one_stdin(&files)?;
    check_time_limit(args.time_limit)?;
    let mechanism = args.mechanism.load()?;
    if args.seed.is_some() {
        log_line!(
            "warning: {}",
            mechsynth::collect::sampler::seed_warning("--seed")
        );
    }
    let sampler = match &mechanism {
        Mechanism::Channel(model) => {
            let sampler = ChannelSampler::new(&model.channel)?;
            if !realized_holds(&args, model, &sampler)? {
                return Ok(REALIZED_VIOLATED);
            }
            Some(sampler)
        }
        Mechanism::Oracle(..) => None,
    };
    let mut rng = args.seed.map_or_else(secure_rng, seeded_rng);
    let (input, _spool) = materialize(&args.input, deadline_after(start, args.time_limit)?)?;
    let run_pass = |out: Option<&mut dyn Write>, rng: &mut CollectRng| {
        pass(&args, &mechanism, sampler.as_ref(), &input, out, rng, start)
    };
    // A pass that writes nothing, so that a bad record is found before anything is written.
    let check_pass =
        |rng: &mut CollectRng| -> Result<()> { no_records(&run_pass(None, rng)?, &args.input) };
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
                check_pass(&mut rng)?;
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(out)
                    .with_context(|| format!("cannot write {}", out.display()))?;
                let mut w = BufWriter::with_capacity(1 << 20, file);
                let summary = run_pass(Some(&mut w), &mut rng)?;
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
            let summary = run_pass(Some(&mut w), &mut rng)?;
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
            check_pass(&mut rng)?;
            let stdout = std::io::stdout();
            let mut w = BufWriter::with_capacity(1 << 20, stdout.lock());
            let summary = run_pass(Some(&mut w), &mut rng)?;
            w.flush().context("cannot write to standard output")?;
            summary
        }
    };
    log_line!("privatized {} records", summary.records);
    Ok(0)
}

/// Exit code when the channel the sampler realizes does not meet the stated privacy (as
/// `audit`'s for a violated constraint).
const REALIZED_VIOLATED: u8 = 5;

/// What the channel promises: the constraints its file states, or the LDP of a baseline that
/// is eps-LDP by construction (the others' parameter is not an LDP bound; their realized LDP is
/// still reported).
fn stated_privacy(args: &PrivatizeArgs) -> Result<Vec<PrivacySpec>> {
    if let Some(path) = &args.mechanism.channel {
        return Ok(mechsynth::audit::AuditSpec::load(path)?.privacy);
    }
    let ldp = matches!(
        args.mechanism.baseline,
        Some(
            BaselineSpec::KRr
                | BaselineSpec::Warner
                | BaselineSpec::Mangat
                | BaselineSpec::Hadamard
        )
    );
    Ok(match (ldp, args.mechanism.epsilon) {
        (true, Some(epsilon)) => vec![PrivacySpec::Ldp {
            epsilon,
            delta: None,
            releases: None,
        }],
        _ => Vec::new(),
    })
}

/// Report on stderr the leakage of the channel the sampler realizes (each row normalized
/// exactly); `false` when it exceeds a stated constraint beyond rounding.
fn realized_holds(args: &PrivatizeArgs, model: &Model, sampler: &ChannelSampler) -> Result<bool> {
    use mechsynth::audit::Verdict;
    use mechsynth::numeric::fixed_up;
    let realized = realized_guarantee(model, sampler, &stated_privacy(args)?)?;
    if realized.exact_rows {
        log_line!("realized channel: every row sums to exactly 1; each report is drawn with exactly the channel's probabilities");
    } else {
        log_line!(
            "realized channel: each row divided by its exact sum (sums in [{:.17}, {:.17}]); each report is drawn with exactly those probabilities",
            realized.row_sums.0,
            realized.row_sums.1
        );
    }
    log_line!("realized ldp {}", fixed_up(realized.ldp, 9));
    for c in &realized.checks {
        let verdict = match c.verdict {
            Verdict::Holds => "holds".to_string(),
            Verdict::HoldsUpToRounding => format!("holds up to rounding (excess {:.1e})", c.excess),
            Verdict::Violated => format!("VIOLATED (excess {:.3e})", c.excess),
        };
        log_line!(
            "realized {}: requested {}, achieved {}, {verdict}",
            c.check.constraint,
            c.check.requested,
            fixed_up(c.check.achieved, 9)
        );
    }
    if !realized.not_recomputed.is_empty() {
        log_line!(
            "warning: not recomputed for the normalized rows (their certificate speaks of the numbers): {}; dividing each row by its sum changes any ratio of entries, or of prior-weighted column sums, by a factor of at most max sum / min sum (a log of at most {})",
            realized.not_recomputed.join(", "),
            fixed_up(
                mechsynth::numeric::log_ratio_up(realized.row_sums.1, realized.row_sums.0),
                20
            )
        );
    }
    if !realized.holds() {
        log_line!("error: the channel the sampler realizes does not meet the stated privacy; nothing was privatized");
        return Ok(false);
    }
    Ok(true)
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
