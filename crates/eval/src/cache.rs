//! Evaluation caches for search: a pawn-structure table keyed by the pawn key and a table of
//! whole evaluations keyed by the position key. Both hold results of one [`Evaluator`]'s
//! weights, so a cache remembers whose entries it holds and empties itself when another
//! evaluator (another parameter set) uses it: two parameter sets never share an entry.
//!
//! A cache belongs to one search thread (no locks); the evaluation it returns is exactly the
//! uncached one (tested), so caching never changes a search's tree.
//!
//! [`Evaluator`]: crate::Evaluator

use crate::features::PawnFacts;
use kestrel_chess::Square;

/// One cached evaluation: the full position key and the side-to-move score.
#[derive(Clone, Copy, Debug, Default)]
struct EvalEntry {
    key: u64,
    score: i32,
    filled: bool,
}

/// One cached pawn structure: its classification and the summed (mg, eg) weights of every
/// term that depends on the pawns alone (material, piece-square, advancement and structure of
/// the pawns), white-relative, unscaled by phase.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PawnEntry {
    pub key: u64,
    pub filled: bool,
    pub facts: PawnFacts,
    pub mg: i64,
    pub eg: i64,
    /// Each side's king-shelter sums for the last king square they were worked out for.
    pub shelter: [ShelterSums; 2],
}

/// A side's king-shelter terms, summed, with these pawns and its king on one square: the
/// shelter depends on nothing else, so a king that stays put (most moves) reuses them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ShelterSums {
    /// The king's square plus one; 0 while nothing is kept.
    king: u8,
    mg: i64,
    eg: i64,
}

impl ShelterSums {
    /// The (mg, eg) shelter sums with the king on `king`: the kept ones when they are that
    /// square's, else those `work_out` gives, kept in their place.
    #[inline]
    pub(crate) fn for_king(
        &mut self,
        king: Square,
        work_out: impl FnOnce() -> (i64, i64),
    ) -> (i64, i64) {
        if self.king != king.0 + 1 {
            let (mg, eg) = work_out();
            *self = ShelterSums {
                king: king.0 + 1,
                mg,
                eg,
            };
        }
        (self.mg, self.eg)
    }
}

/// Probe and hit counts of both tables since the cache was made or its counts reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups of the evaluation table (one per cached evaluation).
    pub eval_probes: u64,
    /// Lookups that found the position.
    pub eval_hits: u64,
    /// Lookups of the pawn table (one per evaluation-table miss).
    pub pawn_probes: u64,
    /// Lookups that found the pawn structure.
    pub pawn_hits: u64,
}

impl CacheStats {
    /// Hits per probe of the evaluation table (0 without probes).
    pub fn eval_hit_rate(&self) -> f64 {
        ratio(self.eval_hits, self.eval_probes)
    }

    /// Hits per probe of the pawn table (0 without probes).
    pub fn pawn_hit_rate(&self) -> f64 {
        ratio(self.pawn_hits, self.pawn_probes)
    }

    /// Both counts summed (several threads' caches).
    pub fn merged(self, other: CacheStats) -> CacheStats {
        CacheStats {
            eval_probes: self.eval_probes + other.eval_probes,
            eval_hits: self.eval_hits + other.eval_hits,
            pawn_probes: self.pawn_probes + other.pawn_probes,
            pawn_hits: self.pawn_hits + other.pawn_hits,
        }
    }
}

fn ratio(hits: u64, probes: u64) -> f64 {
    if probes == 0 {
        0.0
    } else {
        hits as f64 / probes as f64
    }
}

/// A search thread's evaluation and pawn-structure tables (sizes are powers of two).
#[derive(Clone, Debug)]
pub struct EvalCache {
    /// Id of the evaluator whose results the tables hold (0: none yet).
    owner: u64,
    evals: Box<[EvalEntry]>,
    pawns: Box<[PawnEntry]>,
    stats: CacheStats,
}

/// Bytes of one evaluation-table entry.
pub const EVAL_ENTRY_BYTES: usize = size_of::<EvalEntry>();
/// Bytes of one pawn-table entry.
pub const PAWN_ENTRY_BYTES: usize = size_of::<PawnEntry>();

