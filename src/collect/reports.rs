//! Reading collected reports into output counts: one report per line (an output label) or a
//! CSV column of them, or a counts file of `label,count` lines.

use super::privatize::RecordFormat;
use super::{CollectError, Model};
use std::collections::HashMap;
use std::io::BufRead;

fn io(source: std::io::Error) -> CollectError {
    CollectError::io("cannot read", "the input", source)
}

fn label_index(model: &Model) -> HashMap<&[u8], usize> {
    model
        .output_labels
        .iter()
        .enumerate()
        .map(|(y, l)| (l.as_bytes(), y))
        .collect()
}

fn unknown(line: u64, text: &[u8], model: &Model) -> CollectError {
    let shown: Vec<&str> = model
        .output_labels
        .iter()
        .take(8)
        .map(String::as_str)
        .collect();
    let more = if model.outputs() > 8 { ", ..." } else { "" };
    CollectError::Record {
        line,
        what: "report",
        value: String::from_utf8_lossy(text).into_owned(),
        reason: format!("not an output of the channel ({}{more})", shown.join(", ")),
    }
}

/// Count the reports in `input` (one output label per line, blank lines skipped, or a CSV
/// column).
pub fn count_reports<R: BufRead>(
    mut input: R,
    model: &Model,
    format: &RecordFormat,
) -> Result<Vec<u64>, CollectError> {
    let index = label_index(model);
    let mut counts = vec![0u64; model.outputs()];
    match format {
        RecordFormat::Lines => {
            let mut buf = Vec::new();
            let mut line = 0u64;
            loop {
                buf.clear();
                if input.read_until(b'\n', &mut buf).map_err(io)? == 0 {
                    break;
                }
                line += 1;
                let text = super::without_bom(line, &buf).trim_ascii();
                // Blank lines (a trailing newline left by an editor) are no report, unless
                // the empty string is one of the channel's outputs.
                if text.is_empty() && !index.contains_key(text) {
                    continue;
                }
                let y = *index.get(text).ok_or_else(|| unknown(line, text, model))?;
                counts[y] += 1;
            }
        }
        RecordFormat::Csv { column } => {
            let mut reader = csv::ReaderBuilder::new().from_reader(input);
            let header = reader.byte_headers().map_err(|e| csv_error(&e))?.clone();
            let col = header
                .iter()
                .position(|h| h.trim_ascii() == column.as_bytes())
                .ok_or_else(|| {
                    CollectError::invalid("--column", column, "no such column in the header")
                })?;
            let mut record = csv::ByteRecord::new();
            while reader
                .read_byte_record(&mut record)
                .map_err(|e| csv_error(&e))?
            {
                let line = record.position().map_or(0, |p| p.line());
                let text = record.get(col).unwrap_or(b"").trim_ascii();
                let y = *index.get(text).ok_or_else(|| unknown(line, text, model))?;
                counts[y] += 1;
            }
        }
    }
    Ok(counts)
}

fn csv_error(e: &csv::Error) -> CollectError {
    CollectError::Record {
        line: e.position().map_or(0, |p| p.line()),
        what: "CSV record",
        value: String::new(),
        reason: e.to_string(),
    }
}

/// Read a counts file: `label,count` lines (an optional header line `<name>,count`; blank lines
/// and lines starting with `#` are skipped). Outputs not listed have count 0.
pub fn read_counts<R: BufRead>(input: R, model: &Model) -> Result<Vec<u64>, CollectError> {
    let index = label_index(model);
    let mut counts = vec![0u64; model.outputs()];
    let mut seen = vec![false; model.outputs()];
    for (i, line) in input.lines().enumerate() {
        let line_no = i as u64 + 1;
        let line = line.map_err(io)?;
        let text = line.trim();
        let header = i == 0
            && text
                .rsplit_once(',')
                .is_some_and(|(_, c)| c.trim() == "count");
        if text.is_empty() || text.starts_with('#') || header {
            continue;
        }
        let bad = |reason: String| CollectError::Record {
            line: line_no,
            what: "count",
            value: text.to_string(),
            reason,
        };
        let (label, count) = text
            .rsplit_once(',')
            .ok_or_else(|| bad("expected `label,count`".into()))?;
        let label = label.trim();
        let y = *index
            .get(label.as_bytes())
            .ok_or_else(|| bad(format!("`{label}` is not an output of the channel")))?;
        if seen[y] {
            return Err(bad(format!("`{label}` is listed twice")));
        }
        seen[y] = true;
        counts[y] = count
            .trim()
            .parse()
            .map_err(|_| bad("the count must be a non-negative integer".into()))?;
    }
    Ok(counts)
}

