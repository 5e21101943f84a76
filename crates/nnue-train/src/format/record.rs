//! One training position in 32 bytes (little-endian):
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..8 | occupancy `u64`: bit `i` set when square `i` (a1 = 0, b1 = 1, …, h8 = 63) holds a piece |
//! | 8..24 | pieces: one 4-bit code per occupied square in rising square order, low nibble first; code = kind (0 pawn, 1 knight, 2 bishop, 3 rook, 4 queen, 5 king) + 8 for Black; unused nibbles 0 |
//! | 24 | flags: bit 0 side to move (1 = Black), bits 1-4 castling rights (K, Q, k, q), bits 5-7 zero |
//! | 25 | en-passant square 0-63, or 255 for none |
//! | 26..28 | score `i16`: centipawns from the **side to move's** view; −32768 = no score yet |
//! | 28 | game result from **White's** view: 0 Black won, 1 draw, 2 White won |
//! | 29 | half-move clock (capped at 255) |
//! | 30..32 | full-move number `u16` (at least 1) |

use kestrel_chess::{Bitboard, Board, CastlingRights, Color, Piece, PieceKind, Square};

/// Bytes per record.
pub const RECORD_LEN: usize = 32;
/// The score of a record that has not been scored (left for `kestrel nnue label`).
pub const NO_SCORE: i16 = i16::MIN;
/// The en-passant byte when there is no en-passant square.
const NO_EP: u8 = 255;

/// A game's result from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Black won.
    BlackWin = 0,
    /// A draw.
    Draw = 1,
    /// White won.
    WhiteWin = 2,
}

impl Outcome {
    /// The result as White's score: 0, 0.5 or 1.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// The result from `color`'s view: 0, 0.5 or 1.
    pub fn score_for(self, color: Color) -> f32 {
        match color {
            Color::White => self.white_score(),
            Color::Black => 1.0 - self.white_score(),
        }
    }

    /// The outcome whose byte is `b`.
    pub fn from_byte(b: u8) -> Option<Outcome> {
        match b {
            0 => Some(Outcome::BlackWin),
            1 => Some(Outcome::Draw),
            2 => Some(Outcome::WhiteWin),
            _ => None,
        }
    }

    /// A win for `color`.
    pub fn win_for(color: Color) -> Outcome {
        match color {
            Color::White => Outcome::WhiteWin,
            Color::Black => Outcome::BlackWin,
        }
    }
}

/// A position with its score and its game's result, as stored (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedPosition(pub [u8; RECORD_LEN]);

/// Why the bytes of a record are not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RecordError(pub String);

fn bad<T>(why: String) -> Result<T, RecordError> {
    Err(RecordError(why))
}

impl PackedPosition {
    /// Packs `board` with a score (side to move's view, [`NO_SCORE`] for none) and a result.
    pub fn pack(board: &Board, score: i16, result: Outcome) -> PackedPosition {
        let mut b = [0u8; RECORD_LEN];
        let occupied = board.occupied();
        b[0..8].copy_from_slice(&occupied.0.to_le_bytes());
        for (i, sq) in occupied.enumerate() {
            let piece = board
                .piece_at(sq)
                .expect("an occupied square holds a piece");
            let code = piece.kind.index() as u8 + 8 * piece.color.index() as u8;
            b[8 + i / 2] |= code << (4 * (i % 2));
        }
        b[24] = board.side_to_move().index() as u8 | (board.castling_rights().0 & 15) << 1;
        b[25] = board.ep_square().map_or(NO_EP, |sq| sq.0);
        b[26..28].copy_from_slice(&score.to_le_bytes());
        b[28] = result as u8;
        b[29] = board.halfmove_clock().min(255) as u8;
        b[30..32].copy_from_slice(&board.fullmove_number().max(1).to_le_bytes());
        PackedPosition(b)
    }

    /// Occupied squares.
    pub fn occupancy(&self) -> Bitboard {
        Bitboard(u64::from_le_bytes(self.0[0..8].try_into().unwrap()))
    }

