//! Parsing `go ...` into [`SearchLimits`]. Bad parameters are reported and skipped; the search
//! still starts, because every `go` must be answered by exactly one `bestmove`.

use kestrel_chess::Board;
use kestrel_search::SearchLimits;
use std::time::Duration;

const KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Parses the words after `go`; returns the limits and one warning per problem.
pub fn parse_go(words: &[&str], board: &Board) -> (SearchLimits, Vec<String>) {
    let mut limits = SearchLimits::default();
    let mut warnings = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        i += 1;
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i < words.len() && !KEYWORDS.contains(&words[i]) {
                    match board.parse_uci_move(words[i]) {
                        Ok(mv) => limits.searchmoves.push(mv),
                        Err(e) => warnings.push(format!("searchmoves: {e}; move ignored")),
                    }
                    i += 1;
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" | "movestogo" | "depth" | "nodes"
            | "mate" => {
                let Some(raw) = words.get(i) else {
                    warnings.push(format!("go {key}: missing value"));
                    continue;
                };
                let Ok(n) = raw.parse::<i64>() else {
                    warnings.push(format!("go {key}: '{raw}' is not a number; ignored"));
                    if !KEYWORDS.contains(raw) {
                        i += 1;
                    }
                    continue;
                };
                i += 1;
                // A limit below 1 means nothing (the command line refuses it); a `go` cannot
                // be refused, so it becomes the smallest limit, said in a warning.
                let limit_keys = ["movetime", "movestogo", "depth", "nodes", "mate"];
                let n = if limit_keys.contains(&key) && n < 1 {
                    warnings.push(format!("go {key} {n}: a limit must be at least 1; using 1"));
                    1
                } else {
                    n
                };
                // Some GUIs send a negative clock when the engine is already out of time.
                let ms = || Some(Duration::from_millis(n.max(0) as u64));
                match key {
                    "wtime" => limits.wtime = ms(),
                    "btime" => limits.btime = ms(),
                    "winc" => limits.winc = ms(),
                    "binc" => limits.binc = ms(),
                    "movetime" => limits.movetime = ms(),
                    "movestogo" => limits.movestogo = Some(n.clamp(1, u32::MAX as i64) as u32),
                    "depth" => limits.depth = Some(n.clamp(1, 127) as i32),
                    "nodes" => limits.nodes = Some(n.max(1) as u64),
                    _ => limits.mate = Some(n.clamp(1, 127) as i32),
                }
            }
            other => warnings.push(format!("go: unknown parameter '{other}' ignored")),
        }
    }
    (limits, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn reads_clock_and_limits() {
        let b = Board::startpos();
        let (l, w) = parse_go(
            &words("wtime 60000 btime -5 winc 1000 binc 1000 movestogo 40 depth 7 nodes 5000"),
            &b,
        );
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(l.wtime, Some(Duration::from_secs(60)));
        assert_eq!(l.btime, Some(Duration::ZERO));
        assert_eq!(l.winc, Some(Duration::from_secs(1)));
        assert_eq!(l.movestogo, Some(40));
        assert_eq!(l.depth, Some(7));
        assert_eq!(l.nodes, Some(5000));
        assert!(!l.infinite && !l.ponder);
    }

    #[test]
    fn searchmoves_stop_at_the_next_keyword_and_skip_illegal_moves() {
        let b = Board::startpos();
        let (l, w) = parse_go(&words("searchmoves e2e4 e2e5 d2d4 infinite ponder"), &b);
        assert_eq!(l.searchmoves.len(), 2);
        assert_eq!(l.searchmoves[1].to_string(), "d2d4");
        assert!(l.infinite && l.ponder);
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("e2e5"));
    }

    #[test]
    fn zero_limits_become_the_smallest_limit_with_a_warning() {
        let b = Board::startpos();
        let (l, w) = parse_go(&words("nodes 0 movetime 0 depth 0 wtime 0 winc 0"), &b);
        assert_eq!(l.nodes, Some(1));
        assert_eq!(l.movetime, Some(Duration::from_millis(1)));
        assert_eq!(l.depth, Some(1));
        assert_eq!(
            l.wtime,
            Some(Duration::ZERO),
            "an empty clock is not a limit below 1"
        );
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(
            w[0].contains("go nodes 0") && w[0].contains("at least 1"),
            "{w:?}"
        );
    }

    #[test]
    fn bad_values_are_reported_not_fatal() {
        let b = Board::startpos();
        let (l, w) = parse_go(&words("depth x movetime 100 mate"), &b);
        assert_eq!(l.depth, None);
        assert_eq!(l.movetime, Some(Duration::from_millis(100)));
        assert_eq!(w.len(), 2, "{w:?}");
        let (_, w) = parse_go(&words("depth infinite"), &b);
        assert_eq!(w.len(), 1);
        let (l, _) = parse_go(&words("depth infinite"), &b);
        assert!(l.infinite);
    }
}
