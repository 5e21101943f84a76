//! A pool of UCI engine processes scoring positions at a fixed depth or node count. Every
//! position is searched from a cleared state (`ucinewgame`), so its score does not depend on
//! which process got it or what that process searched before. A crashed or hung engine is
//! restarted and the position retried; after [`MAX_FAILURES_IN_A_ROW`] failures in a row the
//! pool gives up with an error, so a broken mentor cannot stall a run.

use crate::format::PackedPosition;
use kestrel_chess::Board;
use kestrel_search::Score;
use kestrel_tools::uci_client::UciEngine;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Attempts per position (the first plus restarts).
const ATTEMPTS: usize = 3;
/// Failed attempts in a row (over the pool) after which labelling stops with an error.
pub const MAX_FAILURES_IN_A_ROW: usize = 2 * ATTEMPTS;
/// Time allowed for the handshake and for `isready`.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// How far the mentor searches each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MentorLimit {
    /// `go depth N`.
    Depth(u32),
    /// `go nodes N`.
    Nodes(u64),
}

/// The mentor's verdict on one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Centipawns from the side to move's view.
    Score(i16),
    /// A mate score (the position is dropped).
    Mate,
    /// The mentor's best move is a capture or promotion (dropped: not quiet).
    Noisy,
    /// The engine failed on it every attempt (dropped).
    Failed,
}

/// How to start an engine and what to ask it (shared by the pool's threads).
struct Launcher {
    command: String,
    args: Vec<String>,
    limit: MentorLimit,
    move_timeout: Duration,
}

/// A pool of mentor processes.
pub struct UciPool {
    launcher: Launcher,
    id_name: String,
    engines: Vec<Option<UciEngine>>,
    /// Engine restarts so far.
    pub restarts: usize,
}

impl UciPool {
    /// Starts one engine (checking that it works) and keeps room for `processes`.
    pub fn start(
        command_line: &str,
        limit: MentorLimit,
        processes: usize,
        move_timeout: Duration,
    ) -> Result<UciPool, String> {
        let mut words = command_line.split_whitespace().map(str::to_string);
        let command = words.next().ok_or("empty UCI engine command")?;
        let mut pool = UciPool {
            launcher: Launcher {
                command,
                args: words.collect(),
                limit,
                move_timeout,
            },
            id_name: String::new(),
            engines: Vec::new(),
            restarts: 0,
        };
        let first = pool
            .launcher
            .launch()
            .map_err(|e| format!("UCI mentor '{command_line}': {e}"))?;
        pool.id_name = first.id_name.clone().unwrap_or_default();
        pool.engines.push(Some(first));
        pool.engines.resize_with(processes.max(1), || None);
        Ok(pool)
    }

    /// Names the mentor and its limit, e.g. `uci:/usr/games/stockfish [Stockfish 15.1]/d8`.
    pub fn key(&self) -> String {
        let l = &self.launcher;
        let mut cmd = l.command.clone();
        for a in &l.args {
            cmd.push(' ');
            cmd.push_str(a);
        }
        let limit = match l.limit {
            MentorLimit::Depth(d) => format!("d{d}"),
            MentorLimit::Nodes(n) => format!("n{n}"),
        };
        format!("uci:{cmd} [{}]/{limit}", self.id_name)
    }
}

impl Launcher {
    fn launch(&self) -> Result<UciEngine, String> {
        let mut e = UciEngine::start(&self.command, &self.args, START_TIMEOUT)
            .map_err(|e| e.to_string())?;
        e.sync(START_TIMEOUT).map_err(|e| e.to_string())?;
        Ok(e)
    }
}

