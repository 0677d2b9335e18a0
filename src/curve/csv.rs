//! The curve CSV: one row per point and series, full precision (shortest round-trip decimals).

use super::{CurveError, PointStatus, Row};

/// The header line.
pub const CSV_HEADER: &str = "series,x,value,status,bound,leakage,notes";

fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\"").replace('\n', " "))
    } else {
        s.to_string()
    }
}

/// A number as the CSV writes it: the shortest round-trip decimal (`{:?}`), `nan`, `inf` or
/// `-inf`, and an empty field for `None`.
pub fn csv_number(v: Option<f64>) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:?}"),
        Some(v) if v.is_nan() => "nan".into(),
        Some(v) if v > 0.0 => "inf".into(),
        Some(_) => "-inf".into(),
        None => String::new(),
    }
}

/// One CSV line (without the newline).
pub fn csv_line(r: &Row) -> String {
    format!(
        "{},{},{},{},{},{},{}",
        field(&r.series),
        csv_number(Some(r.x)),
        csv_number(r.value),
        r.status,
        csv_number(r.bound),
        csv_number(r.leakage),
        field(&r.notes)
    )
}

/// The rows as CSV, header first.
pub fn to_csv(rows: &[Row]) -> String {
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for r in rows {
        out.push_str(&csv_line(r));
        out.push('\n');
    }
    out
}

fn split_line(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    fields.push(cur);
    fields
}

/// Parse a curve CSV written by [`to_csv`]; `origin` names it in errors. A truncated last
/// line (a run stopped mid-write) is dropped.
pub fn parse_csv(text: &str, origin: &str) -> Result<Vec<Row>, CurveError> {
    let bad = |line: usize, reason: &str| CurveError::Resume {
        path: origin.to_string(),
        reason: format!("line {line}: {reason}"),
    };
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, h)) if h.trim() == CSV_HEADER => {}
        Some((_, h)) if h.starts_with(super::SHARD_PREFIX) => {
            return Err(bad(
                1,
                "it is one share of a sharded curve; continue it with its --shard, or join the shares with --merge",
            ))
        }
        _ => return Err(bad(1, &format!("the header is not `{CSV_HEADER}`"))),
    }
    let complete = text.ends_with('\n');
    let total = text.lines().count();
    let mut rows = Vec::new();
    for (i, line) in lines {
        if line.trim().is_empty() || (!complete && i + 1 == total) {
            continue;
        }
        let f = split_line(line);
        if f.len() != 7 {
            return Err(bad(i + 1, "expected 7 fields"));
        }
        let opt = |s: &str| -> Result<Option<f64>, CurveError> {
            if s.is_empty() {
                Ok(None)
            } else {
                s.parse()
                    .map(Some)
                    .map_err(|_| bad(i + 1, &format!("`{s}` is not a number")))
            }
        };
        rows.push(Row {
            series: f[0].clone(),
            x: opt(&f[1])?.ok_or_else(|| bad(i + 1, "x is empty"))?,
            value: opt(&f[2])?,
            status: PointStatus::parse(&f[3]),
            bound: opt(&f[4])?,
            leakage: opt(&f[5])?,
            notes: f[6].clone(),
        });
    }
    Ok(rows)
}
