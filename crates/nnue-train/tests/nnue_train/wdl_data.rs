//! The win/draw/loss model fitted to a data file: positions of many material levels, both
//! sides to move, with results drawn from a known model; the fit finds the model again, and a
//! damaged file is refused.

use kestrel_chess::{Board, Color};
use kestrel_nnue_train::format::{Outcome, PackedPosition, write_all};
use kestrel_nnue_train::wdl_data::load_wdl_data;
use kestrel_search::wdl::{wdl_material, win_loss};
use kestrel_testdata::ScratchDir;
use kestrel_tools::wdl_constants::WdlConstants;
use kestrel_tools::wdl_fit::{WDL_MAX_CP, fit, loss};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An empty folder for one test, removed when the test passes.
fn temp_dir(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("wdl-data-{name}"))
}

/// Positions after 0 to 199 random legal plies from the start: every amount of material.
fn random_positions(rng: &mut ChaCha8Rng, n: usize) -> Vec<Board> {
    (0..n)
        .map(|_| {
            let mut board = Board::startpos();
            for _ in 0..rng.random_range(0..200) {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board.make_move(moves[rng.random_range(0..moves.len())]);
            }
            board
        })
        .collect()
}

/// `n` records whose results (for the side to move) follow the model `truth`, stored as the
/// format wants them: the score for the side to move, the result for White.
fn records_from_model(truth: &WdlConstants, n: usize, seed: u64) -> Vec<PackedPosition> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let boards = random_positions(&mut rng, 400);
    (0..n)
        .map(|_| {
            let board = &boards[rng.random_range(0..boards.len())];
            let cp: i16 = rng.random_range(-700..=700);
            let (w, l) = win_loss(f64::from(cp), wdl_material(board), &truth.a, &truth.b);
            let mover = board.side_to_move();
            let u: f64 = rng.random();
            let outcome = if u < w {
                Outcome::win_for(mover)
            } else if u < w + l {
                Outcome::win_for(mover.flip())
            } else {
                Outcome::Draw
            };
            PackedPosition::pack(board, cp, outcome)
        })
        .collect()
}

/// The model the tests' results are drawn from: `a = 120 + 200 x`, `b = 70 + 80 x`.
fn truth() -> WdlConstants {
    WdlConstants {
        a: vec![120.0, 200.0],
        b: vec![70.0, 80.0],
    }
}

#[test]
fn the_fit_on_a_data_file_recovers_the_model_that_drew_the_results() {
    let truth = truth();
    let records = records_from_model(&truth, 30_000, 7);
    let black_to_move = records
        .iter()
        .filter(|r| r.side_to_move() == Color::Black)
        .count();
    assert!(black_to_move > 10_000 && black_to_move < 20_000);
    let dir = temp_dir("recover");
    let path = dir.join("positions.kpos");
    write_all(&path, &records).unwrap();
    let data = load_wdl_data(&path, 0.1, WDL_MAX_CP).unwrap();
    assert_eq!(data.records, 30_000);
    assert_eq!(data.left_out, 0);
    assert_eq!(data.train.len() + data.validation.len(), 30_000);
    assert!((2900..3100).contains(&data.validation_records));
    let start = WdlConstants {
        a: vec![250.0, 0.0],
        b: vec![60.0, 0.0],
    };
    let found = fit(&data.train, &start, 1);
    for (f, t) in found
        .a
        .iter()
        .chain(&found.b)
        .zip(truth.a.iter().chain(&truth.b))
    {
        assert!((f - t).abs() < 30.0, "found {found:?}, truth {truth:?}");
    }
    let (fitted, true_loss) = (
        loss(&data.validation, &found),
        loss(&data.validation, &truth),
    );
    assert!(fitted < loss(&data.validation, &start) - 0.05);
    assert!(fitted < true_loss + 0.01, "{fitted} vs {true_loss}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn results_read_from_whites_view_would_fit_a_worse_model() {
    // The same data with every result taken as the mover's (White's view read as the side to
    // move's): black-to-move positions then contradict their scores, and the loss shows it.
    let truth = truth();
    let records = records_from_model(&truth, 10_000, 8);
    let dir = temp_dir("views");
    let path = dir.join("positions.kpos");
    write_all(&path, &records).unwrap();
    let data = load_wdl_data(&path, 0.0, WDL_MAX_CP).unwrap();
    assert!(data.validation.is_empty());
    let mut misread = data.train.clone();
    for (sample, record) in misread.iter_mut().zip(&records) {
        sample.outcome = match record.outcome() {
            Outcome::WhiteWin => 1,
            Outcome::Draw => 0,
            Outcome::BlackWin => -1,
        };
    }
    let misread_fit = fit(&misread, &truth, 1);
    assert!(loss(&data.train, &truth) + 0.1 < loss(&misread, &misread_fit));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn missing_truncated_and_corrupt_files_are_errors_that_name_the_file() {
    let dir = temp_dir("damaged");
    let path = dir.join("positions.kpos");
    let missing = load_wdl_data(&path, 0.1, WDL_MAX_CP).unwrap_err();
    assert!(missing.to_string().contains("positions.kpos"), "{missing}");
    write_all(&path, &records_from_model(&truth(), 200, 9)).unwrap();
    let good = std::fs::read(&path).unwrap();
    std::fs::write(&path, &good[..good.len() - 7]).unwrap();
    let truncated = load_wdl_data(&path, 0.1, WDL_MAX_CP).unwrap_err();
    assert!(truncated.to_string().contains("truncated"), "{truncated}");
    let mut flipped = good.clone();
    flipped[100] ^= 0x10;
    std::fs::write(&path, &flipped).unwrap();
    let corrupt = load_wdl_data(&path, 0.1, WDL_MAX_CP).unwrap_err();
    assert!(corrupt.to_string().contains("checksum"), "{corrupt}");
    assert!(corrupt.to_string().contains(path.to_str().unwrap()));
    let _ = std::fs::remove_dir_all(dir);
}
