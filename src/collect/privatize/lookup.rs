//! Matching a record's text to a domain symbol.

use super::{MatchBy, VALUE_MATCH_TOLERANCE};
use crate::domain::Domain;
use std::collections::HashMap;

/// FNV-1a: labels are short and chosen by the data owner, so a fast non-keyed hash suffices.
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h = (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
    fn write_usize(&mut self, n: usize) {
        // The length prefix of a slice: one round instead of eight.
        self.0 = (0xcbf2_9ce4_8422_2325 ^ n as u64).wrapping_mul(0x0100_0000_01b3);
    }
    fn write_u64(&mut self, n: u64) {
        // Packed short labels: one multiplicative round (the high bits feed the bucket).
        self.0 = (n ^ (n >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Labels up to this many bytes are looked up by a packed integer key.
const SHORT_LABEL: usize = 7;

/// `text` packed into an integer (length in the top byte), for labels of at most
/// [`SHORT_LABEL`] bytes.
fn pack(text: &[u8]) -> u64 {
    let mut k = (text.len() as u64) << 56;
    for (i, b) in text.iter().enumerate() {
        k |= (*b as u64) << (8 * i);
    }
    k
}

type LabelMap = HashMap<Vec<u8>, usize, std::hash::BuildHasherDefault<Fnv>>;

/// Maps a record's text to its domain index.
#[derive(Debug, Clone)]
pub struct SymbolLookup {
    by_label: LabelMap,
    short: HashMap<u64, usize, std::hash::BuildHasherDefault<Fnv>>,
    values: Vec<f64>,
    by: MatchBy,
}

impl SymbolLookup {
    /// A lookup over `domain`.
    pub fn new(domain: &Domain, by: MatchBy) -> Self {
        let by_label: LabelMap = match by {
            MatchBy::Index => (0..domain.size())
                .map(|i| (i.to_string().into_bytes(), i))
                .collect(),
            _ => domain
                .labels()
                .iter()
                .enumerate()
                .map(|(i, l)| (l.as_bytes().to_vec(), i))
                .collect(),
        };
        let short = by_label
            .iter()
            .filter(|(l, _)| l.len() <= SHORT_LABEL)
            .map(|(l, i)| (pack(l), *i))
            .collect();
        SymbolLookup {
            by_label,
            short,
            values: domain.numeric_values(),
            by,
        }
    }

    /// The domain index of `text` (already trimmed), or `None`.
    pub fn find(&self, text: &[u8]) -> Option<usize> {
        let found = if text.len() <= SHORT_LABEL {
            self.short.get(&pack(text))
        } else {
            self.by_label.get(text)
        };
        if let Some(&i) = found {
            return Some(i);
        }
        if self.by != MatchBy::Value {
            return None;
        }
        let v: f64 = std::str::from_utf8(text).ok()?.trim().parse().ok()?;
        self.values
            .iter()
            .position(|w| (w - v).abs() <= VALUE_MATCH_TOLERANCE * w.abs().max(v.abs()).max(1.0))
    }
}