impl UciPool {
    /// The verdicts on `records`, in their order, searched by every process in parallel.
    pub fn label(&mut self, records: &[PackedPosition]) -> Result<Vec<Verdict>, String> {
        let next = AtomicUsize::new(0);
        let failures = Failures::default();
        let results = Mutex::new(vec![Verdict::Failed; records.len()]);
        let mut engines = std::mem::take(&mut self.engines);
        std::thread::scope(|scope| {
            for slot in engines.iter_mut() {
                let (next, failures, results, this) = (&next, &failures, &results, &self.launcher);
                scope.spawn(move || {
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(record) = records.get(index) else {
                            break;
                        };
                        if failures.given_up() {
                            break;
                        }
                        let verdict = this.label_on(slot, record, failures);
                        results.lock().unwrap_or_else(|e| e.into_inner())[index] = verdict;
                    }
                });
            }
        });
        self.engines = engines;
        self.restarts += failures.restarts.load(Ordering::Relaxed);
        if failures.given_up() {
            let last = failures
                .last
                .into_inner()
                .unwrap_or_else(|e| e.into_inner());
            return Err(format!(
                "UCI mentor '{}' failed {MAX_FAILURES_IN_A_ROW} times in a row ({} restarts; \
                 last: {}); giving up",
                self.launcher.command,
                self.restarts,
                last.unwrap_or_default()
            ));
        }
        Ok(results.into_inner().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Launcher {
    /// One position on one engine slot, restarting the engine on failure.
    fn label_on(
        &self,
        slot: &mut Option<UciEngine>,
        record: &PackedPosition,
        failures: &Failures,
    ) -> Verdict {
        let Ok(board) = record.to_board() else {
            return Verdict::Failed;
        };
        let position = format!("position fen {}", board.to_fen());
        let go = match self.limit {
            MentorLimit::Depth(d) => format!("go depth {d}"),
            MentorLimit::Nodes(n) => format!("go nodes {n}"),
        };
        for _ in 0..ATTEMPTS {
            if failures.given_up() {
                return Verdict::Failed;
            }
            if slot.is_none() {
                match self.launch() {
                    Ok(engine) => *slot = Some(engine),
                    Err(e) => {
                        failures.failed(format!("restart failed: {e}"));
                        continue;
                    }
                }
            }
            let Some(engine) = slot.as_mut() else {
                continue;
            };
            let answer = engine
                .send("ucinewgame")
                .and_then(|_| engine.sync(START_TIMEOUT))
                .and_then(|_| engine.go(&position, &go, self.move_timeout));
            match answer {
                Ok(out) => {
                    failures.in_a_row.store(0, Ordering::Relaxed);
                    return verdict(&board, &out.bestmove, out.score);
                }
                Err(e) => {
                    if let Some(mut dead) = slot.take() {
                        dead.kill();
                    }
                    failures.failed(e.to_string());
                }
            }
        }
        Verdict::Failed
    }
}

/// The verdict from the engine's best move and last score.
fn verdict(board: &Board, bestmove: &str, score: Option<Score>) -> Verdict {
    let Ok(best) = board.parse_uci_move(bestmove) else {
        return Verdict::Failed;
    };
    if best.is_capture() || best.is_promotion() {
        return Verdict::Noisy;
    }
    match score {
        Some(Score::Cp(cp)) => Verdict::Score(cp.clamp(-20_000, 20_000) as i16),
        Some(Score::Mate(_)) => Verdict::Mate,
        None => Verdict::Failed,
    }
}

impl Drop for UciPool {
    fn drop(&mut self) {
        for e in self.engines.iter_mut().flatten() {
            e.quit();
        }
    }
}

/// The pool's shared view of failures: how many in a row, and the last one.
#[derive(Default)]
struct Failures {
    restarts: AtomicUsize,
    in_a_row: AtomicUsize,
    last: Mutex<Option<String>>,
}

impl Failures {
    fn given_up(&self) -> bool {
        self.in_a_row.load(Ordering::Relaxed) >= MAX_FAILURES_IN_A_ROW
    }

    fn failed(&self, why: String) {
        self.restarts.fetch_add(1, Ordering::Relaxed);
        self.in_a_row.fetch_add(1, Ordering::Relaxed);
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(why);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_drop_mates_noisy_best_moves_and_nonsense() {
        let board = Board::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(
            verdict(&board, "e1e2", Some(Score::Cp(35))),
            Verdict::Score(35)
        );
        assert_eq!(verdict(&board, "e4d5", Some(Score::Cp(35))), Verdict::Noisy);
        assert_eq!(verdict(&board, "e1e2", Some(Score::Mate(3))), Verdict::Mate);
        assert_eq!(verdict(&board, "e1e2", None), Verdict::Failed);
        assert_eq!(verdict(&board, "a1a8", Some(Score::Cp(1))), Verdict::Failed);
        assert_eq!(
            verdict(&board, "e1e2", Some(Score::Cp(90_000))),
            Verdict::Score(20_000)
        );
    }
}
