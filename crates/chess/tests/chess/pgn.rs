//! PGN reading (tags, comments, variations, NAGs, set-up positions, error recovery) and
//! writing (numbered, wrapped movetext that reads back to the same game).

use kestrel_chess::{Board, PgnGame, PgnReader, write_pgn};
use std::fs::File;
use std::io::{BufReader, Cursor};

fn read_all(text: &str) -> Vec<Result<PgnGame, kestrel_chess::PgnError>> {
    PgnReader::new(Cursor::new(text.as_bytes())).collect()
}

fn uci(game: &PgnGame) -> Vec<String> {
    game.moves.iter().map(|m| m.to_string()).collect()
}

#[test]
fn reads_tags_comments_variations_and_nags() {
    let text = r#"[Event "Test \"quoted\""]
[White "A"] [Black "B"]
[Result "1-0"]

% an escape line
1. e4 {a comment
over two lines} e5 $1 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6 ; rest of line
3.Bb5 a6!? 4. Ba4 Nf6 +- 5. O-O 1-0
"#;
    let games = read_all(text);
    assert_eq!(games.len(), 1);
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.tag("Event"), Some("Test \"quoted\""));
    assert_eq!(g.tag("Black"), Some("B"));
    assert_eq!(g.tag("Round"), None);
    assert_eq!(g.result, "1-0");
    assert_eq!(
        uci(g),
        [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1"
        ]
    );
    assert_eq!(g.start, Board::startpos());
    assert_eq!(
        g.final_board().to_fen(),
        "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 3 5"
    );
}

#[test]
fn set_up_positions_come_from_the_fen_tag() {
    let text = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 41. e4 *\n";
    let g = read_all(text).remove(0).unwrap();
    assert_eq!(g.start.fullmove_number(), 40);
    assert_eq!(uci(&g), ["e8d7", "e2e4"]);
    assert_eq!(g.result, "*");
}

#[test]
fn malformed_games_are_reported_and_skipped() {
    let text = r#"[Event "good 1"]

1. e4 e5 1/2-1/2

[Event "bad tag]
[Site "x"]

1. d4 d5 0-1

[Event "illegal move"]

1. e4 e5 2. Ke3 Nf6 1-0

[Event "good 2"]

1. d4 Nf6 0-1

[Event "unterminated comment"]

1. e4 { never closed
2. e5

[Event "good 3"]

1. c4 *

[Event "unterminated variation"]

1. e4 (1. d4 d5 2. c4 e5 1-0

[Event "bad FEN"]
[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]

1. e4 *

[Event "good 4"]

1. Nf3 1-0
"#;
    let games = read_all(text);
    let summary: Vec<String> = games
        .iter()
        .map(|g| match g {
            Ok(g) => g.tag("Event").unwrap().to_string(),
            Err(e) => format!("error game {} line {}", e.game_index, e.line),
        })
        .collect();
    assert_eq!(
        summary,
        [
            "good 1",
            "error game 1 line 5",
            "error game 2 line 12",
            "good 2",
            "error game 4 line 23",
            "good 3",
            "error game 6 line 31",
            "error game 7 line 32",
            "good 4",
        ]
    );
    let reasons: Vec<String> = games
        .iter()
        .filter_map(|g| g.as_ref().err().map(|e| e.reason.clone()))
        .collect();
    assert!(reasons[0].contains("malformed tag"), "{}", reasons[0]);
    assert!(reasons[1].contains("Ke3"), "{}", reasons[1]);
    assert!(
        reasons[2].contains("comment opened at line 20"),
        "{}",
        reasons[2]
    );
    assert!(
        reasons[3].contains("variation opened at line 29"),
        "{}",
        reasons[3]
    );
    assert!(reasons[4].contains("invalid FEN"), "{}", reasons[4]);
    let display = games[1].as_ref().unwrap_err().to_string();
    assert!(display.starts_with("PGN game #2 (line 5)"), "{display}");
}

#[test]
fn unterminated_at_end_of_file_is_an_error() {
    let games = read_all("1. e4 {no end\n");
    assert_eq!(games.len(), 1);
    assert!(
        games[0]
            .as_ref()
            .unwrap_err()
            .reason
            .contains("never closed")
    );
    let games = read_all("1. e4 (1. d4\n");
    assert!(games[0].as_ref().unwrap_err().reason.contains("variation"));
    let games = read_all("1. e4 e5 ) 2. Nf3 *\n");
    assert!(games[0].as_ref().unwrap_err().reason.contains("')'"));
    let games = read_all("this is not chess\n");
    assert!(games[0].is_err());
    assert!(read_all("").is_empty());
    assert!(read_all("\n\n  \n").is_empty());
}

#[test]
fn missing_result_takes_the_result_tag() {
    let text = "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4#\n\n[Result \"*\"]\n\n1. e4 *\n";
    let games = read_all(text);
    assert_eq!(games.len(), 2);
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.result, "0-1");
    assert!(g.final_board().is_checkmate());
}

#[test]
fn non_utf8_bytes_do_not_stop_reading() {
    let mut bytes = b"[White \"M\xfcller\"]\n\n1. e4 *\n\n".to_vec();
    bytes.extend_from_slice(b"[White \"B\"]\n\n1. d4 *\n");
    let games: Vec<_> = PgnReader::new(Cursor::new(bytes)).collect();
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.is_ok()));
}

