//! Pieces shared by the branch-and-bound pricers of the histogram MMSE: the best few
//! candidates with the pruning threshold, a range-maximum table, search counters, and when
//! to use them.

use crate::rays::RayFamily;

/// Above this many rays the histogram MMSE is priced by branch and bound rather than by
/// listing and scanning the rays (faster there, and without the list's memory: 2^20 LDP rays
/// take about 430 MB).
pub const HISTOGRAM_SCAN_LIMIT: usize = 1 << 16;

/// Whether `family` has more than `limit` rays at `n` inputs (LDP: `2^n - 2`; LIP: up to
/// `n 2^(n-1)` vertices).
pub fn more_rays_than(family: &RayFamily, n: usize, limit: usize) -> bool {
    let bits = match family {
        RayFamily::Staircase { .. } => n,
        RayFamily::LipBox { .. } => n.saturating_sub(1),
    };
    let per = match family {
        RayFamily::Staircase { .. } => 1,
        RayFamily::LipBox { .. } => n,
    };
    bits >= usize::BITS as usize - 8 || per * (1usize << bits) > limit
}

/// Candidates kept per search (the column-generation batch).
pub const KEEP: usize = 8;

/// The `KEEP` best candidates seen above a threshold, best first.
#[derive(Debug, Clone)]
pub struct Best<T> {
    items: Vec<(f64, T)>,
    floor: f64,
}

impl<T: Copy> Best<T> {
    /// Empty, with values up to `floor` not worth keeping.
    pub fn new(floor: f64) -> Self {
        Best {
            items: Vec::with_capacity(KEEP + 1),
            floor,
        }
    }

    /// Subtrees whose bound is at most this are pruned: the threshold plus the floor (when
    /// positive), so that ties with the kept candidates (frequent under symmetric priors) are
    /// not searched. Everything pruned leaves `max(top, prune_level)` an upper bound.
    pub fn prune_level(&self) -> f64 {
        self.threshold() + self.floor.max(0.0)
    }

    /// The upper bound on every value searched: `max(top, prune_level)`.
    pub fn upper(&self) -> f64 {
        self.top().max(self.prune_level())
    }

    /// Values up to this are not kept: the floor, or the `KEEP`-th best once there are as many.
    pub fn threshold(&self) -> f64 {
        if self.items.len() < KEEP {
            self.floor
        } else {
            self.floor.max(self.items[KEEP - 1].0)
        }
    }

    /// The best value kept (minus infinity when none).
    pub fn top(&self) -> f64 {
        self.items.first().map_or(f64::NEG_INFINITY, |i| i.0)
    }

    /// Keep `item` if `value` is above the threshold.
    pub fn offer(&mut self, value: f64, item: T) {
        if value <= self.threshold() {
            return;
        }
        let at = self.items.partition_point(|i| i.0 >= value);
        self.items.insert(at, (value, item));
        self.items.truncate(KEEP);
    }

    /// The kept candidates, best first.
    pub fn items(&self) -> &[(f64, T)] {
        &self.items
    }
}

/// Maximum of any index range of a fixed list in O(1) (a sparse table).
#[derive(Debug, Clone)]
pub struct RangeMax {
    levels: Vec<Vec<f64>>,
}

impl RangeMax {
    /// For `values` (not empty).
    pub fn new(values: Vec<f64>) -> Self {
        let mut levels = vec![values];
        let mut width = 1;
        while 2 * width <= levels[0].len() {
            let prev = levels.last().expect("one level");
            let next = (0..prev.len() - width)
                .map(|i| prev[i].max(prev[i + width]))
                .collect();
            levels.push(next);
            width *= 2;
        }
        RangeMax { levels }
    }

    /// `max values[start..end]` (`start < end`).
    pub fn range(&self, start: usize, end: usize) -> f64 {
        let len = end - start;
        let level = (usize::BITS - 1 - len.leading_zeros()) as usize;
        let row = &self.levels[level];
        row[start].max(row[end - (1 << level)])
    }

    /// The maximum of every value.
    pub fn all(&self) -> f64 {
        self.range(0, self.levels[0].len())
    }
}

/// Work done by a pricing search.
#[derive(Debug, Clone, Copy)]
pub struct SearchStats {
    /// Branch-and-bound nodes visited.
    pub nodes: u64,
    /// Leaves reached.
    pub leaves: u64,
    /// Vertices whose value was computed.
    pub evaluated: u64,
    /// False when the deadline stopped the search (its bound is then void).
    pub complete: bool,
}

impl Default for SearchStats {
    fn default() -> Self {
        SearchStats {
            nodes: 0,
            leaves: 0,
            evaluated: 0,
            complete: true,
        }
    }
}

impl SearchStats {
    /// Add another search's counts.
    pub fn absorb(&mut self, other: &SearchStats) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.evaluated += other.evaluated;
        self.complete &= other.complete;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_max_matches_a_scan() {
        let values: Vec<f64> = (0..37).map(|i| ((i * 7919) % 101) as f64).collect();
        let table = RangeMax::new(values.clone());
        for start in 0..values.len() {
            for end in start + 1..=values.len() {
                let scan = values[start..end].iter().cloned().fold(f64::MIN, f64::max);
                assert_eq!(table.range(start, end), scan, "{start}..{end}");
            }
        }
    }

    #[test]
    fn best_keeps_the_top_and_raises_the_threshold() {
        let mut best = Best::new(0.5);
        for i in 0..20 {
            best.offer(i as f64, i);
        }
        assert_eq!(best.items().len(), KEEP);
        assert_eq!(best.top(), 19.0);
        assert_eq!(best.threshold(), (20 - KEEP) as f64);
        best.offer(3.0, 3);
        assert_eq!(best.items().len(), KEEP);
    }
}
