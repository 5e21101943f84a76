//! Parsing `position startpos|fen FEN [moves ...]`. All or nothing: on any error the caller
//! keeps its previous position.

use kestrel_chess::Board;

/// The board described by the words after `position`; with `chess960` (`UCI_Chess960`) its
/// moves are read, and later written, in Chess960 notation (castling as king takes rook).
/// `startpos` is the standard array either way (Chess960's number 518).
pub fn parse_position(words: &[&str], chess960: bool) -> Result<Board, String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let mut board = match setup {
        ["startpos"] => Board::startpos(),
        ["startpos", extra, ..] => {
            return Err(format!(
                "unexpected '{extra}' after startpos (expected 'moves')"
            ));
        }
        ["fen", fen @ ..] if !fen.is_empty() => {
            let fen = fen.join(" ");
            Board::from_fen(&fen).map_err(|e| format!("invalid FEN '{fen}': {e}"))?
        }
        ["fen"] => return Err("'position fen' needs a FEN".into()),
        [] => return Err("'position' needs 'startpos' or 'fen FEN'".into()),
        [other, ..] => {
            return Err(format!(
                "'position {other}' is not understood (expected startpos or fen)"
            ));
        }
    };
    board.set_chess960(chess960);
    for (i, text) in moves.iter().enumerate() {
        let mv = board
            .parse_uci_move(text)
            .map_err(|e| format!("move {} of the list: {e}", i + 1))?;
        board.make_move(mv);
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn startpos_with_moves_and_fen() {
        let b = parse_position(&words("startpos moves e2e4 e7e5 g1f3"), false).unwrap();
        assert_eq!(
            b.to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
        let b = parse_position(&words("fen 8/8/8/8/8/k7/8/K7 w - - 0 1"), false).unwrap();
        assert_eq!(b.to_fen(), "8/8/8/8/8/k7/8/K7 w - - 0 1");
        let b = parse_position(&words("startpos moves"), false).unwrap();
        assert_eq!(b, Board::startpos());
    }

    #[test]
    fn errors_name_the_problem() {
        let e = parse_position(&words("startpos moves e2e4 e2e4"), false).unwrap_err();
        assert!(e.contains("move 2"), "{e}");
        let e = parse_position(&words("fen rnbqkbnr/pppppppp w KQkq -"), false).unwrap_err();
        assert!(e.contains("invalid FEN"), "{e}");
        assert!(parse_position(&words(""), false).is_err());
        assert!(parse_position(&words("fen"), false).is_err());
        assert!(parse_position(&words("somewhere"), false).is_err());
        let e = parse_position(&words("startpos e2e4"), false).unwrap_err();
        assert!(e.contains("unexpected 'e2e4'"), "{e}");
    }
}

#[cfg(test)]
mod chess960_tests {
    use super::*;

    fn words(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn chess960_fen_and_king_takes_rook_castling() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 9";
        // The f1 rook steps aside; then king g1 takes rook h1: the king stays, the rook
        // lands on f1.
        let b = parse_position(&words(&format!("fen {fen} moves f1f2 a7a6 g1h1")), true).unwrap();
        assert!(b.chess960());
        assert_eq!(
            b.to_fen(),
            "bqnb1rkr/1p3ppp/p2ppn2/2p5/5P2/P2P4/NPP1PRPP/BQ1BNRK1 b kq - 1 10"
        );
        assert_eq!(b.uci_move(b.last_move().unwrap()), "g1h1");
        let e = parse_position(
            &words("startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1"),
            false,
        );
        assert!(
            e.is_ok(),
            "king takes rook is accepted as castling in standard mode"
        );
        let b = parse_position(&words("startpos"), true).unwrap();
        assert!(b.chess960() && b == Board::startpos());
    }
}
