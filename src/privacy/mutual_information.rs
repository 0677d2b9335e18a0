//! Mutual-information privacy: `I(X;Y) <= eps` nats under the prior ([CA-LIP],
//! Section III). Convex in the channel for a fixed prior; encoded with exponential cones.

use super::registry::{CompositionBound, CompositionRule, NotionEntry};
use super::{output_probability_bounds, tie_all, Check, PrivacyNotion};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::numeric::{div_down, emitted_down, emitted_up, log_ratio_up};
use crate::rays::ColumnCone;
use mechsynth_solvers::Sense;

/// `I(X;Y) <= eps` nats.
#[derive(Debug, Clone, PartialEq)]
pub struct MutualInformationPrivacy {
    /// The bound, in nats.
    pub epsilon: f64,
    /// The prior.
    pub prior: Vec<f64>,
}

/// Lower bound on `ln(x)` for `x > 0` (libm's `ln` is within one unit in the last place).
fn ln_down(x: f64) -> f64 {
    if x == 1.0 {
        0.0
    } else {
        x.ln().next_down().next_down()
    }
}

/// `I(X;Y) = sum_{x,y} p_x Q[x][y] ln(Q[x][y] / lambda_y)` in nats, rounded upwards: every term
/// is bounded above from the bracketed `lambda_y`, and the sum carries its rounding error. An
/// upper bound for the emitted numbers too (see [`crate::numeric`]).
pub fn mutual_information_up(channel: &Channel, prior: &[f64]) -> f64 {
    let mut total = 0.0;
    let mut magnitude = 0.0;
    let mut terms = 0usize;
    let brackets = super::column_brackets(channel, prior);
    for (y, &(lo, _, min, _)) in brackets.iter().enumerate() {
        for (x, &p) in prior.iter().enumerate() {
            let q = channel.get(x, y);
            if p == 0.0 || q == 0.0 {
                continue;
            }
            // The mass p q of the doubles or of the emitted numbers (see crate::numeric).
            let (mass_lo, mass_hi) = (emitted_down(p * q), emitted_up(p * q));
            // ln(q / lambda) is largest at the smallest lambda; an entry at the column's least
            // is at most lambda in the emitted numbers too.
            let mut log_up = log_ratio_up(q, lo);
            if q <= min {
                log_up = log_up.min(0.0);
            }
            let term = if log_up == 0.0 {
                0.0
            } else if log_up > 0.0 {
                (mass_hi * log_up).next_up()
            } else {
                // Negative: the smallest magnitude needs the smallest mass.
                (mass_lo * log_up).next_up()
            };
            total += term;
            magnitude += term.abs();
            terms += 1;
        }
    }
    if magnitude == 0.0 {
        return 0.0;
    }
    let error = (terms as f64 + 2.0) * f64::EPSILON * magnitude;
    (total + error).next_up().max(0.0)
}

/// `I(X;Y)` rounded downwards (the same terms bounded below).
pub fn mutual_information_down(channel: &Channel, prior: &[f64]) -> f64 {
    let mut total = 0.0;
    let mut magnitude = 0.0;
    let mut terms = 0usize;
    for y in 0..channel.outputs() {
        let (_, hi) = output_probability_bounds(channel, prior, y);
        for (x, &p) in prior.iter().enumerate() {
            let q = channel.get(x, y);
            if p == 0.0 || q == 0.0 {
                continue;
            }
            let mass = p * q;
            let log_down = ln_down(div_down(q, hi).max(f64::MIN_POSITIVE));
            let term = if log_down >= 0.0 {
                (mass.next_down() * log_down).next_down().max(0.0)
            } else {
                (mass.next_up() * log_down).next_down()
            };
            total += term;
            magnitude += term.abs();
            terms += 1;
        }
    }
    let error = (terms as f64 + 2.0) * f64::EPSILON * magnitude;
    (total - error).next_down().max(0.0)
}

