//! Search parameters: Falcon's 18 GA-tuned values plus switches and knobs for every other
//! heuristic, declared once in [`SEARCH_TABLE`] so that params files, UCI options, chromosome
//! schemas and the ablation table all come from the same list.
//!
//! One declaration per parameter (field, type, name, default, range, bits, meaning) makes the
//! table, the [`SearchParams`] struct, its unpacking and the [`names`] constants: a name
//! cannot be misspelt, since [`FALCON_SET`] and [`SWITCHES`] are built from those constants.

use kestrel_params::{ParamDecl, ParamTable, ParamValues};

/// Declares the search parameters: `DECLS` (the table's declarations, in order), the
/// [`SearchParams`] struct with one typed field per declaration, [`SearchParams::from_values`]
/// and a [`names`] constant per parameter. Every search parameter is a scalar, so the
/// declaration's index is its flat offset.
macro_rules! declare_search_params {
    ($( $field:ident : $ty:ident = $name:ident, $default:literal, $min:literal ..= $max:literal,
        $bits:literal bits $(, step $step:literal)?, $doc:literal; )*) => {
        static DECLS: [ParamDecl; [$(stringify!($name)),*].len()] = [$(ParamDecl {
            name: stringify!($name),
            doc: $doc,
            len: 1,
            tapered: false,
            defaults: &[$default],
            min: $min,
            max: $max,
            bits: $bits,
            // The declared SPSA step, or 0: derived from the range.
            step: [$($step,)? 0][0],
        }),*];

        /// The name of each search parameter, as a constant (a typo does not compile).
        pub mod names {
            $(
                #[doc = $doc]
                pub const $name: &str = stringify!($name);
            )*
        }

        /// The parameters unpacked into plain fields, read once per search (the hot path
        /// never looks names up). Switches are `bool`, everything else `i32`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $(
                #[doc = concat!("`", stringify!($name), "`: ", $doc, ".")]
                pub $field: $ty,
            )*
        }

        impl SearchParams {
            /// Unpacks values of [`SEARCH_TABLE`]; values of any other table are an error.
            pub fn from_values(values: &ParamValues) -> Result<SearchParams, NotSearchTable> {
                if !std::ptr::eq(values.table, &SEARCH_TABLE)
                    || values.values.len() != DECLS.len()
                {
                    return Err(NotSearchTable {
                        section: values.table.section,
                    });
                }
                let mut flat = values.values.iter().copied();
                Ok(SearchParams {
                    $( $field: <$ty as FromParam>::from_param(
                        flat.next().expect("one value per declaration")
                    ), )*
                })
            }
        }
    };
}

/// A flat `i32` value as a field of [`SearchParams`].
trait FromParam {
    fn from_param(value: i32) -> Self;
}

impl FromParam for i32 {
    fn from_param(value: i32) -> i32 {
        value
    }
}

impl FromParam for bool {
    fn from_param(value: i32) -> bool {
        value != 0
    }
}

/// [`SearchParams::from_values`] was given values of another table (e.g. the evaluation's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotSearchTable {
    /// Section of the table the values belong to.
    pub section: &'static str,
}

impl std::fmt::Display for NotSearchTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "search parameters need values of the [search] table, got values of [{}]",
            self.section
        )
    }
}

impl std::error::Error for NotSearchTable {}

