//! The transposition table: shared by all Lazy SMP threads without locks.
//!
//! Each entry is two `AtomicU64`s, `key ^ data` and `data` (Hyatt's lock-less hashing): a
//! torn write from two threads makes the xor check fail, so a probe never returns an entry
//! assembled from two different positions. Four entries make a 64-byte bucket; a store
//! replaces the same position's entry, else an empty one, else the shallowest / oldest.

use crate::large_pages::LargeArray;
use crate::{Bound, MATE_BOUND};
use kestrel_chess::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

const BUCKET_SIZE: usize = 4;

#[derive(Default)]
struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    entries: [Entry; BUCKET_SIZE],
}

/// What a probe finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The stored best (or refuting) move, if any.
    pub mv: Option<Move>,
    /// Score with mates relative to the probing node (already converted from the stored form).
    pub score: i32,
    /// Static evaluation in centipawns, side to move's view (0 when stored in check).
    pub eval: i32,
    /// Draft in quarter plies.
    pub depth: i32,
    /// Whether `score` is exact, a lower bound (fail high) or an upper bound (fail low).
    pub bound: Bound,
}

impl TtEntry {
    /// Whether the stored bound alone settles a search of the window (`alpha`, `beta`): an
    /// exact score, a lower bound at or above beta, or an upper bound at or below alpha.
    /// (The caller checks that the entry is deep enough.)
    #[inline]
    pub fn cuts_off(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// The hash table of search results shared by all threads (see the module docs).
pub struct TranspositionTable {
    buckets: LargeArray<Bucket>,
    generation: AtomicU8,
}

/// Mate scores are stored relative to the node (distance to mate from here), so that the same
/// position reached at another ply reads back the right distance from the root.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of [`score_to_tt`].
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

fn bound_bits(b: Bound) -> u64 {
    match b {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    }
}

fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let mv = mv.map_or(0, |m| m.0) as u64;
    let score = score as i16 as u16 as u64;
    let eval = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let depth = depth.clamp(0, 255) as u64;
    mv | score << 16
        | eval << 32
        | depth << 48
        | bound_bits(bound) << 56
        | (generation as u64 & 63) << 58
}

fn depth_of(data: u64) -> i32 {
    (data >> 48 & 0xff) as i32
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8
}

fn unpack(data: u64, ply: usize) -> TtEntry {
    let mv = Move(data as u16);
    TtEntry {
        mv: (!mv.is_null()).then_some(mv),
        score: score_from_tt((data >> 16) as u16 as i16 as i32, ply),
        eval: (data >> 32) as u16 as i16 as i32,
        depth: depth_of(data),
        bound: match data >> 56 & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}

impl TranspositionTable {
    /// A table of `mb` megabytes; if the memory is not available, the largest half, quarter,
    /// ... of it that is (never an abort on a too-large `Hash` option).
    pub fn new(mb: usize) -> TranspositionTable {
        let mut n = (mb.clamp(1, 1 << 20) << 20) / std::mem::size_of::<Bucket>();
        let buckets = loop {
            // SAFETY: a bucket of zeroed atomics is an empty bucket.
            if let Some(b) = unsafe { LargeArray::zeroed(n) } {
                break b;
            }
            assert!(n > 1, "no memory for a one-bucket hash table");
            n /= 2;
        };
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// Size in MB (as asked for when created).
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Empties every entry and resets the generation (a new game).
    pub fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            *b = Bucket::default();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Starts loading `key`'s bucket into the cache: called right after a move is made, so the
    /// memory latency overlaps the child's draw and legality work before its probe.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: prefetching is a hint; the address is that of a live bucket.
            #[allow(unused_unsafe)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>())
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, mate scores made relative to `ply`; `None` on a miss.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            if data != 0 && e.key.load(Ordering::Relaxed) ^ data == key {
                return Some(unpack(data, ply));
            }
        }
        None
    }

    /// Stores a result for `key` found at `ply` (`depth` in quarter plies, `eval` the static
    /// evaluation). A `None` move keeps the old entry's move; a deeper entry of the same
    /// position from this search is kept unless the new bound is exact.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for e in &bucket.entries {
            let data = e.data.load(Ordering::Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = e;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            if e.key.load(Ordering::Relaxed) ^ data == key {
                // Same position: keep a deeper entry of this search unless this one is exact.
                let old_move = Move(data as u16);
                if bound != Bound::Exact
                    && generation_of(data) == generation
                    && depth_of(data) > depth + 8
                {
                    return;
                }
                let mv = mv.or((!old_move.is_null()).then_some(old_move));
                let new = pack(mv, score_to_tt(score, ply), eval, depth, bound, generation);
                e.data.store(new, Ordering::Relaxed);
                e.key.store(key ^ new, Ordering::Relaxed);
                return;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & 63) as i32;
            let worth = depth_of(data) - 8 * age;
            if worth < victim_worth {
                victim = e;
                victim_worth = worth;
            }
        }
        let new = pack(mv, score_to_tt(score, ply), eval, depth, bound, generation);
        victim.data.store(new, Ordering::Relaxed);
        victim.key.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written during the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.entries {
                let data = e.data.load(Ordering::Relaxed);
                if data != 0 && generation_of(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * BUCKET_SIZE).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MATE;

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        // Found at ply 5: mate in 3 plies from this node, i.e. MATE - 8 from the root.
        tt.store(42, None, MATE - 8, 0, 12, Bound::Exact, 5);
        // Reached again at ply 9: still mate in 3 plies from the node = MATE - 12 from the root.
        let e = tt.probe(42, 9).expect("stored");
        assert_eq!(e.score, MATE - 12);
        tt.store(43, None, -MATE + 6, 0, 12, Bound::Upper, 2);
        assert_eq!(tt.probe(43, 0).unwrap().score, -MATE + 4);
        tt.store(44, None, 123, -50, 12, Bound::Lower, 7);
        let e = tt.probe(44, 1).unwrap();
        assert_eq!(
            (e.score, e.eval, e.bound, e.depth),
            (123, -50, Bound::Lower, 12)
        );
    }

    #[test]
    fn probe_misses_other_keys_and_hashfull_counts() {
        let tt = TranspositionTable::new(1);
        assert!(tt.probe(7, 0).is_none());
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                None,
                1,
                1,
                4,
                Bound::Exact,
                0,
            );
        }
        assert!(tt.hashfull() > 500, "hashfull {}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