    /// The pieces and their squares, in rising square order (valid records only).
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupancy().enumerate().map(|(i, sq)| {
            let code = (self.0[8 + i / 2] >> (4 * (i % 2))) & 15;
            let color = if code & 8 != 0 {
                Color::Black
            } else {
                Color::White
            };
            (
                sq,
                Piece::new(color, PieceKind::from_index((code & 7) as usize)),
            )
        })
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        if self.0[24] & 1 != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Whether either side may still castle (such a position is not symmetric under a file
    /// mirror).
    pub fn has_castling_rights(&self) -> bool {
        self.0[24] & 0b1_1110 != 0
    }

    /// The score in centipawns from the side to move's view, `None` if unscored.
    pub fn score(&self) -> Option<i16> {
        let s = i16::from_le_bytes([self.0[26], self.0[27]]);
        (s != NO_SCORE).then_some(s)
    }

    /// The record with another score (side to move's view; [`NO_SCORE`] for none).
    pub fn with_score(mut self, score: i16) -> PackedPosition {
        self.0[26..28].copy_from_slice(&score.to_le_bytes());
        self
    }

    /// The full-move number.
    pub fn fullmove_number(&self) -> u16 {
        u16::from_le_bytes([self.0[30], self.0[31]])
    }

    /// The game's result (valid records only).
    pub fn outcome(&self) -> Outcome {
        Outcome::from_byte(self.0[28]).unwrap_or(Outcome::Draw)
    }

    /// The position as a board (castling rights, en passant and counters included).
    pub fn to_board(&self) -> Result<Board, RecordError> {
        self.validate()?;
        Board::from_fen(&self.fen()).map_err(|e| RecordError(format!("not a legal position: {e}")))
    }

    /// The position as FEN.
    pub fn fen(&self) -> String {
        let mut grid = [None; 64];
        for (sq, piece) in self.pieces() {
            grid[sq.index()] = Some(piece);
        }
        let mut ranks = Vec::with_capacity(8);
        for rank in (0..8).rev() {
            let mut text = String::new();
            let mut empty = 0;
            for file in 0..8 {
                match grid[rank * 8 + file] {
                    Some(p) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            ranks.push(text);
        }
        let side = if self.side_to_move() == Color::White {
            "w"
        } else {
            "b"
        };
        let castling = CastlingRights((self.0[24] >> 1) & 15).to_fen();
        let ep = match self.0[25] {
            NO_EP => "-".to_string(),
            sq => Square(sq).to_string(),
        };
        let fullmove = self.fullmove_number();
        format!(
            "{} {side} {castling} {ep} {} {fullmove}",
            ranks.join("/"),
            self.0[29]
        )
    }

    /// Checks every field without building a board: piece codes, piece counts (one king per
    /// side, at most 16 pieces and 8 pawns each, no pawn on a back rank), flags, en passant,
    /// result and move number.
    pub fn validate(&self) -> Result<(), RecordError> {
        let occupied = self.occupancy();
        let n = occupied.count() as usize;
        if !(2..=32).contains(&n) {
            return bad(format!("{n} pieces on the board"));
        }
        for i in n..32 {
            if (self.0[8 + i / 2] >> (4 * (i % 2))) & 15 != 0 {
                return bad("piece code after the last piece".into());
            }
        }
        let mut counts = [[0usize; 6]; 2];
        for i in 0..n {
            let code = (self.0[8 + i / 2] >> (4 * (i % 2))) & 15;
            if code & 7 > 5 {
                return bad(format!("piece code {code} is not a piece"));
            }
            counts[(code >> 3) as usize][(code & 7) as usize] += 1;
        }
        let back_ranks = Bitboard::RANK_1 | Bitboard::RANK_8;
        for (sq, piece) in self.pieces() {
            if piece.kind == PieceKind::Pawn && back_ranks.contains(sq) {
                return bad(format!("a pawn on {sq}"));
            }
        }
        for (side, c) in counts.iter().enumerate() {
            let total: usize = c.iter().sum();
            if c[PieceKind::King.index()] != 1 || total > 16 || c[PieceKind::Pawn.index()] > 8 {
                return bad(format!(
                    "side {side} has {} kings, {} pawns, {total} pieces",
                    c[PieceKind::King.index()],
                    c[PieceKind::Pawn.index()]
                ));
            }
        }
        self.validate_state()
    }

    fn validate_state(&self) -> Result<(), RecordError> {
        if self.0[24] & 0xe0 != 0 {
            return bad(format!(
                "flags byte {:#04x} has unused bits set",
                self.0[24]
            ));
        }
        let ep = self.0[25];
        let ep_rank = if self.side_to_move() == Color::White {
            5
        } else {
            2
        };
        if ep != NO_EP && (ep > 63 || Square(ep).rank() != ep_rank) {
            return bad(format!(
                "en-passant byte {ep} is not a square on the right rank"
            ));
        }
        if Outcome::from_byte(self.0[28]).is_none() {
            return bad(format!("result byte {} is not 0, 1 or 2", self.0[28]));
        }
        if u16::from_le_bytes([self.0[30], self.0[31]]) == 0 {
            return bad("full-move number 0".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_round_trips_with_its_score_and_result() {
        let board = Board::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 3 20").unwrap();
        let rec = PackedPosition::pack(&board, -123, Outcome::WhiteWin);
        rec.validate().unwrap();
        assert_eq!(rec.score(), Some(-123));
        assert_eq!(rec.outcome(), Outcome::WhiteWin);
        assert_eq!(rec.side_to_move(), Color::White);
        assert_eq!(rec.to_board().unwrap().to_fen(), board.to_fen());
        let start = PackedPosition::pack(&Board::startpos(), NO_SCORE, Outcome::Draw);
        assert_eq!(start.score(), None);
        assert_eq!(
            start.to_board().unwrap().to_fen(),
            Board::startpos().to_fen()
        );
    }

    #[test]
    fn corrupt_fields_are_refused() {
        let good = PackedPosition::pack(&Board::startpos(), 10, Outcome::Draw);
        let mut two_kings = good;
        two_kings.0[8] = 0x55; // the first two pieces (a1, b1) become white kings
        assert!(two_kings.validate().unwrap_err().0.contains("kings"));
        let mut bad_result = good;
        bad_result.0[28] = 3;
        assert!(bad_result.validate().unwrap_err().0.contains("result"));
        let mut bad_code = good;
        bad_code.0[8] = 0x76;
        assert!(bad_code.validate().unwrap_err().0.contains("not a piece"));
        let mut empty = good;
        empty.0[0..8].copy_from_slice(&0u64.to_le_bytes());
        assert!(empty.validate().is_err());
        let mut flags = good;
        flags.0[24] |= 0x80;
        assert!(flags.validate().is_err());
    }
}
