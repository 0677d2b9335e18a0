//! Sharded curves: one grid split into N shares computed by separate runs (a job array), and
//! the shares' CSVs joined into exactly the CSV of one run over the whole grid.
//!
//! The points are dealt round-robin by grid index: share `i` of `N` (1-based) computes the
//! points at indices `i - 1`, `i - 1 + N`, `i - 1 + 2N`, ... so the shares differ by at most
//! one point, and the cheap and expensive ends of a grid are spread over every share.
//!
//! A share's CSV starts with one comment line before the CSV header,
//!
//! ```text
//! # mechsynth curve shard 2/3 of 10 points; curve 5d0c2a31f6b8e947; points 0.5,2,3.5
//! ```
//!
//! naming the share, the grid's number of points, a fingerprint of the curve (problem, grid,
//! series, mechanisms, backend and gap tolerance; not the time limits, so a share can be
//! resumed with a larger one) and the share's own grid values in grid order. Joining checks
//! that every share is of the same curve, that each of the N shares is there once, that each
//! holds exactly its points and no other share's, and writes the rows in grid order.

use super::{parse_csv, to_csv, CurveError, Grid, Row, SeriesSource};
use crate::problem::ProblemSpec;
use crate::solve::SolveOptions;

/// The start of a share's first line.
pub const SHARD_PREFIX: &str = "# mechsynth curve shard ";

/// One share of a grid: the `index`-th (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which share, from 1 to `count`.
    pub index: usize,
    /// How many shares.
    pub count: usize,
}

