//! The product channel of independent releases: `Q(y1..yk | x) = prod_i Q_i(y_i | x)`, outputs
//! in lexicographic order (the first release's output varies slowest).

use super::ComposeError;
use crate::channel::Channel;
use std::time::Instant;

/// Most entries (inputs x outputs) of a product channel built here (2^22 doubles, 32 MB).
pub const MAX_PRODUCT_ENTRIES: usize = 1 << 22;

/// `(outputs, entries)` of the product of `channels`, saturating.
pub fn product_size(channels: &[&Channel]) -> (usize, usize) {
    let outputs = channels
        .iter()
        .fold(1usize, |a, c| a.saturating_mul(c.outputs()));
    let inputs = channels.first().map_or(0, |c| c.inputs());
    (outputs, outputs.saturating_mul(inputs))
}

/// The product channel of `channels` (at least one, same inputs), refused above
/// [`MAX_PRODUCT_ENTRIES`] before anything is allocated.
pub fn product(channels: &[&Channel]) -> Result<Channel, ComposeError> {
    product_until(channels, None)
}

/// [`product`], stopping with [`ComposeError::TimeLimit`] once `deadline` has passed (checked
/// before each input's row, at most `MAX_PRODUCT_ENTRIES / inputs` entries apart).
pub fn product_until(
    channels: &[&Channel],
    deadline: Option<Instant>,
) -> Result<Channel, ComposeError> {
    let Some(first) = channels.first() else {
        return Err(ComposeError::Invalid {
            key: "channels".into(),
            value: "[]".into(),
            reason: "give at least one channel".into(),
        });
    };
    let n = first.inputs();
    if let Some((index, c)) = channels.iter().enumerate().find(|(_, c)| c.inputs() != n) {
        return Err(ComposeError::InputMismatch {
            index,
            expected: n,
            found: c.inputs(),
        });
    }
    let (outputs, entries) = product_size(channels);
    if entries > MAX_PRODUCT_ENTRIES {
        return Err(ComposeError::TooLarge {
            inputs: n,
            outputs,
            entries,
            limit: MAX_PRODUCT_ENTRIES,
        });
    }
    let rows = (0..n)
        .map(|x| {
            super::check_deadline(deadline, "building the product channel")?;
            Ok(channels.iter().fold(vec![1.0], |acc, c| {
                let row = &c.rows()[x];
                acc.iter()
                    .flat_map(|a| row.iter().map(move |q| a * q))
                    .collect()
            }))
        })
        .collect::<Result<_, ComposeError>>()?;
    Ok(Channel::from_rows_internal(rows))
}

/// The product of `releases` copies of `channel`.
pub fn power(channel: &Channel, releases: usize) -> Result<Channel, ComposeError> {
    if releases == 0 {
        return Err(ComposeError::Invalid {
            key: "releases".into(),
            value: "0".into(),
            reason: "must be at least 1".into(),
        });
    }
    product(&vec![channel; releases])
}
