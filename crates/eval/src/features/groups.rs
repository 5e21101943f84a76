//! Feature groups: sets of terms whose computation the extractor can skip together. An
//! [`Evaluator`](crate::Evaluator) whose weights are all zero for a group skips that group's
//! work (the compact evaluation needs neither piece-square tables nor the teaching engine's
//! mobility, threats and protects), so a smaller evaluation is also a faster one. Traces and
//! breakdowns always compute everything.

use crate::table::{TERMS, Term};

/// A set of terms, one bit per term in declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TermSet(pub u64);

const _: () = assert!(TERMS.len() <= 64, "TermSet holds at most 64 terms");

impl TermSet {
    #[cfg(test)]
    pub(crate) const ALL: TermSet = TermSet(if TERMS.len() == 64 {
        u64::MAX
    } else {
        (1 << TERMS.len()) - 1
    });

    pub(crate) const fn of(terms: &[Term]) -> TermSet {
        let mut bits = 0;
        let mut i = 0;
        while i < terms.len() {
            bits |= 1 << terms[i] as u32;
            i += 1;
        }
        TermSet(bits)
    }

    pub(crate) const fn union(self, other: TermSet) -> TermSet {
        TermSet(self.0 | other.0)
    }

    #[inline(always)]
    pub(crate) const fn meets(self, other: TermSet) -> bool {
        self.0 & other.0 != 0
    }
}

/// Piece values.
pub(crate) const MATERIAL: TermSet = TermSet::of(&[
    Term::PAWN_VALUE,
    Term::KNIGHT_VALUE,
    Term::BISHOP_VALUE,
    Term::ROOK_VALUE,
    Term::QUEEN_VALUE,
    Term::MATERIAL_TAPER,
]);
/// Piece-square tables (a loop over every piece).
pub(crate) const PST: TermSet = TermSet::of(&[
    Term::PST_PAWN,
    Term::PST_KNIGHT,
    Term::PST_BISHOP,
    Term::PST_ROOK,
    Term::PST_QUEEN,
    Term::PST_KING,
]);
/// Ranks advanced per pawn: the paper's wing/centre terms and the teaching engine's one.
pub(crate) const PAWN_ADVANCE: TermSet = TermSet::of(&[
    Term::PAWN_ADVANCE_A,
    Term::PAWN_ADVANCE_B,
    Term::PAWN_ADVANCEMENT,
]);
/// The paper's pawn weaknesses.
pub(crate) const PAWN_FLAWS: TermSet = TermSet::of(&[
    Term::DOUBLED_PAWN_PENALTY,
    Term::ISOLATED_PAWN_PENALTY,
    Term::BACKWARD_PAWN_PENALTY,
    Term::WEAK_SQUARE_PENALTY,
]);
/// Supported and phalanx pawns.
pub(crate) const PAWN_CHAINS: TermSet = TermSet::of(&[Term::PAWN_SUPPORTED, Term::PAWN_PHALANX]);
/// The teaching engine's per-kind mobility, threats and protects (three popcounts per piece).
pub(crate) const ACTIVITY: TermSet = TermSet::of(&[Term::MOBILITY, Term::THREATS, Term::PROTECTS]);
/// The paper's bishop, rook and queen mobility (squares not attacked by enemy pawns).
pub(crate) const SAFE_MOBILITY: TermSet = TermSet::of(&[
    Term::BISHOP_MOBILITY,
    Term::ROOK_MOBILITY,
    Term::QUEEN_MOBILITY,
]);
/// The paper's king-zone pressure.
pub(crate) const KING_PRESSURE: TermSet = TermSet::of(&[Term::KING_PRESSURE_MULT]);
/// Attack-unit king danger table.
pub(crate) const KING_DANGER: TermSet = TermSet::of(&[Term::KING_DANGER]);
/// Knight centralisation and outposts.
pub(crate) const KNIGHT_PLACEMENT: TermSet =
    TermSet::of(&[Term::KNIGHT_SQ_MULT, Term::KNIGHT_OUTPOST_MULT]);
