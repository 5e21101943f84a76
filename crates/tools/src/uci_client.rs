//! A client for an external UCI engine running as a subprocess.
//!
//! A reader thread forwards the engine's stdout line by line over a channel, so every wait has
//! a timeout: a hung engine is noticed (and killed) instead of blocking the match, and a dead
//! one shows up as end of output.

use crate::player::PlayerError;
use kestrel_search::Score;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running engine process.
pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The name from `id name`, if the engine sent one.
    pub id_name: Option<String>,
    /// Option names the engine declared with `option name ...`.
    pub declared_options: Vec<String>,
    /// The well-formed declarations among them, with type, default and range.
    pub option_decls: Vec<crate::uci_options::UciOptionDecl>,
    /// The engine's last lines on stderr, quoted when it fails.
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    dead: bool,
}

/// Lines of stderr kept for error messages.
const STDERR_LINES: usize = 8;

/// What `go` produced: the move text plus the last `info` values seen.
#[derive(Clone, Debug, Default)]
pub struct GoOutcome {
    /// The move after `bestmove`, as the engine wrote it (UCI notation such as `e2e4`; empty if
    /// missing).
    pub bestmove: String,
    /// The last `score cp`/`score mate` of the main line, side to move's view.
    pub score: Option<Score>,
    /// The last reported `depth`, in plies (0 if none).
    pub depth: i32,
    /// The last reported `nodes` (0 if none).
    pub nodes: u64,
}

impl UciEngine {
    /// Starts `command` and completes the `uci`/`uciok` handshake within `timeout`.
    pub fn start(
        command: &str,
        args: &[String],
        timeout: Duration,
    ) -> Result<UciEngine, PlayerError> {
        let mut child = Command::new(command)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| PlayerError::StartFailed(format!("cannot run '{command}': {e}")))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr_tail.clone();
        let stderr = child.stderr.take().expect("stderr is piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                if tail.len() == STDERR_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        });
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = UciEngine {
            child,
            stdin,
            lines: rx,
            id_name: None,
            declared_options: Vec::new(),
            option_decls: Vec::new(),
            stderr_tail,
            dead: false,
        };
        let handshake = engine.handshake(timeout);
        match handshake {
            Ok(()) => Ok(engine),
            Err(e) => {
                let note = engine.exit_note();
                engine.kill();
                let note = if e.to_string().contains("printed on stderr") {
                    String::new()
                } else {
                    note
                };
                Err(PlayerError::StartFailed(format!("'{command}': {e}{note}")))
            }
        }
    }

    /// `uci`, collecting `id name` and declared options, until `uciok`.
    fn handshake(&mut self, timeout: Duration) -> Result<(), PlayerError> {
        self.send("uci")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.next_line(deadline, timeout)?;
            let line = line.trim();
            if line == "uciok" {
                return Ok(());
            }
            if let Some(name) = line.strip_prefix("id name ") {
                self.id_name = Some(name.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                self.declared_options.push(name.to_string());
                if let Some(decl) = crate::uci_options::parse_option_line(line) {
                    self.option_decls.push(decl);
                }
            }
        }
    }

    /// Whether the process is still running (as far as we know).
    pub fn is_alive(&mut self) -> bool {
        !self.dead && matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        let ok = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        ok.map_err(|e| {
            self.dead = true;
            PlayerError::Crashed(format!(
                "cannot write to the engine ({e}){}",
                self.exit_note()
            ))
        })
    }

