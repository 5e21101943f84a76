//! `info` reports of aspiration failures (`lowerbound` / `upperbound`) and of an iteration
//! cut short by a stop.

use kestrel_chess::Board;
use kestrel_search::{Bound, EngineConfig, MATE, Score, SearchInfo, SearchLimits, Searcher};

/// Positions whose score jumps between iterations (a combination found late, a mate, a
/// won ending), so aspiration windows fail high or low on the way.
const SWINGY: [&str; 5] = [
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
    "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",
    "R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1",
];

/// Orders scores: centipawns below every mate for, above every mate against.
fn value(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => MATE - m,
        Score::Mate(m) => -MATE - m,
    }
}

fn infos(fen: &str, limits: &SearchLimits) -> Vec<SearchInfo> {
    let board = Board::from_fen(fen).unwrap();
    let mut searcher = Searcher::new(EngineConfig::default());
    searcher.control().reset();
    let mut out = Vec::new();
    searcher.search(&board, limits, &mut |i| out.push(i.clone()));
    out
}

#[test]
fn aspiration_failures_are_reported_with_the_bound_the_final_score_respects() {
    // [fail low seen, fail high seen]
    let mut seen = [false; 2];
    for fen in SWINGY {
        let board = Board::from_fen(fen).unwrap();
        let reports = infos(fen, &SearchLimits::depth(9));
        for (i, info) in reports.iter().enumerate() {
            if info.bound == Bound::Exact {
                continue;
            }
            // The first window is centred on the previous iteration's exact score; each
            // re-search window lies beyond the failure before it (after a fail low, beta
            // drops to the old window's middle, above that failure; after a fail high, alpha
            // stays below it). So a fail high lies above the report just before it, a fail
            // low below it.
            let previous = i
                .checked_sub(1)
                .map(|j| &reports[j])
                .expect("aspiration starts after the first iterations");
            assert!(
                reports[..i]
                    .iter()
                    .any(|r| r.bound == Bound::Exact && r.depth < info.depth),
                "{fen}"
            );
            assert!(previous.depth <= info.depth, "{fen}");
            match info.bound {
                Bound::Lower => assert!(
                    value(info.score) > value(previous.score),
                    "{fen}: fail high at {:?} after {:?}",
                    info.score,
                    previous.score
                ),
                Bound::Upper => assert!(
                    value(info.score) < value(previous.score),
                    "{fen}: fail low at {:?} after {:?}",
                    info.score,
                    previous.score
                ),
                Bound::Exact => unreachable!(),
            }
            // The iteration still ends with an exact report at the same depth.
            let exact = reports[i + 1..]
                .iter()
                .find(|r| r.bound == Bound::Exact)
                .expect("every iteration ends with an exact score");
            assert_eq!(exact.depth, info.depth, "{fen}");
            seen[(info.bound == Bound::Lower) as usize] = true;
            let first = info.pv.first().expect("a bound report carries a line");
            assert!(board.legal_moves().contains(*first), "{fen}");
        }
    }
    assert_eq!(seen, [true, true], "both kinds of aspiration failure occur");
}

#[test]
fn a_search_stopped_mid_iteration_answers_its_last_reported_move() {
    for fen in SWINGY {
        let board = Board::from_fen(fen).unwrap();
        let mut searcher = Searcher::new(EngineConfig::default());
        searcher.control().reset();
        let mut last = None;
        let r = searcher.search(&board, &SearchLimits::nodes(30_000), &mut |i| {
            last = Some(i.clone())
        });
        let last = last.expect("depth 1 always completes");
        let best = r.best_move.expect("a legal move exists");
        assert!(board.legal_moves().contains(best), "{fen}");
        // Either the last complete iteration's move, or the deeper unfinished one: the
        // GUI's last line and the answer agree.
        assert_eq!(last.pv.first(), Some(&best), "{fen}");
        assert_eq!(last.score, r.score, "{fen}");
    }
}
