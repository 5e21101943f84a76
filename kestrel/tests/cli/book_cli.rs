//! `kestrel book build|probe|eco` as a user runs them.

use crate::common;
use common::{kestrel, stderr, stdout, temp_dir};

use kestrel_chess::Board;
use kestrel_tools::book::{Book, BookFormat};
use std::io::{BufRead, BufReader};
use std::path::Path;

#[test]
fn probe_lists_gnuchess_start_moves_and_castling_as_king_moves() {
    let book = kestrel_testdata::shared_or_skip!("books/gnuchess-book.bin");
    let book = book.to_str().unwrap();
    let o = kestrel(&["book", "probe", "--book", book]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("move"))
        .skip(1)
        .collect();
    assert_eq!(rows.len(), 13, "{text}");
    assert!(rows[0].starts_with("e2e4   e4"), "{text}");
    let o = kestrel(&[
        "book",
        "probe",
        "--book",
        book,
        "--moves",
        "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6",
    ]);
    assert!(stdout(&o).contains("e1g1   O-O"), "{}", stdout(&o));
}

#[test]
fn text_book_builds_with_line_numbered_errors_and_probes() {
    let dir = temp_dir("text-book");
    let text = dir.join("mine.txt");
    std::fs::write(
        &text,
        "# my openings\nC60 \"Ruy Lopez\" | 12 | e4 e5 Nf3 Nc6 Bb5\nB20 | 4 | e4 c5 Qxf7\n\
         D06 \"Queen's Gambit\" | 7 | d2d4 d7d5 c2c4\n",
    )
    .unwrap();
    let out = dir.join("mine.kbk");
    let o = kestrel(&[
        "book",
        "build",
        "--text",
        text.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("line 3: move 3 ('Qxf7')"),
        "{}",
        stderr(&o)
    );
    assert!(
        stdout(&o).contains("2 rows read, 1 skipped"),
        "{}",
        stdout(&o)
    );
    let book = Book::load(&out).unwrap();
    assert_eq!(book.format(), BookFormat::Kestrel);
    let start: Vec<(String, u32)> = book
        .probe(&Board::startpos())
        .iter()
        .map(|m| (m.mv.to_string(), m.weight))
        .collect();
    assert_eq!(start, vec![("e2e4".into(), 12), ("d2d4".into(), 7)]);
    let o = kestrel(&[
        "book",
        "probe",
        "--book",
        out.to_str().unwrap(),
        "--moves",
        "e2e4 e7e5 g1f3 b8c6 f1b5",
    ]);
    let text = stdout(&o);
    assert!(text.contains("opening: C60 Ruy Lopez"), "{text}");
    assert!(text.contains("no book moves"), "{text}");
}

/// The first `n` games of the PGN file `from`, written to `path`.
fn first_games(from: &Path, n: usize, path: &Path) {
    let file = std::fs::File::open(from).unwrap();
    let mut out = String::new();
    let mut games = 0;
    for line in BufReader::new(file).lines() {
        let line = line.unwrap();
        if line.starts_with("[Event ") {
            games += 1;
            if games > n {
                break;
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    std::fs::write(path, out).unwrap();
}

#[test]
fn pgn_builds_a_polyglot_book() {
    let dir = temp_dir("pgn-book");
    let pgn = dir.join("games.pgn");
    first_games(&kestrel_testdata::fixture("gm-games-40.pgn"), 40, &pgn);
    let out = dir.join("games.bin");
    let o = kestrel(&[
        "book",
        "build",
        "--pgn",
        pgn.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--max-ply",
        "8",
        "--min-games",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("40 games read, 0 skipped"),
        "{}",
        stdout(&o)
    );
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len() % 16, 0);
    let book = Book::load(&out).unwrap();
    assert_eq!(book.format(), BookFormat::Polyglot);
    let start = book.probe(&Board::startpos());
    let moves: Vec<String> = start.iter().map(|m| m.mv.to_string()).collect();
    assert!(moves.contains(&"e2e4".to_string()) && moves.contains(&"d2d4".to_string()));
    // Plies beyond --max-ply are not in the book.
    let mut deepest = 0;
    for e in book.entries() {
        assert!(e.mv >> 12 <= 4);
        deepest = deepest.max(e.weight);
    }
    assert!(deepest > 0);
}

#[test]
fn missing_corrupt_books_and_bad_fens_are_clear_errors() {
    let o = kestrel(&["book", "probe", "--book", "/nonexistent/x.bin"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot read book /nonexistent/x.bin"),
        "{}",
        stderr(&o)
    );
    let dir = temp_dir("corrupt-book");
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, b"seventeen bytes!!").unwrap();
    let o = kestrel(&["book", "probe", "--book", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not a Polyglot book"), "{}", stderr(&o));
    let o = kestrel(&[
        "book",
        "probe",
        "--book",
        "<builtin>",
        "--fen",
        "8/8/8 w - -",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("invalid FEN"), "{}", stderr(&o));
    let o = kestrel(&[
        "book",
        "build",
        "--text",
        "/nonexistent/t.txt",
        "--out",
        "x.kbk",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("/nonexistent/t.txt"));
}

#[test]
fn builtin_book_probes_without_a_file() {
    let o = kestrel(&[
        "book",
        "probe",
        "--book",
        "<builtin>",
        "--moves",
        "e2e4 e7e5 g1f3 b8c6 f1b5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("opening: C60 Ruy Lopez"), "{text}");
    assert!(text.contains("a7a6   a6"), "{text}");
}

#[test]
fn eco_lists_become_a_text_book() {
    let gm = kestrel_testdata::shared_or_skip!("games/gm2600-train.pgn");
    let dir = temp_dir("eco-book");
    let tsv = dir.join("x.tsv");
    std::fs::write(
        &tsv,
        "eco\tname\tpgn\nC60\tRuy Lopez\t1. e4 e5 2. Nf3 Nc6 3. Bb5\nA00\tBroken\t1. e4 e4\n",
    )
    .unwrap();
    let games = dir.join("g.pgn");
    first_games(&gm, 200, &games);
    let out = dir.join("book.txt");
    let o = kestrel(&[
        "book",
        "eco",
        "--tsv",
        tsv.to_str().unwrap(),
        "--games",
        games.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("line 3"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    let row = text.lines().find(|l| l.starts_with("C60")).unwrap();
    let weight: u32 = row.split('|').nth(1).unwrap().trim().parse().unwrap();
    assert!(weight > 0, "some of 200 GM games play the Ruy Lopez: {row}");
}
