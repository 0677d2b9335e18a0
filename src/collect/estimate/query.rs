//! The quantities `estimate` answers, as linear queries `w . pi` over the input frequencies.

use crate::collect::{CollectError, Model};
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
    /// The total frequency of the symbols `from..=to` (labels or indices, in domain order).
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
                let find = |s: &str| {
                    model
                        .domain
                        .index_of(s)
                        .or_else(|| s.parse::<usize>().ok().filter(|i| *i < n))
                        .ok_or_else(|| {
                            CollectError::invalid(
                                "--query",
                                format!("range:{from}..{to}"),
                                format!("`{s}` is not a symbol label or index"),
                            )
                        })
                };
                let (a, b) = (find(from)?, find(to)?);
                let (a, b) = (a.min(b), a.max(b));
                let w = (0..n)
                    .map(|k| if (a..=b).contains(&k) { 1.0 } else { 0.0 })
                    .collect();
                vec![(format!("range[{}..{}]", labels[a], labels[b]), w, false)]
            }
        })
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
}
