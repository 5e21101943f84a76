//! Every evaluation parameter, declared once. The declaration order fixes the flat layout of
//! [`ParamValues`](kestrel_params::ParamValues) and of feature traces.
//!
//! Sign convention: every value is a bonus for the side that has the feature; terms named
//! `*_PENALTY` and the king-shelter terms (`KING_NO_*`, `KING_FRIENDLY_PAWN_ADVANCED1`) count
//! negatively, so their values stay non-negative and are subtracted.

use kestrel_params::{ParamDecl, ParamTable};

/// The built-in values: `params/default.toml` compiled by `build.rs`, one `[i32; N]` const per
/// term (tapered terms: mg entries, then eg entries). An entry that names no term is unused.
#[deny(dead_code)]
mod defaults {
    include!(concat!(env!("OUT_DIR"), "/default_values.rs"));
}

/// Declares the terms: an enum `Term` (one variant per declaration, in order) and `DECLS`.
/// Each term's defaults are `defaults::NAME`, so a term missing from `params/default.toml` does
/// not compile, and nor does one with the wrong number of values or a value out of range.
macro_rules! declare_terms {
    ($( $name:ident {
        doc: $doc:expr, len: $len:expr, tapered: $tap:expr,
        min: $min:expr, max: $max:expr, bits: $bits:expr $(, step: $step:expr)? $(,)?
    } )*) => {
        /// One declared evaluation term: the index of its declaration in [`EVAL_TABLE`].
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Term { $($name),* }

        /// All terms in declaration order.
        pub(crate) const TERMS: &[Term] = &[$(Term::$name),*];

        const DECLS: [ParamDecl; TERMS.len()] = [$(ParamDecl {
            name: stringify!($name),
            doc: $doc,
            len: $len,
            tapered: $tap,
            defaults: &defaults::$name,
            min: $min,
            max: $max,
            bits: $bits,
            // The declared SPSA step, or 0: derived from the range.
            step: [$($step,)? 0][0],
        }),*];

        $(
            const _: () = assert!(
                defaults::$name.len() == if $tap { 2 * $len } else { $len },
                concat!("params/default.toml: ", stringify!($name), " needs ",
                    stringify!($len), " values (mg and eg each when tapered)"),
            );
            const _: () = assert!(
                all_within(&defaults::$name, $min, $max),
                concat!("params/default.toml: ", stringify!($name), " has a value outside [",
                    stringify!($min), ", ", stringify!($max), "]"),
            );
        )*
    };
}

/// Every value in `min..=max` (a `const fn`, for the compile-time checks above).
const fn all_within(values: &[i32], min: i32, max: i32) -> bool {
    let mut i = 0;
    while i < values.len() {
        if values[i] < min || values[i] > max {
            return false;
        }
        i += 1;
    }
    true
}

