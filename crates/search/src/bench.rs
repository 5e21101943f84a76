//! The bench: a fixed set of positions searched to a fixed depth with a fresh hash table and
//! one thread. Its total node count is a signature of the search (any change to the search
//! changes it); nodes per second measure speed.
//!
//! Positions: middlegames and endgames reached in GM games of `shared/data/games` (both
//! players >= 2600, picked at fixed plies from every n-th game), plus composed endings (king and
//! pawn endings with opposition and a blockade, rook, queen and minor-piece endings).

use crate::{EngineConfig, SearchLimits, Searcher};
use kestrel_chess::Board;
use kestrel_eval::CacheStats;
use std::time::{Duration, Instant};

/// Depth that takes roughly 5-10 s in a release build on one core.
pub const DEFAULT_BENCH_DEPTH: i32 = 11;

/// The bench positions as FEN (see the module docs for where they come from).
pub const BENCH_FENS: &[&str] = &[
    // Openings and early middlegames (GM games).
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/p2n1ppp/2p1pn2/1p6/2BP4/2N1PN2/PP3PPP/R1BQK2R w KQkq - 0 8",
    "r1bqkb1r/2p2ppp/p1n5/1p1pp3/3Pn3/1B3N2/PPP2PPP/RNBQ1RK1 w kq - 0 8",
    "r1bq1rk1/pp1n1ppp/2pbpn2/3p4/2PP4/2NBPN2/PP1B1PPP/R2QK2R w KQ - 6 8",
    "rn1q1rk1/pbp1bppp/1p2pn2/3p4/2P5/2N2NP1/PP1PPPBP/R1BQR1K1 w - - 0 8",
    "rn1qkb1r/pp2pppp/2p5/3b4/8/1P2QN2/P1PP1PPP/R1B1KB1R b KQkq - 2 8",
    "rnbq1rk1/1pp1bppp/p3pn2/8/2QP4/5NP1/PP2PPBP/RNB2RK1 b - - 0 8",
    "r1b1kb1r/p1qp1ppp/2p1p1n1/2p4Q/4P2N/3P4/PPP2PPP/RNB2RK1 b kq - 6 8",
    "rn3rk1/p1p1qpp1/bp5p/3p4/3P4/5NP1/PP2PP1P/2RQKB1R w K - 1 12",
    "rn1qk2r/5ppp/pp1ppb2/8/2P2Q2/2N2bP1/PP2PPBP/R4RK1 w kq - 0 12",
    "rn2k2r/pb1pq1pp/1p1ppb2/3P1p2/2P5/2N2NP1/PPQ1PPBP/R3K2R w KQkq - 0 12",
    "r2q1rk1/1bp1bppp/p3pn2/1p6/1n1P1B2/5NP1/PPQ1PPBP/RN1R2K1 w - - 6 12",
    "r2q1rk1/1pp2pp1/p1nb1n1p/5b2/2BP3B/P1N2N1P/1P3PP1/R2Q1RK1 b - - 1 13",
    "r1br2k1/ppq2ppp/2n1pb2/8/4Q3/3B1N2/PPP2PPP/R1B1R1K1 b - - 3 13",
    "r1bqr1k1/1pp2pbp/3p1np1/p1nPp3/2P1P3/P1N1B1PP/1P1N1PB1/R2Q1RK1 b - - 2 13",
    // Middlegames (GM games).
    "r1b1r1k1/2p1qppp/pp6/2p1n3/4PB2/P1QP4/P1PN2PP/R4RK1 w - - 1 16",
    "r1br2k1/p2nbpp1/1pp1p2p/8/2PP4/P1N2N2/1P1RBPPP/4K2R w K - 0 16",
    "r1b2rk1/pp2qp1p/2p5/2b1p3/4Q3/5N2/PP2BPPP/R4RK1 w - - 0 16",
    "r2qr1k1/p2n1pbp/1pb3p1/2p5/8/1QP1BN2/PP2BPPP/R4RK1 w - - 4 16",
    "3r1rk1/p1p2pp1/1pn1pn1p/3q4/Q2Pb3/P3BNP1/1P2PPBP/2R2RK1 b - - 12 17",
    "rnbr2k1/pp2q1bp/3p2p1/3p1pN1/2P2P2/1P2p1P1/PB2P1BP/2QR1RK1 b - - 0 17",
    "r2q1rk1/p4ppp/1pbn4/3P4/2B5/8/P2Q1PPP/3RR1K1 w - - 0 19",
    "r4rk1/pR3ppp/3Rpn2/2p5/2q5/5BP1/P3PP1P/3Q2K1 w - - 0 19",
    "r2r2k1/ppn2pbp/2p2np1/1P2pq2/P1P5/B1N1P1P1/3NQPKP/1R3R2 w - - 4 19",
    "rr4k1/5ppp/p1pb4/3n4/P2P2b1/1BNQB1Pq/1P3P1P/R3R1K1 w - - 1 19",
    "r1b2rk1/1N2ppbp/2p3p1/8/2nP4/1RP3PP/3BPPB1/3R2K1 b - - 0 21",
    "3q1rk1/6b1/rpp1b1pp/4p3/P3Pp2/2BP1P1P/1QP1NP2/1R2K2R b K - 4 21",
    "r3k2r/p1pp2p1/1p2p3/n5Rp/Q1PPq2P/B1P3P1/P3P3/5RK1 w kq - 7 23",
    "2r3k1/pb2qp1p/1pn2bp1/4p3/Q3B3/1NP1BP2/PP1R2PP/6K1 w - - 1 23",
    "3r1rk1/pbq3pn/1p1bp1N1/5pQ1/3p1P2/3B4/PPPB3P/1K1RR3 w - - 1 23",
    "5rk1/p1n3pp/b1p1p3/8/2NPP2q/P3B2P/2Q1BrKR/8 w - - 0 27",
    "1r4rk/2Nn3n/3p1q2/N1pP1p1p/1p6/5P2/1P1QR1PP/R5K1 w - - 1 27",
    "4r1k1/pp2p2R/4Nbp1/4pb2/5q2/2P2P1Q/P1P5/1K5R w - - 2 31",
    "k1r3r1/5Q1p/pqNp1P2/1p1Pp3/1B3b2/8/PPP4P/1K3R2 w - - 1 31",
    "7Q/qb1k1p2/4p1p1/1p1pP1P1/1p1N1P2/8/1PP1N3/1K3n2 b - - 7 33",
    "6k1/p4rbp/1p4p1/4r3/6q1/P3B3/1P1Q1P1P/2R1R2K b - - 7 33",
    "8/1P4pk/pP3r1p/P2p1p2/3Pr1n1/3R1P2/3Q2Bq/2R2K2 w - - 3 36",
    "5qk1/2p2pp1/5B1p/3P1P2/p6P/b5P1/5PK1/3BQ3 b - - 0 38",
    // Endgames (GM games).
    "1R6/4npk1/3p4/2pP1P1p/2P1p1p1/2P3PP/r1BK2P1/8 w - - 2 41",
    "8/4k3/4pp2/3bq1p1/1p4P1/3Q1P1P/1P3K2/5N2 w - - 8 49",
    "4k3/3nB3/2NP1p2/1pp2K1R/2r3P1/8/8/b7 w - - 0 49",
    "8/1r3b1k/8/3p2R1/1ppP1B1P/5P2/1P3K2/8 w - - 0 49",
    "8/p6p/2k1p1p1/2b5/2K1P1P1/8/P6P/2B5 b - - 0 28",
    "8/5pk1/1p3qp1/2rp3p/1R5P/PQ2P1P1/5PK1/8 b - - 2 43",
    "8/5pk1/5b2/R6N/p6p/5K1P/P4P1r/8 b - - 9 51",
    "3n1k2/1p3p2/p2r4/P3Q1P1/1P6/3p4/3K4/8 b - - 6 43",
    // Composed endings: king and pawn (opposition, outside passer, a locked blockade).
    "8/8/8/3k4/3p4/3K4/3P4/8 w - - 0 1",
    "8/8/1k6/8/1PK5/8/8/8 w - - 0 1",
    "8/5k2/8/p7/8/3K4/5PP1/8 w - - 0 1",
    "4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1",
    // Composed endings: rook (Lucena-type), queen v rook, minor pieces, queens.
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "8/8/8/4k3/8/8/2r5/4K2Q w - - 0 1",
    "8/4k3/2b1p3/1p1pP3/1P1P1B2/5K2/8/8 w - - 0 1",
    "8/6k1/6p1/5p2/5P2/6P1/4Q1K1/q7 w - - 0 1",
];

