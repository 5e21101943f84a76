//! Book tests against real data: the GNU Chess Polyglot book and the shipped text book.

use super::*;
use kestrel_chess::{Board, Move};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const GNUCHESS: &str = "books/gnuchess-book.bin";
const SHIPPED_TEXT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../books/kestrel.txt");

fn play(moves: &str) -> Board {
    let mut b = Board::startpos();
    for m in moves.split_whitespace() {
        let mv = b.parse_uci_move(m).unwrap();
        b.make_move(mv);
    }
    b
}

fn uci(moves: &[BookMove]) -> Vec<String> {
    moves.iter().map(|m| m.mv.to_string()).collect()
}

#[test]
fn gnuchess_book_start_position_has_13_legal_moves_with_e4_first() {
    let book = Book::load(&kestrel_testdata::shared_or_skip!(GNUCHESS)).unwrap();
    assert_eq!(book.format(), BookFormat::Polyglot);
    assert_eq!(book.len(), 180_358);
    let moves = book.probe(&Board::startpos());
    assert_eq!(moves.len(), 13);
    assert_eq!(moves[0].mv.to_string(), "e2e4");
    assert_eq!(moves[0].weight, 12135);
    assert!(uci(&moves).contains(&"d2d4".to_string()));
    let legal = Board::startpos().legal_moves();
    assert!(moves.iter().all(|m| legal.contains(m.mv)));
}

#[test]
fn polyglot_castling_is_played_as_the_king_move() {
    let book = Book::load(&kestrel_testdata::shared_or_skip!(GNUCHESS)).unwrap();
    let board = play("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6");
    let raw_e1h1 = Square::new(7, 0).0 as u16 | (Square::new(4, 0).0 as u16) << 6;
    assert!(
        book.entries_for(board.hash())
            .iter()
            .any(|e| e.mv == raw_e1h1)
    );
    let castle = decode_move(&board, raw_e1h1).unwrap();
    assert_eq!(castle.to_string(), "e1g1");
    assert!(castle.is_castle());
    assert!(uci(&book.probe(&board)).contains(&"e1g1".to_string()));
    assert_eq!(encode_move(castle), raw_e1h1);
}

use kestrel_chess::Square;

#[test]
fn move_encoding_round_trips_every_legal_move() {
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];
    for fen in fens {
        let board = Board::from_fen(fen).unwrap();
        for &mv in board.legal_moves().iter() {
            assert_eq!(decode_move(&board, encode_move(mv)), Some(mv), "{fen} {mv}");
        }
    }
    // A move that is not legal in the position decodes to nothing.
    let e2e5 = Square::new(4, 4).0 as u16 | (Square::new(4, 1).0 as u16) << 6;
    assert_eq!(decode_move(&Board::startpos(), e2e5), None);
}

#[test]
fn broken_polyglot_files_are_rejected_with_reasons() {
    let good = encode_polyglot(&[
        BookEntry {
            key: 5,
            mv: 0x31c,
            weight: 1,
        },
        BookEntry {
            key: 9,
            mv: 0x31c,
            weight: 1,
        },
    ]);
    assert_eq!(Book::from_bytes(&good).unwrap().len(), 2);
    let err = Book::from_bytes(&good[..20]).unwrap_err().to_string();
    assert!(err.contains("multiple of 16"), "{err}");
    let mut unsorted = good[16..].to_vec();
    unsorted.extend_from_slice(&good[..16]);
    assert!(
        Book::from_bytes(&unsorted)
            .unwrap_err()
            .to_string()
            .contains("order")
    );
    assert!(
        Book::from_bytes(&[])
            .unwrap_err()
            .to_string()
            .contains("empty")
    );
    let missing = Book::load(std::path::Path::new("/nonexistent/book.bin")).unwrap_err();
    assert!(missing.to_string().contains("/nonexistent/book.bin"));
}

#[test]
fn text_book_weights_take_the_maximum_over_rows() {
    let text = parse_text_book(
        "C20 \"King's Pawn\" | 10 | e4 e5\nB20 \"Sicilian\" | 3 | e4 c5\n0 | d4 d5\nbad | e5\n",
    );
    assert_eq!(text.errors.len(), 1);
    assert_eq!(text.errors[0].line_no, 4);
    let book = compile_text_book(&text);
    let start = book.probe(&Board::startpos());
    assert_eq!(uci(&start), vec!["e2e4", "d2d4"]);
    assert_eq!((start[0].weight, start[1].weight), (10, 0));
    let after_e4 = book.probe(&play("e2e4"));
    assert_eq!(uci(&after_e4), vec!["e7e5", "c7c5"]);
    assert_eq!((after_e4[0].weight, after_e4[1].weight), (10, 3));
    let name = book.opening_name(&play("e2e4 c7c5")).unwrap();
    assert_eq!((name.eco.as_str(), name.name.as_str()), ("B20", "Sicilian"));
    // Weight 0 moves are listed but never chosen.
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..50 {
        assert_eq!(
            book.choose(&Board::startpos(), &mut rng)
                .unwrap()
                .mv
                .to_string(),
            "e2e4"
        );
    }
    assert!(book.choose(&play("d2d4"), &mut rng).is_none());
}

