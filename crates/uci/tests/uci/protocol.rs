//! The protocol core driven in-process: handshake, options, positions, searches, stop/ponder.

use crate::common;

use common::{bestmoves, engine, info_strings, send};
use kestrel_chess::Board;
use kestrel_eval::{EVAL_TABLE, Evaluator};
use kestrel_params::ParamValues;
use std::thread::sleep;
use std::time::Duration;

#[test]
fn uci_lists_every_option_then_uciok() {
    let (mut e, cap) = engine();
    let out = send(&mut e, &cap, &["uci"]);
    assert!(out[0].starts_with("id name Kestrel"));
    assert_eq!(out[1], "id author Kestrel developers");
    assert_eq!(out.last().unwrap(), "uciok");
    for wanted in [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name UCI_Chess960 type check default false",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_Opponent type string default <empty>",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name NodesTime type spin default 0 min 0 max 1000000",
        "option name Ponder type check default false",
        "option name OwnBook type check default false",
        "option name BookFile type string default <builtin>",
        "option name ParamsFile type string default <empty>",
        "option name Clear Hash type button",
    ] {
        assert!(
            out.iter().any(|l| l == wanted),
            "missing: {wanted}\n{out:#?}"
        );
    }
    // One spin per scalar parameter (NAME_mg / NAME_eg when tapered), none for tables.
    for table in kestrel_uci::tunable_tables() {
        for d in table.decls {
            let names: Vec<String> = match (d.len, d.tapered) {
                (1, false) => vec![d.name.to_string()],
                (1, true) => vec![format!("{}_mg", d.name), format!("{}_eg", d.name)],
                _ => {
                    let prefix = format!("option name {}", d.name);
                    assert!(!out.iter().any(|l| l.starts_with(&prefix)), "{prefix}");
                    continue;
                }
            };
            for (i, name) in names.iter().enumerate() {
                let wanted = format!(
                    "option name {name} type spin default {} min {} max {}",
                    d.defaults[i], d.min, d.max
                );
                assert!(out.contains(&wanted), "missing: {wanted}");
            }
        }
    }
    assert!(
        out.iter()
            .any(|l| l.starts_with("option name BookSeed type spin"))
    );
}

#[test]
fn isready_answers_readyok() {
    let (mut e, cap) = engine();
    assert_eq!(send(&mut e, &cap, &["isready"]), vec!["readyok"]);
}

#[test]
fn go_depth_gives_one_legal_bestmove_after_info_lines() {
    let (mut e, cap) = engine();
    let out = send(
        &mut e,
        &cap,
        &["position startpos moves e2e4 e7e5 g1f3", "go depth 3"],
    );
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1, "{out:#?}");
    assert_eq!(out.last().unwrap(), best[0], "bestmove comes last");
    let mv = best[0].split_whitespace().nth(1).unwrap();
    assert!(e.board().parse_uci_move(mv).is_ok(), "{mv} is not legal");
    let info = out.iter().find(|l| l.starts_with("info depth")).unwrap();
    for field in [
        " seldepth ",
        " score ",
        " nodes ",
        " nps ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} missing in {info}");
    }
}

/// The nodes of the last `info ... nodes N` line.
fn last_nodes(out: &[String]) -> u64 {
    let line = out.iter().rev().find(|l| l.contains(" nodes ")).unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

#[test]
fn nodes_time_spends_the_clock_in_nodes_and_repeats_itself() {
    let search = |e: &mut kestrel_uci::UciEngine, cap: &common::Capture| {
        let out = send(
            e,
            cap,
            &[
                "setoption name NodesTime value 100",
                "ucinewgame",
                "position startpos moves e2e4 c7c5",
                "go movetime 40",
            ],
        );
        (bestmoves(&out)[0].clone(), last_nodes(&out))
    };
    let (mut e, cap) = engine();
    let (best, nodes) = search(&mut e, &cap);
    // 40 ms at 100 nodes per ms: 4,000 nodes (checked every 256); the last info line is the
    // last finished iteration's.
    assert!((1..4_000 + 256).contains(&nodes), "{nodes} nodes");
    // Same answer and node count again, whatever the wall clock did meanwhile.
    assert_eq!(search(&mut e, &cap), (best, nodes));
    let out = send(
        &mut e,
        &cap,
        &["setoption name NodesTime value 0", "go movetime 40"],
    );
    assert_eq!(bestmoves(&out).len(), 1);
}

#[test]
fn mate_and_stalemate_positions_are_answered() {
    let (mut e, cap) = engine();
    // Black is checkmated (fool's mate): no legal move.
    let out = send(
        &mut e,
        &cap,
        &["position startpos moves f2f3 e7e5 g2g4 d8h4", "go depth 2"],
    );
    assert_eq!(bestmoves(&out), vec!["bestmove 0000"]);
    // Mate in one for White.
    let out = send(
        &mut e,
        &cap,
        &[
            "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "go depth 3",
        ],
    );
    assert_eq!(bestmoves(&out), vec!["bestmove a1a8"]);
}

#[test]
fn searchmoves_restricts_the_root() {
    let (mut e, cap) = engine();
    let out = send(
        &mut e,
        &cap,
        &["position startpos", "go depth 2 searchmoves h2h3"],
    );
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1);
    assert!(best[0].starts_with("bestmove h2h3"), "{best:?}");
}