/// The bench positions.
pub fn positions() -> Vec<Board> {
    BENCH_FENS
        .iter()
        .map(|f| Board::from_fen(f).expect("bench FENs are valid"))
        .collect()
}

/// One position's outcome.
#[derive(Clone, Debug)]
pub struct BenchEntry {
    /// The position, as in [`BENCH_FENS`].
    pub fen: &'static str,
    /// Nodes searched for it.
    pub nodes: u64,
    /// Wall time of its search.
    pub time: Duration,
    /// The move the search chose (`None` only with no legal move).
    pub best_move: Option<kestrel_chess::Move>,
}

/// Searches every bench position to `depth` with a fresh hash table and one thread;
/// `on_entry` sees each position's result as it finishes. Returns nodes and time.
pub fn run(
    config: &EngineConfig,
    depth: i32,
    on_entry: &mut dyn FnMut(&BenchEntry),
) -> (u64, Duration) {
    let totals = run_with_stats(config, depth, on_entry);
    (totals.nodes, totals.time)
}

/// What a whole bench run measured.
#[derive(Clone, Copy, Debug)]
pub struct BenchTotals {
    /// Nodes of all positions.
    pub nodes: u64,
    /// Wall time of the whole run.
    pub time: Duration,
    /// Probes and hits of the evaluation caches over the run.
    pub cache: CacheStats,
}

/// [`run`], also reporting the evaluation caches' hit counts.
pub fn run_with_stats(
    config: &EngineConfig,
    depth: i32,
    on_entry: &mut dyn FnMut(&BenchEntry),
) -> BenchTotals {
    let mut config = config.clone();
    config.threads = 1;
    config.multipv = 1;
    let mut searcher = Searcher::new(config);
    let started = Instant::now();
    let mut total = 0;
    for (fen, board) in BENCH_FENS.iter().zip(positions()) {
        searcher.new_game();
        searcher.control().reset();
        let t = Instant::now();
        let r = searcher.search(&board, &SearchLimits::depth(depth), &mut |_| {});
        total += r.nodes;
        on_entry(&BenchEntry {
            fen,
            nodes: r.nodes,
            time: t.elapsed(),
            best_move: r.best_move,
        });
    }
    BenchTotals {
        nodes: total,
        time: started.elapsed(),
        cache: searcher.cache_stats(),
    }
}
