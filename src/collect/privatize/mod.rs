//! Streaming privatization of records: each record's value is looked up in the input domain
//! and replaced by the label of an output drawn from its row of the channel. Memory does not
//! grow with the number of records.

use super::baseline::oracle::FrequencyOracle;
mod lookup;
mod realized;

pub use lookup::SymbolLookup;
pub use realized::{realized_guarantee, RealizedGuarantee};

use super::sampler::ChannelSampler;
use super::{CollectError, Model};
use crate::domain::{Domain, Positions};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};

/// Two numeric values closer than this (relative to the larger magnitude, at least 1) name the
/// same domain value when records are matched by value.
pub const VALUE_MATCH_TOLERANCE: f64 = 1e-9;

/// How records are laid out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum RecordFormat {
    /// One value per line (surrounding whitespace ignored).
    Lines,
    /// A CSV file with a header; the named column is privatized, the others are copied.
    Csv {
        /// The column's header name.
        column: String,
    },
}

/// How a record names its domain symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum MatchBy {
    /// By the symbol's label, exactly.
    #[default]
    Label,
    /// By numeric value (within [`VALUE_MATCH_TOLERANCE`]); labels also match. Only for a
    /// domain with numeric values (`values`/`line`, or `size = n` whose values are its
    /// indices): a domain of labels, grid cells or points is refused.
    Value,
    /// By the symbol's 0-based index.
    Index,
}

/// What a privatization run did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PrivatizeSummary {
    /// Records read.
    pub records: u64,
    /// How many records had each input symbol.
    pub input_counts: Vec<u64>,
}

fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    &bytes[start..end]
}

fn outside(line: u64, text: &[u8], domain: &Domain) -> CollectError {
    let shown: Vec<&str> = domain.labels().iter().take(8).map(String::as_str).collect();
    let more = if domain.size() > 8 { ", ..." } else { "" };
    CollectError::Record {
        line,
        what: "value",
        value: String::from_utf8_lossy(text).into_owned(),
        reason: format!("not in the domain ({}{more})", shown.join(", ")),
    }
}

fn io(action: &'static str, source: std::io::Error) -> CollectError {
    let path = if action == "cannot read" {
        "the input"
    } else {
        "the output"
    };
    CollectError::io(action, path, source)
}

/// Read every record from `input`, and, when `output` is given, write its privatized form
/// there (CSV: every column copied, the privatized one replaced by an output label; lines: one
/// output label per line). With `output = None` the records are only checked, which lets a
/// caller refuse a bad file before writing anything. Each report is drawn exactly from the
/// record's row normalized to sum 1 ([`ChannelSampler`]); [`realized_guarantee`] gives the
/// leakage of that realized channel.
pub fn privatize<R: BufRead, W: Write, G: RngCore + ?Sized>(
    input: R,
    output: Option<W>,
    model: &Model,
    format: &RecordFormat,
    by: MatchBy,
    rng: &mut G,
) -> Result<PrivatizeSummary, CollectError> {
    let sampler = ChannelSampler::new(&model.channel)?;
    privatize_sampled(input, output, model, &sampler, format, by, rng)
}

/// As [`privatize`], with the sampler of `model`'s channel built once by the caller.
pub fn privatize_sampled<R: BufRead, W: Write, G: RngCore + ?Sized>(
    input: R,
    output: Option<W>,
    model: &Model,
    sampler: &ChannelSampler,
    format: &RecordFormat,
    by: MatchBy,
    rng: &mut G,
) -> Result<PrivatizeSummary, CollectError> {
    if sampler.inputs() != model.inputs() {
        return Err(CollectError::invalid(
            "sampler",
            format!("{} rows", sampler.inputs()),
            format!("the channel has {} rows", model.inputs()),
        ));
    }
    let labels: Vec<&[u8]> = model.output_labels.iter().map(|l| l.as_bytes()).collect();
    let emit = |x: usize, out: &mut Vec<u8>| {
        out.extend_from_slice(labels[sampler.sample(x, rng)]);
    };
    privatize_with(input, output, &model.domain, format, by, emit)
}

/// As [`privatize`], through a frequency oracle (reports in the oracle's wire form).
pub fn privatize_oracle<R: BufRead, W: Write, G: RngCore>(
    input: R,
    output: Option<W>,
    oracle: &dyn FrequencyOracle,
    domain: &Domain,
    format: &RecordFormat,
    by: MatchBy,
    rng: &mut G,
) -> Result<PrivatizeSummary, CollectError> {
    let emit = |x: usize, out: &mut Vec<u8>| {
        let report = oracle.randomize(x, rng);
        out.extend_from_slice(oracle.format(&report).as_bytes());
    };
    privatize_with(input, output, domain, format, by, emit)
}