#[test]
fn infinite_search_waits_for_stop_and_answers_isready_meanwhile() {
    let (mut e, cap) = engine();
    e.handle_line("position startpos");
    e.handle_line("go infinite");
    sleep(Duration::from_millis(300));
    e.handle_line("isready");
    let so_far = cap.take_lines();
    assert!(so_far.iter().any(|l| l == "readyok"));
    assert!(bestmoves(&so_far).is_empty(), "no bestmove before stop");
    let out = send(&mut e, &cap, &["stop"]);
    assert_eq!(bestmoves(&out).len(), 1, "{out:#?}");
    // A second stop when idle does nothing.
    assert!(send(&mut e, &cap, &["stop"]).is_empty());
}

#[test]
fn ponder_search_answers_after_ponderhit() {
    let (mut e, cap) = engine();
    e.handle_line("position startpos moves e2e4");
    e.handle_line("go ponder depth 2");
    sleep(Duration::from_millis(200));
    assert!(
        bestmoves(&cap.take_lines()).is_empty(),
        "no bestmove while pondering"
    );
    let out = send(&mut e, &cap, &["ponderhit"]);
    assert_eq!(bestmoves(&out).len(), 1, "{out:#?}");
}

#[test]
fn a_new_go_while_searching_finishes_the_old_one_first() {
    let (mut e, cap) = engine();
    let out = send(&mut e, &cap, &["go infinite", "go depth 1"]);
    assert_eq!(bestmoves(&out).len(), 2, "one bestmove per go: {out:#?}");
}

#[test]
fn quit_stops_a_running_search() {
    let (mut e, cap) = engine();
    e.handle_line("go infinite");
    assert_eq!(e.handle_line("quit"), kestrel_uci::Flow::Quit);
    assert_eq!(bestmoves(&cap.take_lines()).len(), 1);
}

#[test]
fn d_shows_fen_and_polyglot_key() {
    let (mut e, cap) = engine();
    let out = send(&mut e, &cap, &["d"]);
    assert!(out.contains(&format!("Fen: {}", kestrel_chess::START_FEN)));
    assert!(
        out.contains(&"Key: 463B96181691FC9C".to_string()),
        "{out:#?}"
    );
}

fn evaluation_line(out: &[String]) -> &String {
    out.iter()
        .find(|l| l.starts_with("Evaluation: "))
        .expect("an Evaluation line")
}

#[test]
fn eval_follows_the_tunable_options() {
    let fen = "4k3/8/8/8/8/8/P7/4K3 w - - 0 1";
    let board = Board::from_fen(fen).unwrap();
    let (mut e, cap) = engine();
    let out = send(&mut e, &cap, &[&format!("position fen {fen}"), "eval"]);
    let default = Evaluator::default().evaluate_white(&board);
    assert!(evaluation_line(&out).contains(&format!("{:+.2} ", default as f64 / 100.0)));
    assert!(out.iter().any(|l| l.starts_with("PAWN_VALUE ")), "{out:#?}");
    let mut values = ParamValues::defaults(&EVAL_TABLE);
    values.set_scalar("PAWN_VALUE", 160).unwrap();
    let changed = Evaluator::new(values).evaluate_white(&board);
    assert_ne!(changed, default);
    let out = send(
        &mut e,
        &cap,
        &["setoption name PAWN_VALUE value 160", "eval"],
    );
    assert!(evaluation_line(&out).contains(&format!("{:+.2} ", changed as f64 / 100.0)));
    let out = send(&mut e, &cap, &["uci"]);
    assert!(
        out.iter()
            .any(|l| l.starts_with("option name PAWN_VALUE type spin default 160"))
    );
}