// `step N` is the SPSA step (OpenBench's c_end) where the range's twentieth would be wrong;
// `step -1` keeps a choice out of SPSA.
#[rustfmt::skip]
declare_search_params! {
    // --- Falcon's 18 parameters (70 bits), in the order of David, Koppel & Netanyahu 2010 ---
    null_use: bool = NULL_MOVE_USE, 1, 0..=1, 1 bits, "null-move pruning on (1) or off (0)";
    null_r: i32 = NULL_MOVE_R, 4, 0..=7, 3 bits, "null-move depth reduction R, plies";
    null_adaptivity: bool = NULL_MOVE_ADAPTIVITY, 1, 0..=1, 1 bits, "use R-1 at shallow depths (adaptive null move)";
    null_adapt_depth: i32 = NULL_MOVE_ADAPT_DEPTH, 6, 0..=7, 3 bits, "depth (plies) at or below which R-1 is used";
    futility_depth: i32 = FUTILITY_DEPTH, 3, 0..=3, 2 bits, "futility pruning at depths 1..=this (3: razoring at 3)";
    futility_margin_1: i32 = FUTILITY_MARGIN_1, 106, 0..=1023, 10 bits, step 10, "futility margin at depth 1, centipawns";
    futility_margin_2: i32 = FUTILITY_MARGIN_2, 219, 0..=1023, 10 bits, step 15, "extended futility margin at depth 2, centipawns";
    futility_margin_3: i32 = FUTILITY_MARGIN_3, 512, 0..=1023, 10 bits, step 25, "razoring margin at depth 3, centipawns";
    multicut_use: bool = MULTICUT_USE, 1, 0..=1, 1 bits, "multi-cut pruning at expected cut nodes";
    multicut_r: i32 = MULTICUT_R, 4, 0..=7, 3 bits, "multi-cut depth reduction, plies";
    multicut_depth: i32 = MULTICUT_DEPTH, 6, 0..=7, 3 bits, "multi-cut only at depth >= this, plies";
    multicut_m: i32 = MULTICUT_M, 14, 0..=31, 5 bits, "multi-cut: moves searched";
    multicut_c: i32 = MULTICUT_C, 3, 0..=7, 3 bits, "multi-cut: fail-highs needed to prune";
    ext_check: i32 = EXT_CHECK, 2, 0..=4, 3 bits, "check extension, quarter plies";
    ext_one_reply: i32 = EXT_ONE_REPLY, 4, 0..=4, 3 bits, "single-reply extension, quarter plies";
    ext_recapture: i32 = EXT_RECAPTURE, 2, 0..=4, 3 bits, "recapture extension, quarter plies";
    ext_passed_pawn: i32 = EXT_PASSED_PAWN_7TH, 3, 0..=4, 3 bits, "passed pawn to the 7th rank extension, quarter plies";
    ext_mate_threat: i32 = EXT_MATE_THREAT, 1, 0..=4, 3 bits, "mate-threat (from the null move) extension, quarter plies";
    // --- switches and knobs of the other heuristics ---
    use_tt: bool = USE_TT, 1, 0..=1, 1 bits, "transposition table cut-offs and hash move";
    use_pvs: bool = USE_PVS, 1, 0..=1, 1 bits, "NegaScout/PVS null-window searches after the first move";
    use_aspiration: bool = USE_ASPIRATION, 1, 0..=1, 1 bits, "aspiration windows in iterative deepening";
    aspiration_window: i32 = ASPIRATION_WINDOW, 20, 1..=511, 9 bits, step 4, "first aspiration half-window, centipawns";
    use_verified_null: bool = USE_VERIFIED_NULL, 1, 0..=1, 1 bits, "verified null-move pruning (David & Netanyahu 2002)";
    use_iid: bool = USE_IID, 1, 0..=1, 1 bits, "internal iterative deepening at PV nodes without a hash move";
    iid_depth: i32 = IID_DEPTH, 4, 1..=15, 4 bits, "IID at depth >= this, plies";
    use_killers: bool = USE_KILLERS, 1, 0..=1, 1 bits, "killer moves in move ordering";
    use_history: bool = USE_HISTORY, 1, 0..=1, 1 bits, "history heuristic in move ordering";
    use_counter_move: bool = USE_COUNTER_MOVE, 1, 0..=1, 1 bits, "counter-move heuristic in move ordering";
    use_see_ordering: bool = USE_SEE_ORDERING, 1, 0..=1, 1 bits, "order losing captures (SEE < 0) after quiet moves";
    use_qs_see: bool = USE_QS_SEE, 1, 0..=1, 1 bits, "skip captures losing material by SEE in quiescence";
    qs_see_margin: i32 = QS_SEE_MARGIN, 0, 0..=511, 9 bits, step 10, "quiescence skips captures with SEE below -this";
    use_lmr: bool = USE_LMR, 1, 0..=1, 1 bits, "late-move reductions";
    lmr_base: i32 = LMR_BASE, 50, 0..=255, 8 bits, step 5, "LMR: base reduction, hundredths of a ply";
    lmr_divisor: i32 = LMR_DIVISOR, 300, 50..=1023, 10 bits, step 15, "LMR: ln(depth)ln(moves) divisor, hundredths";
    lmr_min_depth: i32 = LMR_MIN_DEPTH, 3, 1..=15, 4 bits, "LMR at depth >= this, plies";
    lmr_min_moves: i32 = LMR_MIN_MOVES, 3, 1..=31, 5 bits, "LMR from this move number on (0-based)";
    use_rfp: bool = USE_RFP, 1, 0..=1, 1 bits, "reverse futility (static null move) pruning";
    rfp_depth: i32 = RFP_DEPTH, 6, 0..=15, 4 bits, "reverse futility at depth <= this, plies";
    rfp_margin: i32 = RFP_MARGIN, 90, 0..=511, 9 bits, step 8, "reverse futility margin per ply, centipawns";
    use_blockage: bool = USE_BLOCKAGE, 1, 0..=1, 1 bits, "blockage detection in pawn endings (David, Felner & Netanyahu 2004)";
    use_mate_distance: bool = USE_MATE_DISTANCE, 1, 0..=1, 1 bits, "mate-distance pruning";
    use_extensions: bool = USE_EXTENSIONS, 1, 0..=1, 1 bits, "selective extensions (all five)";
    ext_total_cap: i32 = EXT_TOTAL_CAP, 48, 0..=255, 8 bits, step 4, "cap on the extensions summed along one path, quarter plies";
    use_qs_delta: bool = USE_QS_DELTA, 1, 0..=1, 1 bits, "delta pruning of hopeless captures in quiescence";
    use_qs_checks: bool = USE_QS_CHECKS, 1, 0..=1, 1 bits, "quiet checks at the first ply of quiescence";
    use_qs_tt: bool = USE_QS_TT, 1, 0..=1, 1 bits, "transposition-table probes and stores in quiescence (with USE_TT)";
    use_lmp: bool = USE_LMP, 1, 0..=1, 1 bits, "late-move pruning of quiet moves near the leaves";
    lmp_depth: i32 = LMP_DEPTH, 3, 0..=7, 3 bits, "late-move pruning at depth <= this, plies (after 3 + d*d moves)";
    lmr_history_div: i32 = LMR_HISTORY_DIV, 4096, 0..=16383, 14 bits, step 256, "LMR: reduce by history / this quarter plies less (0: off)";
    use_see_pruning: bool = USE_SEE_PRUNING, 1, 0..=1, 1 bits, "prune moves losing material by SEE near the leaves";
    see_prune_depth: i32 = SEE_PRUNE_DEPTH, 4, 0..=7, 3 bits, "SEE pruning at depth <= this, plies";
    see_quiet_margin: i32 = SEE_QUIET_MARGIN, 60, 0..=511, 9 bits, step 6, "SEE pruning: quiet moves losing more than this per ply";
    see_noisy_margin: i32 = SEE_NOISY_MARGIN, 100, 0..=511, 9 bits, step 10, "SEE pruning: captures losing more than this per ply";
    use_singular: bool = USE_SINGULAR, 1, 0..=1, 1 bits, "singular extension of a hash move far better than the others";
    singular_depth: i32 = SINGULAR_DEPTH, 6, 1..=15, 4 bits, "singular extension at depth >= this, plies";
    singular_margin: i32 = SINGULAR_MARGIN, 3, 0..=63, 6 bits, "singular: the others must fail below hash score - this per ply";
    use_improving: bool = USE_IMPROVING, 1, 0..=1, 1 bits, "prune and reduce more when the static eval is not improving on 2 plies ago";
    use_cont_history: bool = USE_CONT_HISTORY, 1, 0..=1, 1 bits, "counter-move history (per previous piece and square) in quiet-move ordering";
    lmr_cut_node: i32 = LMR_CUT_NODE, 4, 0..=15, 4 bits, "LMR: extra reduction at expected cut nodes, quarter plies";
    null_eval_div: i32 = NULL_MOVE_EVAL_DIV, 200, 0..=1023, 10 bits, step 20, "null move: one more ply of R per this many cp of eval above beta (0: off)";
    use_time_stability: bool = USE_TIME_STABILITY, 0, 0..=1, 1 bits, "timed games: more time while the best move changes or the score falls, less once it holds";
    // --- numbers that were literals in the search (issue 19), same values as before ---
    qs_delta_margin: i32 = QS_DELTA_MARGIN, 200, 0..=1023, 10 bits, step 20, "quiescence delta pruning: skip a capture when eval + gain + this <= alpha, centipawns";
    aspiration_min_depth: i32 = ASPIRATION_MIN_DEPTH, 4, 1..=15, 4 bits, "aspiration windows from this iteration depth on, plies";
    aspiration_max_window: i32 = ASPIRATION_MAX_WINDOW, 1000, 1..=4095, 12 bits, step 100, "aspiration: search the full window once the doubled half-window exceeds this, centipawns";
    history_quiets_max: i32 = HISTORY_QUIETS_MAX, 64, 0..=255, 8 bits, step 4, "quiet moves that failed before a cut-off and lose history, at most this many";
    lmp_base: i32 = LMP_BASE, 3, 0..=31, 5 bits, "late-move pruning: keep this + d*d quiet moves at depth d (half as many when not improving)";
    null_eval_max_r: i32 = NULL_MOVE_EVAL_MAX_R, 3, 0..=7, 3 bits, "null move: at most this many plies of R added for eval above beta";
    ext_ply_limit: i32 = EXT_PLY_LIMIT, 2, 0..=7, 3 bits, "extensions only at ply < this x the iteration depth";
    ext_move_cap: i32 = EXT_MOVE_CAP, 4, 0..=15, 4 bits, "cap on the extension of one move, quarter plies";
    singular_tt_slack: i32 = SINGULAR_TT_SLACK, 3, 0..=7, 3 bits, "singular: the hash entry may be at most this many plies shallower than the node";
    iid_reduction: i32 = IID_REDUCTION, 2, 1..=7, 3 bits, "IID searches this many plies shallower than the node";
    lmr_pv_node: i32 = LMR_PV_NODE, 4, 0..=15, 4 bits, "LMR: this many quarter plies less at PV nodes";
    lmr_not_improving: i32 = LMR_NOT_IMPROVING, 2, 0..=15, 4 bits, "LMR: this many quarter plies more when not improving (with USE_IMPROVING)";
    // --- Chessmaps quiet-move ordering (issue 15, docs/chessmaps.md); off by default ---
    quiet_order: i32 = QUIET_ORDER, 0, 0..=3, 2 bits, step -1, "quiet moves after killers: 0 history, 1 Chessmaps, 2 both, 3 random (docs/chessmaps.md)";
    use_sector_killer: bool = USE_SECTOR_KILLER, 0, 0..=1, 1 bits, "Chessmaps: rank first the sector of the last quiet cut-off at this ply";
    chessmaps_both_weight: i32 = CHESSMAPS_BOTH_WEIGHT, 64, 0..=1023, 10 bits, step 8, "QUIET_ORDER 2: history plus this times the Chessmaps score";
    chessmaps_min_depth: i32 = CHESSMAPS_MIN_DEPTH, 3, 0..=15, 4 bits, step -1, "Chessmaps orders quiet moves only this many plies or more from the horizon (history below, where the probe costs more than it saves)";
    // --- time management (timed games only; node and depth limits ignore them) ---
    tm_moves_to_go: i32 = TM_MOVES_TO_GO, 30, 1..=63, 6 bits, step 2, "timed games: share the clock over this many moves when the GUI sends no movestogo";
    tm_inc_percent: i32 = TM_INC_PERCENT, 75, 0..=127, 7 bits, step 5, "timed games: add this percentage of the increment to each move's soft budget";
    tm_hard_tenths: i32 = TM_HARD_TENTHS, 30, 10..=63, 6 bits, step 2, "timed games: abort an iteration at this many tenths of the soft budget (the hard one)";
    tm_soft_stop_percent: i32 = TM_SOFT_STOP_PERCENT, 60, 10..=100, 7 bits, step 5, "timed games: start no new iteration after this percentage of the soft budget";
    use_tm_node_share: bool = USE_TM_NODE_SHARE, 0, 0..=1, 1 bits, "timed games: less time when the best move has taken most of the search's nodes, more when the others have";
    // --- evaluation correction (docs/search.md, "Correction history") ---
    use_correction: bool = USE_CORRECTION, 0, 0..=1, 1 bits, "correct the static evaluation by its pawn structure's running error against the search's results";
    // --- capture history (docs/search.md, "Capture history") ---
    use_capture_history: bool = USE_CAPTURE_HISTORY, 0, 0..=1, 1 bits, "capture history (per piece, destination and captured kind) added to the MVV-LVA order of captures";
    use_follow_up_history: bool = USE_FOLLOW_UP_HISTORY, 0, 0..=1, 1 bits, "follow-up history (per own previous piece and square, two plies back) in quiet-move ordering";
}

