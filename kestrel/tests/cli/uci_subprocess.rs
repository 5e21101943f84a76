//! The real binary over stdin/stdout: a short game, malformed input, and `quit`.

use kestrel_chess::Board;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(60);

/// A running `kestrel` with its stdout lines arriving on a channel (no read can hang the test).
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kestrel"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("kestrel starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Closes the engine's standard input (end of file).
    fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Lines up to and including the first one that satisfies `done`.
    fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer in time; got {out:#?}"));
            let finished = done(&line);
            out.push(line);
            if finished {
                return out;
            }
        }
    }

    fn wait_exit(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                self.child.kill().unwrap();
                panic!("kestrel did not exit");
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

#[test]
fn plays_a_short_game_with_legal_moves_then_quits() {
    let mut e = Engine::start();
    e.send(b"uci");
    let hello = e.until(|l| l == "uciok");
    assert!(hello[0].starts_with("id name Kestrel"));
    e.send(b"ucinewgame");
    e.send(b"isready");
    e.until(|l| l == "readyok");
    let mut board = Board::startpos();
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..12 {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(position.as_bytes());
        let go: &[u8] = match ply % 3 {
            0 => b"go depth 3",
            1 => b"go nodes 3000",
            _ => b"go wtime 2000 btime 2000 winc 20 binc 20 movestogo 30",
        };
        e.send(go);
        let out = e.until(|l| l.starts_with("bestmove"));
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
        let best = out
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        let mv = board
            .parse_uci_move(&best)
            .unwrap_or_else(|err| panic!("ply {ply}: {err}; output {out:#?}"));
        board.make_move(mv);
        moves.push(best);
    }
    e.send(b"quit");
    assert!(e.wait_exit().success());
}

#[test]
fn survives_malformed_input_and_stays_ready() {
    let mut e = Engine::start();
    let bad: &[&[u8]] = &[
        b"hello engine",
        b"\xff\xfe\xfd\x00\x01",
        b"position fen not/a/fen w - - 0 1",
        b"position startpos moves e2e4 e2e4",
        b"position startpos moves z9z9",
        b"setoption name Hash value -5",
        b"setoption name Threads value lots",
        b"setoption name NoSuchThing value 1",
        b"setoption name BookFile value /nonexistent/book.bin",
        b"go depth abc movetime 20",
        b"perft x",
        b"\x1b[31mred\x1b[0m",
    ];
    for line in bad {
        e.send(line);
        e.send(b"isready");
        let mut out = e.until(|l| l == "readyok");
        if line.starts_with(b"go") && !out.iter().any(|l| l.starts_with("bestmove")) {
            out.extend(e.until(|l| l.starts_with("bestmove")));
        }
        assert!(
            out.iter().any(|l| l.starts_with("info string")),
            "{:?} got no explanation: {out:#?}",
            String::from_utf8_lossy(line)
        );
    }
    // The engine still plays from the last good position.
    e.send(b"position startpos moves e2e4");
    e.send(b"go depth 2");
    let out = e.until(|l| l.starts_with("bestmove"));
    let mut board = Board::startpos();
    board.make_move(board.parse_uci_move("e2e4").unwrap());
    let best = out.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(board.parse_uci_move(best).is_ok(), "{best}");
    // stop and isready are answered in the middle of an infinite search.
    e.send(b"go infinite");
    e.send(b"isready");
    e.until(|l| l == "readyok");
    e.send(b"stop");
    e.until(|l| l.starts_with("bestmove"));
    e.send(b"quit");
    assert!(e.wait_exit().success());
}

#[test]
fn end_of_input_ends_the_engine() {
    let mut e = Engine::start();
    e.send(b"go infinite");
    e.close_input();
    let out = e.until(|l| l.starts_with("bestmove"));
    assert!(!out.is_empty());
    assert!(e.wait_exit().success());
}