#[test]
fn search_parameters_are_options_too() {
    let (mut e, cap) = engine();
    let out = send(
        &mut e,
        &cap,
        &[
            "setoption name NULL_MOVE_R value 2",
            "setoption name use_lmr value 0",
            "go depth 3",
        ],
    );
    assert!(info_strings(&out).is_empty(), "{out:#?}");
    assert_eq!(bestmoves(&out).len(), 1);
    let search = &e.settings().params[1];
    assert_eq!(search.get("NULL_MOVE_R"), Some(&[2][..]));
    assert_eq!(search.get("USE_LMR"), Some(&[0][..]));
}

#[test]
fn perft_counts_leaves() {
    let (mut e, cap) = engine();
    let out = send(&mut e, &cap, &["perft 3"]);
    assert!(
        out.contains(&"Nodes searched: 8902".to_string()),
        "{out:#?}"
    );
    assert_eq!(out.iter().filter(|l| l.contains(": ")).count(), 20 + 2);
}

#[test]
fn bench_ends_with_nodes_and_nps() {
    let (mut e, cap) = engine();
    let out = send(&mut e, &cap, &["bench 2"]);
    let last = out.last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(
        (words.len(), words[1], words[3]),
        (4, "nodes", "nps"),
        "{last}"
    );
    assert!(words[0].parse::<u64>().unwrap() > 0);
}

#[test]
fn ucinewgame_and_options_keep_the_engine_working() {
    let (mut e, cap) = engine();
    let out = send(
        &mut e,
        &cap,
        &[
            "setoption name Hash value 8",
            "setoption name threads value 2",
            "setoption name Move Overhead value 50",
            "setoption name MultiPV value 2",
            "setoption name Clear Hash",
            "ucinewgame",
            "position startpos",
            "go depth 2",
        ],
    );
    assert!(info_strings(&out).is_empty(), "{out:#?}");
    assert_eq!(bestmoves(&out).len(), 1);
    let s = e.settings();
    assert_eq!((s.hash_mb, s.threads, s.multipv), (8, 2, 2));
    assert_eq!(s.move_overhead, Duration::from_millis(50));
}

#[test]
fn bad_position_keeps_the_previous_one() {
    let (mut e, cap) = engine();
    send(&mut e, &cap, &["position startpos moves d2d4"]);
    let before = e.board().clone();
    for bad in [
        "position startpos moves d7d5 e2e5",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position",
        "position sideways",
        "position startpos moves e7",
    ] {
        let out = send(&mut e, &cap, &[bad]);
        assert_eq!(info_strings(&out).len(), 1, "{bad}: {out:#?}");
        assert_eq!(out.len(), 1);
        assert_eq!(e.board(), &before, "{bad} changed the position");
    }
    assert_ne!(e.board(), &Board::startpos());
}

#[test]
fn go_perft_answers_as_stockfish_does() {
    let (mut e, cap) = engine();
    let out = send(
        &mut e,
        &cap,
        &[
            "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "go perft 2",
        ],
    );
    // 48 `move: count` lines, a blank line, the total, a blank line; no bestmove.
    assert_eq!(out.len(), 48 + 3, "{out:#?}");
    assert!(out[..48].iter().all(|l| {
        let (mv, n) = l.split_once(": ").expect("move: count");
        mv.len() >= 4 && n.parse::<u64>().is_ok()
    }));
    assert!(out.contains(&"e2a6: 36".to_string()), "{out:#?}");
    assert_eq!(&out[48..], ["", "Nodes searched: 2039", ""]);
    assert!(bestmoves(&out).is_empty());
    let bad = send(&mut e, &cap, &["go perft", "go perft x"]);
    assert_eq!(info_strings(&bad).len(), 2, "{bad:#?}");
    assert!(bad.iter().all(|l| !l.starts_with("bestmove")), "{bad:#?}");
}
