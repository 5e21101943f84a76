//! Parsing `position startpos|fen FEN [moves ...]`. All or nothing: on any error the caller
//! keeps its previous position.

use kestrel_chess::Board;

/// The board described by the words after `position`.
pub fn parse_position(words: &[&str]) -> Result<Board, String> {
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
        let b = parse_position(&words("startpos moves e2e4 e7e5 g1f3")).unwrap();
        assert_eq!(
            b.to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
        let b = parse_position(&words("fen 8/8/8/8/8/k7/8/K7 w - - 0 1")).unwrap();
        assert_eq!(b.to_fen(), "8/8/8/8/8/k7/8/K7 w - - 0 1");
        let b = parse_position(&words("startpos moves")).unwrap();
        assert_eq!(b, Board::startpos());
    }

    #[test]
    fn errors_name_the_problem() {
        let e = parse_position(&words("startpos moves e2e4 e2e4")).unwrap_err();
        assert!(e.contains("move 2"), "{e}");
        let e = parse_position(&words("fen rnbqkbnr/pppppppp w KQkq -")).unwrap_err();
        assert!(e.contains("invalid FEN"), "{e}");
        assert!(parse_position(&words("")).is_err());
        assert!(parse_position(&words("fen")).is_err());
        assert!(parse_position(&words("somewhere")).is_err());
        let e = parse_position(&words("startpos e2e4")).unwrap_err();
        assert!(e.contains("unexpected 'e2e4'"), "{e}");
    }
}
