//! The extreme rays of a ratio cone `{q >= 0 : q_a <= f_ab q_b}`, found by a depth-first
//! search over the vertices of its log polytope instead of a list.
//!
//! In logs, `z = ln q`, the cone is the polytrope `{z : z_a - z_b <= L_ab}` (modulo adding a
//! constant), and a ray is extreme exactly when its tight pairs `z_a - z_b = L_ab` connect every
//! input (then `n - 1` of them are independent). With `L` closed under shortest paths, fixing
//! `z_0 = 0` and adding inputs one at a time, each at an end of the interval the inputs before it
//! allow, reaches every vertex; fixing the order canonically (the next input is always the
//! smallest one tight to those already placed, docs/frequency.md, "Pricing without listing")
//! reaches each exactly once. A node whose passed-over inputs can no longer be placed is cut
//! at once, which keeps the tree at about four nodes per vertex (the Euclidean 4 x 4 grid:
//! 16,743,648 vertices in 70 M nodes, 7 s on two cores).
//!
//! Ties are decided with two thresholds: gaps up to `TIE_LOW` (relative to the largest bound)
//! are rounding error, gaps above `TIE_HIGH` are real, and gaps between the two are counted as
//! ambiguous: a search with ambiguous decisions may have missed a vertex, and its callers do not
//! certify a bound from it.

use super::RatioCone;
use rayon::prelude::*;

/// The flag in a tree code for an input at the upper end of its interval.
pub const UPPER_END: u8 = 0x80;
/// The search is split into independent subtrees at this depth for parallel work.
const SPLIT_DEPTH: usize = 3;
/// The deadline is checked once per this many nodes.
const DEADLINE_CHECK_NODES: u64 = 1 << 14;

/// What a search saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Vertices visited.
    pub vertices: u64,
    /// Inner nodes of the search tree.
    pub nodes: u64,
    /// Subtrees the visitor pruned.
    pub pruned: u64,
    /// Tie decisions with a gap between the two thresholds (the search may be incomplete).
    pub ambiguous: u64,
    /// The deadline passed and the search stopped early (it is incomplete).
    pub timed_out: bool,
}

impl SearchStats {
    fn add(&mut self, other: &SearchStats) {
        self.vertices += other.vertices;
        self.nodes += other.nodes;
        self.pruned += other.pruned;
        self.ambiguous += other.ambiguous;
        self.timed_out |= other.timed_out;
    }
}

/// The box of a search node: placed inputs have `lo == hi` (their value), the others the
/// interval the placed ones allow. `placed` is a bit mask.
#[derive(Debug, Clone, Copy)]
pub struct SearchBox<'a> {
    /// Bit `x` is set when input `x` is placed.
    pub placed: u64,
    /// Lower ends, in the ray's scale (`q_0 = 1`).
    pub lo: &'a [f64],
    /// Upper ends.
    pub hi: &'a [f64],
}

/// What a search does at its nodes and vertices.
pub trait VertexVisitor: Send + Sync + Clone {
    /// Whether no vertex in `node`'s box needs visiting.
    fn prune(&mut self, node: &SearchBox<'_>) -> bool;
    /// Visit one extreme ray, scaled so that `q_0 = 1`, with its tree code (for each input
    /// `x > 0`, the input it is tight to plus `UPPER_END` when `q_x` is at its upper end; see
    /// [`super::CompactRays::decode`]).
    fn vertex(&mut self, q: &[f64], code: &[u8]);
    /// Take in what a copy of this visitor found in another subtree.
    fn merge(&mut self, other: Self);
}

/// Where the enumeration of a node's children stands.
#[derive(Debug, Default)]
struct Cursor {
    x: usize,
    side: u8,
    degenerate: bool,
}

#[derive(Debug, Clone)]
struct Frame {
    zlo: Vec<f64>,
    zhi: Vec<f64>,
    qlo: Vec<f64>,
    qhi: Vec<f64>,
    /// The open interval a passed-over input must end strictly inside.
    slo: Vec<f64>,
    shi: Vec<f64>,
    /// The placed input that sets each end of an open interval.
    from_lo: Vec<u8>,
    from_hi: Vec<u8>,
    /// For each placed input but 0: the input it is tight to, plus `UPPER_END` when it sits
    /// at the upper end of its interval.
    code: Vec<u8>,
    placed: u64,
}

impl RatioCone {
    /// Visit every extreme ray (each once) that `visitor` does not prune, in parallel over
    /// subtrees; the visitors' findings are merged into `visitor`.
    pub fn search<V: VertexVisitor>(&self, visitor: &mut V) -> SearchStats {
        self.search_until(visitor, None)
    }

