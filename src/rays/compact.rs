//! Every extreme ray of a ratio cone, stored as tree codes: a few bits per input instead of a
//! float, so that the 16,743,648 rays of the Euclidean 4 x 4 grid fit in 268 MB and can be
//! scanned once per pricing round.
//!
//! A vertex of the log polytope is fixed by its tree of tight pairs: `q_0 = 1`, and each other
//! input `x` is `q_p / f_px` (the lower end its parent `p` allows) or `q_p f_xp` (the upper
//! end). Decoding repeats the search's own products, so the decoded ray is the one the search
//! visited, bit for bit.

use super::polytrope::{SearchBox, VertexVisitor, UPPER_END};
use super::RatioCone;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Every extreme ray of a ratio cone, as packed tree codes.
#[derive(Debug, Clone)]
pub struct CompactRays {
    n: usize,
    /// Bits per input: the parent's index and the end flag.
    bits: u32,
    /// 64-bit words per ray.
    words: usize,
    /// Packed rays, in blocks (one per subtree of the search: no copy when they are joined).
    blocks: Vec<Vec<u64>>,
}

impl CompactRays {
    fn layout(n: usize) -> (u32, usize) {
        let index_bits = usize::BITS - (n.max(2) - 1).leading_zeros();
        let bits = index_bits + 1;
        let words = ((n - 1) * bits as usize).div_ceil(64).max(1);
        (bits, words)
    }

    /// Bytes per ray for a cone with `n` inputs.
    pub fn bytes_per_ray(n: usize) -> usize {
        8 * Self::layout(n).1
    }

    /// Number of rays.
    pub fn len(&self) -> usize {
        self.blocks.iter().map(Vec::len).sum::<usize>() / self.words
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        8 * self.blocks.iter().map(Vec::len).sum::<usize>()
    }

    /// Words per ray (for chunking a scan).
    pub fn words(&self) -> usize {
        self.words
    }

    /// The packed words (`words()` per ray), in blocks of whole rays.
    pub fn blocks(&self) -> &[Vec<u64>] {
        &self.blocks
    }

    fn pack(&self, code: &[u8], out: &mut Vec<u64>) {
        let start = out.len();
        out.resize(start + self.words, 0);
        let index_bits = self.bits - 1;
        for (x, &c) in code.iter().enumerate().skip(1) {
            let value = (c & !UPPER_END) as u64 | ((c & UPPER_END != 0) as u64) << index_bits;
            let at = (x - 1) * self.bits as usize;
            let (w, b) = (at / 64, at % 64);
            out[start + w] |= value << b;
            if b + self.bits as usize > 64 {
                out[start + w + 1] |= value >> (64 - b);
            }
        }
    }

    /// The parent and end flag of input `x > 0` in the packed ray `words`.
    fn field(&self, words: &[u64], x: usize) -> (usize, bool) {
        let at = (x - 1) * self.bits as usize;
        let (w, b) = (at / 64, at % 64);
        let mut value = words[w] >> b;
        if b + self.bits as usize > 64 {
            value |= words[w + 1] << (64 - b);
        }
        let value = value & ((1u64 << self.bits) - 1);
        let index_bits = self.bits - 1;
        (
            (value & ((1 << index_bits) - 1)) as usize,
            value >> index_bits & 1 == 1,
        )
    }

    /// Decode the packed ray `words` (one ray's `words()` words) into `q` (`q_0 = 1`).
    pub fn decode(&self, cone: &RatioCone, words: &[u64], q: &mut [f64]) {
        let n = self.n;
        let mut done: u64 = 1;
        q[0] = 1.0;
        let mut chain = [0usize; 64];
        for x in 1..n {
            let mut len = 0;
            let mut y = x;
            while done >> y & 1 == 0 {
                chain[len] = y;
                len += 1;
                y = self.field(words, y).0;
            }
            for &c in chain[..len].iter().rev() {
                let (p, upper) = self.field(words, c);
                q[c] = if upper {
                    q[p] * cone.factor(c, p)
                } else {
                    q[p] / cone.factor(p, c)
                };
                done |= 1 << c;
            }
        }
    }
}

