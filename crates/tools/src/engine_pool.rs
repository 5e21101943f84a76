//! A pool of UCI engine processes (mentors) searching many positions in parallel, one process
//! per thread. Every position is searched from a cleared engine (`ucinewgame`), so an answer
//! does not depend on which process got the position or what it searched before. A crashed
//! or hung engine is killed, restarted and the position retried; a position that still fails
//! gets no answer, which is not fatal. After
//! [`MAX_FAILURES_IN_A_ROW`] failed attempts in a row (over the pool) the pool gives up with an
//! error, so a broken mentor cannot stall a run.

use crate::uci_client::{GoOutcome, UciEngine};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Attempts per position (the first plus restarts).
const ATTEMPTS: usize = 3;
/// Failed attempts in a row (over the whole pool) after which the pool gives up.
pub const MAX_FAILURES_IN_A_ROW: usize = 2 * ATTEMPTS;
/// Time allowed for the handshake and for `isready`.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// One search: the `position …` and `go …` lines sent to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSearch {
    /// E.g. `position fen …`.
    pub position: String,
    /// E.g. `go depth 8`.
    pub go: String,
}

/// How to start an engine and how to ask it (shared by the pool's threads).
struct Launcher {
    command: String,
    args: Vec<String>,
    /// How long one `go` may take.
    move_timeout: Duration,
}

/// A pool of UCI engine processes; they quit when it is dropped.
pub struct EnginePool {
    launcher: Launcher,
    /// The engine's `id name`.
    id_name: String,
    engines: Vec<Option<UciEngine>>,
    /// Engine restarts so far (crashes and hangs).
    restarts: usize,
}

impl EnginePool {
    /// Starts one engine of `command_line` (program and arguments), checking that it works,
    /// and keeps room for `processes`; `move_timeout` bounds one `go`.
    pub fn start(
        command_line: &str,
        processes: usize,
        move_timeout: Duration,
    ) -> Result<EnginePool, String> {
        let mut words = command_line.split_whitespace().map(str::to_string);
        let command = words.next().ok_or("empty UCI engine command")?;
        let launcher = Launcher {
            command,
            args: words.collect(),
            move_timeout,
        };
        let first = launcher
            .launch()
            .map_err(|e| format!("UCI mentor '{command_line}': {e}"))?;
        let id_name = first.id_name.clone().unwrap_or_default();
        let mut engines = vec![Some(first)];
        engines.resize_with(processes.max(1), || None);
        Ok(EnginePool {
            launcher,
            id_name,
            engines,
            restarts: 0,
        })
    }

    /// Sets the longest wait for one `go`.
    pub fn set_move_timeout(&mut self, timeout: Duration) {
        self.launcher.move_timeout = timeout;
    }

    /// The program (without its arguments).
    pub fn command(&self) -> &str {
        &self.launcher.command
    }

    /// Engine restarts so far (crashes and hangs).
    pub fn restarts(&self) -> usize {
        self.restarts
    }

    /// Names the engine and what it is asked, e.g. `uci:/usr/games/stockfish [Stockfish
    /// 15.1]/d8` for `limit` "d8".
    pub fn key(&self, limit: &str) -> String {
        let l = &self.launcher;
        let mut cmd = l.command.clone();
        for a in &l.args {
            cmd.push(' ');
            cmd.push_str(a);
        }
        format!("uci:{cmd} [{}]/{limit}", self.id_name)
    }

    /// The answers to `searches`, in their order, searched by every process in parallel: `None`
    /// where there was no search or the engine failed on it every attempt.
    pub fn search(
        &mut self,
        searches: &[Option<EngineSearch>],
    ) -> Result<Vec<Option<GoOutcome>>, String> {
        let next = AtomicUsize::new(0);
        let failures = Failures::default();
        let results = Mutex::new(vec![None; searches.len()]);
        let mut engines = std::mem::take(&mut self.engines);
        std::thread::scope(|scope| {
            for slot in engines.iter_mut() {
                let (next, failures, results, this) = (&next, &failures, &results, &self.launcher);
                scope.spawn(move || {
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(search) = searches.get(index) else {
                            break;
                        };
                        if failures.given_up() {
                            break;
                        }
                        let Some(search) = search else {
                            continue;
                        };
                        let answer = this.search_on(slot, search, failures);
                        results.lock().unwrap_or_else(|e| e.into_inner())[index] = answer;
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
    fn launch(&self) -> Result<UciEngine, String> {
        let mut e = UciEngine::start(&self.command, &self.args, START_TIMEOUT)
            .map_err(|e| e.to_string())?;
        e.sync(START_TIMEOUT).map_err(|e| e.to_string())?;
        Ok(e)
    }

    /// One search on one engine slot, restarting the engine on failure.
    fn search_on(
        &self,
        slot: &mut Option<UciEngine>,
        search: &EngineSearch,
        failures: &Failures,
    ) -> Option<GoOutcome> {
        for _ in 0..ATTEMPTS {
            if failures.given_up() {
                return None;
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
            let engine = slot.as_mut()?;
            let answer = engine
                .send("ucinewgame")
                .and_then(|_| engine.sync(START_TIMEOUT))
                .and_then(|_| engine.go(&search.position, &search.go, self.move_timeout));
            match answer {
                Ok(out) => {
                    failures.in_a_row.store(0, Ordering::Relaxed);
                    return Some(out);
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

impl Drop for EnginePool {
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
