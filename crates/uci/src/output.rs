//! The engine's output channel, shared by the input loop and the search thread.
//!
//! Every line is written and flushed under one lock, so lines from the two threads never mix.

use kestrel_chess::{Board, Move};
use kestrel_search::{Bound, SearchInfo};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// The engine's output channel: a writer shared (by cloning) between the input loop and the
/// search thread; every line is written and flushed under one lock.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// An output that writes to `writer` (e.g. stdout).
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    /// Writes one line. A closed output (GUI gone) is not an error worth dying for: the input
    /// side will see EOF and quit.
    pub fn line(&self, text: &str) {
        let mut w = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    /// `info string ...`: how the engine explains itself to the GUI.
    pub fn info_string(&self, text: &str) {
        for part in text.lines() {
            self.line(&format!("info string {part}"));
        }
    }
}

/// One `info` line for a search report on `board` (whose notation the moves take), with
/// `wdl W D L` after the score when `show_wdl`.
pub fn format_info(info: &SearchInfo, board: &Board, show_wdl: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth.max(info.depth),
        info.multipv.max(1),
        info.score
    );
    if show_wdl {
        let (w, d, l) = kestrel_search::wdl::wdl_per_mille(info.score, board);
        s.push_str(&format!(" wdl {w} {d} {l}"));
    }
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
    }
    let ms = info.time.as_millis();
    let nps = if info.nps > 0 {
        info.nps
    } else {
        (info.nodes as u128 * 1000 / ms.max(1)) as u64
    };
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} time {}",
        info.nodes, nps, info.hashfull, ms
    ));
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for mv in &info.pv {
            s.push_str(&format!(" {}", board.uci_move(*mv)));
        }
    }
    s
}

/// `bestmove X [ponder Y]` in `board`'s notation; `0000` when there is no legal move.
pub fn format_bestmove(best: Option<Move>, ponder: Option<Move>, board: &Board) -> String {
    let text = |mv: Move| board.uci_move(mv);
    match (best, ponder) {
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", text(b), text(p)),
        (Some(b), None) => format!("bestmove {}", text(b)),
        (None, _) => "bestmove 0000".to_string(),
    }
}
