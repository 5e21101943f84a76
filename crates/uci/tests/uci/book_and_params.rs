//! OwnBook, BookFile, BookSeed and ParamsFile through the protocol.

use crate::common;

use common::{bestmoves, engine, info_strings, send};
use kestrel_eval::{EVAL_TABLE, Evaluator};
use kestrel_params::ParamValues;
use kestrel_tools::book::Book;

fn book_game(seed: u64) -> Vec<String> {
    let (mut e, cap) = engine();
    send(
        &mut e,
        &cap,
        &[
            "setoption name OwnBook value true",
            &format!("setoption name BookSeed value {seed}"),
        ],
    );
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..4 {
        let out = send(
            &mut e,
            &cap,
            &[
                &format!("position startpos moves {}", moves.join(" ")),
                "go depth 1",
            ],
        );
        assert_eq!(info_strings(&out).len(), 1, "{out:#?}");
        assert!(info_strings(&out)[0].contains("book move"), "{out:#?}");
        let best = bestmoves(&out)[0]
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        moves.push(best);
    }
    moves
}

#[test]
fn own_book_plays_seeded_builtin_book_moves() {
    let a = book_game(1);
    assert_eq!(a, book_game(1), "same seed, same moves");
    let book = Book::builtin();
    let mut board = kestrel_chess::Board::startpos();
    for m in &a {
        let listed: Vec<String> = book
            .probe(&board)
            .iter()
            .map(|b| b.mv.to_string())
            .collect();
        assert!(listed.contains(m), "{m} not in book: {listed:?}");
        let mv = board.parse_uci_move(m).unwrap();
        board.make_move(mv);
    }
    let others: Vec<Vec<String>> = (2..6).map(book_game).collect();
    assert!(
        others.iter().any(|o| o != &a),
        "different seeds vary the line"
    );
}

#[test]
fn polyglot_book_file_is_used_and_out_of_book_positions_are_searched() {
    let gnuchess = kestrel_testdata::shared_or_skip!("books/gnuchess-book.bin");
    let gnuchess = gnuchess.display();
    let (mut e, cap) = engine();
    let out = send(
        &mut e,
        &cap,
        &[
            &format!("setoption name BookFile value {gnuchess}"),
            "setoption name OwnBook value true",
            "position startpos",
            "go depth 1",
        ],
    );
    assert!(out[0].contains("180358 entries"), "{out:#?}");
    assert!(out.iter().any(|l| l.contains("book move")));
    let out = send(
        &mut e,
        &cap,
        &[
            "position fen 8/8/4k3/8/2p5/8/B2K4/8 w - - 0 1",
            "go depth 2",
        ],
    );
    assert!(info_strings(&out).is_empty(), "{out:#?}");
    assert!(out.iter().any(|l| l.starts_with("info depth")));
    assert_eq!(bestmoves(&out).len(), 1);
}

