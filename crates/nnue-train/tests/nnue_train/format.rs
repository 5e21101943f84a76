//! The data format: every position of random playouts round-trips; a truncated or corrupt
//! file is refused with an error that says where.

use kestrel_chess::Board;
use kestrel_nnue_train::format::{
    DataReader, DataWriter, NO_SCORE, Outcome, PackedPosition, read_all, write_all,
};
use kestrel_testdata::ScratchDir;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An empty folder for one test, removed when the test passes.
fn temp_dir(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("nnue-format-{name}"))
}

/// Positions from random playouts (castling, en passant, promotions, captures all occur).
fn random_positions(count: usize, seed: u64) -> Vec<(Board, i16, Outcome)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut board = Board::startpos();
        for _ in 0..rng.random_range(0..200) {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.make_move(moves.as_slice()[rng.random_range(0..moves.len())]);
        }
        let outcome = [Outcome::BlackWin, Outcome::Draw, Outcome::WhiteWin][rng.random_range(0..3)];
        let score = if rng.random_bool(0.1) {
            NO_SCORE
        } else {
            rng.random_range(-3000..3000)
        };
        out.push((board, score, outcome));
    }
    out
}

#[test]
fn random_playout_positions_round_trip_through_records_and_files() {
    let positions = random_positions(3000, 7);
    let records: Vec<PackedPosition> = positions
        .iter()
        .map(|(b, s, o)| PackedPosition::pack(b, *s, *o))
        .collect();
    for ((board, score, outcome), rec) in positions.iter().zip(&records) {
        rec.validate().unwrap();
        let back = rec.to_board().unwrap();
        // The en-passant square is written to FEN only when a capture is possible; compare
        // the placement, side, castling and counters through FEN, and the square directly.
        assert_eq!(back.to_fen(), board.to_fen());
        assert_eq!(back.ep_square(), board.ep_square());
        assert_eq!(rec.score(), (*score != NO_SCORE).then_some(*score));
        assert_eq!(rec.outcome(), *outcome);
        assert_eq!(rec.side_to_move(), board.side_to_move());
        let pieces: Vec<_> = rec.pieces().collect();
        let expected: Vec<_> = board
            .occupied()
            .map(|sq| (sq, board.piece_at(sq).unwrap()))
            .collect();
        assert_eq!(pieces, expected);
    }
    let dir = temp_dir("roundtrip");
    let path = dir.join("a.kpos");
    let mut writer = DataWriter::create(&path).unwrap();
    for chunk in records.chunks(700) {
        writer.write_block(chunk).unwrap();
    }
    assert_eq!(read_all(&path).unwrap(), records);
    let whole = dir.join("b.kpos");
    write_all(&whole, &records).unwrap();
    assert_eq!(read_all(&whole).unwrap(), records);
    let mut reader = DataReader::open(&path).unwrap();
    assert_eq!(reader.next_block().unwrap().unwrap().len(), 700);
}

fn error_of(bytes: &[u8], dir: &std::path::Path, name: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    read_all(&path).unwrap_err().to_string()
}

#[test]
fn truncated_or_corrupt_files_are_refused_clearly() {
    let records: Vec<PackedPosition> = random_positions(100, 3)
        .iter()
        .map(|(b, s, o)| PackedPosition::pack(b, *s, *o))
        .collect();
    let dir = temp_dir("corrupt");
    let path = dir.join("good.kpos");
    let mut writer = DataWriter::create(&path).unwrap();
    writer.write_block(&records[..60]).unwrap();
    writer.write_block(&records[60..]).unwrap();
    let good = std::fs::read(&path).unwrap();
    assert_eq!(read_all(&path).unwrap().len(), 100);

    let cut = error_of(&good[..good.len() - 5], &dir, "cut.kpos");
    assert!(cut.contains("block 1 is truncated"), "{cut}");
    let cut_header = error_of(&good[..10], &dir, "short.kpos");
    assert!(
        cut_header.contains("shorter than the header"),
        "{cut_header}"
    );
    let mut flipped = good.clone();
    flipped[16 + 16 + 5] ^= 1; // a byte of the first record
    let err = error_of(&flipped, &dir, "flip.kpos");
    assert!(err.contains("block 0: checksum mismatch"), "{err}");
    let mut magic = good.clone();
    magic[0] = b'X';
    assert!(error_of(&magic, &dir, "magic.kpos").contains("wrong magic"));
    let mut version = good.clone();
    version[8] = 9;
    assert!(error_of(&version, &dir, "version.kpos").contains("version 9"));

    // A record that is corrupt but carries a matching checksum is caught by validation.
    let mut bad = records.clone();
    bad[70].0[28] = 7;
    let bad_path = dir.join("bad.kpos");
    write_all(&bad_path, &bad).unwrap();
    let err = read_all(&bad_path).unwrap_err().to_string();
    assert!(
        err.contains("block 0, record 70") && err.contains("result"),
        "{err}"
    );
    assert!(read_all(&dir.join("missing.kpos")).is_err());
}