impl PrivacyNotion for MutualInformationPrivacy {
    fn key(&self) -> &'static str {
        "mutual-information"
    }

    fn check(&self, channel: &Channel) -> Vec<Check> {
        vec![Check {
            constraint: "mutual-information".into(),
            requested: self.epsilon,
            achieved: mutual_information_up(channel, &self.prior),
        }]
    }

    /// Per entry `t_xy >= Q[x][y] ln(Q[x][y] / lambda_y)` as the exponential cone
    /// `(-t_xy, Q[x][y], lambda_y)`, then `sum p_x t_xy <= eps` (exact, convex).
    fn encode(&self, lp: &mut ChannelLp) -> String {
        let support: Vec<usize> = (0..lp.inputs()).filter(|&x| self.prior[x] > 0.0).collect();
        let mut budget = Vec::new();
        for y in 0..lp.outputs() {
            let lambda = lp.aux(0.0, 1.0);
            let mut terms: Vec<_> = support
                .iter()
                .map(|&x| (lp.q(x, y), -self.prior[x]))
                .collect();
            terms.push((lambda, 1.0));
            lp.constrain(terms, Sense::Eq, 0.0);
            for &x in &support {
                // -t = Q ln(lambda / Q) lies in [ln p_x, 1/e] for every feasible channel
                // (p_x Q <= lambda <= 1).
                let minus_t = lp.aux(self.prior[x].ln() - 1.0, 1.0);
                let q = lp.q(x, y);
                lp.exp_cone(minus_t, q, lambda);
                budget.push((minus_t, self.prior[x]));
            }
        }
        lp.constrain(budget, Sense::Ge, -self.epsilon);
        format!(
            "mutual-information: {} exponential cones (exact, convex; clarabel only)",
            support.len() * lp.outputs()
        )
    }

    fn column_cone(&self, _n: usize) -> Option<ColumnCone> {
        None
    }

    /// At eps = 0, X and Y are independent: every row in the support is the same.
    fn ties(&self, _n: usize) -> Vec<(usize, usize)> {
        if self.epsilon == 0.0 {
            let support: Vec<usize> = (0..self.prior.len())
                .filter(|&x| self.prior[x] > 0.0)
                .collect();
            tie_all(&support)
        } else {
            Vec::new()
        }
    }
}

/// The registry entry: profiled under the domain's prior, compared with, composed by summing.
pub(super) const ENTRY: NotionEntry = NotionEntry {
    profile: Some(|channel, domain| Some(mutual_information_up(channel, domain.prior()))),
    compare: true,
    composition: Some(CompositionRule {
        rank: 4,
        prior_set: false,
        leakage: |channel, priors| mutual_information_up(channel, &priors[0]),
        bound: Some(CompositionBound {
            from_singles: |singles, _| singles.iter().sum::<f64>(),
            source: "sum of single releases (conditionally independent given X)",
        }),
    }),
    ..NotionEntry::new("mutual-information")
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_channel_leaks_the_entropy_and_constant_leaks_nothing() {
        let p = [0.25, 0.75];
        let h = -(0.25f64 * 0.25f64.ln() + 0.75 * 0.75f64.ln());
        let id = Channel::new(vec![vec![1.0, 0.0], vec![0.0, 1.0]]).unwrap();
        let up = mutual_information_up(&id, &p);
        let down = mutual_information_down(&id, &p);
        assert!(down <= h && h <= up && up - down < 1e-14, "{down} {h} {up}");
        let constant = Channel::new(vec![vec![0.3, 0.7], vec![0.3, 0.7]]).unwrap();
        assert!(mutual_information_up(&constant, &p) < 1e-13);
    }

    #[test]
    fn bounds_bracket_a_direct_computation() {
        let p = [0.2, 0.3, 0.5];
        let rows = vec![
            vec![0.6, 0.3, 0.1],
            vec![0.2, 0.5, 0.3],
            vec![0.1, 0.2, 0.7],
        ];
        let ch = Channel::new(rows.clone()).unwrap();
        let lambda: Vec<f64> = (0..3)
            .map(|y| (0..3).map(|x| p[x] * rows[x][y]).sum())
            .collect();
        let direct: f64 = (0..3)
            .flat_map(|x| (0..3).map(move |y| (x, y)))
            .map(|(x, y)| p[x] * rows[x][y] * (rows[x][y] / lambda[y]).ln())
            .sum();
        assert!(mutual_information_down(&ch, &p) <= direct);
        assert!(direct <= mutual_information_up(&ch, &p));
    }
}
