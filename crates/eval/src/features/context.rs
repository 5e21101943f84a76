//! Board facts several feature groups need: pawn sets and their attacks, kings, passed and
//! weak pawns.

use crate::bits::{
    beside, file_fill, fill_forward, front_span, pawn_attacks, rear_span, relative_rank,
};
use kestrel_chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use kestrel_chess::{Bitboard, Board, Color, PieceKind, Square};

/// The pieces whose attacks the evaluation looks up one by one.
pub(super) const SLIDERS_AND_KNIGHTS: [PieceKind; 4] = [
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
];

/// Attacks of a knight, bishop, rook or queen (inlined: this runs for every piece at every leaf).
#[inline(always)]
pub(super) fn attacks(kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Knight => knight_attacks(sq),
        PieceKind::Bishop => bishop_attacks(sq, occ),
        PieceKind::Rook => rook_attacks(sq, occ),
        _ => queen_attacks(sq, occ),
    }
}

/// What the pawns alone decide: the part of [`Context`] a pawn-structure cache keeps, so a hit
/// skips the classification of every pawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PawnFacts {
    /// Squares attacked by each side's pawns.
    pub pawn_attacks: [Bitboard; 2],
    /// Squares each side's pawns attack now or could attack after advancing.
    pub pawn_attack_span: [Bitboard; 2],
    pub doubled: [Bitboard; 2],
    pub isolated: [Bitboard; 2],
    pub backward: [Bitboard; 2],
    pub passed: [Bitboard; 2],
    /// Holes: own 3rd/4th-rank squares, free of own pawns, that no own pawn can ever attack.
    pub holes: [Bitboard; 2],
}

impl PawnFacts {
    /// Classifies the pawns of `pawns` (indexed by colour).
    pub(crate) fn new(pawns: [Bitboard; 2]) -> PawnFacts {
        let attacks = Color::ALL.map(|c| pawn_attacks(pawns[c.index()], c));
        let mut facts = PawnFacts {
            pawn_attacks: attacks,
            pawn_attack_span: Color::ALL.map(|c| fill_forward(attacks[c.index()], c)),
            ..PawnFacts::default()
        };
        for c in Color::ALL {
            facts.classify(pawns, c);
        }
        facts
    }

    fn classify(&mut self, pawns: [Bitboard; 2], us: Color) {
        let i = us.index();
        let own = pawns[i];
        let opp = pawns[us.flip().index()];
        self.doubled[i] = own & rear_span(own, us);
        self.isolated[i] = own & !beside(file_fill(own));
        let camp = relative_rank(us, 2) | relative_rank(us, 3);
        self.holes[i] = camp & !self.pawn_attack_span[i] & !own;
        for sq in own {
            let b = sq.bb();
            let front = front_span(b, us);
            if (opp & (front | beside(front))).is_empty() && (own & front).is_empty() {
                self.passed[i] |= b;
            }
            if !self.isolated[i].contains(sq) {
                let support = beside(fill_forward(b, us.flip()));
                let stop = b.forward(us);
                if (own & support).is_empty() && (stop & self.pawn_attacks[us.flip().index()]).any()
                {
                    self.backward[i] |= b;
                }
            }
        }
    }
}

/// Pawns of both sides, indexed by colour.
#[inline]
pub(crate) fn pawn_sets(board: &Board) -> [Bitboard; 2] {
    Color::ALL.map(|c| board.pieces(c, PieceKind::Pawn))
}

pub(crate) struct Context {
    pub occ: Bitboard,
    pub pawns: [Bitboard; 2],
    /// Pawn attacks, spans, weaknesses and passers (see [`PawnFacts`]).
    pub p: PawnFacts,
    pub king: [Square; 2],
    /// The king's square and its neighbours.
    pub king_zone: [Bitboard; 2],
    /// Squares attacked by each side's pieces of each kind (indexed by `PieceKind::index`),
    /// filled by the per-piece loop when the threat terms need them
    /// ([`Context::finish_attack_maps`]); empty otherwise.
    pub attacked_by: [[Bitboard; 6]; 2],
    /// Squares attacked by anything of each side (same condition).
    pub attacked: [Bitboard; 2],
}

impl Context {
    /// The context of `board` whose pawns `pawns` are already classified as `p`.
    #[inline]
    pub(crate) fn with_pawns(board: &Board, pawns: [Bitboard; 2], p: PawnFacts) -> Context {
        let king = Color::ALL.map(|c| board.king_square(c));
        Context {
            occ: board.occupied(),
            pawns,
            p,
            king,
            king_zone: king.map(|k| king_attacks(k) | k.bb()),
            attacked_by: [[Bitboard::EMPTY; 6]; 2],
            attacked: [Bitboard::EMPTY; 2],
        }
    }

    /// Completes `color`'s attack maps once its knights', bishops', rooks' and queens'
    /// entries of [`Context::attacked_by`] are in: adds the pawns and the king, and the union.
    #[inline]
    pub(crate) fn finish_attack_maps(&mut self, color: Color) {
        let i = color.index();
        let by = &mut self.attacked_by[i];
        by[PieceKind::Pawn.index()] = self.p.pawn_attacks[i];
        by[PieceKind::King.index()] = king_attacks(self.king[i]);
        self.attacked[i] = by.iter().fold(Bitboard::EMPTY, |acc, &b| acc | b);
    }

    /// Isolated or backward pawns of `color`: targets for rooks on half-open files.
    #[inline]
    pub(crate) fn weak_pawns(&self, color: Color) -> Bitboard {
        self.p.isolated[color.index()] | self.p.backward[color.index()]
    }
}