/// The paper's rook terms (files, 7th rank, connection, column, king files).
pub(crate) const ROOK_PLACEMENT: TermSet = TermSet::of(&[
    Term::ROOK_ATTACK_KING_FILE,
    Term::ROOK_ATTACK_KING_ADJ_FILE,
    Term::ROOK_ATTACK_KING_ADJ_FILE_ABGH,
    Term::ROOK_7TH_RANK,
    Term::ROOK_CONNECTED,
    Term::ROOK_OPEN_FILE,
    Term::ROOK_SEMI_OPEN_FILE,
    Term::ROOK_ATCK_WEAK_PAWN_OPEN_COLUMN,
    Term::ROOK_COLUMN_MULT,
]);
pub(crate) const BISHOP_PAIR: TermSet = TermSet::of(&[Term::BISHOP_PAIR]);
/// The paper's king shelter (middle game).
pub(crate) const KING_SHELTER: TermSet = TermSet::of(&[
    Term::KING_NO_FRIENDLY_PAWN,
    Term::KING_NO_FRIENDLY_PAWN_ADJ,
    Term::KING_FRIENDLY_PAWN_ADVANCED1,
    Term::KING_NO_ENEMY_PAWN,
    Term::KING_NO_ENEMY_PAWN_ADJ,
]);
/// The paper's passed-pawn terms.
pub(crate) const PASSED_PAPER: TermSet =
    TermSet::of(&[Term::PASSED_PAWN_MULT, Term::PASSED_PAWN_ENEMY_KING_DIST]);
/// Passed-pawn detail: rank table, free path, own king distance.
pub(crate) const PASSED_DETAIL: TermSet = TermSet::of(&[
    Term::PASSED_PAWN_RANK,
    Term::PASSED_PAWN_FREE,
    Term::PASSED_PAWN_OWN_KING_DIST,
]);
/// A rook behind an own passer (one rook-attack lookup per rook and passer).
pub(crate) const ROOK_BEHIND_PASSER: TermSet = TermSet::of(&[Term::ROOK_BEHIND_PASSED_PAWN]);
pub(crate) const TEMPO: TermSet = TermSet::of(&[Term::TEMPO]);
/// Knight, bishop, rook and queen mobility by move count (non-linear in the count).
pub(crate) const MOBILITY_TABLES: TermSet = TermSet::of(&[
    Term::MOBILITY_KNIGHT,
    Term::MOBILITY_BISHOP,
    Term::MOBILITY_ROOK,
    Term::MOBILITY_QUEEN,
]);
/// Attacks on enemy pieces by cheaper attackers, and undefended pieces under attack.
pub(crate) const THREATS: TermSet = TermSet::of(&[
    Term::THREAT_BY_PAWN,
    Term::THREAT_BY_MINOR,
    Term::THREAT_BY_ROOK,
    Term::HANGING,
]);
/// Safe checking squares each side's pieces reach.
pub(crate) const SAFE_CHECKS: TermSet = TermSet::of(&[Term::SAFE_CHECK]);
/// Groups that need both sides' attack maps ([`Context::finish_attack_maps`]).
///
/// [`Context::finish_attack_maps`]: super::context::Context::finish_attack_maps
pub(crate) const NEEDS_ATTACK_MAPS: TermSet = THREATS.union(SAFE_CHECKS);

/// Every group; together they cover every term exactly once (tested).
#[cfg(test)]
pub(crate) const GROUPS: [TermSet; 20] = [
    MATERIAL,
    PST,
    PAWN_ADVANCE,
    PAWN_FLAWS,
    PAWN_CHAINS,
    ACTIVITY,
    SAFE_MOBILITY,
    KING_PRESSURE,
    KING_DANGER,
    KNIGHT_PLACEMENT,
    ROOK_PLACEMENT,
    BISHOP_PAIR,
    KING_SHELTER,
    PASSED_PAPER,
    PASSED_DETAIL,
    ROOK_BEHIND_PASSER,
    TEMPO,
    MOBILITY_TABLES,
    THREATS,
    SAFE_CHECKS,
];

/// Groups that need each knight's, bishop's, rook's and queen's attack set.
pub(crate) const NEEDS_PIECE_ATTACKS: TermSet = ACTIVITY
    .union(SAFE_MOBILITY)
    .union(MOBILITY_TABLES)
    .union(KING_PRESSURE)
    .union(KING_DANGER)
    .union(ROOK_PLACEMENT);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_cover_every_term_exactly_once() {
        let mut seen = 0u64;
        for g in GROUPS {
            assert_eq!(seen & g.0, 0, "a term is in two groups");
            seen |= g.0;
        }
        assert_eq!(TermSet(seen), TermSet::ALL);
    }
}
