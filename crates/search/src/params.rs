//! Search parameters: Falcon's 18 GA-tuned values plus switches and knobs for every other
//! heuristic, declared once in [`SEARCH_TABLE`] so that params files, UCI options, chromosome
//! schemas and the ablation table all come from the same list.

use kestrel_params::{ParamDecl, ParamTable, ParamValues};

/// A non-tapered scalar declaration (every search parameter is one).
const fn scalar(
    name: &'static str,
    doc: &'static str,
    default: &'static [i32],
    min: i32,
    max: i32,
    bits: u8,
) -> ParamDecl {
    ParamDecl {
        name,
        doc,
        len: 1,
        tapered: false,
        defaults: default,
        min,
        max,
        bits,
    }
}

#[rustfmt::skip]
static DECLS: [ParamDecl; 63] = [
    // --- Falcon's 18 parameters (70 bits), in the order of David, Koppel & Netanyahu 2010 ---
    scalar("NULL_MOVE_USE", "null-move pruning on (1) or off (0)", &[1], 0, 1, 1),
    scalar("NULL_MOVE_R", "null-move depth reduction R, plies", &[4], 0, 7, 3),
    scalar("NULL_MOVE_ADAPTIVITY", "use R-1 at shallow depths (adaptive null move)", &[1], 0, 1, 1),
    scalar("NULL_MOVE_ADAPT_DEPTH", "depth (plies) at or below which R-1 is used", &[6], 0, 7, 3),
    scalar("FUTILITY_DEPTH", "futility pruning at depths 1..=this (3: razoring at 3)", &[3], 0, 3, 2),
    scalar("FUTILITY_MARGIN_1", "futility margin at depth 1, centipawns", &[106], 0, 1023, 10),
    scalar("FUTILITY_MARGIN_2", "extended futility margin at depth 2, centipawns", &[219], 0, 1023, 10),
    scalar("FUTILITY_MARGIN_3", "razoring margin at depth 3, centipawns", &[512], 0, 1023, 10),
    scalar("MULTICUT_USE", "multi-cut pruning at expected cut nodes", &[1], 0, 1, 1),
    scalar("MULTICUT_R", "multi-cut depth reduction, plies", &[4], 0, 7, 3),
    scalar("MULTICUT_DEPTH", "multi-cut only at depth >= this, plies", &[6], 0, 7, 3),
    scalar("MULTICUT_M", "multi-cut: moves searched", &[14], 0, 31, 5),
    scalar("MULTICUT_C", "multi-cut: fail-highs needed to prune", &[3], 0, 7, 3),
    scalar("EXT_CHECK", "check extension, quarter plies", &[2], 0, 4, 3),
    scalar("EXT_ONE_REPLY", "single-reply extension, quarter plies", &[4], 0, 4, 3),
    scalar("EXT_RECAPTURE", "recapture extension, quarter plies", &[2], 0, 4, 3),
    scalar("EXT_PASSED_PAWN_7TH", "passed pawn to the 7th rank extension, quarter plies", &[3], 0, 4, 3),
    scalar("EXT_MATE_THREAT", "mate-threat (from the null move) extension, quarter plies", &[1], 0, 4, 3),
    // --- switches and knobs of the other heuristics ---
    scalar("USE_TT", "transposition table cut-offs and hash move", &[1], 0, 1, 1),
    scalar("USE_PVS", "NegaScout/PVS null-window searches after the first move", &[1], 0, 1, 1),
    scalar("USE_ASPIRATION", "aspiration windows in iterative deepening", &[1], 0, 1, 1),
    scalar("ASPIRATION_WINDOW", "first aspiration half-window, centipawns", &[20], 1, 511, 9),
    scalar("USE_VERIFIED_NULL", "verified null-move pruning (David & Netanyahu 2002)", &[1], 0, 1, 1),
    scalar("USE_IID", "internal iterative deepening at PV nodes without a hash move", &[1], 0, 1, 1),
    scalar("IID_DEPTH", "IID at depth >= this, plies", &[4], 1, 15, 4),
    scalar("USE_KILLERS", "killer moves in move ordering", &[1], 0, 1, 1),
    scalar("USE_HISTORY", "history heuristic in move ordering", &[1], 0, 1, 1),
    scalar("USE_COUNTER_MOVE", "counter-move heuristic in move ordering", &[1], 0, 1, 1),
    scalar("USE_SEE_ORDERING", "order losing captures (SEE < 0) after quiet moves", &[1], 0, 1, 1),
    scalar("USE_QS_SEE", "skip captures losing material by SEE in quiescence", &[1], 0, 1, 1),
    scalar("QS_SEE_MARGIN", "quiescence skips captures with SEE below -this", &[0], 0, 511, 9),
    scalar("USE_LMR", "late-move reductions", &[1], 0, 1, 1),
    scalar("LMR_BASE", "LMR: base reduction, hundredths of a ply", &[50], 0, 255, 8),
    scalar("LMR_DIVISOR", "LMR: ln(depth)ln(moves) divisor, hundredths", &[300], 50, 1023, 10),
    scalar("LMR_MIN_DEPTH", "LMR at depth >= this, plies", &[3], 1, 15, 4),
    scalar("LMR_MIN_MOVES", "LMR from this move number on (0-based)", &[3], 1, 31, 5),
    scalar("USE_RFP", "reverse futility (static null move) pruning", &[1], 0, 1, 1),
    scalar("RFP_DEPTH", "reverse futility at depth <= this, plies", &[6], 0, 15, 4),
    scalar("RFP_MARGIN", "reverse futility margin per ply, centipawns", &[90], 0, 511, 9),
    scalar("USE_BLOCKAGE", "blockage detection in pawn endings (David, Felner & Netanyahu 2004)", &[1], 0, 1, 1),
    scalar("USE_MATE_DISTANCE", "mate-distance pruning", &[1], 0, 1, 1),
    scalar("USE_EXTENSIONS", "selective extensions (all five)", &[1], 0, 1, 1),
    scalar("EXT_TOTAL_CAP", "cap on the extensions summed along one path, quarter plies", &[48], 0, 255, 8),
    scalar("USE_QS_DELTA", "delta pruning of hopeless captures in quiescence", &[1], 0, 1, 1),
    scalar("USE_QS_CHECKS", "quiet checks at the first ply of quiescence", &[1], 0, 1, 1),
    scalar("USE_LMP", "late-move pruning of quiet moves near the leaves", &[1], 0, 1, 1),
    scalar("LMP_DEPTH", "late-move pruning at depth <= this, plies (after 3 + d*d moves)", &[3], 0, 7, 3),
    scalar("LMR_HISTORY_DIV", "LMR: reduce by history / this quarter plies less (0: off)", &[4096], 0, 16383, 14),
    scalar("USE_SEE_PRUNING", "prune moves losing material by SEE near the leaves", &[1], 0, 1, 1),
    scalar("SEE_PRUNE_DEPTH", "SEE pruning at depth <= this, plies", &[4], 0, 7, 3),
    scalar("SEE_QUIET_MARGIN", "SEE pruning: quiet moves losing more than this per ply", &[60], 0, 511, 9),
    scalar("SEE_NOISY_MARGIN", "SEE pruning: captures losing more than this per ply", &[100], 0, 511, 9),
    scalar("USE_SINGULAR", "singular extension of a hash move far better than the others", &[1], 0, 1, 1),
    scalar("SINGULAR_DEPTH", "singular extension at depth >= this, plies", &[6], 1, 15, 4),
    scalar("SINGULAR_MARGIN", "singular: the others must fail below hash score - this per ply", &[3], 0, 63, 6),
    scalar("USE_IMPROVING", "prune and reduce more when the static eval is not improving on 2 plies ago", &[1], 0, 1, 1),
    scalar("USE_CONT_HISTORY", "counter-move history (per previous piece and square) in quiet-move ordering", &[1], 0, 1, 1),
    scalar("LMR_CUT_NODE", "LMR: extra reduction at expected cut nodes, quarter plies", &[4], 0, 15, 4),
    scalar("NULL_MOVE_EVAL_DIV", "null move: one more ply of R per this many cp of eval above beta (0: off)", &[200], 0, 1023, 10),
    scalar("USE_TIME_STABILITY", "timed games: more time while the best move changes or the score falls, less once it holds", &[0], 0, 1, 1),
    scalar("QUIET_ORDER", "quiet moves after killers: 0 history, 1 Chessmaps, 2 both, 3 random (docs/chessmaps.md)", &[0], 0, 3, 2),
    scalar("USE_SECTOR_KILLER", "Chessmaps: rank first the sector of the last quiet cut-off at this ply", &[0], 0, 1, 1),
    scalar("CHESSMAPS_BOTH_WEIGHT", "QUIET_ORDER 2: history plus this times the Chessmaps score", &[64], 0, 1023, 10),
];

