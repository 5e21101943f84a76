//! The protocol core: a state machine fed one input line at a time, writing to any output.
//!
//! The search runs on its own thread ([`SearchJob`]); this side never blocks on it except
//! where the protocol requires (`quit`, or a new `go` while one is running), so `stop`,
//! `ponderhit` and `isready` are answered at any moment.

use crate::book_state::BookState;
use crate::diagnostics;
use crate::go::parse_go;
use crate::options::{OptionValue, UciOptionDecl};
use crate::output::Output;
use crate::position::parse_position;
use crate::search_job::SearchJob;
use crate::settings::{Settings, current_tunables};
use crate::strength::StrengthLimit;
use crate::tunables::Tunable;
use kestrel_chess::Board;
use kestrel_eval::{EVAL_TABLE, Evaluator};
use kestrel_nnue::NetEval;
use kestrel_params::{ParamTable, ParamsFile};
use kestrel_search::{EngineConfig, SEARCH_TABLE, Searcher};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Whether the input loop should go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading input.
    Continue,
    /// `quit` was received: stop the input loop.
    Quit,
}

const KNOWN: &str = "uci, isready, setoption, ucinewgame, position, go, stop, ponderhit, quit, \
                     d, eval, bench, perft";

/// The parameter tables whose scalars are UCI options: evaluation, then search.
pub fn tunable_tables() -> Vec<&'static ParamTable> {
    vec![&EVAL_TABLE, &SEARCH_TABLE]
}

/// The UCI engine's state (position, options, searcher or running search, opening book), fed
/// one input line at a time.
pub struct UciEngine {
    out: Output,
    board: Board,
    tables: Vec<&'static ParamTable>,
    settings: Settings,
    /// `None` while a search thread owns it.
    searcher: Option<Searcher>,
    job: Option<SearchJob>,
    new_game_pending: bool,
    book: BookState,
    /// The network `EvalFile` names, once loaded (used while `UseNNUE` is on).
    network: Option<Arc<NetEval>>,
}

impl UciEngine {
    /// An engine at the start position with default options, answering on `out`.
    pub fn new(out: Output) -> UciEngine {
        let tables = tunable_tables();
        let settings = Settings::new(&tables);
        let mut engine = UciEngine {
            out,
            board: Board::startpos(),
            searcher: Some(Searcher::new(EngineConfig::default())),
            job: None,
            new_game_pending: false,
            book: BookState::new(settings.book_seed),
            network: None,
            tables,
            settings,
        };
        if engine.settings.use_nnue {
            // Quietly: nothing may be printed before the GUI's first command.
            engine.network = NetEval::load(&engine.settings.eval_file).ok().map(Arc::new);
        }
        engine.sync_searcher();
        engine
    }