/// Read oracle reports (one per line, in the oracle's wire form, or a CSV column of them):
/// the support count of every symbol, the number of reports and how many of them are OLH
/// reports of the old linear hash (decoded with it; see
/// [`legacy_hash_warning`](super::baseline::oracle::legacy_hash_warning)).
pub fn count_oracle_reports<R: BufRead>(
    mut input: R,
    oracle: &dyn super::baseline::oracle::FrequencyOracle,
    format: &RecordFormat,
) -> Result<(Vec<u64>, u64, u64), CollectError> {
    use super::baseline::oracle::{HashFamily, OracleReport};
    let mut support = vec![0u64; oracle.symbols()];
    let (mut users, mut legacy) = (0u64, 0u64);
    let mut add = |text: &[u8], line: u64| -> Result<(), CollectError> {
        let text = String::from_utf8_lossy(text.trim_ascii());
        let report = oracle.parse(&text, line)?;
        oracle.add_support(&report, &mut support);
        users += 1;
        legacy += u64::from(matches!(
            report,
            OracleReport::Hashed {
                family: HashFamily::Linear,
                ..
            }
        ));
        Ok(())
    };
    match format {
        RecordFormat::Lines => {
            let mut buf = Vec::new();
            let mut line = 0u64;
            loop {
                buf.clear();
                if input.read_until(b'\n', &mut buf).map_err(io)? == 0 {
                    break;
                }
                line += 1;
                add(super::without_bom(line, &buf), line)?;
            }
        }
        RecordFormat::Csv { column } => {
            let mut reader = csv::ReaderBuilder::new().from_reader(input);
            let header = reader.byte_headers().map_err(|e| csv_error(&e))?.clone();
            let col = header
                .iter()
                .position(|h| h.trim_ascii() == column.as_bytes())
                .ok_or_else(|| {
                    CollectError::invalid("--column", column, "no such column in the header")
                })?;
            let mut record = csv::ByteRecord::new();
            while reader
                .read_byte_record(&mut record)
                .map_err(|e| csv_error(&e))?
            {
                let line = record.position().map_or(0, |p| p.line());
                add(record.get(col).unwrap_or(b""), line)?;
            }
        }
    }
    Ok((support, users, legacy))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collect::baseline::BaselineSpec;
    use crate::Domain;

    fn model() -> Model {
        Model::baseline(BaselineSpec::KRr, Domain::sized(3).unwrap(), 1.0).unwrap()
    }

    #[test]
    fn blank_lines_in_a_reports_file_are_no_reports() {
        let m = model();
        let labels = &m.output_labels;
        let text = format!("{}\n\n{}\n{}\n\n\n", labels[0], labels[2], labels[2]);
        let counts = count_reports(text.as_bytes(), &m, &RecordFormat::Lines).unwrap();
        assert_eq!(counts, vec![1, 0, 2]);
        // An unknown label is still an error naming its line.
        let bad = format!("{}\nnope\n", labels[0]);
        let e = count_reports(bad.as_bytes(), &m, &RecordFormat::Lines).unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
    }

    #[test]
    fn a_counts_file_may_start_with_any_header_ending_in_count() {
        let m = model();
        let labels = &m.output_labels;
        for header in ["output,count", "label,count", "symbol, count"] {
            let text = format!("{header}\n{},5\n{},7\n", labels[0], labels[1]);
            assert_eq!(read_counts(text.as_bytes(), &m).unwrap(), vec![5, 7, 0]);
        }
        // Elsewhere than the first line it is a bad record.
        let text = format!("{},5\nlabel,count\n", labels[0]);
        assert!(read_counts(text.as_bytes(), &m).is_err());
    }
}
