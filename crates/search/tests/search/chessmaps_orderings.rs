//! Every quiet-move ordering (history, Chessmaps, both, random, and the sector killer) plays
//! legal moves and finds the same mates; the orderings really differ in the trees they search.

use kestrel_chess::Board;
use kestrel_search::{EngineConfig, MATE, SearchLimits, SearchResult, Searcher};

/// (label, QUIET_ORDER, USE_SECTOR_KILLER)
const MODES: [(&str, i32, i32); 5] = [
    ("history", 0, 0),
    ("chessmaps", 1, 0),
    ("chessmaps + sector killer", 1, 1),
    ("both", 2, 0),
    ("random", 3, 0),
];

fn search(board: &Board, order: i32, killer: i32, depth: i32) -> SearchResult {
    let mut config = EngineConfig::default();
    config
        .search_params
        .set_scalar("QUIET_ORDER", order)
        .unwrap();
    config
        .search_params
        .set_scalar("USE_SECTOR_KILLER", killer)
        .unwrap();
    let mut s = Searcher::new(config);
    s.control().reset();
    s.search(board, &SearchLimits::depth(depth), &mut |_| {})
}

#[test]
fn every_mode_finds_the_same_forced_mates() {
    let cases = [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", 1),
        (
            "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
            "g2g1",
            2,
        ),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "f6a6", 3),
    ];
    for (fen, best, n) in cases {
        let board = Board::from_fen(fen).unwrap();
        for (label, order, killer) in MODES {
            let r = search(&board, order, killer, 2 * n + 1);
            let mv = r.best_move.expect("a move");
            assert!(board.is_legal(mv), "{label}: illegal {mv}");
            assert_eq!(mv.to_string(), best, "{label} on {fen}");
            assert_eq!(r.score_internal, MATE - (2 * n - 1), "{label} on {fen}");
        }
    }
}

#[test]
fn every_mode_plays_legal_moves_and_orders_differently() {
    let board =
        Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let mut node_counts = Vec::new();
    for (label, order, killer) in MODES {
        let r = search(&board, order, killer, 5);
        assert!(board.is_legal(r.best_move.unwrap()), "{label}");
        node_counts.push(r.nodes);
    }
    assert_ne!(node_counts[0], node_counts[4], "random orders like history");
    assert_ne!(
        node_counts[0], node_counts[1],
        "chessmaps orders like history"
    );
    node_counts.sort();
    node_counts.dedup();
    assert!(
        node_counts.len() >= 3,
        "orderings search alike: {node_counts:?}"
    );
}
