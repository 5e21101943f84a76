//! FEN reading (with validation) and writing.

use crate::{Bitboard, Board, Color, Piece, PieceKind, Square};
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
    #[error(
        "castling field '{0}' is malformed (expected '-', a subset of 'KQkq' or rook files as in 'HAha')"
    )]
    BadCastlingField(String),
    /// A castling right without its king or rook at home.
    #[error(
        "castling right '{0}' does not match the pieces (no king on its back rank or no rook there)"
    )]
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

        let rooks = parse_castling(&board, castling)?;
        board.set_castling(rooks);
        let ep = parse_en_passant(&board, ep, side)?;

        let other = side.flip();
        if board.is_attacked_by(board.king_square(other), side, board.occupied()) {
            return Err(FenError::OppositeCheck(other));
        }
        board.set_state(side, ep, halfmove, fullmove);
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

    /// FEN with the castling rights as rook files (Shredder-FEN: `HAha`), whatever the mode.
    pub fn to_shredder_fen(&self) -> String {
        let fen = self.to_fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        let castling = self.castling_field(true);
        format!(
            "{} {} {castling} {}",
            fields[0],
            fields[1],
            fields[3..].join(" ")
        )
    }

    /// The castling field: `KQkq` letters for the outermost rooks (X-FEN, standard chess's
    /// field in standard positions), a rook's file where another rook stands further out on
    /// that wing; every right by file with `shredder`.
    pub fn castling_field(&self, shredder: bool) -> String {
        let held = self.castling_rooks_held();
        let mut field = String::new();
        for (i, rook) in held.iter().enumerate() {
            let Some(rook) = *rook else { continue };
            let color = if i < 2 { Color::White } else { Color::Black };
            let king_side = i.is_multiple_of(2);
            let outermost = self
                .pieces(color, PieceKind::Rook)
                .find(|r| {
                    r.rank() == rook.rank()
                        && if king_side {
                            r.file() > rook.file()
                        } else {
                            r.file() < rook.file()
                        }
                })
                .is_none();
            let letter = if shredder || !outermost {
                (b'a' + rook.file()) as char
            } else if king_side {
                'k'
            } else {
                'q'
            };
            field.push(match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            });
        }
        if field.is_empty() {
            "-".to_string()
        } else {
            field
        }
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
            self.castling_field(false)
        )
    }
}

fn parse_counter(text: &str, field: &'static str) -> Result<u16, FenError> {
    text.parse::<u16>().map_err(|_| FenError::BadCounter {
        field,
        value: text.to_string(),
    })
}

/// The castling field's rights, as the starting square of each right's rook (by right index).
/// `K`/`Q` name the outermost rook on that wing (X-FEN), a file letter names the rook on that
/// file (Shredder-FEN); either way the king must stand on its back rank between them.
fn parse_castling(board: &Board, text: &str) -> Result<[Option<Square>; 4], FenError> {
    let mut rooks = [None; 4];
    if text == "-" {
        return Ok(rooks);
    }
    let malformed = || FenError::BadCastlingField(text.to_string());
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = if color == Color::White { 0 } else { 7 };
        let king = board.king_square(color);
        let home_rooks: Vec<Square> =
            (board.pieces(color, PieceKind::Rook) & Bitboard::rank(rank)).collect();
        let (king_side, rook) = match c.to_ascii_lowercase() {
            'k' => (
                true,
                home_rooks
                    .iter()
                    .copied()
                    .filter(|r| r.file() > king.file())
                    .max(),
            ),
            'q' => (
                false,
                home_rooks
                    .iter()
                    .copied()
                    .filter(|r| r.file() < king.file())
                    .min(),
            ),
            f @ 'a'..='h' => {
                let sq = Square::new(f as u8 - b'a', rank);
                (
                    sq.file() > king.file(),
                    home_rooks.contains(&sq).then_some(sq),
                )
            }
            _ => return Err(malformed()),
        };
        let Some(rook) = rook.filter(|r| king.rank() == rank && r.file() != king.file()) else {
            return Err(FenError::CastlingMismatch(c));
        };
        let index = crate::castling::right_index(color, king_side);
        if rooks[index].is_some() {
            return Err(malformed());
        }
        rooks[index] = Some(rook);
    }
    Ok(rooks)
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
