//! SAN writing and reading: disambiguation, suffixes, castling, promotions, lenient spellings
//! and clear errors.

use kestrel_chess::{Board, SanError, san_line};

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap()
}

fn san_of(b: &Board, uci: &str) -> String {
    b.to_san(b.parse_uci_move(uci).unwrap())
}

#[test]
fn writes_pieces_pawns_and_captures() {
    let b = Board::startpos();
    assert_eq!(san_of(&b, "e2e4"), "e4");
    assert_eq!(san_of(&b, "g1f3"), "Nf3");
    let b = board("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    assert_eq!(san_of(&b, "e4d5"), "exd5");
    let ep = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(san_of(&ep, "e5d6"), "exd6");
    assert_eq!(ep.parse_san("exd6 e.p.").unwrap().to_string(), "e5d6");
}

#[test]
fn disambiguates_by_file_rank_or_both() {
    // Knights on d2 and f2 both reach e4: the files differ.
    let b = board("4k3/8/8/8/8/8/3N1N2/4K3 w - - 0 1");
    assert_eq!(san_of(&b, "d2e4"), "Nde4");
    // Rooks on a1 and a5 both reach a3: same file, so the rank.
    let b = board("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    assert_eq!(san_of(&b, "a1a3"), "R1a3");
    assert_eq!(san_of(&b, "a5a3"), "R5a3");
    // Queens on a1, a3 and c1 all reach b2: neither file nor rank alone is unique for a1.
    let b = board("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    assert_eq!(san_of(&b, "a1b2"), "Qa1b2");
    assert_eq!(san_of(&b, "a3b2"), "Q3b2");
    assert_eq!(san_of(&b, "c1b2"), "Qcb2");
    // A pinned rival does not count.
    let b = board("4k3/4r3/8/8/8/8/4N3/2N1K3 w - - 0 1");
    assert_eq!(san_of(&b, "c1d3"), "Nd3");
    for san in ["Nde4", "Nd2e4", "Nd2-e4", "Nd2xe4"] {
        let b = board("4k3/8/8/8/8/8/3N1N2/4K3 w - - 0 1");
        assert_eq!(b.parse_san(san).unwrap().to_string(), "d2e4", "{san}");
    }
}

#[test]
fn check_and_mate_suffixes() {
    let b = board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(san_of(&b, "a1a8"), "Ra8+");
    let mate = board("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(san_of(&mate, "a1a8"), "Ra8#");
    assert_eq!(san_of(&mate, "e1c1"), "O-O-O");
    let castle_check = board("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(san_of(&castle_check, "e1c1"), "O-O-O+");
}

#[test]
fn promotions() {
    let b = board("3n2k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(san_of(&b, "e7e8q"), "e8=Q+");
    assert_eq!(san_of(&b, "e7d8n"), "exd8=N");
    for (san, uci) in [
        ("e8=Q", "e7e8q"),
        ("e8Q", "e7e8q"),
        ("e8=R+", "e7e8r"),
        ("exd8=N", "e7d8n"),
        ("ed8N", "e7d8n"),
        ("e8q", "e7e8q"),
    ] {
        assert_eq!(b.parse_san(san).unwrap().to_string(), uci, "{san}");
    }
    assert!(
        matches!(b.parse_san("e8"), Err(SanError::Illegal { .. })),
        "promotion piece missing"
    );
    assert!(matches!(b.parse_san("e8=K"), Err(SanError::Malformed(_))));
    assert!(matches!(b.parse_san("Ne8=Q"), Err(SanError::Malformed(_))));
}

#[test]
fn castling_spellings() {
    let b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (san, uci) in [
        ("O-O", "e1g1"),
        ("0-0", "e1g1"),
        ("O-O-O", "e1c1"),
        ("0-0-0+", "e1c1"),
        ("O-O!?", "e1g1"),
    ] {
        assert_eq!(b.parse_san(san).unwrap().to_string(), uci, "{san}");
    }
    // The king move spelling is not SAN for castling.
    assert!(b.parse_san("Kg1").is_err());
    let no_rights = board("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert!(matches!(
        no_rights.parse_san("O-O"),
        Err(SanError::Illegal { .. })
    ));
}

#[test]
fn annotations_are_tolerated() {
    let b = Board::startpos();
    for san in ["e4!", "e4?", "e4!!", "e4?!", "e4!?", "e4+", " e4 "] {
        assert_eq!(b.parse_san(san).unwrap().to_string(), "e2e4", "{san:?}");
    }
}

#[test]
fn errors_say_what_went_wrong() {
    let b = Board::startpos();
    for bad in [
        "", "x", "Zf3", "Nf9", "e4e4e4", "N", "O-O-O-O", "Nf3=Q", "--",
    ] {
        assert!(
            matches!(b.parse_san(bad), Err(SanError::Malformed(_))),
            "{bad:?}"
        );
    }
    for illegal in ["e5", "Nf4", "Ke2", "O-O", "Bb5", "exd5"] {
        let e = b.parse_san(illegal).unwrap_err();
        assert!(matches!(e, SanError::Illegal { .. }), "{illegal}: {e}");
        assert!(e.to_string().contains(illegal));
    }
    let two_knights = board("4k3/8/8/8/8/8/3N1N2/4K3 w - - 0 1");
    assert!(matches!(
        two_knights.parse_san("Ne4"),
        Err(SanError::Ambiguous { .. })
    ));
}

#[test]
fn numbered_lines() {
    let mut b = Board::startpos();
    let moves: Vec<_> = ["e2e4", "e7e5", "g1f3"]
        .iter()
        .map(|m| {
            let mv = b.parse_uci_move(m).unwrap();
            b.make_move(mv);
            mv
        })
        .collect();
    assert_eq!(san_line(&Board::startpos(), &moves), "1. e4 e5 2. Nf3");
    let black_first = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(san_line(&black_first, &moves[1..]), "1... e5 2. Nf3");
    // Stops at an illegal move.
    assert_eq!(san_line(&Board::startpos(), &[moves[0], moves[0]]), "1. e4");
}

#[test]
fn illegal_moves_are_written_as_uci_without_panicking() {
    let b = Board::startpos();
    let e2e4 = b.parse_uci_move("e2e4").unwrap();
    let mut after = b.clone();
    after.make_move(e2e4);
    // e2e4 again: the square is empty now.
    assert_eq!(after.to_san(e2e4), "e2e4");
    assert_eq!(b.to_san(kestrel_chess::Move::NULL), "0000");
}