#[test]
fn missing_or_corrupt_book_means_playing_without_one() {
    let dir = std::env::temp_dir().join(format!("kestrel-uci-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corrupt = dir.join("corrupt.bin");
    std::fs::write(&corrupt, b"this is not a book").unwrap();
    for path in [
        "/nonexistent/book.bin".to_string(),
        corrupt.display().to_string(),
    ] {
        let (mut e, cap) = engine();
        let out = send(
            &mut e,
            &cap,
            &[
                "setoption name OwnBook value true",
                &format!("setoption name BookFile value {path}"),
                "go depth 1",
            ],
        );
        let notes = info_strings(&out);
        assert!(
            notes
                .iter()
                .any(|l| l.contains(&path) && l.contains("without a book")),
            "{out:#?}"
        );
        assert!(
            out.iter().any(|l| l.starts_with("info depth")),
            "searched: {out:#?}"
        );
        assert_eq!(bestmoves(&out).len(), 1);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn evaluation_line(out: &[String]) -> String {
    out.iter()
        .find(|l| l.starts_with("Evaluation: "))
        .cloned()
        .expect("an Evaluation line")
}

fn shown(cp: i32) -> String {
    format!("{:+.2} ", cp as f64 / 100.0)
}

#[test]
fn params_file_sets_evaluation_and_search_parameters() {
    let dir = std::env::temp_dir().join(format!("kestrel-uci-params-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.toml");
    std::fs::write(
        &good,
        "[eval]\nPAWN_VALUE = 200\n[search]\nNULL_MOVE_R = 3\n",
    )
    .unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[eval]\nPAWN_VALUE = [1, 2]\n").unwrap();
    let fen = "4k3/8/8/8/8/8/P7/4K3 w - - 0 1";
    let board = kestrel_chess::Board::from_fen(fen).unwrap();
    let mut values = ParamValues::defaults(&EVAL_TABLE);
    values.set_scalar("PAWN_VALUE", 200).unwrap();
    let loaded = Evaluator::new(values).evaluate_white(&board);
    let default = Evaluator::default().evaluate_white(&board);
    assert_ne!(loaded, default);

    let (mut e, cap) = engine();
    let out = send(
        &mut e,
        &cap,
        &[
            &format!("position fen {fen}"),
            &format!("setoption name ParamsFile value {}", good.display()),
            "eval",
        ],
    );
    assert!(out[0].contains("loaded"), "{out:#?}");
    assert!(evaluation_line(&out).contains(&shown(loaded)), "{out:#?}");
    assert_eq!(e.settings().params[1].get("NULL_MOVE_R"), Some(&[3][..]));
    let out = send(
        &mut e,
        &cap,
        &[
            &format!("setoption name ParamsFile value {}", bad.display()),
            "eval",
        ],
    );
    assert!(
        out[0].contains("PAWN_VALUE") && out[0].contains("unchanged"),
        "{out:#?}"
    );
    // The error names the option and the file, as `--params FILE: ...` does on the command line.
    assert!(
        out[0].contains(&format!("ParamsFile {}: [eval] PAWN_VALUE", bad.display())),
        "{out:#?}"
    );
    assert!(
        evaluation_line(&out).contains(&shown(loaded)),
        "bad file keeps values"
    );
    let out = send(
        &mut e,
        &cap,
        &["setoption name ParamsFile value <empty>", "eval"],
    );
    assert!(evaluation_line(&out).contains(&shown(default)), "{out:#?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_element_an_spsa_tuner_names_can_be_set() {
    let (mut e, cap) = engine();
    let out = send(
        &mut e,
        &cap,
        &[
            "setoption name PST_KNIGHT_EG_12 value -9",
            "setoption name bishop_pair value 41",
            "setoption name FUTILITY_MARGIN_1 value 99",
        ],
    );
    assert!(out.is_empty(), "{out:#?}");
    let eval = &e.settings().params[0];
    assert_eq!(eval.get("PST_KNIGHT").unwrap()[64 + 12], -9);
    assert_eq!(eval.get("BISHOP_PAIR"), Some(&[41][..]));
    assert_eq!(
        e.settings().params[1].get("FUTILITY_MARGIN_1"),
        Some(&[99][..])
    );
    let out = send(
        &mut e,
        &cap,
        &[
            "setoption name PST_KNIGHT_EG_64 value 1",
            "setoption name PST_KNIGHT_EG_12 value 500",
            "setoption name PST_KNIGHT_EG_12 value x",
        ],
    );
    assert_eq!(out.len(), 3, "{out:#?}");
    assert!(out[0].contains("unknown option"), "{out:#?}");
    assert!(out[1].contains("outside its range") && out[1].contains("unchanged"));
    assert!(out[2].contains("integer") && out[2].contains("unchanged"));
    assert_eq!(
        e.settings().params[0].get("PST_KNIGHT").unwrap()[64 + 12],
        -9
    );
}
