//! Mates are found with the right distance (checked against a brute-force solver), and
//! stalemate, repetition and blockage come out as draws.

use kestrel_chess::Board;
use kestrel_params::ParamValues;
use kestrel_search::{EngineConfig, MATE, SEARCH_TABLE, Score, SearchLimits, Searcher};

fn search(board: &Board, limits: &SearchLimits) -> kestrel_search::SearchResult {
    let mut s = Searcher::new(EngineConfig::default());
    s.search(board, limits, &mut |_| {})
}

/// The same search without the hash table in quiescence (`USE_QS_TT` off).
fn search_without_qs_tt(board: &Board, limits: &SearchLimits) -> kestrel_search::SearchResult {
    let mut s = Searcher::new(EngineConfig::default());
    let mut values = ParamValues::defaults(&SEARCH_TABLE);
    values.set_scalar("USE_QS_TT", 0).unwrap();
    s.set_search_params(values).unwrap();
    s.search(board, limits, &mut |_| {})
}

/// Whether the side to move mates within `n` moves whatever the defence (brute force).
fn mate_in(board: &mut Board, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    for &mv in board.legal_moves().iter() {
        board.make_move(mv);
        let replies = board.legal_moves();
        let forced = if replies.is_empty() {
            board.in_check()
        } else if n > 1 {
            replies.iter().all(|&r| {
                board.make_move(r);
                let ok = mate_in(board, n - 1);
                board.unmake_move();
                ok
            })
        } else {
            false
        };
        board.unmake_move();
        if forced {
            return true;
        }
    }
    false
}

#[test]
fn mates_in_one_two_and_three_with_exact_scores() {
    for search in [search, search_without_qs_tt] {
        mates_found_with_exact_scores(search);
    }
}

fn mates_found_with_exact_scores(
    search: fn(&Board, &SearchLimits) -> kestrel_search::SearchResult,
) {
    let cases = [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),
        ("k7/8/8/1K6/8/8/8/7R w - - 0 1", 2),
        ("3k4/8/4K3/8/8/8/8/7R w - - 0 1", 2),
        ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3),
    ];
    for (fen, n) in cases {
        let mut board = Board::from_fen(fen).unwrap();
        assert!(
            mate_in(&mut board, n),
            "{fen}: no mate in {n} by brute force"
        );
        assert!(!mate_in(&mut board, n - 1), "{fen}: shorter mate exists");
        let r = search(&board, &SearchLimits::depth(2 * n as i32 + 2));
        assert_eq!(r.score, Score::Mate(n as i32), "{fen}");
        assert_eq!(r.score_internal, MATE - (2 * n as i32 - 1), "{fen}");
        let mv = r.best_move.expect("a move");
        assert!(board.legal_moves().contains(mv));
        // The PV is a legal line that ends in mate.
        let mut b = board.clone();
        for &m in &r.pv {
            assert!(b.legal_moves().contains(m), "{fen}: illegal PV move {m}");
            b.make_move(m);
        }
        assert!(
            b.is_checkmate(),
            "{fen}: PV {:?} does not end in mate",
            r.pv
        );
    }
}

#[test]
fn being_mated_is_reported_negative() {
    // Black's only move is Kb8, then Rg8 mates.
    let board = Board::from_fen("k7/8/1K6/8/8/8/8/6R1 b - - 0 1").unwrap();
    let r = search(&board, &SearchLimits::depth(4));
    assert_eq!(r.score, Score::Mate(-1));
}

#[test]
fn mate_limit_stops_at_the_mate() {
    let board = Board::from_fen("k7/8/8/1K6/8/8/8/7R w - - 0 1").unwrap();
    let limits = SearchLimits {
        mate: Some(2),
        ..Default::default()
    };
    let r = search(&board, &limits);
    assert_eq!(r.score, Score::Mate(2));
}

#[test]
fn stalemate_and_checkmate_at_the_root_give_no_move() {
    let stalemate = Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let r = search(&stalemate, &SearchLimits::depth(3));
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, Score::Cp(0));
    let mated = Board::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
    let r = search(&mated, &SearchLimits::depth(3));
    assert_eq!(r.best_move, None);
    assert_eq!(r.score_internal, -MATE);
}

#[test]
fn avoids_stalemating_when_winning() {
    // Qg6?? or Qf7?? stalemate; any sensible move keeps the win (mate in a few).
    let board = Board::from_fen("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1").unwrap();
    let r = search(&board, &SearchLimits::depth(6));
    assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
}

#[test]
fn a_losing_side_takes_the_repetition() {
    // Black, a queen down, can repeat the position: 1...Kf8 2.Qb1 Kg8 3.Qa1 and now Kf8 again.
    let mut board = Board::from_fen("6k1/8/8/8/8/8/8/Q5K1 b - - 0 1").unwrap();
    for uci in ["g8f8", "a1b1", "f8g8", "b1a1"] {
        let mv = board.parse_uci_move(uci).unwrap();
        board.make_move(mv);
    }
    let r = search(&board, &SearchLimits::depth(6));
    assert_eq!(r.best_move.map(|m| m.to_string()).as_deref(), Some("g8f8"));
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn a_locked_pawn_ending_is_a_draw_despite_the_extra_pawn() {
    // White's extra (doubled, blocked) g-pawn is worth a pawn to a static evaluation, but
    // neither king can ever get through: blockage detection scores it as a draw.
    let board = Board::from_fen("4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/6P1/8/4K3 w - - 0 1").unwrap();
    let r = search(&board, &SearchLimits::depth(8));
    assert_eq!(r.score, Score::Cp(0));
    let mut values = ParamValues::defaults(&SEARCH_TABLE);
    values.set_scalar("USE_BLOCKAGE", 0).unwrap();
    let mut s = Searcher::new(EngineConfig {
        search_params: values,
        ..EngineConfig::default()
    });
    let r = s.search(&board, &SearchLimits::depth(8), &mut |_| {});
    // Without it, the search sees only the static evaluation of an unchanging structure.
    assert_ne!(r.score, Score::Cp(0));
}