/// Every search parameter (section `[search]` in params files).
pub static SEARCH_TABLE: ParamTable = ParamTable {
    section: "search",
    decls: &DECLS,
};

/// Falcon's 18 GA-tuned parameters, in Falcon's order: a 70-bit chromosome.
pub const FALCON_SET: &[&str] = &[
    "NULL_MOVE_USE",
    "NULL_MOVE_R",
    "NULL_MOVE_ADAPTIVITY",
    "NULL_MOVE_ADAPT_DEPTH",
    "FUTILITY_DEPTH",
    "FUTILITY_MARGIN_1",
    "FUTILITY_MARGIN_2",
    "FUTILITY_MARGIN_3",
    "MULTICUT_USE",
    "MULTICUT_R",
    "MULTICUT_DEPTH",
    "MULTICUT_M",
    "MULTICUT_C",
    "EXT_CHECK",
    "EXT_ONE_REPLY",
    "EXT_RECAPTURE",
    "EXT_PASSED_PAWN_7TH",
    "EXT_MATE_THREAT",
];

/// The on/off switch of each heuristic, with a short label, for ablation studies.
pub const SWITCHES: &[(&str, &str)] = &[
    ("transposition table", "USE_TT"),
    ("PVS (null windows)", "USE_PVS"),
    ("aspiration windows", "USE_ASPIRATION"),
    ("null move", "NULL_MOVE_USE"),
    ("null-move verification", "USE_VERIFIED_NULL"),
    ("null-move adaptivity", "NULL_MOVE_ADAPTIVITY"),
    ("internal iterative deepening", "USE_IID"),
    ("killers", "USE_KILLERS"),
    ("history", "USE_HISTORY"),
    ("counter move", "USE_COUNTER_MOVE"),
    ("SEE ordering", "USE_SEE_ORDERING"),
    ("quiescence SEE pruning", "USE_QS_SEE"),
    ("quiescence delta pruning", "USE_QS_DELTA"),
    ("quiescence checks", "USE_QS_CHECKS"),
    ("late-move pruning", "USE_LMP"),
    ("SEE pruning", "USE_SEE_PRUNING"),
    ("multi-cut", "MULTICUT_USE"),
    ("futility/razoring", "FUTILITY_DEPTH"),
    ("late-move reductions", "USE_LMR"),
    ("reverse futility", "USE_RFP"),
    ("extensions", "USE_EXTENSIONS"),
    ("singular extension", "USE_SINGULAR"),
    ("improving", "USE_IMPROVING"),
    ("counter-move history", "USE_CONT_HISTORY"),
    ("blockage detection", "USE_BLOCKAGE"),
    ("mate-distance pruning", "USE_MATE_DISTANCE"),
];

