//! The cheap move checks agree with the slow truth on every legal move of a large, varied set
//! of positions: both perft suites, every position two plies deep from each, and random
//! playouts from each (promotions, en passant, castling and discovered checks all occur). On a
//! clone without the shared data the classic suite is replaced by the CPW fixture: the floors
//! below are sized to whichever set was found.

use kestrel_chess::{Board, GenKind, Move, MoveList, read_epd_file};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The classic perft suite, replaced by the CPW fixture on a clone without the shared data.
const CLASSIC_SUITE: &str = "perft/perftsuite.epd";

/// A floor for a count: `with_shared` on the full suites, `with_fixture` on the CPW fixture.
fn floor(with_shared: usize, with_fixture: usize) -> usize {
    kestrel_testdata::by_data(CLASSIC_SUITE, with_shared, with_fixture)
}

fn suite_positions() -> Vec<Board> {
    let mut out = Vec::new();
    for path in [
        kestrel_testdata::shared_or_fixture(CLASSIC_SUITE, "perft-cpw.epd"),
        kestrel_testdata::fixture("perft-cpw.epd"),
    ] {
        let (records, errors) = read_epd_file(&path).expect("perft suite is readable");
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        out.extend(records.into_iter().map(|(_, r)| r.board));
    }
    out
}

/// Calls `visit` on `board` and on every position up to `depth` plies below it.
fn walk(board: &mut Board, depth: u32, visit: &mut impl FnMut(&mut Board)) {
    visit(board);
    if depth == 0 {
        return;
    }
    for mv in board.legal_moves().iter().copied() {
        board.make_move(mv);
        walk(board, depth - 1, visit);
        board.unmake_move();
    }
}

/// Positions of random playouts of up to 60 plies from each start.
fn playouts(starts: &[Board], seed: u64) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for start in starts {
        for _ in 0..4 {
            let mut board = start.clone();
            for _ in 0..60 {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board.make_move(moves[rng.random_range(0..moves.len())]);
                out.push(board.clone());
            }
        }
    }
    out
}

/// `visit` on every position of the set (tree walks and playouts).
fn for_each_position(mut visit: impl FnMut(&mut Board)) -> usize {
    let suite = suite_positions();
    assert!(suite.len() >= 6, "{}", suite.len());
    let mut count = 0;
    let mut counted = |b: &mut Board| {
        count += 1;
        visit(b);
    };
    for start in &suite {
        walk(&mut start.clone(), 2, &mut counted);
    }
    for mut b in playouts(&suite, 26) {
        counted(&mut b);
    }
    count
}

#[test]
fn gives_check_and_check_info_equal_making_the_move() {
    let mut checks = 0usize;
    let mut kinds = [0usize; 4]; // castling, en passant, promotion, other checking moves
    let positions = for_each_position(|board| {
        let info = board.check_info();
        for mv in board.legal_moves().iter().copied() {
            let fast = board.gives_check(mv);
            assert_eq!(info.gives_check(board, mv), fast, "{} {mv}", board.to_fen());
            board.make_move(mv);
            let slow = board.in_check();
            board.unmake_move();
            assert_eq!(fast, slow, "{} {mv}", board.to_fen());
            if slow {
                checks += 1;
                let k = if mv.is_castle() {
                    0
                } else if mv.is_en_passant() {
                    1
                } else if mv.is_promotion() {
                    2
                } else {
                    3
                };
                kinds[k] += 1;
            }
        }
    });
    assert!(positions > floor(60_000, 17_000), "{positions}");
    assert!(
        checks > floor(60_000, 12_000) && kinds.iter().all(|&k| k > 0),
        "{checks} {kinds:?}"
    );
}

/// `is_legal` (one move, no list) answers exactly "the generator lists it": for every 16-bit
/// value on every 16th position, and on the others for their own moves and the previous
/// position's (as a hash move from a nearby position would be).
#[test]
fn is_legal_equals_the_generated_list() {
    let mut exhaustive = 0usize;
    let mut legal_kinds = [0usize; 4]; // castling, en passant, promotion, double push
    let mut previous: Vec<Move> = Vec::new();
    let mut index = 0usize;
    let positions = for_each_position(|board| {
        let listed = board.legal_moves();
        let is_listed = |mv: Move| listed.iter().any(|&m| m == mv);
        for &mv in listed.iter().chain(previous.iter()) {
            assert_eq!(
                board.is_legal(mv),
                is_listed(mv),
                "{} {mv:?}",
                board.to_fen()
            );
        }
        if index.is_multiple_of(16) {
            exhaustive += 1;
            let mut generated = vec![false; 1 << 16];
            for &m in listed.iter() {
                generated[m.0 as usize] = true;
            }
            for bits in 0..=u16::MAX {
                let mv = Move(bits);
                assert_eq!(
                    board.is_legal(mv),
                    generated[bits as usize],
                    "{} {mv:?}",
                    board.to_fen()
                );
            }
            for &m in listed.iter() {
                let k = [
                    m.is_castle(),
                    m.is_en_passant(),
                    m.is_promotion(),
                    m.is_double_push(),
                ];
                for (count, hit) in legal_kinds.iter_mut().zip(k) {
                    *count += hit as usize;
                }
            }
        }
        index += 1;
        previous = listed.iter().copied().collect();
    });
    assert!(
        positions > floor(60_000, 17_000) && exhaustive > floor(3_000, 1_000),
        "{positions} {exhaustive}"
    );
    assert!(legal_kinds.iter().all(|&k| k > 0), "{legal_kinds:?}");
}

/// The direct quiet-check generator lists exactly the quiet moves (castling aside) that give
/// check, in the order of the quiet generator: quiescence's move order depends on it.
#[test]
fn quiet_checks_equal_the_filtered_quiet_moves() {
    let mut checks = 0usize;
    let mut discovered = 0usize;
    let positions = for_each_position(|board| {
        let mut quiets = MoveList::new();
        board.generate(GenKind::Quiet, &mut quiets);
        let info = board.check_info();
        let filtered: Vec<Move> = quiets
            .iter()
            .copied()
            .filter(|&mv| !mv.is_castle() && info.gives_check(board, mv))
            .collect();
        let mut direct = MoveList::new();
        board.generate_quiet_checks(&mut direct);
        assert_eq!(direct.as_slice(), filtered.as_slice(), "{}", board.to_fen());
        checks += filtered.len();
        discovered += filtered
            .iter()
            .filter(|&&mv| {
                let mut b = board.clone();
                b.make_move(mv);
                !b.checkers().contains(mv.to())
            })
            .count();
    });
    assert!(positions > floor(60_000, 17_000), "{positions}");
    assert!(
        checks > floor(45_000, 4_500) && discovered > floor(250, 120),
        "{checks} {discovered}"
    );
}
