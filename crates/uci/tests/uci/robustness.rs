//! Garbage in, one `info string` out, engine unharmed; EOF behaves like `quit`.

use crate::common;

use common::{Capture, bestmoves, engine, info_strings, send};
use std::io::Cursor;

#[test]
fn every_malformed_command_gets_one_explaining_line() {
    let (mut e, cap) = engine();
    for bad in [
        "xyzzy",
        "go-go",
        "setoption name NoSuchOption value 3",
        "setoption name Hash value -1",
        "setoption name Hash value 99999999",
        "setoption name Hash value many",
        "setoption name Hash",
        "setoption name OwnBook value maybe",
        "setoption name PAWN_VALUE value 5000",
        "setoption nonsense",
        "setoption name ParamsFile value /nonexistent/params.toml",
        "perft",
        "perft -3",
        "bench deep",
        "\u{1b}[2J\u{7}",
    ] {
        let out = send(&mut e, &cap, &[bad]);
        assert_eq!(out.len(), 1, "{bad:?}: {out:#?}");
        assert_eq!(info_strings(&out).len(), 1, "{bad:?}: {out:#?}");
    }
    let s = e.settings();
    assert_eq!((s.hash_mb, s.own_book), (16, false));
    assert_eq!(
        s.params[0],
        kestrel_params::ParamValues::defaults(&kestrel_eval::EVAL_TABLE)
    );
    assert_eq!(send(&mut e, &cap, &["isready"]), vec!["readyok"]);
}

#[test]
fn bad_go_parameters_still_give_a_bestmove() {
    let (mut e, cap) = engine();
    let out = send(&mut e, &cap, &["go depth banana nodes x movetime 50"]);
    assert_eq!(info_strings(&out).len(), 2, "{out:#?}");
    assert_eq!(bestmoves(&out).len(), 1);
}

#[test]
fn empty_lines_are_silent() {
    let (mut e, cap) = engine();
    assert!(send(&mut e, &cap, &["", "   ", "\t"]).is_empty());
}

fn run_bytes(input: &[u8]) -> Vec<String> {
    let cap = Capture::default();
    kestrel_uci::run(Cursor::new(input.to_vec()), cap.clone()).unwrap();
    cap.take_lines()
}

#[test]
fn non_utf8_lines_are_reported_and_skipped() {
    let out = run_bytes(b"\xff\xfe\x00garbage\nisready\r\nquit\nisready\n");
    assert_eq!(out.len(), 2, "{out:#?}");
    assert!(out[0].starts_with("info string") && out[0].contains("UTF-8"));
    assert_eq!(
        out[1], "readyok",
        "CRLF line endings work; nothing after quit"
    );
}

#[test]
fn overlong_lines_are_skipped() {
    let mut input = vec![b'a'; kestrel_uci::MAX_LINE + 10];
    input.extend_from_slice(b"\nisready\n");
    let out = run_bytes(&input);
    assert_eq!(out.len(), 2, "{out:#?}");
    assert!(out[0].contains("longer than"));
    assert_eq!(out[1], "readyok");
}

#[test]
fn end_of_input_stops_a_running_search_like_quit() {
    let out = run_bytes(b"position startpos\ngo infinite\n");
    assert_eq!(bestmoves(&out).len(), 1, "{out:#?}");
}

/// Seeded random command salad (protocol words, numbers, moves, garbage): the engine must never
/// panic or hang, must answer every `go` with one `bestmove`, and must still be ready after it.
#[test]
fn random_command_salad_never_breaks_the_engine() {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    const WORDS: &[&str] = &[
        "uci",
        "isready",
        "setoption",
        "name",
        "value",
        "Hash",
        "Threads",
        "MultiPV",
        "OwnBook",
        "BookFile",
        "true",
        "false",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "mate",
        "infinite",
        "ponder",
        "searchmoves",
        "stop",
        "ponderhit",
        "d",
        "eval",
        "e2e4",
        "e7e5",
        "g1f3",
        "e1g1",
        "a7a8q",
        "0000",
        "8/8/8/8/8/8/8/8",
        "w",
        "b",
        "-",
        "KQkq",
        "1",
        "2",
        "0",
        "-7",
        "x",
        "99999999999",
        "\u{0}",
        "\u{fffd}",
        "é",
        "PAWN_VALUE",
        "NULL_MOVE_R",
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let (mut e, cap) = engine();
    let mut gos = 0;
    for _ in 0..400 {
        let n = rng.random_range(0..8);
        let line: Vec<&str> = (0..n)
            .map(|_| WORDS[rng.random_range(0..WORDS.len())])
            .collect();
        let line = line.join(" ");
        if line.starts_with("go") {
            gos += 1;
        }
        // Searches are cut short so the test stays fast; `go` is answered either way.
        e.handle_line(&line);
        e.handle_line("stop");
    }
    e.quit();
    let out = cap.take_lines();
    assert_eq!(bestmoves(&out).len(), gos, "one bestmove per go");
    assert_eq!(send(&mut e, &cap, &["isready"]), vec!["readyok"]);
}