    /// The current position (after the last good `position` command).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The current option values.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Handles one raw input line; bytes that are not UTF-8 are reported and ignored.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Flow {
        match std::str::from_utf8(line) {
            Ok(text) => self.handle_line(text),
            Err(_) => {
                self.out.info_string(&format!(
                    "ignored an input line of {} bytes that is not valid UTF-8",
                    line.len()
                ));
                Flow::Continue
            }
        }
    }

    /// Handles one command line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Flow::Continue;
        };
        self.reap_finished_job();
        match command {
            "uci" => self.uci(),
            "isready" => {
                self.sync_searcher();
                self.out.line("readyok");
            }
            "debug" | "register" => {}
            "setoption" => self.setoption(line),
            "ucinewgame" => {
                self.new_game_pending = true;
                self.book.reseed(self.settings.book_seed);
                self.sync_searcher();
            }
            "position" => match parse_position(args, self.settings.chess960) {
                Ok(board) => self.board = board,
                Err(e) => self
                    .out
                    .info_string(&format!("position ignored, keeping the previous one: {e}")),
            },
            "go" => self.go(args),
            "stop" => {
                if let Some(job) = &self.job {
                    job.stop();
                }
            }
            "ponderhit" => {
                if let Some(job) = &self.job {
                    job.ponderhit();
                }
            }
            "quit" => {
                self.quit();
                return Flow::Quit;
            }
            "d" => diagnostics::display(&self.board, &self.out),
            "eval" => {
                let evaluator = Evaluator::new(self.settings.params[0].clone());
                diagnostics::eval(&self.board, &evaluator, &self.out);
                let in_use = self.settings.use_nnue && !self.settings.limit_strength;
                diagnostics::network_eval(&self.board, self.network.as_deref(), in_use, &self.out);
            }
            "perft" => diagnostics::perft_command(&self.board, args, &self.out),
            "bench" => match self.searcher.as_ref() {
                Some(searcher) => diagnostics::bench(searcher.config(), args, &self.out),
                None => self
                    .out
                    .info_string("bench: a search is running; send stop first"),
            },
            other => self.out.info_string(&format!(
                "unknown command '{}' (known: {KNOWN})",
                printable(other)
            )),
        }
        Flow::Continue
    }

    /// Stops any search (its `bestmove` is still sent) and waits for it: `quit` and EOF.
    pub fn quit(&mut self) {
        self.finish_job();
    }

    /// Waits until the running search (if any) has sent its `bestmove`. For tests and tools.
    pub fn wait_for_search(&mut self) {
        if let Some(job) = self.job.take() {
            self.searcher = Some(job.join());
            self.sync_searcher();
        }
    }

    fn uci(&mut self) {
        self.out
            .line(&format!("id name Kestrel {}", crate::VERSION));
        self.out.line("id author Kestrel developers");
        for option in self.settings.engine_options() {
            self.out.line(&option.declaration());
        }
        for t in current_tunables(&self.tables, &self.settings) {
            self.out.line(&t.option.declaration());
        }
        self.out.line("uciok");
    }

    fn setoption(&mut self, line: &str) {
        let Some((name, value)) = split_setoption(line) else {
            self.out
                .info_string("usage: setoption name NAME [value VALUE]");
            return;
        };
        let options = self.settings.engine_options();
        let tunables = current_tunables(&self.tables, &self.settings);
        let wanted = normalise(&name);
        if let Some(option) = options.iter().find(|o| normalise(&o.name) == wanted) {
            match option.parse_value(value.as_deref()) {
                Ok(v) => self.apply_engine_option(option, v),
                Err(e) => self.out.info_string(&format!("{e}; option unchanged")),
            }
        } else if let Some(t) = tunables
            .iter()
            .find(|t| normalise(&t.option.name) == wanted)
        {
            match t.option.parse_value(value.as_deref()) {
                Ok(OptionValue::Int(v)) => self.apply_tunable(t, v),
                Ok(_) => unreachable!("tunables are spins"),
                Err(e) => self.out.info_string(&format!("{e}; option unchanged")),
            }
        } else if let Some(ti) = self
            .tables
            .iter()
            .position(|t| t.find_element(name.trim()).is_some())
        {
            self.set_element(ti, name.trim(), value.as_deref());
        } else {
            self.out.info_string(&format!(
                "unknown option '{}' (send 'uci' for the list)",
                printable(&name)
            ));
        }
    }

    /// An element of a table that has no listed option (`PST_KNIGHT_EG_12`, as `kestrel tune
    /// spsa-input` names them), so an SPSA tuner can set every value it was given.
    fn set_element(&mut self, table: usize, name: &str, value: Option<&str>) {
        let parsed = value.and_then(|v| v.trim().parse::<i32>().ok());
        let Some(v) = parsed else {
            self.out.info_string(&format!(
                "{name}: expected an integer value; option unchanged"
            ));
            return;
        };
        match self.settings.params[table].set_element(name, v) {
            Ok(()) => self.sync_searcher(),
            Err(e) => self.out.info_string(&format!("{e}; option unchanged")),
        }
    }

    fn apply_engine_option(&mut self, option: &UciOptionDecl, value: OptionValue) {
        let s = &mut self.settings;
        match (option.name.as_str(), value) {
            ("Hash", OptionValue::Int(v)) => s.hash_mb = v as usize,
            ("Threads", OptionValue::Int(v)) => s.threads = v as usize,
            ("Move Overhead", OptionValue::Int(v)) => {
                s.move_overhead = Duration::from_millis(v as u64)
            }
            ("NodesTime", OptionValue::Int(v)) => s.nodestime = v as u64,
            ("MultiPV", OptionValue::Int(v)) => s.multipv = v as usize,
            ("Ponder", OptionValue::Bool(v)) => s.ponder = v,
            ("UCI_Chess960", OptionValue::Bool(v)) => {
                s.chess960 = v;
                self.board.set_chess960(v);
            }
            ("UCI_ShowWDL", OptionValue::Bool(v)) => s.show_wdl = v,
            ("UCI_LimitStrength", OptionValue::Bool(v)) => s.limit_strength = v,
            ("UCI_Elo", OptionValue::Int(v)) => s.elo = v,
            ("Seed", OptionValue::Int(v)) => s.seed = v as u64,
            ("UCI_Opponent", OptionValue::Text(v)) => {
                // Accepted and logged; the play does not depend on the opponent.
                self.out.info_string(&format!("opponent: {v}"));
                self.settings.opponent = v;
            }
            ("OwnBook", OptionValue::Bool(v)) => s.own_book = v,
            ("BookFile", OptionValue::Text(v)) => s.book_file = v,
            ("BookSeed", OptionValue::Int(v)) => {
                s.book_seed = v as u64;
                self.book.reseed(v as u64);
            }
            ("ParamsFile", OptionValue::Text(v)) => self.load_params_file(v),
            ("ChromosomeDB", OptionValue::Text(v)) => {
                self.settings.chromosome_db = v;
                self.load_chromosome();
            }
            ("Chromosome", OptionValue::Text(v)) => {
                self.settings.chromosome = v;
                self.load_chromosome();
            }
            ("UseNNUE", OptionValue::Bool(v)) => {
                s.use_nnue = v;
                if v {
                    self.ensure_network();
                }
            }
            ("EvalFile", OptionValue::Text(v)) => self.load_eval_file(v),
            ("Clear Hash", OptionValue::Press) => self.new_game_pending = true,
            (name, v) => unreachable!("option {name} declared with another type than {v:?}"),
        }
        // A new BookFile is read at once, so a bad path is reported when it is set.
        if option.name == "BookFile" || option.name == "OwnBook" && self.settings.own_book {
            self.load_book();
        }
        self.sync_searcher();
    }

    fn apply_tunable(&mut self, t: &Tunable, value: i64) {
        self.settings.params[t.table].values[t.flat] = value as i32;
        self.sync_searcher();
    }

    fn load_params_file(&mut self, path: String) {
        if path.is_empty() {
            self.settings.params = Settings::new(&self.tables).params;
            self.settings.params_file = path;
            self.out
                .info_string("ParamsFile cleared: default parameters");
            return;
        }
        match ParamsFile::load_for(Path::new(&path), &self.tables, "ParamsFile") {
            Ok(loaded) => {
                self.settings.params = loaded.sets;
                self.out
                    .info_string(&format!("parameters loaded from {path}"));
                self.settings.params_file = path;
            }
            Err(e) => self.out.info_string(&format!("{e}; parameters unchanged")),
        }
    }

    /// Loads the network `EvalFile` names if none is loaded yet (`UseNNUE` was turned on).
    fn ensure_network(&mut self) {
        if self.network.is_some() {
            return;
        }
        match NetEval::load(&self.settings.eval_file) {
            Ok(net) => {
                self.out.info_string(&describe_network("network", &net));
                self.network = Some(Arc::new(net));
            }
            Err(e) => self.out.info_string(&format!(
                "UseNNUE: {e}; evaluating with the linear evaluation until EvalFile names a network"
            )),
        }
    }

    /// `EvalFile`: a network read and checked at once; a bad one keeps the current network.
    fn load_eval_file(&mut self, spec: String) {
        match NetEval::load(&spec) {
            Ok(net) => {
                self.out
                    .info_string(&describe_network("EvalFile: network", &net));
                self.network = Some(Arc::new(net));
                self.settings.eval_file = spec;
            }
            Err(e) => self
                .out
                .info_string(&format!("EvalFile: {e}; network unchanged")),
        }
    }

    fn load_chromosome(&mut self) {
        let s = &self.settings;
        match crate::chromosome::load_chromosome(&s.chromosome_db, &s.chromosome, &self.tables) {
            Ok(None) => {}
            Ok(Some((values, line))) => {
                self.settings.params = values;
                self.out.info_string(&line);
            }
            Err(e) => self.out.info_string(&format!("{e}; parameters unchanged")),
        }
    }

    fn load_book(&mut self) {
        if let Some(message) = self.book.ensure_loaded(&self.settings.book_file) {
            self.out.info_string(&message);
        }
    }

    fn go(&mut self, args: &[&str]) {
        self.finish_job();
        if let Some(("perft", rest)) = args.split_first().map(|(k, r)| (*k, r)) {
            diagnostics::go_perft(&self.board, rest, &self.out);
            return;
        }
        let (mut limits, warnings) = parse_go(args, &self.board);
        limits.nodestime = Some(self.settings.nodestime).filter(|&n| n > 0);
        for w in warnings {
            self.out.info_string(&w);
        }
        let mut book_move = None;
        // The book holds standard-chess positions: a Chess960 game never probes it.
        let book_allowed = !self.board.chess960();
        if self.settings.own_book && book_allowed && !limits.infinite && limits.mate.is_none() {
            self.load_book();
            if let Some((m, total)) = self.book.pick(&self.board, &limits.searchmoves) {
                self.out.info_string(&format!(
                    "book move {} (weight {} of {total})",
                    m.mv, m.weight
                ));
                book_move = Some(m.mv);
            }
        }
        let mut searcher = self
            .searcher
            .take()
            .expect("no search is running after finish_job");
        let strength = self.settings.limit_strength.then(|| {
            let level = StrengthLimit::new(self.settings.elo);
            if let Some(cap) = level.node_cap() {
                limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
            }
            // Restored to MultiPV's value by sync_searcher once the search is over.
            searcher.set_multipv(self.settings.multipv.max(level.multipv()));
            (level, self.settings.seed ^ self.board.hash())
        });
        self.job = Some(SearchJob::start(
            searcher,
            self.board.clone(),
            limits,
            book_move,
            self.out.clone(),
            self.settings.show_wdl,
            strength,
        ));
    }

    fn finish_job(&mut self) {
        if let Some(job) = &self.job {
            job.stop();
        }
        self.wait_for_search();
    }

    fn reap_finished_job(&mut self) {
        if self.job.as_ref().is_some_and(SearchJob::is_finished) {
            self.wait_for_search();
        }
    }

    /// Brings the searcher in line with the settings (only when no search owns it).
    fn sync_searcher(&mut self) {
        let Some(searcher) = self.searcher.as_mut() else {
            return;
        };
        let s = &self.settings;
        if searcher.config().move_overhead != s.move_overhead {
            let mut config = searcher.config().clone();
            config.move_overhead = s.move_overhead;
            *searcher = Searcher::new(config);
        }
        if searcher.config().hash_mb != s.hash_mb {
            searcher.set_hash_mb(s.hash_mb);
        }
        if searcher.config().threads != s.threads {
            searcher.set_threads(s.threads);
        }
        if searcher.config().multipv != s.multipv {
            searcher.set_multipv(s.multipv);
        }
        if searcher.config().evaluator.params() != &s.params[0] {
            searcher.set_evaluator(Evaluator::new(s.params[0].clone()));
        }
        // The strength limit's levels are calibrated on the linear evaluation.
        let network = self
            .network
            .clone()
            .filter(|_| s.use_nnue && !s.limit_strength);
        if !same_network(&searcher.config().network, &network) {
            searcher.set_network(network);
        }
        if searcher.config().search_params != s.params[1]
            && let Err(e) = searcher.set_search_params(s.params[1].clone())
        {
            self.out
                .info_string(&format!("{e}; search parameters unchanged"));
        }
        if self.new_game_pending {
            searcher.new_game();
            self.new_game_pending = false;
        }
    }
}

