//! Checks of a problem file's raw TOML before it is parsed: numbers where numbers belong,
//! no keys an objective ignores, and a suggestion for a misspelt key.

use crate::error::{nearest, ProblemError};

/// Keys whose value must be a number, in `[[privacy]]` entries and `[objective]`.
const NUMERIC_KEYS: [&str; 8] = [
    "epsilon",
    "eps",
    "epsilon_across",
    "weight",
    "offset",
    "users",
    "objective",
    "tolerance",
];

/// Mistakes that serde reports without naming the key (inside tagged tables): `[privacy]`
/// written for `[[privacy]]`, and a number given as a string or a boolean.
pub(super) fn check_shape(value: &toml::Table) -> Result<(), ProblemError> {
    let numeric = |key: String, v: &toml::Value| -> Result<(), ProblemError> {
        match v {
            toml::Value::Integer(_) | toml::Value::Float(_) => Ok(()),
            toml::Value::String(s) => Err(ProblemError::invalid(
                key,
                format!("{s:?}"),
                "must be a number, not a string (write it without quotes)",
            )),
            other => Err(ProblemError::invalid(
                key,
                other.to_string(),
                format!("must be a number, not a {}", other.type_str()),
            )),
        }
    };
    let check_table = |prefix: &str, t: &toml::Table| -> Result<(), ProblemError> {
        for (k, v) in t {
            if NUMERIC_KEYS.contains(&k.as_str()) {
                numeric(format!("{prefix}.{k}"), v)?;
            }
        }
        Ok(())
    };
    match value.get("privacy") {
        Some(toml::Value::Table(_)) => {
            return Err(ProblemError::structure(
                "privacy",
                "write each constraint as an array entry `[[privacy]]` (double brackets), not as a single `[privacy]` table",
            ))
        }
        Some(toml::Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if let toml::Value::Table(t) = item {
                    check_table(&format!("privacy[{i}]"), t)?;
                }
            }
        }
        _ => {}
    }
    if let Some(toml::Value::Array(_)) = value.get("objective") {
        return Err(ProblemError::structure(
            "objective",
            "a problem has one objective: write `[objective]` (single brackets), not `[[objective]]`",
        ));
    }
    if let Some(toml::Value::Table(t)) = value.get("objective") {
        check_table("objective", t)?;
        check_objective_keys(t)?;
    }
    if let Some(toml::Value::Table(t)) = value.get("expected") {
        check_table("expected", t)?;
    }
    Ok(())
}

/// Keys of `[objective]` that serde would accept and then ignore: any key of a kind that takes
/// no key besides `kind` ([`crate::objective::registry::kinds_without_keys`]: serde accepts any
/// key next to the tag of a unit variant and drops it), and a second or unknown key in a
/// `loss = { ... }` table (an untagged loss keeps the first variant that fits and drops the
/// rest).
pub(super) fn check_objective_keys(objective: &toml::Table) -> Result<(), ProblemError> {
    if let Some(toml::Value::String(kind)) = objective.get("kind") {
        if crate::objective::registry::kinds_without_keys().contains(&kind.as_str()) {
            if let Some((key, v)) = objective.iter().find(|(k, _)| k.as_str() != "kind") {
                return Err(ProblemError::invalid(
                    format!("objective.{key}"),
                    v.to_string(),
                    format!("`kind = \"{kind}\"` takes no other keys, so this one would be ignored; remove it or choose a kind that uses it"),
                ));
            }
        }
    }
    if let Some(toml::Value::Table(loss)) = objective.get("loss") {
        const LOSS_KEYS: [&str; 2] = ["matrix", "range"];
        if let Some((key, v)) = loss.iter().find(|(k, _)| !LOSS_KEYS.contains(&k.as_str())) {
            let hint = nearest(key, &LOSS_KEYS)
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            return Err(ProblemError::invalid(
                format!("objective.loss.{key}"),
                v.to_string(),
                format!(
                    "unknown key{hint}; a loss table is {{ matrix = [[...]] }} or {{ range = r }}"
                ),
            ));
        }
        if loss.len() > 1 {
            return Err(ProblemError::structure(
                "objective.loss",
                "give either `matrix` or `range`, not both: one of them would be ignored",
            ));
        }
    }
    Ok(())
}

/// Append "did you mean" to serde's unknown-variant and unknown-field messages.
pub(super) fn with_suggestion(message: String) -> String {
    let Some(bad) = ["unknown variant `", "unknown field `"]
        .iter()
        .find_map(|marker| message.split(marker).nth(1))
        .and_then(|rest| rest.split('`').next())
    else {
        return message;
    };
    let Some(list) = message.split("expected ").nth(1) else {
        return message;
    };
    let candidates: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
    match nearest(bad, &candidates) {
        Some(s) => format!("{}\n(did you mean `{s}`?)", message.trim_end()),
        None => message,
    }
}