/// Quarter plies per ply: depths are counted in quarter plies so that Falcon's fractional
/// extensions add up exactly.
pub const ONE_PLY: i32 = 4;

/// The parameters unpacked into plain fields, read once per search (the hot path never looks
/// names up).
#[derive(Clone, Copy, Debug)]
pub struct SearchParams {
    pub null_use: bool,
    pub null_r: i32,
    pub null_adaptivity: bool,
    pub null_adapt_depth: i32,
    pub futility_depth: i32,
    /// Margins at depths 1, 2, 3 (index 0 unused).
    pub futility_margin: [i32; 4],
    pub multicut_use: bool,
    pub multicut_r: i32,
    pub multicut_depth: i32,
    pub multicut_m: i32,
    pub multicut_c: i32,
    pub ext_check: i32,
    pub ext_one_reply: i32,
    pub ext_recapture: i32,
    pub ext_passed_pawn: i32,
    pub ext_mate_threat: i32,
    pub use_tt: bool,
    pub use_pvs: bool,
    pub use_aspiration: bool,
    pub aspiration_window: i32,
    pub use_verified_null: bool,
    pub use_iid: bool,
    pub iid_depth: i32,
    pub use_killers: bool,
    pub use_history: bool,
    pub use_counter_move: bool,
    pub use_see_ordering: bool,
    pub use_qs_see: bool,
    pub qs_see_margin: i32,
    pub use_lmr: bool,
    pub lmr_base: i32,
    pub lmr_divisor: i32,
    pub lmr_min_depth: i32,
    pub lmr_min_moves: i32,
    pub use_rfp: bool,
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    pub use_blockage: bool,
    pub use_mate_distance: bool,
    pub use_extensions: bool,
    pub ext_total_cap: i32,
    pub use_qs_delta: bool,
    pub use_qs_checks: bool,
    pub use_lmp: bool,
    pub lmp_depth: i32,
    pub lmr_history_div: i32,
    pub use_see_pruning: bool,
    pub see_prune_depth: i32,
    pub see_quiet_margin: i32,
    pub see_noisy_margin: i32,
    pub use_singular: bool,
    pub singular_depth: i32,
    pub singular_margin: i32,
    pub use_improving: bool,
    pub use_cont_history: bool,
    pub lmr_cut_node: i32,
    pub null_eval_div: i32,
    pub use_time_stability: bool,
    pub quiet_order: i32,
    pub use_sector_killer: bool,
    pub chessmaps_both_weight: i32,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::from_values(&ParamValues::defaults(&SEARCH_TABLE))
    }
}

