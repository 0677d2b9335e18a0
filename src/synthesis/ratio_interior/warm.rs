//! Warm starts between rounds of row generation. A round's path passes through points that
//! are well inside the rows it had and close to centred; the rows added after it are violated
//! only near its end. The next round starts from the latest such checkpoint at which every
//! added row holds with a margin, with the added rows' duals put on the checkpoint's level of
//! complementarity (`z = mu / s`), instead of from the uniform channel. The method is an
//! infeasible-start one for the duals, so the duals need not be feasible.

use super::newton::{slack, Point};
use super::path::Solved;
use super::structure::Structure;

/// An added row must hold with its slack at least this fraction of `f q_b` at a checkpoint.
const MARGIN: f64 = 1e-3;

/// The run to continue from after rows were appended to the blocks: the latest of
/// `checkpoints` (taken with fewer rows; oldest first) at which every added row holds with a
/// margin, extended by the added rows; `None` when there is none (then start afresh).
pub(super) fn resume(s: &Structure, mut checkpoints: Vec<(f64, Point)>) -> Option<Solved> {
    while let Some((mu, p)) = checkpoints.pop() {
        if let Some(extended) = extend(s, p, mu) {
            return Some(Solved::at(s, extended, checkpoints));
        }
    }
    None
}

/// `p` with the duals of the rows encoded after it, `mu / s` each; `None` when one of them
/// does not hold with the margin.
fn extend(s: &Structure, mut p: Point, mu: f64) -> Option<Point> {
    for (block, z) in s.blocks.iter().zip(p.z.iter_mut()) {
        let q = s.part(block, &p.q);
        for (r, a, b) in s.rows_of(block).skip(z.len()) {
            let slack = slack(q, r, a, b);
            // Also refuses a NaN slack.
            if slack.partial_cmp(&(MARGIN * r.factor * q[b])) != Some(std::cmp::Ordering::Greater) {
                return None;
            }
            z.push(mu / slack);
        }
    }
    Some(p)
}
