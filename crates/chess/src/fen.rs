//! FEN reading (with validation) and writing.

use crate::{Bitboard, Board, CastlingRights, Color, Piece, PieceKind, Square};
use thiserror::Error;

/// Why a FEN string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// Fewer than the four required fields.
    #[error("FEN needs at least 4 fields (placement, side, castling, en passant), found {0}")]
    TooFewFields(usize),
    /// More than six fields.
    #[error("FEN has {0} fields, at most 6 are allowed")]
    TooManyFields(usize),
    /// Not eight ranks in the placement field.
    #[error("piece placement has {0} ranks, expected 8")]
    WrongRankCount(usize),
    /// A rank that does not describe eight files.
    #[error("rank {rank} describes {files} files, expected 8")]
    WrongRankLength {
        /// The rank, 1 to 8.
        rank: u8,
        /// Files it describes.
        files: usize,
    },
    /// A character that is no piece.
    #[error("unknown piece letter '{0}'")]
    UnknownPiece(char),
    /// A side without exactly one king.
    #[error("{color:?} has {count} kings, expected exactly one")]
    KingCount {
        /// The side.
        color: Color,
        /// Its kings.
        count: u32,
    },
    /// A pawn on the first or eighth rank.
    #[error("pawn on {0}: pawns cannot stand on the first or last rank")]
    PawnOnBackRank(Square),
    /// The side-to-move field is neither `w` nor `b`.
    #[error("side to move must be 'w' or 'b', found '{0}'")]
    BadSide(String),
    /// The side not to move is in check.
    #[error("the side not to move ({0:?}) is in check")]
    OppositeCheck(Color),
    /// The castling field is malformed.
    #[error("castling field '{0}' is malformed (expected '-' or a subset of 'KQkq')")]
    BadCastlingField(String),
    /// A castling right without its king or rook at home.
    #[error("castling right '{0}' does not match the pieces (king or rook not on its square)")]
    CastlingMismatch(char),
    /// The en-passant field is not a square or `-`.
    #[error("en passant field '{0}' is not a square or '-'")]
    BadEnPassantField(String),
    /// An en-passant square no pawn could have just passed.
    #[error("en passant square {0} cannot exist in this position")]
    ImpossibleEnPassant(Square),
    /// A move counter that is not a number.
    #[error("{field} counter '{value}' is not a non-negative number")]
    BadCounter {
        /// Which counter.
        field: &'static str,
        /// The text found.
        value: String,
    },
    /// A full-move number of zero.
    #[error("fullmove number must be at least 1")]
    ZeroFullmove,
}

