//! Stopping from another thread, pondering, determinism, MultiPV and Lazy SMP.

use kestrel_chess::Board;
use kestrel_search::{EngineConfig, SearchLimits, Searcher};
use std::time::{Duration, Instant};

const MIDDLEGAME: &str = "r2q1rk1/1pp2pp1/p1nb1n1p/5b2/2BP3B/P1N2N1P/1P3PP1/R2Q1RK1 b - - 1 13";

#[test]
fn stop_from_another_thread_is_answered_quickly() {
    let board = Board::from_fen(MIDDLEGAME).unwrap();
    let mut searcher = Searcher::new(EngineConfig::default());
    let control = searcher.control();
    control.reset();
    let b = board.clone();
    let handle = std::thread::spawn(move || {
        let limits = SearchLimits {
            infinite: true,
            ..Default::default()
        };
        searcher.search(&b, &limits, &mut |_| {})
    });
    std::thread::sleep(Duration::from_millis(300));
    assert!(!handle.is_finished(), "an infinite search waits for stop");
    let t = Instant::now();
    control.stop();
    let r = handle.join().unwrap();
    let latency = t.elapsed();
    assert!(
        latency < Duration::from_millis(100),
        "stop took {latency:?}"
    );
    let mv = r.best_move.expect("a move");
    assert!(board.legal_moves().contains(mv));
}

#[test]
fn a_stop_sent_before_the_search_still_yields_a_legal_move() {
    let board = Board::from_fen(MIDDLEGAME).unwrap();
    let mut searcher = Searcher::new(EngineConfig::default());
    searcher.control().stop();
    let r = searcher.search(&board, &SearchLimits::depth(30), &mut |_| {});
    assert_eq!(r.depth, 1);
    assert!(board.legal_moves().contains(r.best_move.unwrap()));
}

#[test]
fn ponder_runs_until_ponderhit_then_obeys_the_clock() {
    let board = Board::from_fen(MIDDLEGAME).unwrap();
    let mut searcher = Searcher::new(EngineConfig::default());
    let control = searcher.control();
    control.reset();
    let b = board.clone();
    let handle = std::thread::spawn(move || {
        let limits = SearchLimits {
            ponder: true,
            wtime: Some(Duration::from_millis(2000)),
            btime: Some(Duration::from_millis(2000)),
            ..Default::default()
        };
        searcher.search(&b, &limits, &mut |_| {})
    });
    std::thread::sleep(Duration::from_millis(400));
    assert!(!handle.is_finished(), "pondering ignores the clock");
    let t = Instant::now();
    control.ponderhit();
    let r = handle.join().unwrap();
    // Budget for 2 s with 30 moves to go: well under a second.
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );
    assert!(board.legal_moves().contains(r.best_move.unwrap()));
}

#[test]
fn movetime_is_respected() {
    let board = Board::from_fen(MIDDLEGAME).unwrap();
    let mut searcher = Searcher::new(EngineConfig::default());
    let t = Instant::now();
    let r = searcher.search(
        &board,
        &SearchLimits::movetime(Duration::from_millis(200)),
        &mut |_| {},
    );
    assert!(
        t.elapsed() < Duration::from_millis(400),
        "{:?}",
        t.elapsed()
    );
    assert!(r.depth >= 2);
}

#[test]
fn node_and_depth_limited_searches_are_deterministic() {
    let board = Board::from_fen(MIDDLEGAME).unwrap();
    for limits in [SearchLimits::nodes(30_000), SearchLimits::depth(6)] {
        let run = || {
            let mut s = Searcher::new(EngineConfig::default());
            s.search(&board, &limits, &mut |_| {})
        };
        let (a, b) = (run(), run());
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.best_move, b.best_move);
        assert_eq!(a.score_internal, b.score_internal);
        assert_eq!(a.pv, b.pv);
        // new_game restores the fresh state.
        let mut s = Searcher::new(EngineConfig::default());
        s.search(&board, &limits, &mut |_| {});
        s.new_game();
        let c = s.search(&board, &limits, &mut |_| {});
        assert_eq!(a.nodes, c.nodes);
    }
    let r = Searcher::new(EngineConfig::default()).search(
        &board,
        &SearchLimits::nodes(30_000),
        &mut |_| {},
    );
    assert!(r.nodes >= 30_000 && r.nodes < 31_000, "{}", r.nodes);
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let board = Board::from_fen(MIDDLEGAME).unwrap();
    let mut searcher = Searcher::new(EngineConfig {
        multipv: 3,
        ..EngineConfig::default()
    });
    let mut last = Vec::new();
    let r = searcher.search(&board, &SearchLimits::depth(5), &mut |info| {
        // Aspiration failures of the first line may be reported too, as bounds.
        if info.depth == 5 && info.bound == kestrel_search::Bound::Exact {
            last.push(info.clone());
        }
    });
    assert_eq!(last.len(), 3);
    let firsts: Vec<_> = last.iter().map(|i| i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(Some(firsts[0]), r.best_move);
}

#[test]
fn lazy_smp_searches_with_several_threads() {
    let board = Board::from_fen(MIDDLEGAME).unwrap();
    let mut searcher = Searcher::new(EngineConfig {
        threads: 3,
        ..EngineConfig::default()
    });
    let mut hashfull = 0;
    let r = searcher.search(&board, &SearchLimits::depth(7), &mut |i| {
        hashfull = i.hashfull
    });
    assert_eq!(r.depth, 7);
    assert!(board.legal_moves().contains(r.best_move.unwrap()));
    assert!(hashfull > 0);
}