declare_terms! {
    // ---- material: the compact set's five 10-bit values ---------------------------------
    PAWN_VALUE { doc: "material: per pawn", len: 1, tapered: false,
        min: 0, max: 1023, bits: 10, step: 10 }
    KNIGHT_VALUE { doc: "material: per knight", len: 1, tapered: false,
        min: 0, max: 1023, bits: 10, step: 10 }
    BISHOP_VALUE { doc: "material: per bishop", len: 1, tapered: false,
        min: 0, max: 1023, bits: 10, step: 10 }
    ROOK_VALUE { doc: "material: per rook", len: 1, tapered: false,
        min: 0, max: 1023, bits: 10, step: 10 }
    QUEEN_VALUE { doc: "material: per queen", len: 1, tapered: false,
        min: 0, max: 1023, bits: 10, step: 10 }

    // ---- the expert-driven GA's 30 positional terms (6 bits each, 0..63) ---------------
    PAWN_ADVANCE_A { doc: "per rank a wing pawn (files a-c, f-h) has advanced from its start",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    PAWN_ADVANCE_B { doc: "per rank a centre pawn (files d, e) has advanced from its start",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    PASSED_PAWN_MULT { doc: "passed pawn: times r*r, r = its relative rank (1 on the 2nd .. \
        6 on the 7th)",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    DOUBLED_PAWN_PENALTY { doc: "subtracted per pawn with a friendly pawn ahead on its file",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    ISOLATED_PAWN_PENALTY { doc: "subtracted per pawn with no friendly pawn on adjacent files",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    BACKWARD_PAWN_PENALTY { doc: "subtracted per pawn that no friendly pawn can support and \
        whose stop square an enemy pawn attacks",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    WEAK_SQUARE_PENALTY { doc: "middle game: subtracted per hole on the own 3rd/4th rank (no own \
        pawn on it, and none can ever attack it)",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    PASSED_PAWN_ENEMY_KING_DIST { doc: "end game: passed pawn, times the enemy king's distance \
        to its promotion square",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    KNIGHT_SQ_MULT { doc: "knight centralisation: times its ring (0 on the edge .. 3 centre)",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    KNIGHT_OUTPOST_MULT { doc: "knight on ranks 4-6 no enemy pawn can attack: times 1, or 2 \
        when a friendly pawn defends it",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    BISHOP_MOBILITY { doc: "per bishop move to a square not own-occupied nor pawn-attacked",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    BISHOP_PAIR { doc: "two or more bishops",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    ROOK_ATTACK_KING_FILE { doc: "middle game: rook on the enemy king's file",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    ROOK_ATTACK_KING_ADJ_FILE { doc: "middle game: rook next to the enemy king's file (king on \
        files c-f)",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    ROOK_ATTACK_KING_ADJ_FILE_ABGH { doc: "middle game: rook next to the enemy king's file \
        (king on files a, b, g, h)",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    ROOK_7TH_RANK { doc: "rook on the 7th rank with the enemy king on the 8th or enemy pawns \
        on the 7th",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    ROOK_CONNECTED { doc: "per rook that defends another friendly rook",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    ROOK_MOBILITY { doc: "per rook move to a square not own-occupied nor pawn-attacked",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    ROOK_BEHIND_PASSED_PAWN { doc: "rook behind a friendly passed pawn on its file, in contact",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    ROOK_OPEN_FILE { doc: "rook on a file without pawns",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    ROOK_SEMI_OPEN_FILE { doc: "rook on a file with enemy pawns only",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    ROOK_ATCK_WEAK_PAWN_OPEN_COLUMN { doc: "rook on a semi-open file holding an isolated or \
        backward enemy pawn",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    ROOK_COLUMN_MULT { doc: "per square a rook attacks along its own file",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    QUEEN_MOBILITY { doc: "per queen move to a square not own-occupied nor pawn-attacked",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    KING_NO_FRIENDLY_PAWN { doc: "middle game: subtracted when no friendly pawn stands ahead of \
        the king on its file",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    KING_NO_FRIENDLY_PAWN_ADJ { doc: "middle game: subtracted per adjacent file with no friendly \
        pawn ahead of the king",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    KING_FRIENDLY_PAWN_ADVANCED1 { doc: "middle game: subtracted per shelter file whose nearest \
        friendly pawn has left its square next to the king by one step",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    KING_NO_ENEMY_PAWN { doc: "middle game: subtracted when the king's file has no enemy pawn",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    KING_NO_ENEMY_PAWN_ADJ { doc: "middle game: subtracted per adjacent file with no enemy pawn",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }
    KING_PRESSURE_MULT { doc: "middle game: per enemy king-zone square a knight, bishop, rook or \
        queen attacks",
        len: 1, tapered: false, min: 0, max: 63, bits: 6 }

    // ---- piece-square tables (index a1 = 0 from the owner's side, mirrored for Black) ----
    PST_PAWN { doc: "pawn piece-square table", len: 64, tapered: true,
        min: -128, max: 127, bits: 8, step: 4 }
    PST_KNIGHT { doc: "knight piece-square table", len: 64, tapered: true,
        min: -128, max: 127, bits: 8, step: 4 }
    PST_BISHOP { doc: "bishop piece-square table", len: 64, tapered: true,
        min: -128, max: 127, bits: 8, step: 4 }
    PST_ROOK { doc: "rook piece-square table", len: 64, tapered: true,
        min: -128, max: 127, bits: 8, step: 4 }
    PST_QUEEN { doc: "queen piece-square table", len: 64, tapered: true,
        min: -128, max: 127, bits: 8, step: 4 }
    PST_KING { doc: "king piece-square table", len: 64, tapered: true,
        min: -128, max: 127, bits: 8, step: 4 }

    // ---- the teaching engine's terms (per kind: pawn, knight, bishop, rook, queen, king) --
    PAWN_ADVANCEMENT { doc: "per rank any pawn has advanced from its start", len: 1,
        tapered: true, min: -64, max: 63, bits: 7 }
    MOBILITY { doc: "per kind: per move to a square not occupied by an own piece \
        (pawns: pushes and captures)", len: 6, tapered: true, min: -64, max: 63, bits: 7 }
    THREATS { doc: "per kind: per enemy piece attacked (a check counts)", len: 6,
        tapered: true, min: -64, max: 63, bits: 7 }
    PROTECTS { doc: "per kind: per own piece (not the king) defended", len: 6,
        tapered: true, min: -64, max: 63, bits: 7 }

    // ---- further hand-crafted terms -----------------------------------------------------
    PAWN_SUPPORTED { doc: "per pawn defended by a friendly pawn", len: 1, tapered: true,
        min: 0, max: 63, bits: 6 }
    PAWN_PHALANX { doc: "per pawn with a friendly pawn beside it on the same rank", len: 1,
        tapered: true, min: 0, max: 63, bits: 6 }
    PASSED_PAWN_RANK { doc: "passed pawn by relative rank (index 0 = own back rank)", len: 8,
        tapered: true, min: -64, max: 191, bits: 8 }
    PASSED_PAWN_FREE { doc: "passed pawn whose path to promotion is empty", len: 1,
        tapered: true, min: 0, max: 127, bits: 7 }
    PASSED_PAWN_OWN_KING_DIST { doc: "subtracted per step from the own king to a passed pawn's \
        stop square", len: 1, tapered: true, min: 0, max: 31, bits: 5 }
    KING_DANGER { doc: "king attack by danger bucket min(units, 15): units = 2 per attacking \
        knight/bishop, 3 per rook, 5 per queen, plus attacked zone squares; needs 2+ attackers",
        len: 16, tapered: true, min: 0, max: 1023, bits: 10 }
    TEMPO { doc: "side to move", len: 1, tapered: true, min: 0, max: 63, bits: 6 }

    MATERIAL_TAPER { doc: "per pawn, knight, bishop, rook, queen: a correction to its \
        material value, middle and end game", len: 5, tapered: true, min: -256, max: 255,
        bits: 9 }

    // ---- mobility tables and threats (one value per count or per victim kind) ---------
    MOBILITY_KNIGHT { doc: "knight by its number of moves to squares not own-occupied nor \
        attacked by enemy pawns (0..8)", len: 9, tapered: true, min: -128, max: 127, bits: 8 }
    MOBILITY_BISHOP { doc: "bishop by its number of such moves (0..13)", len: 14,
        tapered: true, min: -128, max: 127, bits: 8 }
    MOBILITY_ROOK { doc: "rook by its number of such moves (0..14)", len: 15,
        tapered: true, min: -128, max: 127, bits: 8 }
    MOBILITY_QUEEN { doc: "queen by its number of such moves (0..27)", len: 28,
        tapered: true, min: -128, max: 127, bits: 8 }
    THREAT_BY_PAWN { doc: "per enemy knight, bishop, rook, queen (by kind) a pawn attacks",
        len: 4, tapered: true, min: 0, max: 255, bits: 8 }
    THREAT_BY_MINOR { doc: "per enemy pawn (undefended only), knight, bishop, rook, queen (by \
        kind) a knight or bishop attacks", len: 5, tapered: true, min: 0, max: 255, bits: 8 }
    THREAT_BY_ROOK { doc: "per enemy pawn (undefended only), knight, bishop, rook, queen (by \
        kind) a rook attacks", len: 5, tapered: true, min: 0, max: 255, bits: 8 }
    HANGING { doc: "per enemy piece (not the king) attacked and not defended at all",
        len: 1, tapered: true, min: 0, max: 255, bits: 8 }
    SAFE_CHECK { doc: "per square from which an own knight, bishop, rook, queen (by kind) can \
        give check, not own-occupied and not attacked by the enemy",
        len: 4, tapered: true, min: 0, max: 255, bits: 8 }
}

/// Every evaluation parameter (section `[eval]` of params files).
pub static EVAL_TABLE: ParamTable = ParamTable {
    section: "eval",
    decls: &DECLS,
};

const fn bases(flat: bool) -> [usize; TERMS.len()] {
    let mut out = [0; TERMS.len()];
    let mut acc = 0;
    let mut i = 0;
    while i < TERMS.len() {
        out[i] = acc;
        acc += if flat { DECLS[i].width() } else { DECLS[i].len };
        i += 1;
    }
    out
}

/// First feature slot of each term: a slot is one (term, entry) pair, shared by mg and eg.
const SLOT_BASE: [usize; TERMS.len()] = bases(false);
/// First flat index (into [`EVAL_TABLE`] values) of each term.
const FLAT_BASE: [usize; TERMS.len()] = bases(true);
/// The longest declaration (the size of per-term scratch buffers).
pub(crate) const MAX_LEN: usize = {
    let mut max = 0;
    let mut i = 0;
    while i < TERMS.len() {
        if DECLS[i].len > max {
            max = DECLS[i].len;
        }
        i += 1;
    }
    max
};
/// Number of feature slots.
pub(crate) const SLOT_COUNT: usize = SLOT_BASE[TERMS.len() - 1] + DECLS[TERMS.len() - 1].len;

impl Term {
    #[inline]
    pub(crate) const fn decl(self) -> &'static ParamDecl {
        &DECLS[self as usize]
    }

    /// Feature slot of entry `i` of this term.
    #[inline]
    pub(crate) const fn slot(self, i: usize) -> usize {
        debug_assert!(i < DECLS[self as usize].len);
        SLOT_BASE[self as usize] + i
    }

    /// Flat index of entry `i`'s middle-game value (its only value when not tapered).
    #[inline]
    pub(crate) const fn flat_mg(self, i: usize) -> usize {
        FLAT_BASE[self as usize] + i
    }

    /// Flat index of entry `i`'s end-game value (the same as mg when not tapered).
    #[inline]
    pub(crate) const fn flat_eg(self, i: usize) -> usize {
        let d = &DECLS[self as usize];
        FLAT_BASE[self as usize] + if d.tapered { d.len + i } else { i }
    }
}

/// Where one feature slot's values live in the flat parameter vector.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SlotInfo {
    /// Index of the owning term in declaration order.
    pub term: u16,
    pub flat_mg: u32,
    pub flat_eg: u32,
    pub tapered: bool,
}

const fn slot_infos() -> [SlotInfo; SLOT_COUNT] {
    let blank = SlotInfo {
        term: 0,
        flat_mg: 0,
        flat_eg: 0,
        tapered: false,
    };
    let mut out = [blank; SLOT_COUNT];
    let mut t = 0;
    while t < TERMS.len() {
        let term = TERMS[t];
        let mut i = 0;
        while i < DECLS[t].len {
            out[term.slot(i)] = SlotInfo {
                term: t as u16,
                flat_mg: term.flat_mg(i) as u32,
                flat_eg: term.flat_eg(i) as u32,
                tapered: DECLS[t].tapered,
            };
            i += 1;
        }
        t += 1;
    }
    out
}

/// Per feature slot: its term and flat indices (what traces and weights are built from).
pub(crate) const SLOTS: [SlotInfo; SLOT_COUNT] = slot_infos();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_valid_and_contain_zero() {
        EVAL_TABLE.validate().unwrap();
        for d in EVAL_TABLE.decls {
            assert!(d.min <= 0 && 0 <= d.max, "{}: zero must be allowed", d.name);
            assert!(
                ((d.max - d.min) as i64) < (1i64 << d.bits),
                "{}: range wider than its bits",
                d.name
            );
        }
    }

    #[test]
    fn slots_and_flat_indices_agree_with_the_table() {
        let offsets = EVAL_TABLE.offsets();
        let names = EVAL_TABLE.flat_names();
        for &t in TERMS {
            let d = t.decl();
            assert_eq!(format!("{t:?}"), d.name);
            assert_eq!(t.flat_mg(0), offsets[t as usize]);
            let last = d.len - 1;
            let eg_name = &names[t.flat_eg(last)];
            assert!(eg_name.starts_with(d.name));
            if d.tapered {
                assert!(eg_name.ends_with(".eg"), "{eg_name}");
            }
        }
        let mut next_slot = 0;
        for &t in TERMS {
            for i in 0..t.decl().len {
                assert_eq!(t.slot(i), next_slot);
                assert_eq!(SLOTS[next_slot].flat_mg as usize, t.flat_mg(i));
                assert_eq!(SLOTS[next_slot].flat_eg as usize, t.flat_eg(i));
                next_slot += 1;
            }
        }
        assert_eq!(next_slot, SLOT_COUNT);
        let flat: usize = SLOTS.iter().map(|i| 1 + i.tapered as usize).sum();
        assert_eq!(flat, EVAL_TABLE.len());
    }
}