/// Rays per parallel chunk of a scan.
const SCAN_CHUNK: usize = 1 << 14;

/// What a scan found: the largest score, and the best rays (score, ray), best first.
pub type Scanned = (f64, Vec<(f64, Vec<f64>)>);

impl CompactRays {
    /// Decode every ray (`q_0 = 1`) in parallel and score it with `score` (given per-thread
    /// scratch from `scratch`): the largest score, and the `keep` best rays with a positive
    /// score.
    pub fn best_by<S, I, F>(&self, cone: &RatioCone, keep: usize, scratch: I, score: F) -> Scanned
    where
        I: Fn() -> S + Sync + Send,
        F: Fn(&mut S, &[f64]) -> f64 + Sync + Send,
    {
        let keep = keep.max(1);
        let words = self.words;
        let scan = |chunk: &[u64]| -> Scanned {
            let mut state = scratch();
            let mut q = vec![0.0; self.n];
            let mut best: Vec<(f64, Vec<f64>)> = Vec::new();
            let mut top = f64::NEG_INFINITY;
            for ray in chunk.chunks_exact(words) {
                self.decode(cone, ray, &mut q);
                let value = score(&mut state, &q);
                top = top.max(value);
                let level = if best.len() < keep {
                    0.0
                } else {
                    best[keep - 1].0
                };
                if value > level {
                    let at = best.partition_point(|c| c.0 >= value);
                    best.insert(at, (value, q.clone()));
                    best.truncate(keep);
                }
            }
            (top, best)
        };
        let (top, mut best) = self
            .blocks
            .par_iter()
            .flat_map(|block| block.par_chunks(words * SCAN_CHUNK))
            .map(scan)
            .reduce(
                || (f64::NEG_INFINITY, Vec::new()),
                |(ta, mut a), (tb, b)| {
                    a.extend(b);
                    (ta.max(tb), a)
                },
            );
        best.sort_by(|a, b| b.0.total_cmp(&a.0));
        best.truncate(keep);
        (top, best)
    }
}

#[derive(Clone)]
struct Packer<'a> {
    store: CompactRays,
    found: &'a AtomicUsize,
    limit: usize,
}

impl VertexVisitor for Packer<'_> {
    fn prune(&mut self, _: &SearchBox<'_>) -> bool {
        self.found.load(Ordering::Relaxed) > self.limit
    }

    fn vertex(&mut self, _: &[f64], code: &[u8]) {
        if self.found.fetch_add(1, Ordering::Relaxed) < self.limit {
            if self.store.blocks.is_empty() {
                self.store.blocks.push(Vec::new());
            }
            let mut block = self.store.blocks.pop().expect("one block");
            self.store.pack(code, &mut block);
            self.store.blocks.push(block);
        }
    }

    fn merge(&mut self, other: Self) {
        self.store.blocks.extend(
            other
                .store
                .blocks
                .into_iter()
                .filter(|b| !b.is_empty())
                .map(|mut b| {
                    b.shrink_to_fit();
                    b
                }),
        );
    }
}

impl RatioCone {
    /// Every extreme ray as tree codes, or `None` when there are more than `limit`, a tie was
    /// ambiguous or `deadline` passed.
    pub fn compact(&self, limit: usize, deadline: Option<Instant>) -> Option<CompactRays> {
        let n = self.inputs();
        let (bits, words) = CompactRays::layout(n);
        let found = AtomicUsize::new(0);
        let mut packer = Packer {
            store: CompactRays {
                n,
                bits,
                words,
                blocks: Vec::new(),
            },
            found: &found,
            limit,
        };
        let stats = self.search_until(&mut packer, deadline);
        let store = packer.store;
        let complete = found.into_inner() <= limit && stats.ambiguous == 0 && !stats.timed_out;
        complete.then_some(store)
    }
}
