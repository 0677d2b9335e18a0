//! Symbols as problem files name them (an index or a label), and sets and partitions of them
//! resolved against a domain.

use crate::domain::Domain;
use crate::error::ProblemError;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A symbol named by its index or its label.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Symbol {
    /// 0-based index.
    Index(usize),
    /// Label from `domain.labels` (or the string form of a value).
    Label(String),
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Symbol::Index(i) => write!(f, "{i}"),
            Symbol::Label(l) => write!(f, "{l:?}"),
        }
    }
}

impl<'de> Deserialize<'de> for Symbol {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Symbol;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a symbol index (0-based) or label")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Symbol, E> {
                usize::try_from(v)
                    .map(Symbol::Index)
                    .map_err(|_| E::custom(format!("symbol index {v} is negative")))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Symbol, E> {
                Ok(Symbol::Index(v as usize))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Symbol, E> {
                Ok(Symbol::Label(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl Symbol {
    /// The index of this symbol in `domain`.
    pub fn resolve(&self, key: &str, domain: &Domain) -> Result<usize, ProblemError> {
        match self {
            Symbol::Index(i) if *i < domain.size() => Ok(*i),
            Symbol::Index(i) => Err(ProblemError::invalid(
                key,
                i,
                format!(
                    "index out of range; the domain has {} symbols (0..{})",
                    domain.size(),
                    domain.size() - 1
                ),
            )),
            Symbol::Label(l) => domain.index_of(l).ok_or_else(|| {
                let labels: Vec<&str> = domain.labels().iter().map(String::as_str).collect();
                ProblemError::unknown("label", key, l, &labels)
            }),
        }
    }
}

pub(super) fn resolve_set(
    key: &str,
    symbols: &[Symbol],
    domain: &Domain,
) -> Result<Vec<usize>, ProblemError> {
    let mut out = Vec::new();
    for (i, s) in symbols.iter().enumerate() {
        let x = s.resolve(&format!("{key}[{i}]"), domain)?;
        if !out.contains(&x) {
            out.push(x);
        }
    }
    Ok(out)
}

pub(super) fn resolve_partition(
    key: &str,
    blocks: &[Vec<Symbol>],
    domain: &Domain,
) -> Result<Vec<Vec<usize>>, ProblemError> {
    let mut owner: Vec<Option<usize>> = vec![None; domain.size()];
    let mut out = Vec::new();
    for (b, block) in blocks.iter().enumerate() {
        let mut members = Vec::new();
        for (i, s) in block.iter().enumerate() {
            let skey = format!("{key}[{b}][{i}]");
            let x = s.resolve(&skey, domain)?;
            if let Some(prev) = owner[x] {
                return Err(ProblemError::invalid(
                    skey,
                    s,
                    format!("symbol is already in block {prev}; blocks must not overlap"),
                ));
            }
            owner[x] = Some(b);
            members.push(x);
        }
        if members.is_empty() {
            return Err(ProblemError::invalid(
                format!("{key}[{b}]"),
                "[]",
                "blocks must not be empty",
            ));
        }
        out.push(members);
    }
    if let Some(x) = owner.iter().position(Option::is_none) {
        return Err(ProblemError::invalid(
            key,
            format!("{} blocks", blocks.len()),
            format!("symbol {:?} (index {x}) is in no block; the blocks must cover the domain (use a one-symbol block for an unprotected symbol)", domain.labels()[x]),
        ));
    }
    Ok(out)
}
