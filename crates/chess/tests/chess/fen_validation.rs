//! FEN reading rejects impossible or malformed positions with the specific error.

use kestrel_chess::{Board, Color, FenError, Square};

fn err(fen: &str) -> FenError {
    Board::from_fen(fen).expect_err(fen)
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

#[test]
fn field_counts() {
    assert_eq!(err(""), FenError::TooFewFields(0));
    assert_eq!(err("8/8/8/8/8/8/8/8 w -"), FenError::TooFewFields(3));
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"),
        FenError::TooManyFields(7)
    );
    // Four fields are enough; the counters default to 0 and 1.
    let b = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
    assert_eq!((b.halfmove_clock(), b.fullmove_number()), (0, 1));
}

#[test]
fn placement_errors() {
    assert_eq!(
        err("4k3/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::WrongRankCount(7)
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::WrongRankCount(9)
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4X3 w - - 0 1"),
        FenError::UnknownPiece('X')
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3x w - - 0 1"),
        FenError::UnknownPiece('x')
    );
    assert_eq!(
        err("4k3/8/8/8/7/8/8/4K3 w - - 0 1"),
        FenError::WrongRankLength { rank: 4, files: 7 }
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K4 w - - 0 1"),
        FenError::WrongRankLength { rank: 1, files: 9 }
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K2RR w - - 0 1"),
        FenError::WrongRankLength { rank: 1, files: 9 }
    );
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K03 w - - 0 1"),
        FenError::WrongRankLength { rank: 1, .. }
    ));
}

#[test]
fn king_counts() {
    assert_eq!(
        err("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::KingCount {
            color: Color::Black,
            count: 0
        }
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/8 w - - 0 1"),
        FenError::KingCount {
            color: Color::White,
            count: 0
        }
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        FenError::KingCount {
            color: Color::White,
            count: 2
        }
    );
}

#[test]
fn pawns_on_back_ranks() {
    assert_eq!(
        err("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        FenError::PawnOnBackRank(sq("a1"))
    );
    assert_eq!(
        err("3pk3/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::PawnOnBackRank(sq("d8"))
    );
}

#[test]
fn side_and_opposite_check() {
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
        FenError::BadSide("x".into())
    );
    // White to move while the black king stands in check from the rook.
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"),
        FenError::OppositeCheck(Color::Black)
    );
    assert_eq!(
        err("4k3/4r3/8/8/8/8/8/4K3 b - - 0 1"),
        FenError::OppositeCheck(Color::White)
    );
    // The side to move may be in check.
    assert!(
        Board::from_fen("4k3/4r3/8/8/8/8/8/4K3 w - - 0 1")
            .unwrap()
            .in_check()
    );
}

#[test]
fn castling_rights_must_match_pieces() {
    assert_eq!(
        err("r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1"),
        FenError::BadCastlingField("KX".into())
    );
    assert_eq!(
        err("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1"),
        FenError::BadCastlingField("KK".into())
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
        FenError::CastlingMismatch('K')
    );
    assert_eq!(
        err("r3k2r/8/8/8/8/8/8/4K2R w Q - 0 1"),
        FenError::CastlingMismatch('Q')
    );
    assert_eq!(
        err("r3k3/8/8/8/8/8/8/4K3 w k - 0 1"),
        FenError::CastlingMismatch('k')
    );
    assert_eq!(
        err("r6r/4k3/8/8/8/8/8/4K3 w q - 0 1"),
        FenError::CastlingMismatch('q')
    );
    // Shredder-FEN files: a rook must stand there, on a wing of the king.
    assert_eq!(
        err("r3k2r/8/8/8/8/8/8/R3K2R w B - 0 1"),
        FenError::CastlingMismatch('B')
    );
    assert_eq!(
        err("r3k2r/8/8/8/8/8/8/R3K2R w HAE - 0 1"),
        FenError::CastlingMismatch('E')
    );
    assert_eq!(
        err("r3k2r/8/8/8/8/8/8/R3K2R w HAH - 0 1"),
        FenError::BadCastlingField("HAH".into())
    );
    assert!(Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").is_ok());
}

#[test]
fn en_passant_square_must_be_possible() {
    assert_eq!(
        err("4k3/8/8/8/4P3/8/8/4K3 b - e9 0 1"),
        FenError::BadEnPassantField("e9".into())
    );
    // Wrong rank for the side to move.
    assert_eq!(
        err("4k3/8/8/8/4P3/8/8/4K3 b - e6 0 1"),
        FenError::ImpossibleEnPassant(sq("e6"))
    );
    // No pawn in front of the square.
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 b - e3 0 1"),
        FenError::ImpossibleEnPassant(sq("e3"))
    );
    // The pawn's origin square is occupied.
    assert_eq!(
        err("4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1"),
        FenError::ImpossibleEnPassant(sq("e3"))
    );
    // A possible ep square without a capturing pawn is accepted and dropped (Polyglot style).
    let b = Board::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
    assert_eq!(b.ep_square(), None);
    let b = Board::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
    assert_eq!(b.ep_square(), Some(sq("e3")));
}

#[test]
fn counters_must_be_numbers() {
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
        FenError::BadCounter {
            field: "halfmove",
            value: "x".into()
        }
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - - 0 -3"),
        FenError::BadCounter {
            field: "fullmove",
            value: "-3".into()
        }
    );
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 0"), FenError::ZeroFullmove);
}

#[test]
fn fen_round_trips() {
    for fen in [
        kestrel_chess::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 57",
    ] {
        assert_eq!(Board::from_fen(fen).unwrap().to_fen(), fen);
    }
}

#[test]
fn chess960_castling_fields_read_as_xfen_and_shredder() {
    // X-FEN: K/Q name the outermost rook of the wing, a file letter an inner one.
    let b = Board::from_fen("r3k2r/8/8/8/8/8/8/R4K1R w Q - 0 1").unwrap();
    assert!(b.chess960(), "a king off e1 with a right is Chess960");
    assert_eq!(b.castling_rooks_held()[1], Some(sq("a1")));
    let b = Board::from_fen("1r2k2r/8/8/8/8/8/8/4K3 w q - 0 1").unwrap();
    assert_eq!(b.castling_rooks_held()[3], Some(sq("b8")));
    let b = Board::from_fen("rr2k2r/8/8/8/8/8/8/4K3 w b - 0 1").unwrap();
    assert_eq!(b.castling_rooks_held()[3], Some(sq("b8")));
    assert_eq!(b.castling_field(false), "b");
    let b = Board::from_fen("rr2k2r/8/8/8/8/8/8/4K3 w q - 0 1").unwrap();
    assert_eq!(b.castling_rooks_held()[3], Some(sq("a8")));
    assert_eq!(b.castling_field(false), "q");
    // Shredder-FEN reads and writes every right by file; standard positions keep KQkq.
    let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1";
    let b = Board::from_fen(shredder).unwrap();
    assert_eq!(b.to_shredder_fen(), shredder);
    assert_eq!(
        b.to_fen(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 0 1"
    );
    assert_eq!(Board::from_fen(&b.to_fen()).unwrap(), b);
    let standard = Board::startpos();
    assert!(!standard.chess960());
    assert_eq!(
        standard.to_shredder_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    assert_eq!(
        Board::from_fen(&standard.to_shredder_fen()).unwrap(),
        standard
    );
    assert_eq!(
        Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
            .unwrap()
            .hash(),
        standard.hash()
    );
}
