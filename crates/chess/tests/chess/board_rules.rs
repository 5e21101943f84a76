//! Make/unmake, incremental keys, null moves, UCI move strings and the draw rules.

use kestrel_chess::{Board, MoveParseError, perft::perft};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn play(board: &mut Board, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = board
            .parse_uci_move(m)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        board.make_move(mv);
    }
}

#[test]
fn uci_move_strings_are_checked() {
    let b = Board::startpos();
    assert_eq!(b.parse_uci_move("e2e4").unwrap().to_string(), "e2e4");
    for bad in [
        "", "e2", "e2e", "e2e4qq", "i2i4", "e9e4", "e2e4x", "e2e4k", "e2e4p", "é2e4", "0000",
    ] {
        assert_eq!(
            b.parse_uci_move(bad),
            Err(MoveParseError::Malformed(bad.to_string())),
            "{bad:?}"
        );
    }
    for illegal in ["e2e5", "e7e5", "e1g1", "a1a8", "e2e4q", "g1g3"] {
        assert_eq!(
            b.parse_uci_move(illegal),
            Err(MoveParseError::Illegal(illegal.to_string())),
            "{illegal}"
        );
    }
    // Promotions need their piece; castling is the king's move.
    let p = Board::from_fen("4k3/1P6/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
    assert!(matches!(
        p.parse_uci_move("b7b8"),
        Err(MoveParseError::Illegal(_))
    ));
    assert_eq!(p.parse_uci_move("b7b8n").unwrap().to_string(), "b7b8n");
    assert!(p.parse_uci_move("e1c1").unwrap().is_castle());
}

#[test]
fn make_unmake_restores_everything_over_a_tree() {
    // Walk two plies of every move of Kiwipete and check the position after each take-back.
    let mut b = Board::from_fen(KIWIPETE).unwrap();
    let (fen, key, pawn_key) = (b.to_fen(), b.hash(), b.pawn_hash());
    for &m1 in b.legal_moves().iter() {
        b.make_move(m1);
        assert_eq!(b.hash(), b.compute_hash(), "after {m1}");
        let (fen1, key1) = (b.to_fen(), b.hash());
        for &m2 in b.legal_moves().iter() {
            b.make_move(m2);
            assert_eq!(b.hash(), b.compute_hash(), "after {m1} {m2}");
            b.unmake_move();
            assert_eq!((b.to_fen(), b.hash()), (fen1.clone(), key1), "undo {m2}");
        }
        b.unmake_move();
        assert_eq!(
            (b.to_fen(), b.hash(), b.pawn_hash()),
            (fen.clone(), key, pawn_key)
        );
    }
    assert_eq!(perft(&mut b, 2), 2039);
    assert_eq!(b.ply_count(), 0);
}

#[test]
fn known_polyglot_keys() {
    // Keys from the Polyglot book format description.
    let mut b = Board::startpos();
    assert_eq!(b.hash(), 0x463b96181691fc9c);
    play(&mut b, "e2e4");
    assert_eq!(b.hash(), 0x823c9b50fd114196);
    play(&mut b, "d7d5");
    assert_eq!(b.hash(), 0x0756b94461c50fb0);
    play(&mut b, "e4e5");
    assert_eq!(b.hash(), 0x662fafb965db29d4);
    play(&mut b, "f7f5");
    assert_eq!(b.hash(), 0x22a48b5a8e47ff78);
    play(&mut b, "e1e2");
    assert_eq!(b.hash(), 0x652a607ca3f242c1);
    play(&mut b, "e8f7");
    assert_eq!(b.hash(), 0x00fdd303c946bdd9);
}

#[test]
fn null_move_passes_the_turn_and_restores() {
    let mut b = Board::startpos();
    play(&mut b, "e2e4 d7d5 e4e5 f7f5");
    assert!(b.ep_square().is_some());
    let (fen, key) = (b.to_fen(), b.hash());
    b.make_null();
    assert_eq!(b.side_to_move(), kestrel_chess::Color::Black);
    assert_eq!(b.ep_square(), None, "a null move forfeits en passant");
    assert_eq!(b.hash(), b.compute_hash());
    assert_ne!(b.hash(), key);
    assert!(b.last_move().unwrap().is_null());
    assert!(
        !b.is_repetition(),
        "repetition is not looked for across a null move"
    );
    b.unmake_null();
    assert_eq!((b.to_fen(), b.hash()), (fen, key));
}

#[test]
fn repetitions_are_counted() {
    let mut b = Board::startpos();
    play(&mut b, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(b.repetitions(), 1);
    assert!(b.is_repetition() && !b.is_threefold());
    play(&mut b, "g1f3 g8f6 f3g1 f6g8");
    assert!(b.is_threefold());
    // A pawn move resets the history that can repeat.
    play(&mut b, "e2e4");
    assert_eq!(b.repetitions(), 0);
    play(&mut b, "g8f6 g1f3 f6g8 f3g1");
    assert!(b.is_repetition());
    assert!(b.is_draw());
}

#[test]
fn fifty_move_rule() {
    let mut b = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
    assert!(!b.is_fifty_move_draw());
    play(&mut b, "a1a2");
    assert!(b.is_fifty_move_draw() && b.is_draw());
    b.unmake_move();
    play(&mut b, "e1d1");
    assert!(b.is_fifty_move_draw());
    let mut c = Board::from_fen("4k3/8/8/8/8/8/r7/R3K3 w - - 99 80").unwrap();
    play(&mut c, "a1a2");
    assert_eq!(c.halfmove_clock(), 0, "a capture resets the clock");
    assert!(!c.is_fifty_move_draw());
}

#[test]
fn insufficient_material() {
    for (fen, drawn) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/3NK3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/3BK3 w - - 0 1", true),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true), // c1 and f8 are both dark
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false), // g8 is light: mate is possible
        ("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", false),
        ("4kn2/8/8/8/8/8/8/3NK3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false),
    ] {
        let b = Board::from_fen(fen).unwrap();
        assert_eq!(b.is_insufficient_material(), drawn, "{fen}");
        assert_eq!(b.is_draw(), drawn, "{fen}");
    }
}

#[test]
fn mirrored_position_has_mirrored_moves() {
    let b = Board::from_fen(KIWIPETE).unwrap();
    let m = b.mirrored();
    assert_eq!(b.legal_moves().len(), m.legal_moves().len());
    assert_eq!(m.hash(), m.compute_hash());
    assert_eq!(m.mirrored(), b);
}

/// Every legal move two plies deep from Kiwipete and a promotion position: `key_after` is the
/// key after the move whenever the move changes neither castling rights nor the en-passant
/// square (the prefetch hint's promise).
#[test]
fn key_after_predicts_the_key_of_ordinary_moves() {
    let mut exact = 0;
    for fen in [KIWIPETE, "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1"] {
        let mut board = Board::from_fen(fen).unwrap();
        for first in board.legal_moves().as_slice().to_vec() {
            board.make_move(first);
            for mv in board.legal_moves().as_slice().to_vec() {
                let (predicted, rights) = (board.key_after(mv), board.castling_rights());
                board.make_move(mv);
                if board.castling_rights() == rights && board.ep_square().is_none() {
                    assert_eq!(predicted, board.hash(), "{mv} in {}", board.to_fen());
                    exact += 1;
                }
                board.unmake_move();
            }
            board.unmake_move();
        }
    }
    assert!(exact > 1500, "{exact}");
}
