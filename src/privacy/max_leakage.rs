//! Maximal leakage (context-aware-lip.txt, Section III; Issa, Wagner, Kamath):
//! `ln sum_y max_{x: p_x > 0} Q[x][y] <= eps`.

use super::{Check, PrivacyNotion};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::numeric::{ln_up, sum_bounds};
use crate::rays::ColumnCone;
use mechsynth_solvers::Sense;

/// Maximal leakage at most eps (nats).
#[derive(Debug, Clone, PartialEq)]
pub struct MaxLeakage {
    /// The bound, in nats.
    pub epsilon: f64,
    /// The prior (only its support matters).
    pub prior: Vec<f64>,
}

fn support(prior: &[f64]) -> Vec<usize> {
    (0..prior.len()).filter(|&x| prior[x] > 0.0).collect()
}

/// Maximal leakage of `channel` from the inputs in the support of `prior`, outward rounded.
pub fn max_leakage(channel: &Channel, prior: &[f64]) -> f64 {
    let s = support(prior);
    let maxima =
        (0..channel.outputs()).map(|y| s.iter().map(|&x| channel.get(x, y)).fold(0.0, f64::max));
    let (_, hi) = sum_bounds(maxima);
    ln_up(hi).max(0.0)
}

impl PrivacyNotion for MaxLeakage {
    fn key(&self) -> &'static str {
        "max-leakage"
    }

    fn check(&self, channel: &Channel) -> Vec<Check> {
        vec![Check {
            constraint: "max-leakage".into(),
            requested: self.epsilon,
            achieved: max_leakage(channel, &self.prior),
        }]
    }

    /// One auxiliary `t_y >= Q[x][y]` per column and `sum_y t_y <= e^eps` (exact).
    fn encode(&self, lp: &mut ChannelLp) -> String {
        let s = support(&self.prior);
        let mut total = Vec::new();
        for y in 0..lp.outputs() {
            let t = lp.aux(0.0);
            for &x in &s {
                let q = lp.q(x, y);
                lp.at_most_times(q, 1.0, t);
            }
            total.push((t, 1.0));
        }
        lp.constrain(total, Sense::Le, self.epsilon.exp());
        "max-leakage: one auxiliary column maximum per output (exact)".into()
    }

    /// Lifted by the column maximum `t >= q_x`, coupled by `sum_y t_y <= e^eps`.
    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        let mut cone = ColumnCone::orthant(n);
        cone.aux = 1;
        for x in support(&self.prior) {
            cone.rows.push(vec![(n, 1.0), (x, -1.0)]);
        }
        cone.coupling.push((vec![(n, 1.0)], self.epsilon.exp()));
        Some(cone)
    }
}