/// Every search parameter (section `[search]` in params files).
pub static SEARCH_TABLE: ParamTable = ParamTable {
    section: "search",
    decls: &DECLS,
};

/// Falcon's 18 GA-tuned parameters, in Falcon's order: a 70-bit chromosome.
pub const FALCON_SET: &[&str] = &[
    names::NULL_MOVE_USE,
    names::NULL_MOVE_R,
    names::NULL_MOVE_ADAPTIVITY,
    names::NULL_MOVE_ADAPT_DEPTH,
    names::FUTILITY_DEPTH,
    names::FUTILITY_MARGIN_1,
    names::FUTILITY_MARGIN_2,
    names::FUTILITY_MARGIN_3,
    names::MULTICUT_USE,
    names::MULTICUT_R,
    names::MULTICUT_DEPTH,
    names::MULTICUT_M,
    names::MULTICUT_C,
    names::EXT_CHECK,
    names::EXT_ONE_REPLY,
    names::EXT_RECAPTURE,
    names::EXT_PASSED_PAWN_7TH,
    names::EXT_MATE_THREAT,
];

/// The on/off switch of each heuristic, with a short label, for ablation studies.
pub const SWITCHES: &[(&str, &str)] = &[
    ("transposition table", names::USE_TT),
    ("PVS (null windows)", names::USE_PVS),
    ("aspiration windows", names::USE_ASPIRATION),
    ("null move", names::NULL_MOVE_USE),
    ("null-move verification", names::USE_VERIFIED_NULL),
    ("null-move adaptivity", names::NULL_MOVE_ADAPTIVITY),
    ("internal iterative deepening", names::USE_IID),
    ("killers", names::USE_KILLERS),
    ("history", names::USE_HISTORY),
    ("counter move", names::USE_COUNTER_MOVE),
    ("SEE ordering", names::USE_SEE_ORDERING),
    ("quiescence SEE pruning", names::USE_QS_SEE),
    ("quiescence delta pruning", names::USE_QS_DELTA),
    ("quiescence checks", names::USE_QS_CHECKS),
    ("quiescence hash table", names::USE_QS_TT),
    ("late-move pruning", names::USE_LMP),
    ("SEE pruning", names::USE_SEE_PRUNING),
    ("multi-cut", names::MULTICUT_USE),
    ("futility/razoring", names::FUTILITY_DEPTH),
    ("late-move reductions", names::USE_LMR),
    ("reverse futility", names::USE_RFP),
    ("extensions", names::USE_EXTENSIONS),
    ("singular extension", names::USE_SINGULAR),
    ("improving", names::USE_IMPROVING),
    ("counter-move history", names::USE_CONT_HISTORY),
    ("correction history", names::USE_CORRECTION),
    ("capture history", names::USE_CAPTURE_HISTORY),
    ("follow-up history", names::USE_FOLLOW_UP_HISTORY),
    ("blockage detection", names::USE_BLOCKAGE),
    ("mate-distance pruning", names::USE_MATE_DISTANCE),
];

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::from_values(&ParamValues::defaults(&SEARCH_TABLE))
            .expect("the defaults are values of SEARCH_TABLE")
    }
}

impl SearchParams {
    /// Futility margin at `plies` = 1, 2 or 3 (3: the razoring margin), centipawns.
    #[inline]
    pub fn futility_margin(&self, plies: i32) -> i32 {
        match plies {
            1 => self.futility_margin_1,
            2 => self.futility_margin_2,
            _ => self.futility_margin_3,
        }
    }
}
