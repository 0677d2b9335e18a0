//! The quantities `estimate` answers, as linear queries `w . pi` over the input frequencies.

use crate::collect::{CollectError, Model};
use crate::domain::Domain;
use serde::{Deserialize, Serialize};

/// What to estimate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Query {
    /// The frequency of every input symbol.
    Frequencies,
    /// The mean of the domain's values over users.
    Mean,
    /// The sum of the domain's values over users.
    Sum,
    /// The total frequency of the symbols `from..=to` in domain order. Each end is a symbol
    /// label, or `#K` for the symbol of 0-based index `K` (see [`range_end`]).
    Range {
        /// First symbol.
        from: String,
        /// Last symbol.
        to: String,
    },
}

impl Query {
    /// Parse `frequencies`, `mean`, `sum` or `range:FROM..TO`.
    pub fn parse(text: &str) -> Result<Query, CollectError> {
        match text {
            "frequencies" => Ok(Query::Frequencies),
            "mean" => Ok(Query::Mean),
            "sum" => Ok(Query::Sum),
            _ => {
                let range = text.strip_prefix("range:").and_then(|r| r.split_once(".."));
                match range {
                    Some((a, b)) => Ok(Query::Range {
                        from: a.to_string(),
                        to: b.to_string(),
                    }),
                    None => Err(CollectError::invalid(
                        "--query",
                        text,
                        "expected `frequencies`, `mean`, `sum` or `range:FROM..TO`",
                    )),
                }
            }
        }
    }

    /// The linear queries it stands for: `(name, weights, scale by the number of users)`.
    pub fn expand(&self, model: &Model) -> Result<Vec<(String, Vec<f64>, bool)>, CollectError> {
        let n = model.inputs();
        let labels = model.domain.labels();
        Ok(match self {
            Query::Frequencies => (0..n)
                .map(|k| {
                    let mut w = vec![0.0; n];
                    w[k] = 1.0;
                    (format!("frequency[{}]", labels[k]), w, false)
                })
                .collect(),
            Query::Mean => vec![("mean".into(), model.values(), false)],
            Query::Sum => vec![("sum".into(), model.values(), true)],
            Query::Range { from, to } => {
                let query = format!("range:{from}..{to}");
                let (a, b) = (
                    range_end(&model.domain, &query, from)?,
                    range_end(&model.domain, &query, to)?,
                );
                let (a, b) = (a.min(b), a.max(b));
                let w = (0..n)
                    .map(|k| if (a..=b).contains(&k) { 1.0 } else { 0.0 })
                    .collect();
                vec![(format!("range[{}..{}]", labels[a], labels[b]), w, false)]
            }
        })
    }
}

/// Marks a range end as a 0-based symbol index (`#2`) rather than a label.
pub const INDEX_PREFIX: char = '#';

/// How many labels an error message lists before eliding the rest.
const LABELS_SHOWN: usize = 12;

/// The domain index of one end `text` of the range query `query`: the symbol labelled `text`
/// (labels first, always), else for `#K` the symbol of 0-based index `K`. Anything else is
/// refused, naming the value and listing the labels: a bare number that is not a label is
/// never read as an index, so that `range:3..8` over the values `1, 2, 4, 8, 16` cannot mix a
/// label (`8`) with an index (`3`).
pub fn range_end(domain: &Domain, query: &str, text: &str) -> Result<usize, CollectError> {
    symbol_index(domain, "--query", query, text)
}

/// The index of the symbol written `text`: its label, or `#K` for the 0-based index K (a bare
/// number that is not a label is refused, so that labels and indices are never confused).
/// Errors name `flag` and its whole `value`.
pub fn symbol_index(
    domain: &Domain,
    flag: &str,
    value: &str,
    text: &str,
) -> Result<usize, CollectError> {
    if let Some(i) = domain.index_of(text) {
        return Ok(i);
    }
    let n = domain.size();
    if let Some(index) = text.strip_prefix(INDEX_PREFIX) {
        return index
            .parse::<usize>()
            .ok()
            .filter(|&i| i < n)
            .ok_or_else(|| {
                CollectError::invalid(
                    flag,
                    value,
                    format!("`{text}` is not a symbol index: `#K` needs 0 <= K < {n}"),
                )
            });
    }
    Err(CollectError::invalid(
        flag,
        value,
        format!(
            "`{text}` is not a symbol label (the labels are {}); write `#K` for the symbol of 0-based index K",
            show_labels(domain.labels())
        ),
    ))
}

/// The labels for a message: all of them, or the first [`LABELS_SHOWN`] and how many in all.
fn show_labels(labels: &[String]) -> String {
    let shown: Vec<&str> = labels
        .iter()
        .take(LABELS_SHOWN)
        .map(String::as_str)
        .collect();
    if labels.len() > LABELS_SHOWN {
        format!("{}, ... ({} in all)", shown.join(", "), labels.len())
    } else {
        shown.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_parse_and_bad_ones_name_the_flag() {
        assert_eq!(Query::parse("mean").unwrap(), Query::Mean);
        assert_eq!(
            Query::parse("range:a..c").unwrap(),
            Query::Range {
                from: "a".into(),
                to: "c".into()
            }
        );
        let e = Query::parse("median").unwrap_err().to_string();
        assert!(e.contains("--query") && e.contains("median"), "{e}");
    }

    #[test]
    fn range_ends_are_labels_first_then_explicit_indices() {
        let values = Domain::values(vec![1.0, 2.0, 4.0, 8.0, 16.0]).unwrap();
        let q = "range:3..8";
        // By label, whatever the label's number.
        assert_eq!(range_end(&values, q, "8").unwrap(), 3);
        assert_eq!(range_end(&values, q, "1").unwrap(), 0);
        // `#K` is the index K.
        assert_eq!(range_end(&values, q, "#3").unwrap(), 3);
        // A bare number that is not a label is not an index.
        let e = range_end(&values, q, "3").unwrap_err().to_string();
        assert!(e.contains("--query") && e.contains("range:3..8"), "{e}");
        assert!(e.contains("`3`") && e.contains("1, 2, 4, 8, 16"), "{e}");
        let e = range_end(&values, q, "#5").unwrap_err().to_string();
        assert!(e.contains("0 <= K < 5"), "{e}");
        // A label that looks like an index form is still a label.
        let hashed = Domain::labeled(vec!["#1".into(), "#0".into()]).unwrap();
        assert_eq!(range_end(&hashed, q, "#1").unwrap(), 0);
        // Long label lists are elided.
        let many = Domain::sized(40).unwrap();
        let e = range_end(&many, q, "x").unwrap_err().to_string();
        assert!(e.contains("... (40 in all)") && !e.contains("39"), "{e}");
    }
}