impl Shard {
    /// Parse `I/N` (whole numbers, `1 <= I <= N <= MAX_GRID_POINTS`); `key` names the flag or
    /// argument in errors.
    pub fn parse(key: &str, text: &str) -> Result<Shard, CurveError> {
        let bad = || {
            CurveError::invalid(
                key,
                text,
                format!(
                    "must be I/N with whole numbers 1 <= I <= N <= {} (this run computes the I-th of N shares of the grid)",
                    super::MAX_GRID_POINTS
                ),
            )
        };
        let (i, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let whole = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
        let (index, count) = (whole(i)?, whole(n)?);
        if index == 0 || index > count || count > super::MAX_GRID_POINTS {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether this share computes the point at `grid_index` (0-based): round-robin.
    pub fn owns(&self, grid_index: usize) -> bool {
        grid_index % self.count == self.index - 1
    }

    /// How many of `points` grid points this share computes.
    pub fn len_of(&self, points: usize) -> usize {
        (0..points).filter(|&j| self.owns(j)).count()
    }

    /// This share's values of `grid`, in grid order. A grid that repeats a value cannot be
    /// sharded (its rows could not be told apart when joining): refused naming `key`.
    pub fn values(&self, key: &str, grid: &Grid) -> Result<Vec<f64>, CurveError> {
        let mut seen = std::collections::BTreeSet::new();
        if let Some(x) = grid.values.iter().find(|x| !seen.insert(x.to_bits())) {
            return Err(CurveError::invalid(
                key,
                format!("{}/{}", self.index, self.count),
                format!("the grid repeats the value {x}; a sharded grid needs distinct values"),
            ));
        }
        Ok(grid
            .values
            .iter()
            .enumerate()
            .filter(|(j, _)| self.owns(*j))
            .map(|(_, x)| *x)
            .collect())
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// 64-bit FNV-1a: a stable hash (the same on every machine and build), for fingerprints.
fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// A fingerprint of a curve: 16 hex digits from the problem, the grid (axis and every value,
/// exactly), the series sources, the registry mechanisms kept, the backend, the method and the
/// gap tolerance. Two runs with the same fingerprint compute the same rows at the same point; the
/// time limits are left out, since they only decide which points finish.
pub fn curve_fingerprint(
    problem: &ProblemSpec,
    grid: &Grid,
    sources: &[SeriesSource],
    mechanisms: &[String],
    solve: &SolveOptions,
) -> String {
    let values: Vec<String> = grid
        .values
        .iter()
        .map(|x| format!("{:016x}", x.to_bits()))
        .collect();
    let text = format!(
        "problem {}\naxis {:?}\ngrid {}\nsources {}\nmechanisms {}\nbackend {:?}\nmethod {:?}\ngap {:016x} {:016x}\n",
        serde_json::to_string(problem).unwrap_or_default(),
        grid.axis,
        values.join(","),
        serde_json::to_string(sources).unwrap_or_default(),
        mechanisms.join(","),
        solve.backend,
        solve.method,
        solve.gap.relative.to_bits(),
        solve.gap.absolute.to_bits(),
    );
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// The first line of a share's CSV: which share, of which curve, and its points.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardHeader {
    /// The share.
    pub shard: Shard,
    /// The number of points of the whole grid.
    pub points: usize,
    /// The curve's [`curve_fingerprint`].
    pub fingerprint: String,
    /// The share's grid values, in grid order.
    pub values: Vec<f64>,
}

impl ShardHeader {
    /// The header of `shard` of `grid` for the curve `fingerprint`; refused (naming `key`) for
    /// a grid that repeats a value.
    pub fn new(
        key: &str,
        shard: Shard,
        grid: &Grid,
        fingerprint: String,
    ) -> Result<ShardHeader, CurveError> {
        Ok(ShardHeader {
            shard,
            points: grid.values.len(),
            values: shard.values(key, grid)?,
            fingerprint,
        })
    }

    /// The line (without the newline).
    pub fn line(&self) -> String {
        let values: Vec<String> = self.values.iter().map(|x| format!("{x:?}")).collect();
        format!(
            "{SHARD_PREFIX}{} of {} points; curve {}; points {}",
            self.shard,
            self.points,
            self.fingerprint,
            values.join(",")
        )
    }

    /// Parse the line; `None` when it is not one.
    pub fn parse(line: &str) -> Option<ShardHeader> {
        let rest = line.trim_end().strip_prefix(SHARD_PREFIX)?;
        let mut parts = rest.split("; ");
        let (shard, points) = parts.next()?.split_once(" of ")?;
        let points: usize = points.strip_suffix(" points")?.parse().ok()?;
        let fingerprint = parts.next()?.strip_prefix("curve ")?.to_string();
        let values = parts.next()?.strip_prefix("points")?.trim();
        let values = if values.is_empty() {
            Vec::new()
        } else {
            values
                .split(',')
                .map(|v| v.parse::<f64>().ok())
                .collect::<Option<Vec<f64>>>()?
        };
        if parts.next().is_some() {
            return None;
        }
        Some(ShardHeader {
            shard: Shard::parse("shard", shard).ok()?,
            points,
            fingerprint,
            values,
        })
    }
}

/// A share's CSV: its header line, then the CSV of `rows`.
pub fn shard_csv(header: &ShardHeader, rows: &[Row]) -> String {
    format!("{}\n{}", header.line(), to_csv(rows))
}

/// Read a share's CSV: its header and rows; `origin` names it in errors (as the value of
/// `key`).
pub fn parse_shard_csv(
    key: &str,
    text: &str,
    origin: &str,
) -> Result<(ShardHeader, Vec<Row>), CurveError> {
    let refuse = |reason: String| CurveError::invalid(key, origin, reason);
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let header = ShardHeader::parse(first).ok_or_else(|| {
        refuse(format!(
            "not the CSV of one share of a curve: its first line is not `{SHARD_PREFIX}I/N of P points; curve ...; points ...` (write the shares with `mechsynth curve FILE --shard I/N -o FILE`)"
        ))
    })?;
    let rows = parse_csv(rest, origin).map_err(|e| refuse(e.to_string()))?;
    Ok((header, rows))
}

/// Join the shares' CSVs `(origin, text)` into the rows of one run over the whole grid, in
/// grid order. Refused, naming the file (as the value of `key`): a file that is not a share, a
/// share of another curve (fingerprint, number of shares or grid size), a share given twice or
/// missing, a share holding other points than its own (missing, extra or another share's).
pub fn merge_shards(key: &str, parts: &[(String, String)]) -> Result<Vec<Row>, CurveError> {
    let mut shares: Vec<(String, ShardHeader, Vec<Row>)> = Vec::with_capacity(parts.len());
    for (origin, text) in parts {
        let (header, rows) = parse_shard_csv(key, text, origin)?;
        if let Some((first, h, _)) = shares.first() {
            let other = |what: String| {
                CurveError::invalid(
                    key,
                    origin,
                    format!("a share of another curve than {first}: {what}; every share must come from the same problem file, grid and options"),
                )
            };
            if header.fingerprint != h.fingerprint {
                return Err(other(format!(
                    "its curve is {}, that of {first} is {}",
                    header.fingerprint, h.fingerprint
                )));
            }
            if header.shard.count != h.shard.count || header.points != h.points {
                return Err(other(format!(
                    "it is share {} of {} points, {first} is share {} of {} points",
                    header.shard, header.points, h.shard, h.points
                )));
            }
        }
        if let Some((twice, _, _)) = shares
            .iter()
            .find(|(_, h, _)| h.shard.index == header.shard.index)
        {
            return Err(CurveError::invalid(
                key,
                origin,
                format!(
                    "share {} is given twice (also as {twice}); give each share once",
                    header.shard
                ),
            ));
        }
        shares.push((origin.clone(), header, rows));
    }
    let Some((_, first, _)) = shares.first() else {
        return Err(CurveError::invalid(
            key,
            "",
            "give the shares' CSVs to join",
        ));
    };
    let (count, points) = (first.shard.count, first.points);
    let missing: Vec<String> = (1..=count)
        .filter(|i| !shares.iter().any(|(_, h, _)| h.shard.index == *i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(CurveError::invalid(
            key,
            &shares[0].0,
            format!(
                "the curve has {count} shares, and share(s) {} are missing; give every share once",
                missing.join(", ")
            ),
        ));
    }
    // Each share's points, checked against its header and the grid's size.
    let mut owner: std::collections::BTreeMap<u64, &str> = std::collections::BTreeMap::new();
    for (origin, header, _) in &shares {
        let refuse = |reason: String| CurveError::invalid(key, origin, reason);
        let expected = header.shard.len_of(points);
        if header.values.len() != expected {
            return Err(refuse(format!(
                "share {} of {points} points must list {expected} points, its header lists {}",
                header.shard,
                header.values.len()
            )));
        }
        for x in &header.values {
            if let Some(other) = owner.insert(x.to_bits(), origin) {
                return Err(refuse(format!(
                    "its point x = {x} is also a point of {other}; the shares overlap"
                )));
            }
        }
    }
    for (origin, header, rows) in &shares {
        let refuse = |reason: String| CurveError::invalid(key, origin, reason);
        if let Some(r) = rows
            .iter()
            .find(|r| !header.values.iter().any(|x| x.to_bits() == r.x.to_bits()))
        {
            let whose = owner
                .get(&r.x.to_bits())
                .map(|o| format!(", a point of {o}; the shares overlap"))
                .unwrap_or_else(|| ", not a point of this curve".into());
            return Err(refuse(format!("it holds rows at x = {}{whose}", r.x)));
        }
        let absent: Vec<String> = header
            .values
            .iter()
            .filter(|x| !rows.iter().any(|r| r.x.to_bits() == x.to_bits()))
            .map(|x| x.to_string())
            .collect();
        if !absent.is_empty() {
            return Err(refuse(format!(
                "share {} lacks its point(s) x = {} (a run stopped early or cut by --time-limit); compute them with the same command and --resume",
                header.shard,
                absent.join(", ")
            )));
        }
    }
    // Grid order: point j is the (j / N)-th point of share (j mod N) + 1.
    let mut by_index: Vec<&(String, ShardHeader, Vec<Row>)> = shares.iter().collect();
    by_index.sort_by_key(|(_, h, _)| h.shard.index);
    let mut out = Vec::new();
    for j in 0..points {
        let (_, header, rows) = by_index[j % count];
        let x = header.values[j / count].to_bits();
        out.extend(rows.iter().filter(|r| r.x.to_bits() == x).cloned());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::{Axis, PointStatus};

    fn row(x: f64) -> Row {
        Row {
            series: "optimum ldp".into(),
            x,
            value: Some(x / 10.0),
            status: PointStatus::Optimal,
            bound: Some(x / 10.0),
            leakage: Some(x),
            notes: "method lp".into(),
        }
    }

    fn shares(n: usize, grid: &Grid) -> Vec<(String, String)> {
        (1..=n)
            .map(|i| {
                let shard = Shard { index: i, count: n };
                let header = ShardHeader::new("--shard", shard, grid, "f".repeat(16)).unwrap();
                let rows: Vec<Row> = header.values.iter().map(|&x| row(x)).collect();
                (format!("part-{i}.csv"), shard_csv(&header, &rows))
            })
            .collect()
    }

    #[test]
    fn shares_are_dealt_round_robin_and_balanced() {
        let grid = Grid::new(Axis::Epsilon, "g", (1..=10).map(f64::from).collect()).unwrap();
        let sizes: Vec<usize> = (1..=3)
            .map(|i| Shard { index: i, count: 3 }.len_of(10))
            .collect();
        assert_eq!(sizes, [4, 3, 3]);
        let second = Shard { index: 2, count: 3 }.values("k", &grid).unwrap();
        assert_eq!(second, [2.0, 5.0, 8.0]);
    }

    #[test]
    fn shard_flags_are_checked() {
        for bad in ["0/3", "4/3", "1", "a/b", "1/0", "-1/3", "1.5/3", "1/10001"] {
            let e = Shard::parse("--shard", bad).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("invalid `--shard` = {bad}: must be")),
                "{e}"
            );
        }
        assert_eq!(
            Shard::parse("--shard", "2/3").unwrap(),
            Shard { index: 2, count: 3 }
        );
    }

    #[test]
    fn a_header_line_round_trips() {
        let grid = Grid::new(Axis::Epsilon, "g", vec![0.1, 0.25, 1.0 / 3.0]).unwrap();
        let header =
            ShardHeader::new("k", Shard { index: 1, count: 2 }, &grid, "ab".into()).unwrap();
        assert_eq!(ShardHeader::parse(&header.line()), Some(header));
        let empty =
            ShardHeader::new("k", Shard { index: 4, count: 4 }, &grid, "ab".into()).unwrap();
        assert!(empty.values.is_empty());
        assert_eq!(ShardHeader::parse(&empty.line()), Some(empty));
    }

    #[test]
    fn merging_restores_grid_order_and_refuses_bad_sets() {
        let grid = Grid::new(Axis::Epsilon, "g", (1..=7).map(f64::from).collect()).unwrap();
        let whole: Vec<Row> = grid.values.iter().map(|&x| row(x)).collect();
        let mut parts = shares(3, &grid);
        parts.reverse();
        assert_eq!(merge_shards("--merge", &parts).unwrap(), whole);
        let err = merge_shards("--merge", &parts[..2])
            .unwrap_err()
            .to_string();
        assert!(err.contains("share(s) 1/3 are missing"), "{err}");
        let twice = [parts[0].clone(), parts[0].clone()];
        let err = merge_shards("--merge", &twice).unwrap_err().to_string();
        assert!(err.contains("given twice"), "{err}");
        let mut other = parts.clone();
        other[1].1 = other[1].1.replace(&"f".repeat(16), &"e".repeat(16));
        let err = merge_shards("--merge", &other).unwrap_err().to_string();
        assert!(
            err.contains("another curve") && err.contains("part-2.csv"),
            "{err}"
        );
        let mut short = parts.clone();
        let cut: Vec<&str> = short[0].1.lines().collect();
        short[0].1 = cut[..cut.len() - 1].join("\n") + "\n";
        let err = merge_shards("--merge", &short).unwrap_err().to_string();
        assert!(err.contains("lacks its point(s) x = 6"), "{err}");
        assert!(err.contains("`--merge` = part-3.csv"), "{err}");
    }

    #[test]
    fn a_repeated_grid_value_cannot_be_sharded() {
        let grid = Grid::new(Axis::Epsilon, "g", vec![1.0, 2.0, 1.0]).unwrap();
        let err = Shard { index: 1, count: 2 }
            .values("--shard", &grid)
            .unwrap_err()
            .to_string();
        assert!(err.contains("repeats the value 1"), "{err}");
    }
}