impl Board {
    /// Parses a FEN (4 to 6 fields; missing counters default to `0 1`) and validates it.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(FenError::TooFewFields(fields.len()));
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let halfmove = parse_counter(fields.get(4).copied().unwrap_or("0"), "halfmove")?;
        let fullmove = parse_counter(fields.get(5).copied().unwrap_or("1"), "fullmove")?;
        if fullmove == 0 {
            return Err(FenError::ZeroFullmove);
        }
        Board::from_parts(
            fields[0], fields[1], fields[2], fields[3], halfmove, fullmove,
        )
    }

    /// Builds a position from the four FEN/EPD position fields and the two counters.
    pub fn from_parts(
        placement: &str,
        side: &str,
        castling: &str,
        ep: &str,
        halfmove: u16,
        fullmove: u16,
    ) -> Result<Board, FenError> {
        let mut board = Board::empty();
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::WrongRankCount(ranks.len()));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0usize;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 || d > 8 {
                        return Err(FenError::WrongRankLength {
                            rank: rank + 1,
                            files: file + d as usize,
                        });
                    }
                    file += d as usize;
                } else {
                    let piece = Piece::from_char(c).ok_or(FenError::UnknownPiece(c))?;
                    if file < 8 {
                        board.set_piece(piece, Square::new(file as u8, rank));
                    }
                    file += 1;
                }
                if file > 8 {
                    break;
                }
            }
            if file != 8 {
                return Err(FenError::WrongRankLength {
                    rank: rank + 1,
                    files: file,
                });
            }
        }

        for color in Color::ALL {
            let count = board.pieces(color, PieceKind::King).count();
            if count != 1 {
                return Err(FenError::KingCount { color, count });
            }
        }
        let back_ranks = Bitboard::RANK_1 | Bitboard::RANK_8;
        if let Some(sq) = (board.kind(PieceKind::Pawn) & back_ranks).next() {
            return Err(FenError::PawnOnBackRank(sq));
        }

        let side = match side {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSide(other.to_string())),
        };

        let rights = parse_castling(&board, castling)?;
        let ep = parse_en_passant(&board, ep, side)?;

        let other = side.flip();
        if board.is_attacked_by(board.king_square(other), side, board.occupied()) {
            return Err(FenError::OppositeCheck(other));
        }
        board.set_state(side, rights, ep, halfmove, fullmove);
        Ok(board)
    }

    /// FEN of the position (the en-passant square is written only when a capture is possible).
    pub fn to_fen(&self) -> String {
        format!(
            "{} {} {}",
            self.epd_position(),
            self.halfmove_clock(),
            self.fullmove_number()
        )
    }

    /// The four position fields of EPD: placement, side, castling, en passant.
    pub fn epd_position(&self) -> String {
        let mut s = String::with_capacity(80);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::new(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let ep = self
            .ep_square()
            .map_or("-".to_string(), |sq| sq.to_string());
        format!(
            "{s} {} {} {ep}",
            self.side_to_move().char(),
            self.castling_rights().to_fen()
        )
    }
}

fn parse_counter(text: &str, field: &'static str) -> Result<u16, FenError> {
    text.parse::<u16>().map_err(|_| FenError::BadCounter {
        field,
        value: text.to_string(),
    })
}

fn parse_castling(board: &Board, text: &str) -> Result<CastlingRights, FenError> {
    if text == "-" {
        return Ok(CastlingRights::NONE);
    }
    let mut rights = 0u8;
    for c in text.chars() {
        let (bit, color, king_sq, rook_sq) = match c {
            'K' => (CastlingRights::WHITE_KING, Color::White, 4, 7),
            'Q' => (CastlingRights::WHITE_QUEEN, Color::White, 4, 0),
            'k' => (CastlingRights::BLACK_KING, Color::Black, 60, 63),
            'q' => (CastlingRights::BLACK_QUEEN, Color::Black, 60, 56),
            _ => return Err(FenError::BadCastlingField(text.to_string())),
        };
        if rights & bit != 0 {
            return Err(FenError::BadCastlingField(text.to_string()));
        }
        let king_ok = board.piece_at(Square(king_sq)) == Some(Piece::new(color, PieceKind::King));
        let rook_ok = board.piece_at(Square(rook_sq)) == Some(Piece::new(color, PieceKind::Rook));
        if !king_ok || !rook_ok {
            return Err(FenError::CastlingMismatch(c));
        }
        rights |= bit;
    }
    Ok(CastlingRights(rights))
}

fn parse_en_passant(board: &Board, text: &str, side: Color) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    let sq: Square = text
        .parse()
        .map_err(|_| FenError::BadEnPassantField(text.to_string()))?;
    // The pawn that just moved two squares stands in front of `sq`, which and whose origin
    // must be empty.
    let them = side.flip();
    let expected_rank = if side == Color::White { 5 } else { 2 };
    if sq.rank() != expected_rank {
        return Err(FenError::ImpossibleEnPassant(sq));
    }
    let pawn_sq = Square(if side == Color::White {
        sq.0 - 8
    } else {
        sq.0 + 8
    });
    let origin = Square(if side == Color::White {
        sq.0 + 8
    } else {
        sq.0 - 8
    });
    let ok = board.piece_at(pawn_sq) == Some(Piece::new(them, PieceKind::Pawn))
        && board.piece_at(sq).is_none()
        && board.piece_at(origin).is_none();
    if !ok {
        return Err(FenError::ImpossibleEnPassant(sq));
    }
    Ok(Some(sq))
}