    /// [`Self::search`], stopping (incomplete, `timed_out`) once `deadline` passes.
    pub fn search_until<V: VertexVisitor>(
        &self,
        visitor: &mut V,
        deadline: Option<std::time::Instant>,
    ) -> SearchStats {
        let n = self.n;
        let mut root = Frame {
            zlo: vec![0.0; n],
            zhi: vec![0.0; n],
            qlo: vec![1.0; n],
            qhi: vec![1.0; n],
            slo: vec![f64::NEG_INFINITY; n],
            shi: vec![f64::INFINITY; n],
            from_lo: vec![0; n],
            from_hi: vec![0; n],
            code: vec![0; n],
            placed: 1,
        };
        for y in 1..n {
            root.zlo[y] = -self.log[y];
            root.zhi[y] = self.log[y * n];
            root.qlo[y] = 1.0 / self.factor[y];
            root.qhi[y] = self.factor[y * n];
        }
        let mut stats = SearchStats::default();
        let mut frontier = Vec::new();
        self.expand(&root, SPLIT_DEPTH, &mut frontier, &mut stats);
        let results: Vec<(V, SearchStats)> = frontier
            .par_iter()
            .map(|frame| {
                let mut local = visitor.clone();
                let mut local_stats = SearchStats::default();
                if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                    local_stats.timed_out = true;
                    return (local, local_stats);
                }
                let depth = n + 1 - frame.placed.count_ones() as usize;
                let mut stack = vec![frame.clone(); depth];
                self.descend(&mut stack, 0, &mut local, &mut local_stats, deadline);
                (local, local_stats)
            })
            .collect();
        for (v, s) in results {
            visitor.merge(v);
            stats.add(&s);
        }
        stats
    }

    /// Walk the tree down `levels` levels without a visitor, handing each node (or vertex)
    /// reached to `out`.
    fn expand(&self, frame: &Frame, levels: usize, out: &mut Vec<Frame>, stats: &mut SearchStats) {
        if levels == 0 || frame.placed.count_ones() as usize == self.n {
            out.push(frame.clone());
            return;
        }
        let mut child = frame.clone();
        let mut cursor = Cursor::default();
        while self.next_child(frame, &mut child, &mut cursor, stats) {
            self.expand(&child, levels - 1, out, stats);
        }
    }

    fn descend<V: VertexVisitor>(
        &self,
        stack: &mut [Frame],
        depth: usize,
        visitor: &mut V,
        stats: &mut SearchStats,
        deadline: Option<std::time::Instant>,
    ) {
        if stats.timed_out {
            return;
        }
        {
            let frame = &stack[depth];
            if frame.placed.count_ones() as usize == self.n {
                stats.vertices += 1;
                visitor.vertex(&frame.qlo, &frame.code);
                return;
            }
            stats.nodes += 1;
            if stats.nodes % DEADLINE_CHECK_NODES == 0
                && deadline.is_some_and(|d| std::time::Instant::now() >= d)
            {
                stats.timed_out = true;
                return;
            }
            let node = SearchBox {
                placed: frame.placed,
                lo: &frame.qlo,
                hi: &frame.qhi,
            };
            if visitor.prune(&node) {
                stats.pruned += 1;
                return;
            }
        }
        let mut cursor = Cursor::default();
        loop {
            let (head, tail) = stack.split_at_mut(depth + 1);
            if !self.next_child(&head[depth], &mut tail[0], &mut cursor, stats) {
                break;
            }
            self.descend(stack, depth + 1, visitor, stats, deadline);
        }
    }

    /// Build the next child of `frame` after `cursor` in `child`; false when there is none.
    fn next_child(
        &self,
        frame: &Frame,
        child: &mut Frame,
        cursor: &mut Cursor,
        stats: &mut SearchStats,
    ) -> bool {
        while cursor.x < self.n {
            let x = cursor.x;
            if frame.placed >> x & 1 == 1 {
                cursor.x += 1;
                continue;
            }
            if cursor.side == 0 {
                cursor.degenerate = !self.real_gap(frame.zhi[x] - frame.zlo[x], stats);
            }
            let sides = if cursor.degenerate { 1 } else { 2 };
            if cursor.side >= sides {
                // A degenerate x is tight to the placed inputs whatever comes next: a larger
                // input cannot come first.
                cursor.x = if cursor.degenerate { self.n } else { x + 1 };
                cursor.side = 0;
                continue;
            }
            let upper = cursor.side == 1;
            cursor.side += 1;
            let (z, q) = if upper {
                (frame.zhi[x], frame.qhi[x])
            } else {
                (frame.zlo[x], frame.qlo[x])
            };
            if !self.real_gap(z - frame.slo[x], stats) || !self.real_gap(frame.shi[x] - z, stats) {
                continue;
            }
            if self.place(frame, child, x, (z, q, upper), stats) {
                return true;
            }
        }
        false
    }