#[test]
fn kbk_round_trips_and_detects_damage() {
    let text = parse_text_book("C60 \"Ruy Lopez\" | 12 | e4 e5 Nf3 Nc6 Bb5\n5 | d4 Nf6 c4\n");
    let book = compile_text_book(&text);
    let bytes = encode_kbk(book.entries(), book.names());
    let back = Book::from_bytes(&bytes).unwrap();
    assert_eq!(back.format(), BookFormat::Kestrel);
    assert_eq!(back.entries(), book.entries());
    assert_eq!(back.names(), book.names());
    assert_eq!(
        encode_kbk(back.entries(), back.names()),
        bytes,
        "deterministic"
    );
    let mut damaged = bytes.clone();
    damaged[30] ^= 1;
    assert!(
        Book::from_bytes(&damaged)
            .unwrap_err()
            .to_string()
            .contains("checksum")
    );
    assert!(Book::from_bytes(&bytes[..bytes.len() - 3]).is_err());
    assert!(Book::from_bytes(&bytes[..12]).is_err());
}

#[test]
fn weighted_choice_is_seeded_and_proportional() {
    let b = Board::startpos();
    let moves = [
        BookMove {
            mv: b.parse_uci_move("e2e4").unwrap(),
            weight: 1,
        },
        BookMove {
            mv: b.parse_uci_move("d2d4").unwrap(),
            weight: 3,
        },
        BookMove {
            mv: b.parse_uci_move("c2c4").unwrap(),
            weight: 0,
        },
    ];
    let draw = |seed| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..4000)
            .map(|_| choose_weighted(&moves, &mut rng).unwrap().mv)
            .collect::<Vec<Move>>()
    };
    let a = draw(7);
    assert_eq!(a, draw(7));
    assert_ne!(a, draw(8));
    let d4 = a.iter().filter(|m| m.to_string() == "d2d4").count();
    assert!((2800..3200).contains(&d4), "{d4} of 4000 for weight 3/4");
    assert!(a.iter().all(|m| m.to_string() != "c2c4"));
}

#[test]
fn pgn_games_build_polyglot_weights() {
    let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Result \"1/2-1/2\"]\n\n1. e4 c5 1/2-1/2\n\n\
               [Result \"0-1\"]\n\n1. d4 d5 0-1\n\n[Result \"1-0\"]\n\n1. e4 Nf9 1-0\n";
    let opts = PgnBookOptions {
        max_ply: 2,
        min_games: 1,
    };
    let (entries, stats) = build_polyglot_from_pgn(pgn.as_bytes(), opts).unwrap();
    assert_eq!((stats.games, stats.skipped), (3, 1));
    let book = Book::from_bytes(&encode_polyglot(&entries)).unwrap();
    let start = book.probe(&Board::startpos());
    // e4: a win (2) and a draw (1); d4: a loss (0).
    assert_eq!(uci(&start), vec!["e2e4", "d2d4"]);
    assert_eq!((start[0].weight, start[1].weight), (3, 0));
    let after_e4 = book.probe(&play("e2e4"));
    assert_eq!(uci(&after_e4), vec!["c7c5", "e7e5"]);
    assert_eq!((after_e4[0].weight, after_e4[1].weight), (1, 0));
    assert!(book.probe(&play("e2e4 e7e5")).is_empty(), "beyond max_ply");
    let opts = PgnBookOptions {
        max_ply: 2,
        min_games: 2,
    };
    let (entries, _) = build_polyglot_from_pgn(pgn.as_bytes(), opts).unwrap();
    assert_eq!(entries.len(), 1, "only e4 was played twice");
}

#[test]
fn eco_rows_are_weighted_by_their_rarest_move() {
    let tsv = "eco\tname\tpgn\nC20\tKing's Pawn Game\t1. e4 e5\nB20\tSicilian\t1. e4 c5\n\
               A00\tBroken\t1. e4 e4\nA40\tQueen's Pawn\t1. d4\n";
    let (mut rows, errors) = read_eco_tsv(tsv);
    assert_eq!(rows.len(), 3);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].line_no, 4);
    let games = "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                 [Result \"1-0\"]\n\n1. e4 c5 1-0\n";
    assert_eq!(weigh_rows_by_games(&mut rows, games.as_bytes(), 10), 3);
    let weights: Vec<u32> = rows.iter().map(|r| r.weight).collect();
    assert_eq!(weights, vec![2, 1, 0]);
    let text = eco_rows_to_text(&rows, "header");
    assert!(text.starts_with("# header\n"));
    assert!(
        text.contains("C20 \"King's Pawn Game\" | 2 | e4 e5\n"),
        "{text}"
    );
    let parsed = parse_text_book(&text);
    assert!(parsed.errors.is_empty());
    assert_eq!(parsed.lines.len(), 3);
}

#[test]
fn shipped_book_is_the_compiled_shipped_text() {
    let text = std::fs::read_to_string(SHIPPED_TEXT).unwrap();
    let parsed = parse_text_book(&text);
    assert!(
        parsed.errors.is_empty(),
        "{:?}",
        &parsed.errors[..3.min(parsed.errors.len())]
    );
    assert!(parsed.lines.len() > 3000);
    let compiled = compile_text_book(&parsed);
    assert_eq!(
        encode_kbk(compiled.entries(), compiled.names()),
        BUILTIN_KBK,
        "books/kestrel.kbk is stale: rebuild it from books/kestrel.txt"
    );
    let builtin = Book::builtin();
    let start = builtin.probe(&Board::startpos());
    assert!(uci(&start).contains(&"e2e4".to_string()));
    assert!(start.iter().all(|m| m.weight > 0 || start[0].weight > 0));
    let ruy = builtin
        .opening_name(&play("e2e4 e7e5 g1f3 b8c6 f1b5"))
        .unwrap();
    assert_eq!(ruy.eco, "C60");
}
