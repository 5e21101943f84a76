//! A small UCI engine for the tuners' tests (no engine from a package manager needed): it
//! plays Kestrel's search at the node or depth limit it is given, except that with
//! probability `min(1, |Accuracy − 120| / 160)` a move is a pseudo-random legal one (drawn
//! from the position and the value, so every game repeats). Its strength therefore peaks at
//! the known value `Accuracy = 120`. Arguments inject faults: `--crash-at N` exits at the
//! process's Nth `go`, `--crash-once FILE N` does so once (the process that creates FILE),
//! `--hang-at N` stops answering, `--illegal-at N` answers an illegal move, `--no-uciok` and
//! `--no-readyok` leave the handshake unanswered.

use kestrel_search::{EngineConfig, SearchLimits, Searcher};
use std::io::{BufRead, Write};

/// The value at which the engine plays its best.
const BEST: i64 = 120;

/// Faults asked for on the command line.
#[derive(Default)]
struct Faults {
    crash_at: Option<u64>,
    crash_once: Option<(String, u64)>,
    hang_at: Option<u64>,
    illegal_at: Option<u64>,
    no_uciok: bool,
    no_readyok: bool,
}

fn faults() -> Faults {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut f = Faults::default();
    let num = |i: usize| args.get(i).and_then(|v| v.parse().ok());
    for (i, a) in args.iter().enumerate() {
        match a.as_str() {
            "--crash-at" => f.crash_at = num(i + 1),
            "--crash-once" => f.crash_once = args.get(i + 1).cloned().zip(num(i + 2)),
            "--hang-at" => f.hang_at = num(i + 1),
            "--illegal-at" => f.illegal_at = num(i + 1),
            "--no-uciok" => f.no_uciok = true,
            "--no-readyok" => f.no_readyok = true,
            _ => {}
        }
    }
    f
}

/// SplitMix64: a reproducible draw from a key.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The `go` limit: `nodes N` or `depth D`, else 1,000 nodes.
fn limits(words: &[&str]) -> SearchLimits {
    let after = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    match (after("nodes"), after("depth")) {
        (Some(n), _) => SearchLimits::nodes(n),
        (None, Some(d)) => SearchLimits::depth(d as i32),
        _ => SearchLimits::nodes(1000),
    }
}

fn main() {
    let f = faults();
    let mut accuracy: i64 = 40;
    let mut searcher = Searcher::new(EngineConfig {
        hash_mb: 1,
        ..EngineConfig::default()
    });
    let mut board = kestrel_chess::Board::startpos();
    let mut goes = 0u64;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("uci") if !f.no_uciok => format!(
                "id name kestrel-toy-uci\noption name Accuracy type spin default {accuracy} min 0 max 400\n\
                 option name Hash type spin default 1 min 1 max 16\noption name Fast type check default false\nuciok"
            ),
            Some("isready") if !f.no_readyok => "readyok".to_string(),
            Some("setoption") => {
                if let [_, "name", "Accuracy", "value", v] = words[..] {
                    accuracy = v.parse().unwrap_or(accuracy);
                }
                continue;
            }
            Some("ucinewgame") => {
                searcher.new_game();
                continue;
            }
            Some("position") => {
                if let Ok(b) = kestrel_uci::parse_position(&words[1..], false) {
                    board = b;
                }
                continue;
            }
            Some("go") => {
                goes += 1;
                if f.crash_at == Some(goes) {
                    std::process::exit(3);
                }
                // Creating the file is the claim: of several processes reaching their Nth
                // `go` at once, only the one that creates it crashes.
                if let Some((file, at)) = &f.crash_once
                    && *at == goes
                    && std::fs::OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .open(file)
                        .is_ok()
                {
                    std::process::exit(3);
                }
                if f.hang_at == Some(goes) {
                    std::thread::sleep(std::time::Duration::from_secs(3600));
                }
                if f.illegal_at == Some(goes) {
                    "bestmove a1a8".to_string()
                } else {
                    format!(
                        "bestmove {}",
                        choose(&mut searcher, &board, accuracy, &words)
                    )
                }
            }
            Some("quit") => break,
            _ => continue,
        };
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
    }
}

/// The search's move, or with the value's probability a reproducible random legal move.
fn choose(
    searcher: &mut Searcher,
    board: &kestrel_chess::Board,
    accuracy: i64,
    words: &[&str],
) -> String {
    let moves = board.legal_moves();
    if moves.is_empty() {
        return "0000".into();
    }
    let p_random = ((accuracy - BEST).abs() as f64 / 160.0).min(1.0);
    let draw = mix(board.hash() ^ (accuracy as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
    if (draw >> 11) as f64 / (1u64 << 53) as f64 <= p_random {
        return moves[(mix(draw) % moves.len() as u64) as usize].to_string();
    }
    searcher.control().reset();
    let result = searcher.search(board, &limits(words), &mut |_| {});
    result
        .best_move
        .map_or_else(|| moves[0].to_string(), |m| m.to_string())
}