#[test]
fn written_games_read_back_identically() {
    // The first 40 games of the shared GM file, shipped as a fixture.
    let text = std::fs::read_to_string(kestrel_testdata::fixture("gm-games-40.pgn")).unwrap();
    let end = text.len();
    let games: Vec<PgnGame> = read_all(&text).into_iter().map(Result::unwrap).collect();
    assert_eq!(games.len(), 40);
    let mut written = Vec::new();
    for g in &games {
        write_pgn(&mut written, g).unwrap();
    }
    let written = String::from_utf8(written).unwrap();
    assert!(written.lines().all(|l| l.len() < 80));
    // python-chess wrote the shared file with the same conventions: byte-identical output.
    assert_eq!(written.trim_end(), text[..end].trim_end());
    let again: Vec<PgnGame> = read_all(&written).into_iter().map(Result::unwrap).collect();
    assert_eq!(again, games);
}

#[test]
fn writes_set_up_tags_for_other_start_positions() {
    let start = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40").unwrap();
    let mut b = start.clone();
    let kd7 = b.parse_san("Kd7").unwrap();
    b.make_move(kd7);
    let e4 = b.parse_san("e4").unwrap();
    let game = PgnGame {
        tags: vec![("Event".into(), "x".into())],
        start,
        moves: vec![kd7, e4],
        result: "1/2-1/2".into(),
    };
    let s = game.to_pgn_string();
    assert_eq!(
        s,
        "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 41. e4 1/2-1/2\n"
    );
    let back = read_all(&s).remove(0).unwrap();
    assert_eq!(
        (&back.start, &back.moves, &back.result),
        (&game.start, &game.moves, &game.result)
    );
    assert_eq!(back.tag("SetUp"), Some("1"));
    // An illegal move is cut off with a comment instead of corrupting the board.
    let bad = PgnGame {
        moves: vec![e4],
        ..game
    };
    assert!(bad.to_pgn_string().contains("illegal"));
}

#[test]
fn shared_opening_files_parse() {
    // The Stockfish 8-move book is gzipped; read the plain ECO lines instead: every `pgn`
    // column of the Lichess ECO files is a legal move sequence.
    let dir = kestrel_testdata::shared_or_skip!("openings/eco");
    let dir = dir.display();
    let mut lines = 0;
    for f in ["a.tsv", "b.tsv", "c.tsv", "d.tsv", "e.tsv"] {
        let text = std::fs::read_to_string(format!("{dir}/{f}")).unwrap();
        for row in text.lines().skip(1) {
            let movetext = row.split('\t').nth(2).unwrap();
            let games = read_all(&format!("{movetext} *\n"));
            assert_eq!(games.len(), 1);
            assert!(games[0].is_ok(), "{f}: {row}: {:?}", games[0]);
            lines += 1;
        }
    }
    assert_eq!(lines, 3807);
}

#[test]
fn stockfish_opening_book_parses() {
    let path = kestrel_testdata::shared_or_skip!("openings/8moves_v3.pgn.gz");
    let gz = flate2::read::GzDecoder::new(File::open(path).unwrap());
    let mut games = 0;
    for game in PgnReader::new(BufReader::new(gz)) {
        let game = game.unwrap();
        assert_eq!(game.moves.len(), 16, "{:?}", game.tags);
        games += 1;
    }
    assert_eq!(games, 34_700);
}

const GM_GAMES: &str = "games/gm2600-train.pgn";

#[test]
fn every_shared_gm_game_replays_to_its_ply_count() {
    let path = kestrel_testdata::shared_or_skip!(GM_GAMES);
    let reader = PgnReader::new(BufReader::new(File::open(path).unwrap()));
    let mut games = 0;
    for game in reader {
        let game = game.unwrap();
        let plies: usize = game.tag("PlyCount").unwrap().parse().unwrap();
        assert_eq!(game.moves.len(), plies, "{:?}", game.tags);
        games += 1;
    }
    assert_eq!(games, 48_419);
}

#[test]
#[ignore = "writes all 48,419 games: a few seconds"]
fn every_shared_gm_game_is_written_back_byte_identically() {
    let text = std::fs::read_to_string(kestrel_testdata::shared_or_skip!(GM_GAMES)).unwrap();
    let mut written = Vec::with_capacity(text.len());
    for game in PgnReader::new(Cursor::new(text.as_bytes())) {
        write_pgn(&mut written, &game.unwrap()).unwrap();
    }
    assert!(String::from_utf8(written).unwrap().trim_end() == text.trim_end());
}

#[test]
fn a_comment_before_the_tags_belongs_to_the_game() {
    let text = "{ exported by some GUI }\n[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n{ no moves } *\n\n[Event \"c\"]\n\n1. d4 *\n";
    let events: Vec<(String, usize)> = read_all(text)
        .into_iter()
        .map(|g| {
            let g = g.unwrap();
            (g.tag("Event").unwrap().to_string(), g.moves.len())
        })
        .collect();
    assert_eq!(
        events,
        [
            ("a".to_string(), 1),
            ("b".to_string(), 0),
            ("c".to_string(), 1)
        ]
    );
}

/// Gives some bytes, then fails every read.
struct FailingReader {
    data: Cursor<Vec<u8>>,
}

impl std::io::Read for FailingReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self.data.read(buf)? {
            0 => Err(std::io::Error::other("disk on fire")),
            n => Ok(n),
        }
    }
}

#[test]
fn read_errors_end_the_stream_with_an_error() {
    let data = Cursor::new(b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4".to_vec());
    let reader = BufReader::new(FailingReader { data });
    let games: Vec<_> = PgnReader::new(reader).collect();
    assert_eq!(games.len(), 2);
    assert!(games[0].is_ok());
    let err = games[1].as_ref().unwrap_err();
    assert_eq!(err.game_index, 1);
    assert!(err.reason.contains("disk on fire"), "{}", err.reason);
}
