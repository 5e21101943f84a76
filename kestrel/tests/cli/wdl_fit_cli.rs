//! `kestrel wdl-fit` from the command line: fitted on a data file or a run folder (with a
//! validation part), or on games it plays; a missing, truncated or corrupt file is one clear
//! error line naming the flag and the file.

use crate::common;
use common::{kestrel, stderr, stdout, temp_dir};
use kestrel_chess::Board;
use kestrel_nnue_train::format::{Outcome, PackedPosition, write_all};
use kestrel_search::wdl::{wdl_material, win_loss};

/// A small deterministic generator (xorshift64*), uniform in [0, 1).
struct Uniform(u64);

impl Uniform {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `n` records of positions of several material levels, both sides to move, scores within
/// ±600 and results drawn from the model `(150 + 100 m/58, 60 + 60 m/58)` for the mover.
fn records(n: usize) -> Vec<PackedPosition> {
    let boards: Vec<Board> = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r4rk1/pp3ppp/2n5/8/8/2N5/PP3PPP/R4RK1 b - - 0 20",
        "4r1k1/pp3ppp/8/8/8/8/PP3PPP/4R1K1 w - - 0 30",
        "6k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 45",
    ]
    .iter()
    .map(|fen| Board::from_fen(fen).unwrap())
    .collect();
    let mut rng = Uniform(0x9e37_79b9_7f4a_7c15);
    (0..n)
        .map(|i| {
            let board = &boards[i % boards.len()];
            let cp = (rng.next() * 1200.0 - 600.0).round();
            let (w, l) = win_loss(cp, wdl_material(board), &[150.0, 100.0], &[60.0, 60.0]);
            let u = rng.next();
            let mover = board.side_to_move();
            let outcome = if u < w {
                Outcome::win_for(mover)
            } else if u < w + l {
                Outcome::win_for(mover.flip())
            } else {
                Outcome::Draw
            };
            PackedPosition::pack(board, cp as i16, outcome)
        })
        .collect()
}

/// The (training, validation) log-loss on the output line that starts with `label`.
fn losses(out: &str, label: &str) -> (f64, f64) {
    let line = out.lines().find(|l| l.starts_with(label)).unwrap();
    let numbers: Vec<f64> = line[label.len()..]
        .split_whitespace()
        .take(2)
        .map(|x| x.parse().unwrap())
        .collect();
    (numbers[0], numbers[1])
}

fn fit_ok(args: &[&str]) -> String {
    let o = kestrel(args);
    assert!(o.status.success(), "{args:?}\n{}", stderr(&o));
    stdout(&o)
}

fn fails_with(args: &[&str], expected: &[&str]) {
    let o = kestrel(args);
    let err = stderr(&o);
    assert!(!o.status.success(), "{args:?} succeeded:\n{}", stdout(&o));
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    for words in expected {
        assert!(err.contains(words), "{words:?} not in {err}");
    }
}

#[test]
fn a_data_file_and_its_run_folder_give_the_same_fit_that_beats_the_old_constants() {
    let dir = temp_dir("wdl-fit-data");
    let file = dir.join("positions.kpos");
    write_all(&file, &records(4000)).unwrap();
    let out = fit_ok(&["wdl-fit", "--data", file.to_str().unwrap()]);
    assert!(out.contains("4000 records"), "{out}");
    assert!(out.contains("validation: 400 positions"), "{out}");
    let (train_now, val_now) = losses(&out, "current constants");
    let (train_fit, val_fit) = losses(&out, "fitted constants");
    assert!(train_fit < train_now && val_fit < val_now, "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("const WDL_FIT: ([f64; "), "{out}");
    // A run folder is read to the bytes its progress file names.
    let bytes = std::fs::metadata(&file).unwrap().len();
    std::fs::write(dir.join("progress.json"), format!("{{\"bytes\": {bytes}}}")).unwrap();
    let by_folder = fit_ok(&["wdl-fit", "--data", dir.to_str().unwrap()]);
    assert_eq!(by_folder, out);
    let by_material = fit_ok(&[
        "wdl-fit",
        "--data",
        file.to_str().unwrap(),
        "--validation-fraction",
        "0.25",
        "--by-material",
    ]);
    assert!(
        by_material.contains("validation: 1000 positions"),
        "{by_material}"
    );
    assert!(by_material.contains("own fit"), "{by_material}");
}

#[test]
fn missing_truncated_and_corrupt_data_are_one_clear_error_line() {
    let dir = temp_dir("wdl-fit-bad");
    let file = dir.join("positions.kpos");
    let name = file.to_str().unwrap();
    fails_with(&["wdl-fit", "--data", name], &["--data", name]);
    write_all(&file, &records(300)).unwrap();
    let good = std::fs::read(&file).unwrap();
    std::fs::write(&file, &good[..good.len() - 5]).unwrap();
    fails_with(&["wdl-fit", "--data", name], &["--data", name, "truncated"]);
    let mut flipped = good.clone();
    flipped[200] ^= 1;
    std::fs::write(&file, &flipped).unwrap();
    fails_with(&["wdl-fit", "--data", name], &["--data", name, "checksum"]);
    std::fs::write(&file, b"not a position file at all").unwrap();
    fails_with(&["wdl-fit", "--data", name], &["--data", name, "magic"]);
    fails_with(
        &["wdl-fit", "--data", dir.to_str().unwrap()],
        &["progress.json"],
    );
    write_all(&file, &records(50)).unwrap();
    fails_with(
        &["wdl-fit", "--data", name],
        &["only 45 scored training positions"],
    );
    write_all(&file, &records(300)).unwrap();
    let fraction = ["--validation-fraction", "1"];
    fails_with(
        &["wdl-fit", "--data", name, fraction[0], fraction[1]],
        &["[0, 1)"],
    );
    let o = kestrel(&["wdl-fit", "--data", name, "--games", "10"]);
    assert!(!o.status.success() && stderr(&o).contains("cannot be used with"));
}

#[test]
fn the_games_path_still_plays_and_fits() {
    let out = fit_ok(&[
        "wdl-fit",
        "--games",
        "4",
        "--nodes",
        "400",
        "--skip-plies",
        "2",
    ]);
    assert!(out.contains("4 games"), "{out}");
    let (current, fitted) = {
        let line = out
            .lines()
            .find(|l| l.starts_with("mean log-loss"))
            .unwrap();
        let nums: Vec<f64> = line
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter_map(|x| x.parse().ok())
            .collect();
        (nums[0], nums[1])
    };
    assert!(fitted <= current, "{out}");
}
