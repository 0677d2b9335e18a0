//! The first-order method against a naive LP written here from the definition (every pair, every
//! output), and its cleanup checked pair by pair.

use super::*;
use mechsynth_solvers::{backend, BackendKind, LinearProgram, Sense, SolveOptions};

/// Epsilon per unit of distance.
const EPS: f64 = 0.8;
/// The naive LP is solved to Clarabel's accuracy: its objective may sit this far (relative)
/// on either side of the true optimum.
const LP_ACCURACY: f64 = 1e-6;
/// Slack of the pair-by-pair check (the cleanup's weights are rounded down by 1e-14 and its
/// row scaling rounds).
const PAIR_SLACK: f64 = 1e-12;

/// Irregular points from a fixed linear congruential sequence.
fn places(n: usize, seed: u64) -> Vec<[f64; 2]> {
    let mut s = seed;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..n).map(|_| [4.0 * next(), 4.0 * next()]).collect()
}

fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// Budgets `eps d` and costs `pi_x d(x, y)` with a skewed prior.
fn problem(points: &[[f64; 2]]) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let n = points.len();
    let weights: Vec<f64> = (0..n).map(|i| 1.0 / (1.0 + i as f64)).collect();
    let total: f64 = weights.iter().sum();
    let budgets = points
        .iter()
        .map(|&a| points.iter().map(|&b| EPS * distance(a, b)).collect())
        .collect();
    let costs = points
        .iter()
        .zip(&weights)
        .map(|(&a, w)| points.iter().map(|&b| w / total * distance(a, b)).collect())
        .collect();
    (budgets, costs)
}

/// The optimum of the LP with every pair's row in every column, written from the definition.
fn naive_optimum(budgets: &[Vec<f64>], costs: &[Vec<f64>]) -> f64 {
    let n = costs.len();
    let mut lp = LinearProgram::new();
    let var: Vec<Vec<usize>> = costs
        .iter()
        .map(|row| row.iter().map(|&c| lp.add_var(c, 0.0, 1.0)).collect())
        .collect();
    for row in &var {
        lp.add_constraint(row.iter().map(|&v| (v, 1.0)).collect(), Sense::Eq, 1.0);
    }
    for y in 0..n {
        for (a, row_a) in var.iter().enumerate() {
            for (b, row_b) in var.iter().enumerate() {
                if a != b {
                    let f = budgets[a][b].exp();
                    lp.add_constraint(vec![(row_a[y], 1.0), (row_b[y], -f)], Sense::Le, 0.0);
                }
            }
        }
    }
    let solved = backend(BackendKind::Clarabel)
        .unwrap()
        .solve(&lp, &SolveOptions::default())
        .unwrap();
    assert!(solved.status.is_optimal());
    solved.objective
}

fn assert_private(channel: &[Vec<f64>], budgets: &[Vec<f64>]) {
    for row in channel {
        let sum: f64 = row.iter().sum();
        assert!(
            (sum - 1.0).abs() <= 1e-12 && row.iter().all(|&v| v >= 0.0),
            "row sums to {sum}"
        );
    }
    for (a, ra) in channel.iter().enumerate() {
        for (b, rb) in channel.iter().enumerate() {
            let f = budgets[a][b].exp();
            for (y, (&qa, &qb)) in ra.iter().zip(rb).enumerate() {
                assert!(
                    qa <= f * qb * (1.0 + PAIR_SLACK),
                    "Q[{a}][{y}] = {qa} > {f} Q[{b}][{y}] = {}",
                    f * qb
                );
            }
        }
    }
}

#[test]
fn the_bound_lies_below_the_naive_optimum_and_the_channel_above_it() {
    for seed in [1, 2] {
        let points = places(14, seed);
        let (budgets, costs) = problem(&points);
        let optimum = naive_optimum(&budgets, &costs);
        let lp = backend(BackendKind::Clarabel).unwrap();
        let options = SolveOptions {
            time_limit_seconds: 5.0,
            ..SolveOptions::default()
        };
        let run = Run::new(lp.as_ref(), options, None);
        let outcome = solve_first_order(&budgets, &costs, Goal::Minimize, &run).unwrap();
        let channel = outcome.rows.expect("a channel");
        assert_private(&channel, &budgets);
        let objective: f64 = channel
            .iter()
            .zip(&costs)
            .map(|(r, c)| r.iter().zip(c).map(|(q, c)| q * c).sum::<f64>())
            .sum();
        let bound = outcome.bound.expect("a bound");
        assert!(
            bound <= optimum * (1.0 + LP_ACCURACY),
            "bound {bound} above {optimum}"
        );
        assert!(
            objective >= optimum * (1.0 - LP_ACCURACY),
            "channel {objective} below {optimum}"
        );
        assert!(bound > 0.5 * optimum, "bound {bound} far below {optimum}");
    }
}

#[test]
fn the_cleanup_makes_any_positive_point_an_exactly_private_channel() {
    let points = places(20, 7);
    let (budgets, costs) = problem(&points);
    let rows = Rows::new(&budgets, 4);
    let n = points.len();
    let mut s = 99u64;
    let q: Vec<f64> = (0..n * n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
            (s >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect();
    let (channel, objective) = cleanup(&rows, &q, &costs, Duration::from_secs(5));
    assert_private(&channel, &budgets);
    let recomputed: f64 = channel
        .iter()
        .zip(&costs)
        .map(|(r, c)| r.iter().zip(c).map(|(q, c)| q * c).sum::<f64>())
        .sum();
    assert!((objective - recomputed).abs() <= 1e-12 * recomputed.abs().max(1.0));
}