/// Whether two network settings are the same network (or both the linear evaluation).
fn same_network(a: &Option<Arc<NetEval>>, b: &Option<Arc<NetEval>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// `what: SOURCE (hidden N[, B output buckets], KERNEL kernel)`.
fn describe_network(what: &str, net: &NetEval) -> String {
    format!(
        "{what} {} loaded ({}, {} kernel)",
        net.source(),
        net.shape(),
        net.kernel().name()
    )
}

/// Option names compare case-insensitively with runs of spaces collapsed.
fn normalise(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

/// Splits `setoption name N [value V]`; the value keeps its inner spacing (file paths).
fn split_setoption(line: &str) -> Option<(String, Option<String>)> {
    let rest = line.strip_prefix("setoption")?.trim_start();
    let rest = rest.strip_prefix("name")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let rest = rest.trim();
    let (name, value) = match find_word(rest, "value") {
        Some(at) => (
            rest[..at].trim(),
            Some(rest[at + "value".len()..].trim().to_string()),
        ),
        None => (rest, None),
    };
    (!name.is_empty()).then(|| (name.to_string(), value))
}

/// Byte offset of `word` as a whole word in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    text.split_whitespace()
        .find(|w| *w == word)
        .map(|w| w.as_ptr() as usize - text.as_ptr() as usize)
}

/// A command word made safe to echo (control characters escaped, length capped).
fn printable(word: &str) -> String {
    let escaped: String = word.chars().flat_map(char::escape_debug).collect();
    if escaped.chars().count() > 40 {
        format!("{}...", escaped.chars().take(40).collect::<String>())
    } else {
        escaped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setoption_splits_name_and_value() {
        assert_eq!(
            split_setoption("setoption name Move Overhead value 50"),
            Some(("Move Overhead".into(), Some("50".into())))
        );
        assert_eq!(
            split_setoption("setoption name BookFile value /tmp/my  books/a.bin"),
            Some(("BookFile".into(), Some("/tmp/my  books/a.bin".into())))
        );
        assert_eq!(
            split_setoption("setoption name Clear Hash"),
            Some(("Clear Hash".into(), None))
        );
        assert_eq!(split_setoption("setoption value 3"), None);
        assert_eq!(split_setoption("setoption name"), None);
        assert_eq!(normalise("move   OVERHEAD"), "move overhead");
    }
}
