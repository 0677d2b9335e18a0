//! A plot axis: linear, or logarithmic when its positive data span more than
//! [`LOG_SCALE_DECADES`] decades; padded around the data; its ticks the finest 1-2-5 set
//! whose labels keep apart ([`super::ticks`]).

use super::ticks::{linear_candidates, linear_label, log_candidates, log_label};

/// An axis is drawn on a log scale when its positive data span more than this many decades.
pub const LOG_SCALE_DECADES: f64 = 2.0;
/// Padding around the data, as a fraction of the plotted range.
const MARGIN_FRACTION: f64 = 0.05;

/// Whether positive values spanning more than [`LOG_SCALE_DECADES`] get a log axis.
fn wants_log(values: &[f64]) -> bool {
    let (lo, hi) = min_max(values);
    values.iter().all(|v| *v > 0.0) && lo > 0.0 && (hi / lo).log10() > LOG_SCALE_DECADES
}

fn min_max(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        })
}

fn padded(values: &[f64]) -> (f64, f64) {
    let (lo, hi) = min_max(values);
    if !(lo.is_finite() && hi.is_finite()) {
        return (0.0, 1.0);
    }
    let pad = if hi > lo {
        (hi - lo) * MARGIN_FRACTION
    } else {
        0.5f64.max(lo.abs() * MARGIN_FRACTION)
    };
    (lo - pad, hi + pad)
}

/// One axis: its range in plotted units (log10 of the data on a log axis) and its ticks.
pub(super) struct Scale {
    /// Whether the axis is logarithmic.
    pub log: bool,
    range: (f64, f64),
}

impl Scale {
    pub fn new(values: &[f64]) -> Scale {
        let log = wants_log(values);
        let t: Vec<f64> = values
            .iter()
            .map(|v| if log { v.log10() } else { *v })
            .collect();
        Scale {
            log,
            range: padded(&t),
        }
    }

    /// The plotted unit of a data value.
    fn unit(&self, v: f64) -> f64 {
        if self.log {
            v.log10()
        } else {
            v
        }
    }

    /// Pixel of `v` on an axis from `a` (range start) to `b` (range end).
    pub fn pixel(&self, v: f64, (a, b): (f64, f64)) -> f64 {
        let (lo, hi) = self.range;
        a + (self.unit(v) - lo) / (hi - lo) * (b - a)
    }

    /// Tick sets, finest first, with their labels.
    fn candidates(&self) -> Vec<Vec<(f64, String)>> {
        let (lo, hi) = self.range;
        if self.log {
            log_candidates(10f64.powf(lo), 10f64.powf(hi))
                .into_iter()
                .map(|t| t.into_iter().map(|v| (v, log_label(v))).collect())
                .collect()
        } else {
            linear_candidates(lo, hi)
                .into_iter()
                .map(|(t, step)| t.into_iter().map(|v| (v, linear_label(v, step))).collect())
                .collect()
        }
    }

    /// The finest tick set whose labels keep `gap(a, b)` pixels apart along the axis from `a`
    /// to `b`, where `need(label_a, label_b)` is the room two neighbours take.
    pub fn ticks(&self, ends: (f64, f64), need: impl Fn(&str, &str) -> f64) -> Vec<(f64, String)> {
        let all = self.candidates();
        let fits = |t: &Vec<(f64, String)>| {
            t.windows(2).all(|w| {
                (self.pixel(w[1].0, ends) - self.pixel(w[0].0, ends)).abs()
                    >= need(&w[0].1, &w[1].1)
            })
        };
        all.iter()
            .find(|t| fits(t) && t.len() >= 2)
            .or_else(|| all.iter().find(|t| fits(t)))
            .or(all.last())
            .cloned()
            .unwrap_or_default()
    }
}