impl EvalCache {
    /// Tables of `eval_entries` and `pawn_entries` entries, each rounded down to a power of
    /// two (at least 1).
    pub fn new(eval_entries: usize, pawn_entries: usize) -> EvalCache {
        let pow2 = |n: usize| 1usize << (usize::BITS - 1 - n.max(1).leading_zeros());
        EvalCache {
            owner: 0,
            evals: vec![EvalEntry::default(); pow2(eval_entries)].into_boxed_slice(),
            pawns: vec![PawnEntry::default(); pow2(pawn_entries)].into_boxed_slice(),
            stats: CacheStats::default(),
        }
    }

    /// The tables a search thread gets for a hash table of `hash_mb` megabytes: at most a
    /// 32nd of it for evaluations and as much for pawn structures (at least 1,024 and 256
    /// entries). Small, because a tuner makes a searcher with a 1 MB hash table for every
    /// position it searches, and because larger tables measured no faster.
    pub fn for_hash_mb(hash_mb: usize) -> EvalCache {
        let bytes = hash_mb.max(1) << 20;
        EvalCache::new(
            (bytes / 32 / EVAL_ENTRY_BYTES).max(1024),
            (bytes / 32 / PAWN_ENTRY_BYTES).max(256),
        )
    }

    /// Entries of the evaluation table.
    pub fn eval_entries(&self) -> usize {
        self.evals.len()
    }

    /// Entries of the pawn table.
    pub fn pawn_entries(&self) -> usize {
        self.pawns.len()
    }

    /// Bytes of both tables.
    pub fn bytes(&self) -> usize {
        self.evals.len() * EVAL_ENTRY_BYTES + self.pawns.len() * PAWN_ENTRY_BYTES
    }

    /// Empties both tables (the counts stay).
    pub fn clear(&mut self) {
        self.evals.fill(EvalEntry::default());
        self.pawns.fill(PawnEntry::default());
        self.owner = 0;
    }

    /// Probe and hit counts so far.
    pub fn stats(&self) -> CacheStats {
        self.stats
    }

    /// Sets the counts to zero.
    pub fn reset_stats(&mut self) {
        self.stats = CacheStats::default();
    }

    /// Makes the tables hold evaluator `id`'s results, emptying them if they held another's.
    #[inline]
    pub(crate) fn adopt(&mut self, id: u64) {
        if self.owner != id {
            self.clear();
            self.owner = id;
        }
    }

    /// Starts loading the evaluation entry of key `key` into the processor cache (a search
    /// calls it with the child's key before making the move).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let entry: *const EvalEntry = &self.evals[key as usize & (self.evals.len() - 1)];
            // SAFETY: prefetching is a hint; the address is that of a live entry.
            #[allow(unused_unsafe)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(entry.cast::<i8>())
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The cached score of the position with key `key`, if any.
    #[inline]
    pub(crate) fn probe_eval(&mut self, key: u64) -> Option<i32> {
        self.stats.eval_probes += 1;
        let e = &self.evals[key as usize & (self.evals.len() - 1)];
        let hit = e.filled && e.key == key;
        self.stats.eval_hits += hit as u64;
        hit.then_some(e.score)
    }

    /// Remembers `score` for the position with key `key` (always replaces).
    #[inline]
    pub(crate) fn store_eval(&mut self, key: u64, score: i32) {
        let len = self.evals.len();
        self.evals[key as usize & (len - 1)] = EvalEntry {
            key,
            score,
            filled: true,
        };
    }

    /// The pawn entry for pawn key `key`, filled by `fill` on a miss (always replaces).
    #[inline]
    pub(crate) fn pawn_entry(
        &mut self,
        key: u64,
        fill: impl FnOnce() -> PawnEntry,
    ) -> &mut PawnEntry {
        self.stats.pawn_probes += 1;
        let len = self.pawns.len();
        let e = &mut self.pawns[key as usize & (len - 1)];
        if e.filled && e.key == key {
            self.stats.pawn_hits += 1;
        } else {
            *e = PawnEntry {
                key,
                filled: true,
                ..fill()
            };
        }
        e
    }
}