impl SearchParams {
    /// Unpacks values of [`SEARCH_TABLE`]; values of any other table fall back to defaults.
    pub fn from_values(values: &ParamValues) -> SearchParams {
        let defaults;
        let values = if std::ptr::eq(values.table, &SEARCH_TABLE) {
            values
        } else {
            defaults = ParamValues::defaults(&SEARCH_TABLE);
            &defaults
        };
        let get = |name: &str| -> i32 {
            values
                .get(name)
                .unwrap_or_else(|| panic!("{name} is declared in SEARCH_TABLE"))[0]
        };
        let on = |name: &str| get(name) != 0;
        SearchParams {
            null_use: on("NULL_MOVE_USE"),
            null_r: get("NULL_MOVE_R"),
            null_adaptivity: on("NULL_MOVE_ADAPTIVITY"),
            null_adapt_depth: get("NULL_MOVE_ADAPT_DEPTH"),
            futility_depth: get("FUTILITY_DEPTH"),
            futility_margin: [
                0,
                get("FUTILITY_MARGIN_1"),
                get("FUTILITY_MARGIN_2"),
                get("FUTILITY_MARGIN_3"),
            ],
            multicut_use: on("MULTICUT_USE"),
            multicut_r: get("MULTICUT_R"),
            multicut_depth: get("MULTICUT_DEPTH"),
            multicut_m: get("MULTICUT_M"),
            multicut_c: get("MULTICUT_C"),
            ext_check: get("EXT_CHECK"),
            ext_one_reply: get("EXT_ONE_REPLY"),
            ext_recapture: get("EXT_RECAPTURE"),
            ext_passed_pawn: get("EXT_PASSED_PAWN_7TH"),
            ext_mate_threat: get("EXT_MATE_THREAT"),
            use_tt: on("USE_TT"),
            use_pvs: on("USE_PVS"),
            use_aspiration: on("USE_ASPIRATION"),
            aspiration_window: get("ASPIRATION_WINDOW"),
            use_verified_null: on("USE_VERIFIED_NULL"),
            use_iid: on("USE_IID"),
            iid_depth: get("IID_DEPTH"),
            use_killers: on("USE_KILLERS"),
            use_history: on("USE_HISTORY"),
            use_counter_move: on("USE_COUNTER_MOVE"),
            use_see_ordering: on("USE_SEE_ORDERING"),
            use_qs_see: on("USE_QS_SEE"),
            qs_see_margin: get("QS_SEE_MARGIN"),
            use_lmr: on("USE_LMR"),
            lmr_base: get("LMR_BASE"),
            lmr_divisor: get("LMR_DIVISOR"),
            lmr_min_depth: get("LMR_MIN_DEPTH"),
            lmr_min_moves: get("LMR_MIN_MOVES"),
            use_rfp: on("USE_RFP"),
            rfp_depth: get("RFP_DEPTH"),
            rfp_margin: get("RFP_MARGIN"),
            use_blockage: on("USE_BLOCKAGE"),
            use_mate_distance: on("USE_MATE_DISTANCE"),
            use_extensions: on("USE_EXTENSIONS"),
            ext_total_cap: get("EXT_TOTAL_CAP"),
            use_qs_delta: on("USE_QS_DELTA"),
            use_qs_checks: on("USE_QS_CHECKS"),
            use_lmp: on("USE_LMP"),
            lmp_depth: get("LMP_DEPTH"),
            lmr_history_div: get("LMR_HISTORY_DIV"),
            use_see_pruning: on("USE_SEE_PRUNING"),
            see_prune_depth: get("SEE_PRUNE_DEPTH"),
            see_quiet_margin: get("SEE_QUIET_MARGIN"),
            see_noisy_margin: get("SEE_NOISY_MARGIN"),
            use_singular: on("USE_SINGULAR"),
            singular_depth: get("SINGULAR_DEPTH"),
            singular_margin: get("SINGULAR_MARGIN"),
            use_improving: on("USE_IMPROVING"),
            use_cont_history: on("USE_CONT_HISTORY"),
            lmr_cut_node: get("LMR_CUT_NODE"),
            null_eval_div: get("NULL_MOVE_EVAL_DIV"),
            use_time_stability: on("USE_TIME_STABILITY"),
            quiet_order: get("QUIET_ORDER"),
            use_sector_killer: on("USE_SECTOR_KILLER"),
            chessmaps_both_weight: get("CHESSMAPS_BOTH_WEIGHT"),
        }
    }
}