    /// `child` = `frame` with input `x` placed at `z` (`q = e^z`); false when no vertex below
    /// it can be canonical.
    fn place(
        &self,
        frame: &Frame,
        child: &mut Frame,
        x: usize,
        (z, q, upper): (f64, f64, bool),
        stats: &mut SearchStats,
    ) -> bool {
        let n = self.n;
        child.zlo.copy_from_slice(&frame.zlo);
        child.zhi.copy_from_slice(&frame.zhi);
        child.qlo.copy_from_slice(&frame.qlo);
        child.qhi.copy_from_slice(&frame.qhi);
        child.slo.copy_from_slice(&frame.slo);
        child.shi.copy_from_slice(&frame.shi);
        child.from_lo.copy_from_slice(&frame.from_lo);
        child.from_hi.copy_from_slice(&frame.from_hi);
        child.code.copy_from_slice(&frame.code);
        child.code[x] = if upper {
            frame.from_hi[x] | UPPER_END
        } else {
            frame.from_lo[x]
        };
        child.placed = frame.placed | 1 << x;
        child.zlo[x] = z;
        child.zhi[x] = z;
        child.qlo[x] = q;
        child.qhi[x] = q;
        for y in 0..n {
            if child.placed >> y & 1 == 1 {
                continue;
            }
            if y < x {
                // Passed over: y must not be tight to the inputs placed before x.
                child.slo[y] = frame.zlo[y];
                child.shi[y] = frame.zhi[y];
            }
            let lo = z - self.log[x * n + y];
            if lo > child.zlo[y] {
                child.zlo[y] = lo;
                child.qlo[y] = q / self.factor[x * n + y];
                child.from_lo[y] = x as u8;
            }
            let hi = z + self.log[y * n + x];
            if hi < child.zhi[y] {
                child.zhi[y] = hi;
                child.qhi[y] = q * self.factor[y * n + x];
                child.from_hi[y] = x as u8;
            }
            if child.slo[y] > f64::NEG_INFINITY
                && (!self.real_gap(child.shi[y] - child.zlo[y], stats)
                    || !self.real_gap(child.zhi[y] - child.slo[y], stats))
            {
                return false;
            }
        }
        self.placeable(child)
    }

    /// Whether every passed-over input can still be placed strictly inside its open interval:
    /// it already has an end there, or some unplaced input could still move an end there.
    /// Only clear impossibility counts (a gap below `TIE_LOW`), so no vertex is lost.
    fn placeable(&self, frame: &Frame) -> bool {
        let n = self.n;
        let open = |gap: f64| gap > self.tie_low;
        (0..n).all(|y| {
            if frame.placed >> y & 1 == 1 || frame.slo[y] == f64::NEG_INFINITY {
                return true;
            }
            let (sl, sh) = (frame.slo[y], frame.shi[y]);
            if open(frame.zlo[y] - sl) || open(sh - frame.zhi[y]) {
                return true;
            }
            (0..n).any(|t| {
                t != y
                    && frame.placed >> t & 1 == 0
                    && (open(frame.zhi[t] - self.log[t * n + y] - sl)
                        || open(sh - frame.zlo[t] - self.log[y * n + t]))
            })
        })
    }

    /// Whether `gap` is a real gap (above the tie thresholds), counting ambiguous ones.
    fn real_gap(&self, gap: f64, stats: &mut SearchStats) -> bool {
        if gap > self.tie_high {
            return true;
        }
        if gap > self.tie_low {
            stats.ambiguous += 1;
        }
        false
    }
}

/// Collects rays until more than a shared limit are found, then prunes everything.
#[derive(Clone)]
struct Lister<'a> {
    rays: Vec<Vec<f64>>,
    found: &'a std::sync::atomic::AtomicUsize,
    limit: usize,
}

impl VertexVisitor for Lister<'_> {
    fn prune(&mut self, _: &SearchBox<'_>) -> bool {
        self.found.load(std::sync::atomic::Ordering::Relaxed) > self.limit
    }

    fn vertex(&mut self, q: &[f64], _: &[u8]) {
        let before = self
            .found
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if before < self.limit {
            self.rays.push(q.to_vec());
        }
    }

    fn merge(&mut self, other: Self) {
        self.rays.extend(other.rays);
    }
}

impl RatioCone {
    /// Every extreme ray (scaled so that `q_0 = 1`), or `None` when there are more than
    /// `limit`, a tie was ambiguous or `deadline` passed.
    pub fn list(
        &self,
        limit: usize,
        deadline: Option<std::time::Instant>,
    ) -> Option<Vec<Vec<f64>>> {
        let found = std::sync::atomic::AtomicUsize::new(0);
        let mut lister = Lister {
            rays: Vec::new(),
            found: &found,
            limit,
        };
        let stats = self.search_until(&mut lister, deadline);
        let rays = lister.rays;
        let complete = found.into_inner() <= limit && stats.ambiguous == 0 && !stats.timed_out;
        complete.then_some(rays)
    }
}
