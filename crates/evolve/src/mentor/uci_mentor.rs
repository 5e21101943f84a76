//! An external UCI engine as mentor: a pool of engine processes (one per core by default),
//! each searching positions to a fixed depth. A crashed or hung engine is restarted and the
//! position retried; a position that still fails is reported, not fatal. An engine that keeps
//! failing (many attempts in a row without one answer) stops the labelling with an error, so a
//! hung mentor cannot stall a run.

use crate::mentor::labels::{Label, Mentor};
use kestrel_chess::Board;
use kestrel_search::Score;
use kestrel_tools::uci_client::UciEngine;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Attempts per position (the first plus restarts).
const ATTEMPTS: usize = 3;

/// Failed attempts in a row (over the whole pool) after which the mentor gives up.
pub const MAX_FAILURES_IN_A_ROW: usize = 2 * ATTEMPTS;

/// The default longest wait for one `go depth N`.
pub const DEFAULT_MOVE_TIMEOUT: Duration = Duration::from_secs(30);

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

pub struct UciMentor {
    launcher: Launcher,
    /// The engine's `id name`, part of the cache key.
    id_name: String,
    engines: Vec<Option<UciEngine>>,
    /// Engine restarts so far (crashes and hangs).
    pub restarts: usize,
}

/// How to start an engine and ask it for a score (shared by the pool's threads).
struct Launcher {
    command: String,
    args: Vec<String>,
    depth: i32,
    /// How long one `go depth N` may take.
    move_timeout: Duration,
}

impl UciMentor {
    /// Checks that the engine starts, then keeps `processes` of them.
    pub fn new(command_line: &str, depth: i32, processes: usize) -> Result<UciMentor, String> {
        let mut words = command_line.split_whitespace().map(str::to_string);
        let command = words.next().ok_or("empty UCI engine command")?;
        let launcher = Launcher {
            command,
            args: words.collect(),
            depth,
            move_timeout: DEFAULT_MOVE_TIMEOUT,
        };
        let first = launcher
            .start()
            .map_err(|e| format!("UCI mentor '{command_line}': {e}"))?;
        let id_name = first.id_name.clone().unwrap_or_default();
        let mut engines = vec![Some(first)];
        engines.resize_with(processes.max(1), || None);
        Ok(UciMentor {
            launcher,
            id_name,
            engines,
            restarts: 0,
        })
    }
}

impl UciMentor {
    /// Sets the longest wait for one position's `go depth N` (default 30 s).
    pub fn with_move_timeout(mut self, timeout: Duration) -> UciMentor {
        self.launcher.move_timeout = timeout;
        self
    }
}

impl Launcher {
    fn start(&self) -> Result<UciEngine, String> {
        let mut e = UciEngine::start(&self.command, &self.args, Duration::from_secs(10))
            .map_err(|e| e.to_string())?;
        e.sync(Duration::from_secs(10)).map_err(|e| e.to_string())?;
        Ok(e)
    }

    /// One position on one engine slot, restarting the engine on failure.
    fn label_on(
        &self,
        slot: &mut Option<UciEngine>,
        board: &Board,
        failures: &Failures,
    ) -> Option<Label> {
        let position = format!("position fen {}", board.to_fen());
        let go = format!("go depth {}", self.depth);
        for _ in 0..ATTEMPTS {
            if failures.given_up() {
                return None;
            }
            if slot.is_none() {
                match self.start() {
                    Ok(engine) => *slot = Some(engine),
                    Err(e) => {
                        failures.failed(format!("restart failed: {e}"));
                        continue;
                    }
                }
            }
            let engine = slot.as_mut()?;
            match engine.go(&position, &go, self.move_timeout) {
                Ok(out) => {
                    failures.in_a_row.store(0, Ordering::Relaxed);
                    return match out.score? {
                        Score::Cp(cp) => Some(Label::Cp(cp * board.side_to_move().sign())),
                        Score::Mate(_) => Some(Label::Mate),
                    };
                }
                Err(e) => {
                    if let Some(mut dead) = slot.take() {
                        dead.kill();
                    }
                    failures.failed(e.to_string());
                }
            }
        }
        None
    }
}

impl Mentor for UciMentor {
    fn key(&self) -> String {
        let l = &self.launcher;
        let mut cmd = l.command.clone();
        for a in &l.args {
            cmd.push(' ');
            cmd.push_str(a);
        }
        format!("uci:{cmd} [{}]/d{}", self.id_name, l.depth)
    }

    fn restarts(&self) -> usize {
        self.restarts
    }

    fn label(&mut self, boards: &[Board]) -> Result<Vec<Option<Label>>, String> {
        let next = AtomicUsize::new(0);
        let failures = Failures::default();
        let results = Mutex::new(vec![None; boards.len()]);
        let mut engines = std::mem::take(&mut self.engines);
        std::thread::scope(|scope| {
            for slot in engines.iter_mut() {
                let (next, failures, results) = (&next, &failures, &results);
                let this = &self.launcher;
                scope.spawn(move || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(board) = boards.get(i) else { break };
                        if failures.given_up() {
                            break;
                        }
                        let label = this.label_on(slot, board, failures);
                        results.lock().expect("no panics while holding the lock")[i] = label;
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
        let results = results.into_inner().expect("threads finished");
        if results.iter().all(Option::is_none) && !boards.is_empty() {
            return Err(format!(
                "UCI mentor '{}' gave no score for any of {} positions",
                self.launcher.command,
                boards.len()
            ));
        }
        Ok(results)
    }
}

impl Drop for UciMentor {
    fn drop(&mut self) {
        for e in self.engines.iter_mut().flatten() {
            e.quit();
        }
    }
}