    /// Sends `setoption name NAME value VALUE` (no answer is awaited; follow with [`Self::sync`]).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), PlayerError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready` and wait for `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), PlayerError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        loop {
            if self.next_line(deadline, timeout)?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// Sends `position` and `go`, and waits up to `timeout` for `bestmove`. On a timeout the
    /// engine is killed (it cannot be trusted for the next game).
    pub fn go(
        &mut self,
        position: &str,
        go: &str,
        timeout: Duration,
    ) -> Result<GoOutcome, PlayerError> {
        self.send(position)?;
        self.send(go)?;
        let deadline = Instant::now() + timeout;
        let mut out = GoOutcome::default();
        loop {
            let line = match self.next_line(deadline, timeout) {
                Ok(l) => l,
                Err(e) => {
                    if matches!(e, PlayerError::Hung(_)) {
                        self.kill();
                    }
                    return Err(e);
                }
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => parse_info(&line, &mut out),
                Some("bestmove") => {
                    out.bestmove = words.next().unwrap_or("").to_string();
                    return Ok(out);
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit, then makes sure it is gone.
    pub fn quit(&mut self) {
        if !self.dead {
            let _ = self.send("quit");
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if !matches!(self.child.try_wait(), Ok(None)) {
                    self.dead = true;
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        self.kill();
    }

    /// Kills the process at once (no `quit`) and waits for it to exit.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.dead = true;
    }

    fn next_line(&mut self, deadline: Instant, timeout: Duration) -> Result<String, PlayerError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(PlayerError::Hung(timeout)),
            Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                Err(PlayerError::Crashed(format!(
                    "end of output{}",
                    self.exit_note()
                )))
            }
        }
    }

    /// ", exit status N" once the process is known to have ended, plus what it last printed
    /// on stderr.
    fn exit_note(&mut self) -> String {
        let mut note = String::new();
        // Give a dying process a moment so its status (and last words) can be reported.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                note = format!(", {status}");
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(20));
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        if !tail.is_empty() {
            let said: Vec<&str> = tail.iter().map(String::as_str).collect();
            note.push_str(&format!("; it printed on stderr: {}", said.join(" | ")));
        }
        note
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        self.quit();
    }
}

/// Reads `depth`, `nodes` and `score` from an `info` line (other fields are ignored).
fn parse_info(line: &str, out: &mut GoOutcome) {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.contains(&"multipv") {
        let idx = words.iter().position(|w| *w == "multipv").unwrap();
        if words.get(idx + 1).is_some_and(|v| *v != "1") {
            return;
        }
    }
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|v| v.parse().ok()) {
                    out.depth = d;
                }
                i += 2;
            }
            "nodes" => {
                if let Some(n) = words.get(i + 1).and_then(|v| v.parse().ok()) {
                    out.nodes = n;
                }
                i += 2;
            }
            "score" => {
                let value = words.get(i + 2).and_then(|v| v.parse::<i32>().ok());
                match (words.get(i + 1), value) {
                    (Some(&"cp"), Some(v)) => out.score = Some(Score::Cp(v)),
                    (Some(&"mate"), Some(v)) => out.score = Some(Score::Mate(v)),
                    _ => {}
                }
                i += 3;
            }
            "pv" | "string" => break,
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_parsed() {
        let mut out = GoOutcome::default();
        parse_info(
            "info depth 7 seldepth 9 score cp -23 lowerbound nodes 12345 nps 1 pv e2e4 e7e5",
            &mut out,
        );
        assert_eq!(out.depth, 7);
        assert_eq!(out.nodes, 12345);
        assert_eq!(out.score, Some(Score::Cp(-23)));
        parse_info("info depth 9 score mate -3 nodes 99", &mut out);
        assert_eq!(out.score, Some(Score::Mate(-3)));
        // A second MultiPV line does not overwrite the best line's values.
        parse_info("info depth 10 multipv 2 score cp 500 nodes 1", &mut out);
        assert_eq!((out.depth, out.nodes), (9, 99));
        // Strings and junk are ignored.
        parse_info("info string depth 99", &mut out);
        parse_info("info depth x score cp", &mut out);
        assert_eq!(out.depth, 9);
    }

    #[test]
    fn an_engine_that_dies_at_start_is_quoted() {
        let args = [
            "-c".to_string(),
            "echo 'no network file' >&2; exit 4".to_string(),
        ];
        let err = UciEngine::start("sh", &args, Duration::from_secs(5))
            .err()
            .unwrap();
        let text = err.to_string();
        assert!(matches!(err, PlayerError::StartFailed(_)), "{err:?}");
        assert!(
            text.contains("'sh'") && text.contains("no network file"),
            "{text}"
        );
        assert!(text.contains("exit status: 4"), "{text}");
    }

    #[test]
    fn missing_command_fails_to_start() {
        let err = UciEngine::start(
            "/nonexistent/kestrel-no-such-engine",
            &[],
            Duration::from_secs(1),
        )
        .err()
        .unwrap();
        assert!(matches!(err, PlayerError::StartFailed(_)), "{err:?}");
    }
}
