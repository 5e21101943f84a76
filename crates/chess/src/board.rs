//! The position: bitboards plus a mailbox, with make/unmake and incremental Zobrist keys.

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::castling::{CastlingSetup, right_index};
use crate::zobrist;
use crate::{Bitboard, CastlingRights, Color, Move, Piece, PieceKind, Square};

/// What `unmake_move` needs to restore, and what repetition detection scans.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    captured: Option<Piece>,
    castling: CastlingRights,
    ep: Option<Square>,
    halfmove: u16,
    hash: u64,
    pawn_hash: u64,
    checkers: Bitboard,
}

/// A chess position with everything make/unmake needs: pieces by kind and colour, side to
/// move, castling rights, en-passant square, move counters, the Zobrist key, the checkers and
/// the history of moves made (for unmake and repetition detection).
#[derive(Clone)]
pub struct Board {
    by_kind: [Bitboard; 6],
    by_color: [Bitboard; 2],
    mailbox: [Option<Piece>; 64],
    side: Color,
    castling: CastlingRights,
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    hash: u64,
    pawn_hash: u64,
    checkers: Bitboard,
    /// Where castling kings and rooks start and land (any files: Chess960).
    castle: CastlingSetup,
    /// Chess960 notation: castling written as king takes rook (UCI), rights by file (FEN).
    chess960: bool,
    history: Vec<Undo>,
}

impl PartialEq for Board {
    /// Positions are equal when pieces, side, rights and en-passant square agree (not the history).
    fn eq(&self, other: &Board) -> bool {
        self.mailbox == other.mailbox
            && self.side == other.side
            && self.castling == other.castling
            && self.castling_rooks_held() == other.castling_rooks_held()
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::startpos()
    }
}

/// FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::from_fen(START_FEN).expect("start position FEN is valid")
    }

    /// An empty board, used by the FEN parser before validation.
    pub(crate) fn empty() -> Board {
        Board {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            pawn_hash: 0,
            checkers: Bitboard::EMPTY,
            castle: CastlingSetup::NONE,
            chess960: false,
            history: Vec::with_capacity(256),
        }
    }

    // ---- accessors -------------------------------------------------------------------------

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    /// All pieces of one kind, both colours.
    #[inline]
    pub fn kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares occupied by `color`'s pieces.
    #[inline]
    pub fn color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// Squares occupied by any piece.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Square of `color`'s king.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceKind::King).lsb()
    }

    /// Castling rights still available.
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// Whether moves and castling rights are written in Chess960 notation (castling as the king
    /// taking its own rook in UCI, rights by rook file in FEN where the X-FEN letters would be
    /// ambiguous). Set by [`Board::set_chess960`], and by the FEN parser when a castling right
    /// has its king or rook off the standard squares.
    #[inline]
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// Switches Chess960 notation on or off (the UCI option `UCI_Chess960`). Off is refused
    /// (ignored) for a position whose castling cannot be written in standard notation.
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on || self.needs_chess960();
    }

    /// Whether a castling right held has its king or rook off e1/e8 and the corners.
    pub(crate) fn needs_chess960(&self) -> bool {
        (0..4).any(|i| {
            let color = if i < 2 { Color::White } else { Color::Black };
            self.castling.has(1 << i) && !self.castle.is_standard(i, self.king_square(color))
        })
    }

    /// The starting square of the rook of each castling right held (index: the right's bit).
    pub fn castling_rooks_held(&self) -> [Option<Square>; 4] {
        std::array::from_fn(|i| {
            self.castling
                .has(1 << i)
                .then_some(self.castle.rook_from[i])
        })
    }

    /// The castling rook's origin and destination for the castling move `mv` (of either side:
    /// the colour is read from the move's rank).
    #[inline]
    pub fn castle_rook_squares(&self, mv: Move) -> (Square, Square) {
        let color = if mv.from().rank() == 0 {
            Color::White
        } else {
            Color::Black
        };
        let king_side = mv.is_king_side_castle();
        (
            self.castle.rook_from[right_index(color, king_side)],
            crate::castling::rook_destination(color, king_side),
        )
    }

    /// The castling setup (for the move generator).
    #[inline]
    pub(crate) fn castle_setup(&self) -> &CastlingSetup {
        &self.castle
    }

    /// The en-passant target square, set only when a capture there is pseudo-legal.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Half-moves since the last capture or pawn move (fifty-move rule).
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Full-move number, starting at 1 and incremented after Black's move.
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// Polyglot-compatible Zobrist key of the position.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Zobrist key of the pawns alone (for a pawn-structure cache).
    #[inline]
    pub fn pawn_hash(&self) -> u64 {
        self.pawn_hash
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Plies made since the board was set up (the length of the undo history).
    #[inline]
    pub fn ply_count(&self) -> usize {
        self.history.len()
    }

    /// The moves made since set-up, oldest first.
    pub fn move_history(&self) -> impl DoubleEndedIterator<Item = Move> + ExactSizeIterator + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// The piece captured by the last move, if any.
    pub fn last_captured(&self) -> Option<Piece> {
        self.history.last().and_then(|u| u.captured)
    }

    /// A copy of the position without the undo history: cheap to make for look-ahead such as
    /// deciding whether a move gives check (SAN suffixes).
    pub(crate) fn position_only(&self) -> Board {
        Board {
            history: Vec::new(),
            ..*self
        }
    }

    /// Forgets the undo history (keeps the position); used when a game history is not needed.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// Non-pawn, non-king material of `color` exists (used to avoid null moves in pawn endings).
    #[inline]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.color(color) & !(self.kind(PieceKind::Pawn) | self.kind(PieceKind::King))).any()
    }

    // ---- attacks ---------------------------------------------------------------------------

    /// Pieces of both colours attacking `sq` given occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let diag = self.kind(PieceKind::Bishop) | self.kind(PieceKind::Queen);
        let orth = self.kind(PieceKind::Rook) | self.kind(PieceKind::Queen);
        (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, PieceKind::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, PieceKind::Pawn))
            | (knight_attacks(sq) & self.kind(PieceKind::Knight))
            | (king_attacks(sq) & self.kind(PieceKind::King))
            | (bishop_attacks(sq, occ) & diag)
            | (rook_attacks(sq, occ) & orth)
    }

    /// Whether `by` attacks `sq` given occupancy `occ`.
    #[inline]
    pub fn is_attacked_by(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.color(by);
        let diag = (self.kind(PieceKind::Bishop) | self.kind(PieceKind::Queen)) & them;
        let orth = (self.kind(PieceKind::Rook) | self.kind(PieceKind::Queen)) & them;
        (pawn_attacks(by.flip(), sq) & self.kind(PieceKind::Pawn) & them).any()
            || (knight_attacks(sq) & self.kind(PieceKind::Knight) & them).any()
            || (king_attacks(sq) & self.kind(PieceKind::King) & them).any()
            || (bishop_attacks(sq, occ) & diag).any()
            || (rook_attacks(sq, occ) & orth).any()
    }

    fn compute_checkers(&self) -> Bitboard {
        let ksq = self.king_square(self.side);
        self.attackers_to(ksq, self.occupied()) & self.color(self.side.flip())
    }

    /// Pieces of `color` pinned to their own king.
    pub fn pinned(&self, color: Color) -> Bitboard {
        let ksq = self.king_square(color);
        let them = self.color(color.flip());
        let snipers = (rook_attacks(ksq, them)
            & (self.kind(PieceKind::Rook) | self.kind(PieceKind::Queen)))
            | (bishop_attacks(ksq, them)
                & (self.kind(PieceKind::Bishop) | self.kind(PieceKind::Queen)));
        self.sole_blockers(ksq, snipers & them) & self.color(color)
    }

    /// The pieces (of either colour) that alone stand between `king` and one of `snipers`:
    /// pinned pieces when the snipers are the enemy's, discovered-check candidates when they
    /// are the king's enemy's own.
    pub(crate) fn sole_blockers(&self, king: Square, snipers: Bitboard) -> Bitboard {
        let occ = self.occupied();
        let mut found = Bitboard::EMPTY;
        for s in snipers {
            let blockers = crate::attacks::between(king, s) & occ;
            if !blockers.several() {
                found |= blockers;
            }
        }
        found
    }

    // ---- piece placement -------------------------------------------------------------------

    #[inline]
    fn put(&mut self, piece: Piece, sq: Square) {
        self.put_raw(piece, sq);
        self.toggle_keys(piece, sq);
    }

    #[inline]
    fn remove(&mut self, sq: Square) -> Piece {
        let piece = self.remove_raw(sq);
        self.toggle_keys(piece, sq);
        piece
    }

    /// Xors `piece` on `sq` into the position key (and the pawn key for pawns).
    #[inline]
    fn toggle_keys(&mut self, piece: Piece, sq: Square) {
        let key = zobrist::piece_key(piece, sq);
        self.hash ^= key;
        if piece.kind == PieceKind::Pawn {
            self.pawn_hash ^= key;
        }
    }

    /// Placement without hashing (used by `unmake_move`, which restores the keys wholesale).
    #[inline]
    fn put_raw(&mut self, piece: Piece, sq: Square) {
        let b = sq.bb();
        self.by_kind[piece.kind.index()] |= b;
        self.by_color[piece.color.index()] |= b;
        self.mailbox[sq.index()] = Some(piece);
    }

    #[inline]
    fn remove_raw(&mut self, sq: Square) -> Piece {
        let piece = self.mailbox[sq.index()].expect("remove from an empty square");
        let b = sq.bb();
        self.by_kind[piece.kind.index()] ^= b;
        self.by_color[piece.color.index()] ^= b;
        self.mailbox[sq.index()] = None;
        piece
    }

    // ---- set-up helpers for the FEN parser -------------------------------------------------

    pub(crate) fn set_piece(&mut self, piece: Piece, sq: Square) {
        self.put(piece, sq);
    }

    /// Sets the castling rights, each with its rook's starting square (`rooks`, by right
    /// index), from the kings' current squares; turns Chess960 notation on when needed.
    pub(crate) fn set_castling(&mut self, rooks: [Option<Square>; 4]) {
        let mut setup = CastlingSetup::NONE;
        let mut rights = 0u8;
        for (i, rook) in rooks.iter().enumerate() {
            if let Some(rook) = *rook {
                let color = if i < 2 { Color::White } else { Color::Black };
                setup.add(i, self.king_square(color), rook);
                rights |= 1 << i;
            }
        }
        self.castle = setup;
        self.castling = CastlingRights(rights);
        self.chess960 = self.needs_chess960();
    }

    /// Sets side to move, en passant and counters, then the keys and checkers (castling is
    /// set before, by [`Board::set_castling`]).
    pub(crate) fn set_state(
        &mut self,
        side: Color,
        ep: Option<Square>,
        halfmove: u16,
        fullmove: u16,
    ) {
        self.side = side;
        let castling = self.castling;
        self.halfmove = halfmove;
        self.fullmove = fullmove;
        self.ep = ep.filter(|&s| self.ep_capture_possible(s, side));
        self.hash ^= zobrist::castling_key(castling);
        if let Some(s) = self.ep {
            self.hash ^= zobrist::en_passant_key(s.file());
        }
        if side == Color::White {
            self.hash ^= zobrist::white_to_move_key();
        }
        self.checkers = self.compute_checkers();
    }

    /// A pawn of `side` stands next to the pawn that just passed `ep` (Polyglot's criterion).
    fn ep_capture_possible(&self, ep: Square, side: Color) -> bool {
        (pawn_attacks(side.flip(), ep) & self.pieces(side, PieceKind::Pawn)).any()
    }

    // ---- make / unmake ---------------------------------------------------------------------

    /// Saves what unmaking `mv` needs, then clears the en-passant square (every move, null
    /// moves included, ends the en-passant opportunity).
    #[inline]
    fn push_undo(&mut self, mv: Move, captured: Option<Piece>) {
        self.history.push(Undo {
            mv,
            captured,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            hash: self.hash,
            pawn_hash: self.pawn_hash,
            checkers: self.checkers,
        });
        if let Some(ep) = self.ep.take() {
            self.hash ^= zobrist::en_passant_key(ep.file());
        }
    }

    /// Plays a legal move. Passing an illegal move corrupts the position: check with
    /// [`Board::is_legal`] first when the move comes from outside (hash table, user input).
    pub fn make_move(&mut self, mv: Move) {
        let us = self.side;
        let them = us.flip();
        let from = mv.from();
        let to = mv.to();
        let captured = if mv.is_en_passant() {
            Some(Piece::new(them, PieceKind::Pawn))
        } else if mv.is_castle() {
            None // the destination may hold the castling rook itself (Chess960)
        } else {
            self.mailbox[to.index()]
        };
        self.push_undo(mv, captured);

        if captured.is_some() {
            let cap_sq = if mv.is_en_passant() {
                Square(to.0 ^ 8) // the pawn stands behind the target square
            } else {
                to
            };
            self.remove(cap_sq);
        }

        let piece = self.remove(from);
        if mv.is_castle() {
            // Both pieces leave before either lands: in Chess960 each may land where the
            // other stood.
            let (rook_from, rook_to) = self.castle_rook_squares(mv);
            let rook = self.remove(rook_from);
            self.put(piece, to);
            self.put(rook, rook_to);
        } else {
            match mv.promotion_kind() {
                Some(kind) => self.put(Piece::new(us, kind), to),
                None => self.put(piece, to),
            }
        }

        let new_rights = CastlingRights(
            self.castling.0 & self.castle.keep[from.index()] & self.castle.keep[to.index()],
        );
        if new_rights != self.castling {
            self.hash ^= zobrist::castling_key(self.castling) ^ zobrist::castling_key(new_rights);
            self.castling = new_rights;
        }

        if mv.is_double_push() {
            let ep = Square((from.0 + to.0) / 2);
            if self.ep_capture_possible(ep, them) {
                self.ep = Some(ep);
                self.hash ^= zobrist::en_passant_key(ep.file());
            }
        }

        if piece.kind == PieceKind::Pawn || captured.is_some() {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        if us == Color::Black {
            // Saturating: a FEN may say 65535, and a move must not panic (or write fullmove 0).
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.hash ^= zobrist::white_to_move_key();
        self.checkers = self.compute_checkers();
    }

    /// The key after `mv`, for prefetching a hash-table entry before the move is made: exact
    /// for moves that change neither castling rights nor the en-passant square (other moves
    /// give a key that merely misses the prefetch).
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.mailbox[from.index()] else {
            return self.hash;
        };
        let mut key = self.hash ^ zobrist::white_to_move_key() ^ zobrist::piece_key(piece, from);
        if let Some(ep) = self.ep {
            key ^= zobrist::en_passant_key(ep.file());
        }
        let victim_sq = if mv.is_en_passant() {
            Square(to.0 ^ 8)
        } else {
            to
        };
        if let Some(victim) = self.mailbox[victim_sq.index()] {
            key ^= zobrist::piece_key(victim, victim_sq);
        }
        let placed = mv
            .promotion_kind()
            .map_or(piece, |kind| Piece::new(piece.color, kind));
        key ^ zobrist::piece_key(placed, to)
    }

    /// Takes back the last move made with [`Board::make_move`].
    pub fn unmake_move(&mut self) {
        let undo = self
            .history
            .pop()
            .expect("unmake_move without a move to take back");
        let mv = undo.mv;
        let them = self.side;
        let us = them.flip();
        let from = mv.from();
        let to = mv.to();

        if mv.is_castle() {
            let (rook_from, rook_to) = self.castle_rook_squares(mv);
            let rook = self.remove_raw(rook_to);
            let king = self.remove_raw(to);
            self.put_raw(king, from);
            self.put_raw(rook, rook_from);
            self.restore_state(us, &undo);
            return;
        }
        let moved = self.remove_raw(to);
        let piece = if mv.is_promotion() {
            Piece::new(us, PieceKind::Pawn)
        } else {
            moved
        };
        self.put_raw(piece, from);
        if let Some(cap) = undo.captured {
            let cap_sq = if mv.is_en_passant() {
                Square(to.0 ^ 8)
            } else {
                to
            };
            self.put_raw(cap, cap_sq);
        }
        self.restore_state(us, &undo);
    }

    /// The non-placement half of unmaking a move by `us`.
    #[inline]
    fn restore_state(&mut self, us: Color, undo: &Undo) {
        self.side = us;
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_sub(1).max(1);
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
        self.pawn_hash = undo.pawn_hash;
        self.checkers = undo.checkers;
    }

    /// Passes the turn (for null-move pruning). Must not be called when in check.
    pub fn make_null(&mut self) {
        debug_assert!(!self.in_check());
        self.push_undo(Move::NULL, None);
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = self.side.flip();
        self.hash ^= zobrist::white_to_move_key();
        self.checkers = Bitboard::EMPTY;
    }

    /// Takes back the null move made last (see [`Board::make_null`]).
    pub fn unmake_null(&mut self) {
        let undo = self.history.pop().expect("unmake_null without a null move");
        debug_assert!(undo.mv.is_null());
        self.side = self.side.flip();
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
        self.checkers = undo.checkers;
    }

    // ---- draws -----------------------------------------------------------------------------

    /// How many earlier positions (since the last irreversible move, and not across a null
    /// move) equal the current one.
    pub fn repetitions(&self) -> usize {
        self.earlier_occurrences(usize::MAX)
    }

    /// [`Board::repetitions`], counting no further than `enough`.
    #[inline]
    fn earlier_occurrences(&self, enough: usize) -> usize {
        let n = self.history.len();
        let reach = (self.halfmove as usize).min(n);
        let mut count = 0;
        let mut i = 2;
        while i <= reach {
            let undo = &self.history[n - i];
            if undo.mv.is_null() || self.history[n - i + 1].mv.is_null() {
                break;
            }
            if undo.hash == self.hash {
                count += 1;
                if count == enough {
                    break;
                }
            }
            i += 2;
        }
        count
    }

    /// The position occurred before: a draw for search purposes.
    #[inline]
    pub fn is_repetition(&self) -> bool {
        self.earlier_occurrences(1) >= 1
    }

    /// Threefold repetition: the game-ending rule.
    #[inline]
    pub fn is_threefold(&self) -> bool {
        self.repetitions() >= 2
    }

    /// Whether fifty moves have passed without a capture or pawn move (a draw).
    #[inline]
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove >= 100
    }

    /// Neither side can ever mate: K v K, K+minor v K, or only same-coloured bishops.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy =
            self.kind(PieceKind::Pawn) | self.kind(PieceKind::Rook) | self.kind(PieceKind::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.kind(PieceKind::Knight);
        let bishops = self.kind(PieceKind::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty()
                || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }

    /// Draw by the 50-move rule, insufficient material or repetition (twofold, as search uses).
    pub fn is_draw(&self) -> bool {
        self.is_fifty_move_draw() || self.is_insufficient_material() || self.is_repetition()
    }

    /// Colour-flipped copy (pieces mirrored vertically and colours swapped); history is dropped.
    pub fn mirrored(&self) -> Board {
        let mut b = Board::empty();
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                b.put(Piece::new(p.color.flip(), p.kind), sq.flip_rank());
            }
        }
        // White's rights become Black's (index 0-1 <-> 2-3), their rooks mirrored.
        let held = self.castling_rooks_held();
        b.set_castling(std::array::from_fn(|i| {
            held[(i + 2) % 4].map(Square::flip_rank)
        }));
        b.chess960 |= self.chess960;
        b.set_state(
            self.side.flip(),
            self.ep.map(Square::flip_rank),
            self.halfmove,
            self.fullmove,
        );
        b
    }

    /// Recomputes the keys from scratch (for tests of the incremental update).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                h ^= zobrist::piece_key(p, sq);
            }
        }
        h ^= zobrist::castling_key(self.castling);
        if let Some(ep) = self.ep {
            h ^= zobrist::en_passant_key(ep.file());
        }
        if self.side == Color::White {
            h ^= zobrist::white_to_move_key();
        }
        h
    }
}