/// Privatize with `emit(x, buffer)` appending the report of input `x` to the buffer.
pub fn privatize_with<R: BufRead, W: Write, F: FnMut(usize, &mut Vec<u8>)>(
    input: R,
    output: Option<W>,
    domain: &Domain,
    format: &RecordFormat,
    by: MatchBy,
    mut emit: F,
) -> Result<PrivatizeSummary, CollectError> {
    if by == MatchBy::Value
        && !matches!(domain.positions(), Positions::Line(_) | Positions::Indices)
    {
        return Err(CollectError::invalid(
            "--match",
            "value",
            "the domain has no numeric values (its symbols are labels, grid cells or points); match records by `label` or `index`",
        ));
    }
    let lookup = SymbolLookup::new(domain, by);
    let mut summary = PrivatizeSummary {
        records: 0,
        input_counts: vec![0; domain.size()],
    };
    match format {
        RecordFormat::Lines => lines(input, output, domain, &lookup, &mut emit, &mut summary)?,
        RecordFormat::Csv { column } => csv_records(
            input,
            output,
            domain,
            column,
            &lookup,
            &mut emit,
            &mut summary,
        )?,
    }
    Ok(summary)
}

fn lines<R: BufRead, W: Write, F: FnMut(usize, &mut Vec<u8>)>(
    mut input: R,
    mut output: Option<W>,
    domain: &Domain,
    lookup: &SymbolLookup,
    emit: &mut F,
    summary: &mut PrivatizeSummary,
) -> Result<(), CollectError> {
    let mut buf = Vec::with_capacity(256);
    let mut out_buf = Vec::with_capacity(256);
    let mut line = 0u64;
    loop {
        buf.clear();
        if input
            .read_until(b'\n', &mut buf)
            .map_err(|e| io("cannot read", e))?
            == 0
        {
            break;
        }
        line += 1;
        let text = trim(crate::collect::without_bom(line, &buf));
        let x = lookup
            .find(text)
            .ok_or_else(|| outside(line, text, domain))?;
        summary.records += 1;
        summary.input_counts[x] += 1;
        if let Some(out) = output.as_mut() {
            out_buf.truncate(0);
            emit(x, &mut out_buf);
            out_buf.push(b'\n');
            out.write_all(&out_buf).map_err(|e| io("cannot write", e))?;
        }
    }
    if let Some(out) = output.as_mut() {
        out.flush().map_err(|e| io("cannot write", e))?;
    }
    Ok(())
}

fn csv_records<R: BufRead, W: Write, F: FnMut(usize, &mut Vec<u8>)>(
    input: R,
    output: Option<W>,
    domain: &Domain,
    column: &str,
    lookup: &SymbolLookup,
    emit: &mut F,
    summary: &mut PrivatizeSummary,
) -> Result<(), CollectError> {
    let csv_error = |e: csv::Error| {
        let line = e.position().map_or(0, |p| p.line());
        CollectError::Record {
            line,
            what: "CSV record",
            value: String::new(),
            reason: e.to_string(),
        }
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(input);
    let header = reader.byte_headers().map_err(csv_error)?.clone();
    let col = header
        .iter()
        .position(|h| trim(h) == column.as_bytes())
        .ok_or_else(|| {
            let names: Vec<String> = header
                .iter()
                .map(|h| String::from_utf8_lossy(h).into_owned())
                .collect();
            CollectError::invalid(
                "--column",
                column,
                format!("no such column in the header ({})", names.join(", ")),
            )
        })?;
    let mut writer = output.map(|w| csv::WriterBuilder::new().from_writer(w));
    if let Some(w) = writer.as_mut() {
        w.write_byte_record(&header)
            .map_err(|e| io("cannot write", e.into()))?;
    }
    let mut record = csv::ByteRecord::new();
    let mut out = csv::ByteRecord::new();
    let mut label = Vec::new();
    while reader.read_byte_record(&mut record).map_err(csv_error)? {
        let line = record.position().map_or(0, |p| p.line());
        let text = record.get(col).map(trim).unwrap_or(b"");
        let x = lookup
            .find(text)
            .ok_or_else(|| outside(line, text, domain))?;
        summary.records += 1;
        summary.input_counts[x] += 1;
        if let Some(w) = writer.as_mut() {
            label.clear();
            emit(x, &mut label);
            out.clear();
            for (i, field) in record.iter().enumerate() {
                out.push_field(if i == col { &label } else { field });
            }
            w.write_byte_record(&out)
                .map_err(|e| io("cannot write", e.into()))?;
        }
    }
    if let Some(w) = writer.as_mut() {
        w.flush().map_err(|e| io("cannot write", e))?;
    }
    Ok(())
}
