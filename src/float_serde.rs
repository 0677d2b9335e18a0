//! Serde helpers for floats that may be infinite or NaN: writers and readers of `"inf"`.
//!
//! TOML has an `inf` literal; JSON has none, so reports write `"inf"` and readers accept it.

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Serialize a float, writing non-finite values as the strings `"inf"`, `"-inf"`, `"nan"`
/// (JSON has no literal for them).
pub fn serialize_number<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    if v.is_finite() {
        s.serialize_f64(*v)
    } else if v.is_nan() {
        s.serialize_str("nan")
    } else if *v > 0.0 {
        s.serialize_str("inf")
    } else {
        s.serialize_str("-inf")
    }
}

/// Serialize a map of floats with [`serialize_number`] for each value.
pub fn serialize_number_map<S: Serializer>(
    m: &BTreeMap<String, f64>,
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    struct Num(f64);
    impl Serialize for Num {
        fn serialize<S2: Serializer>(&self, s: S2) -> Result<S2::Ok, S2::Error> {
            serialize_number(&self.0, s)
        }
    }
    let mut map = s.serialize_map(Some(m.len()))?;
    for (k, v) in m {
        map.serialize_entry(k, &Num(*v))?;
    }
    map.end()
}

/// A float that reads numbers and the strings `"inf"`, `"+inf"`, `"infinity"`, and writes
/// non-finite values as strings.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ExtFloat(f64);

impl Serialize for ExtFloat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_number(&self.0, s)
    }
}

impl<'de> Deserialize<'de> for ExtFloat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = ExtFloat;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number or \"inf\"")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<ExtFloat, E> {
                Ok(ExtFloat(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ExtFloat, E> {
                Ok(ExtFloat(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ExtFloat, E> {
                Ok(ExtFloat(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ExtFloat, E> {
                match v.to_ascii_lowercase().as_str() {
                    "inf" | "+inf" | "infinity" => Ok(ExtFloat(f64::INFINITY)),
                    _ => Err(E::custom(format!(
                        "expected a number or \"inf\", found {v:?}"
                    ))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// Serialize a matrix with non-finite entries as strings.
pub fn serialize_matrix<S: Serializer>(m: &[Vec<f64>], s: S) -> Result<S::Ok, S::Error> {
    let wrapped: Vec<Vec<ExtFloat>> = m
        .iter()
        .map(|r| r.iter().map(|&v| ExtFloat(v)).collect())
        .collect();
    wrapped.serialize(s)
}

/// Deserialize a matrix whose entries are numbers or `"inf"`.
pub fn deserialize_matrix<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<f64>>, D::Error> {
    let wrapped: Vec<Vec<ExtFloat>> = Vec::deserialize(d)?;
    Ok(wrapped
        .into_iter()
        .map(|r| r.into_iter().map(|v| v.0).collect())
        .collect())
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct M {
        #[serde(
            serialize_with = "super::serialize_matrix",
            deserialize_with = "super::deserialize_matrix"
        )]
        m: Vec<Vec<f64>>,
    }

    #[test]
    fn infinity_round_trips_through_json() {
        let m = M {
            m: vec![vec![0.0, f64::INFINITY], vec![1.5, 0.0]],
        };
        let text = serde_json::to_string(&m).unwrap();
        assert!(text.contains("\"inf\""), "{text}");
        assert_eq!(serde_json::from_str::<M>(&text).unwrap(), m);
    }

    #[test]
    fn toml_inf_literal_is_read() {
        let m: M = toml::from_str("m = [[0.0, inf], [1, 0.0]]").unwrap();
        assert_eq!(m.m[0][1], f64::INFINITY);
    }
}
