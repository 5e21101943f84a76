//! The engine's option values, and the table of options it declares.

use crate::options::UciOptionDecl;
use crate::tunables::{Tunable, tunables};
use kestrel_params::{ParamTable, ParamValues};
use std::time::Duration;

/// `BookFile` value meaning "the book shipped inside the binary".
pub const BUILTIN_BOOK: &str = "<builtin>";

/// Everything `setoption` can change.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `Hash`: hash table size in MB (1..=65536, default 16).
    pub hash_mb: usize,
    /// `Threads`: search threads (1..=256, default 1).
    pub threads: usize,
    /// `Move Overhead`: time kept back per move for lag (0..=5000 ms, default 10 ms).
    pub move_overhead: Duration,
    /// Nodes as time (`NodesTime`, Stockfish's `nodestime`): nodes per millisecond a timed
    /// search counts instead of the wall clock; 0 is off.
    pub nodestime: u64,
    /// `MultiPV`: principal variations reported (1..=256, default 1).
    pub multipv: usize,
    /// `Ponder`: the GUI's notice that it may send `go ponder`; stored only (default off).
    pub ponder: bool,
    /// `UCI_Chess960`: castling moves in and out as king takes rook, FEN castling by file.
    pub chess960: bool,
    /// `UCI_ShowWDL`: `wdl W D L` (per mille) after the score on `info` lines.
    pub show_wdl: bool,
    /// `UCI_LimitStrength`: play at `UCI_Elo` (see [`crate::strength`]).
    pub limit_strength: bool,
    /// `UCI_Elo`, the level played at when the strength is limited.
    pub elo: i64,
    /// `Seed`: seeds the strength limit's move choice (with the position).
    pub seed: u64,
    /// `UCI_Opponent` as the GUI sent it (`title elo computer|human name`); logged only.
    pub opponent: String,
    /// `OwnBook`: answer `go` with a book move while the book holds the position (default off;
    /// never in Chess960, `go infinite` or `go mate`).
    pub own_book: bool,
    /// `BookFile`: the opening book, or [`BUILTIN_BOOK`] (the default) for the built-in one.
    pub book_file: String,
    /// `BookSeed`: seeds the random choice among book moves (default 0).
    pub book_seed: u64,
    /// `ParamsFile`: the params file loaded over the defaults (empty, the default: none).
    pub params_file: String,
    /// Chromosome database path (empty: none) and which chromosome to play.
    pub chromosome_db: String,
    /// `Chromosome`: which chromosome of the database to play (an id, `best` the default,
    /// `random` or `random:SEED`).
    pub chromosome: String,
    /// One value set per tunable table (evaluation, then search).
    pub params: Vec<ParamValues>,
    /// `UseNNUE`: evaluate with the network (`EvalFile`) instead of the linear evaluation
    /// (on by default in a build with a compiled-in network; off under `UCI_LimitStrength`,
    /// whose levels are calibrated on the linear evaluation).
    pub use_nnue: bool,
    /// `EvalFile`: the network file, or `<builtin>` for the compiled-in one.
    pub eval_file: String,
}

/// `EvalFile` value meaning "the network compiled into the binary".
pub const BUILTIN_NET: &str = "<builtin>";

impl Settings {
    /// Every option at its default, with each table's default parameter values.
    pub fn new(tables: &[&'static ParamTable]) -> Settings {
        Settings {
            hash_mb: 16,
            threads: 1,
            // Stockfish's default: what lichess-bot and fastchess expect to find.
            move_overhead: Duration::from_millis(10),
            nodestime: 0,
            multipv: 1,
            ponder: false,
            chess960: false,
            show_wdl: false,
            opponent: String::new(),
            limit_strength: false,
            elo: crate::strength::MIN_ELO,
            seed: 0,
            own_book: false,
            book_file: BUILTIN_BOOK.to_string(),
            book_seed: 0,
            params_file: String::new(),
            chromosome_db: String::new(),
            chromosome: crate::chromosome::DEFAULT_PICK.to_string(),
            params: tables.iter().map(|t| ParamValues::defaults(t)).collect(),
            // The network is Kestrel's evaluation whenever the build carries one.
            use_nnue: kestrel_nnue::has_builtin_network(),
            eval_file: BUILTIN_NET.to_string(),
        }
    }

    /// The fixed options (before the tunables), with the current values as defaults.
    pub fn engine_options(&self) -> Vec<UciOptionDecl> {
        vec![
            UciOptionDecl::spin("Hash", self.hash_mb as i64, 1, 65536),
            UciOptionDecl::spin("Threads", self.threads as i64, 1, 256),
            UciOptionDecl::spin(
                "Move Overhead",
                self.move_overhead.as_millis() as i64,
                0,
                5000,
            ),
            UciOptionDecl::spin("NodesTime", self.nodestime as i64, 0, 1_000_000),
            UciOptionDecl::spin("MultiPV", self.multipv as i64, 1, 256),
            UciOptionDecl::check("Ponder", self.ponder),
            UciOptionDecl::check("UCI_Chess960", self.chess960),
            UciOptionDecl::check("UCI_ShowWDL", self.show_wdl),
            UciOptionDecl::text("UCI_Opponent", &self.opponent),
            UciOptionDecl::check("UCI_LimitStrength", self.limit_strength),
            UciOptionDecl::spin(
                "UCI_Elo",
                self.elo,
                crate::strength::MIN_ELO,
                crate::strength::MAX_ELO,
            ),
            UciOptionDecl::spin("Seed", self.seed as i64, 0, u32::MAX as i64),
            UciOptionDecl::check("OwnBook", self.own_book),
            UciOptionDecl::text("BookFile", &self.book_file),
            UciOptionDecl::spin("BookSeed", self.book_seed as i64, 0, u32::MAX as i64),
            UciOptionDecl::text("ParamsFile", &self.params_file),
            UciOptionDecl::text("ChromosomeDB", &self.chromosome_db),
            UciOptionDecl::text("Chromosome", &self.chromosome),
            UciOptionDecl::check("UseNNUE", self.use_nnue),
            UciOptionDecl::text("EvalFile", &self.eval_file),
            UciOptionDecl::button("Clear Hash"),
        ]
    }
}

/// The tunables of the given tables, with the current values as defaults.
pub fn current_tunables(tables: &[&'static ParamTable], settings: &Settings) -> Vec<Tunable> {
    let mut ts = tunables(tables);
    for t in &mut ts {
        let value = crate::tunables::current_value(t, &settings.params);
        if let crate::options::UciOptionKind::Spin { default, .. } = &mut t.option.kind {
            *default = value;
        }
    }
    ts
}
