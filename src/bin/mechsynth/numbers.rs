//! The one validator of every number a flag takes: clap value parsers that refuse NaN,
//! infinities and values outside the flag's range before anything runs, with a message that
//! names the flag, the value and what is accepted (`invalid `--flag` = VALUE: must be ...`,
//! exit 2, clap's usage-error code). Every numeric flag of every subcommand uses one of the
//! constructors below; `--sweep` and `--series-over` values go through the same checks
//! ([`Checked::parse_as`]).

use clap::builder::TypedValueParser;
use std::sync::Arc;

/// A number type a flag takes.
pub trait Number: Copy + Send + Sync + 'static + std::str::FromStr {}
impl Number for f64 {}
impl Number for u64 {}
impl Number for usize {}
impl Number for u32 {}

/// A parser of one kind of number: the test it must pass and the words saying what passes.
#[derive(Clone)]
pub struct Checked<T> {
    ok: Arc<dyn Fn(T) -> bool + Send + Sync>,
    accepts: String,
}

impl<T: Number> Checked<T> {
    fn new(ok: impl Fn(T) -> bool + Send + Sync + 'static, accepts: impl Into<String>) -> Self {
        Checked {
            ok: Arc::new(ok),
            accepts: accepts.into(),
        }
    }

    /// Parse `text` given with `flag`; the error names both and what is accepted.
    pub fn parse_as(&self, flag: &str, text: &str) -> Result<T, crate::common::UsageError> {
        text.trim()
            .parse::<T>()
            .ok()
            .filter(|&v| (self.ok)(v))
            .ok_or_else(|| {
                crate::common::UsageError(format!(
                    "invalid `{flag}` = {text}: must be {}",
                    self.accepts
                ))
            })
    }
}

impl<T: Number> TypedValueParser for Checked<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let flag = arg
            .and_then(|a| a.get_long().map(|l| format!("--{l}")))
            .or_else(|| arg.map(|a| a.get_id().to_string()))
            .unwrap_or_else(|| "value".into());
        self.parse_as(&flag, &value.to_string_lossy()).map_err(|e| {
            cmd.clone()
                .error(clap::error::ErrorKind::ValueValidation, e.0)
        })
    }
}

/// Any finite number.
pub fn finite() -> Checked<f64> {
    Checked::new(f64::is_finite, "a finite number")
}

/// A finite number > 0.
pub fn positive() -> Checked<f64> {
    Checked::new(|v: f64| v.is_finite() && v > 0.0, "a finite number > 0")
}

/// A finite number >= 0.
pub fn non_negative() -> Checked<f64> {
    Checked::new(|v: f64| v.is_finite() && v >= 0.0, "a finite number >= 0")
}

/// A finite number in `[0, max]`.
pub fn in_zero_to(max: f64) -> Checked<f64> {
    Checked::new(
        move |v: f64| v.is_finite() && (0.0..=max).contains(&v),
        format!("a finite number in [0, {max}]"),
    )
}

/// A finite number in `(0, max]`.
pub fn positive_at_most(max: f64) -> Checked<f64> {
    Checked::new(
        move |v: f64| v.is_finite() && v > 0.0 && v <= max,
        format!("a finite number in (0, {max}]"),
    )
}

/// A probability strictly between 0 and 1.
pub fn probability_open() -> Checked<f64> {
    Checked::new(|v: f64| v > 0.0 && v < 1.0, "a number in (0, 1)")
}

/// A probability in `[0, 1]`.
pub fn probability() -> Checked<f64> {
    Checked::new(|v: f64| (0.0..=1.0).contains(&v), "a number in [0, 1]")
}

/// A number in `[0, 1)`.
pub fn unit_half_open() -> Checked<f64> {
    Checked::new(|v: f64| (0.0..1.0).contains(&v), "a number in [0, 1)")
}

/// The smallest `1 - level` of a confidence level: the intervals use the normal quantile of
/// `(1 + level) / 2`, computed from the tail `(1 - level) / 2`; closer to 1 the tail is a few
/// ulps of 1 (`level = 0.9999999999999999` makes `(1 + level) / 2` round to 1 and the
/// quantile infinite). At the bound the quantile is about 7.1.
pub const MIN_LEVEL_TAIL: f64 = 1e-12;

/// A confidence level in `(0, 1 - MIN_LEVEL_TAIL]`.
pub fn level() -> Checked<f64> {
    Checked::new(
        |v: f64| v > 0.0 && v <= 1.0 - MIN_LEVEL_TAIL,
        format!(
            "a confidence level in (0, 1 - {MIN_LEVEL_TAIL:e}] (closer to 1 the normal quantile is not finite)"
        ),
    )
}

/// A time limit: a positive number of seconds, at most
/// [`crate::input::MAX_TIME_LIMIT_SECONDS`].
pub fn seconds() -> Checked<f64> {
    let max = crate::input::MAX_TIME_LIMIT_SECONDS;
    Checked::new(
        move |v: f64| v.is_finite() && v > 0.0 && v <= max,
        format!("a positive number of seconds, at most {max:e}"),
    )
}

/// A whole number in `[min, max]`.
pub fn count<T: Number + PartialOrd + std::fmt::Display>(min: T, max: T) -> Checked<T> {
    let accepts = format!("a whole number, at least {min} and at most {max}");
    Checked::new(move |v: T| v >= min && v <= max, accepts)
}

/// A seed: any whole number from 0 to 2^64 - 1.
pub fn seed() -> Checked<u64> {
    count(0, u64::MAX)
}

/// Whether `arg` takes a number through one of this module's parsers (f64, u64, usize or u32
/// values), so that a value starting with `-` (`-inf`) is the flag's value.
pub fn is_numeric(arg: &clap::Arg) -> bool {
    use clap::builder::ValueParser;
    if !arg.get_action().takes_values() {
        return false;
    }
    let id = arg.get_value_parser().type_id();
    [
        ValueParser::new(finite()).type_id(),
        ValueParser::new(seed()).type_id(),
        ValueParser::new(count(0usize, 1)).type_id(),
        ValueParser::new(count(0u32, 1)).type_id(),
    ]
    .contains(&id)
}
