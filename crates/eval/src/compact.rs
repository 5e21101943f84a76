//! The compact evaluation of the expert-driven GA: material plus 30 positional terms, every other
//! term at zero. It is the full evaluation restricted to a subset, so it shares traces too.

use kestrel_params::ParamValues;

/// The 5 material values (10 bits each) and the 30 positional terms (6 bits each): a 230-bit
/// chromosome with `BitSchema::new(&EVAL_TABLE, Some(COMPACT_SET), Coding::Binary)`.
pub const COMPACT_SET: &[&str] = &[
    "PAWN_VALUE",
    "KNIGHT_VALUE",
    "BISHOP_VALUE",
    "ROOK_VALUE",
    "QUEEN_VALUE",
    "PAWN_ADVANCE_A",
    "PAWN_ADVANCE_B",
    "PASSED_PAWN_MULT",
    "DOUBLED_PAWN_PENALTY",
    "ISOLATED_PAWN_PENALTY",
    "BACKWARD_PAWN_PENALTY",
    "WEAK_SQUARE_PENALTY",
    "PASSED_PAWN_ENEMY_KING_DIST",
    "KNIGHT_SQ_MULT",
    "KNIGHT_OUTPOST_MULT",
    "BISHOP_MOBILITY",
    "BISHOP_PAIR",
    "ROOK_ATTACK_KING_FILE",
    "ROOK_ATTACK_KING_ADJ_FILE",
    "ROOK_ATTACK_KING_ADJ_FILE_ABGH",
    "ROOK_7TH_RANK",
    "ROOK_CONNECTED",
    "ROOK_MOBILITY",
    "ROOK_BEHIND_PASSED_PAWN",
    "ROOK_OPEN_FILE",
    "ROOK_SEMI_OPEN_FILE",
    "ROOK_ATCK_WEAK_PAWN_OPEN_COLUMN",
    "ROOK_COLUMN_MULT",
    "QUEEN_MOBILITY",
    "KING_NO_FRIENDLY_PAWN",
    "KING_NO_FRIENDLY_PAWN_ADJ",
    "KING_FRIENDLY_PAWN_ADVANCED1",
    "KING_NO_ENEMY_PAWN",
    "KING_NO_ENEMY_PAWN_ADJ",
    "KING_PRESSURE_MULT",
];

/// Whether the named parameter belongs to the compact set.
pub fn is_compact(name: &str) -> bool {
    COMPACT_SET.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// `values` with every parameter outside [`COMPACT_SET`] set to zero: the compact evaluation.
pub fn compact_values(values: &ParamValues) -> ParamValues {
    let mut out = ParamValues::zeros(values.table);
    for name in COMPACT_SET {
        if let Some(off) = values.table.offset_of(name) {
            out.values[off] = values.values[off];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EVAL_TABLE;
    use kestrel_params::{BitSchema, Coding};

    #[test]
    fn compact_chromosome_has_230_bits() {
        let schema = BitSchema::new(&EVAL_TABLE, Some(COMPACT_SET), Coding::Binary).unwrap();
        assert_eq!(schema.fields.len(), 35);
        assert_eq!(schema.bit_len(), 230);
        let ten_bit = schema.fields.iter().filter(|f| f.bits == 10).count();
        let six_bit = schema.fields.iter().filter(|f| f.bits == 6).count();
        assert_eq!((ten_bit, six_bit), (5, 30));
    }

    #[test]
    fn compact_terms_are_scalars_whose_bits_cover_their_range() {
        for name in COMPACT_SET {
            let d = &EVAL_TABLE.decls[EVAL_TABLE.find(name).expect(name)];
            assert_eq!((d.len, d.tapered, d.min), (1, false, 0), "{name}");
            assert_eq!(d.max, (1 << d.bits) - 1, "{name}");
        }
    }

    #[test]
    fn compact_values_keep_only_the_compact_set() {
        let defaults = ParamValues::defaults(&EVAL_TABLE);
        let compact = compact_values(&defaults);
        for (d, off) in EVAL_TABLE.decls.iter().zip(EVAL_TABLE.offsets()) {
            let got = &compact.values[off..off + d.width()];
            if is_compact(d.name) {
                assert_eq!(got, &defaults.values[off..off + d.width()], "{}", d.name);
            } else {
                assert!(got.iter().all(|&v| v == 0), "{} not zeroed", d.name);
            }
        }
        assert!(compact.values.iter().any(|&v| v != 0));
    }
}
