//! `kestrel nnue error` from the command line: the evaluation that scored a data set has no
//! error and another one has some, the figures do not depend on `--threads`, and bad input is a
//! one-line error that writes no CSV.

use crate::common;
use common::{kestrel, stderr, stdout, temp_dir};
use kestrel_chess::Board;
use kestrel_eval::Evaluator;
use kestrel_nnue_train::format::{NO_SCORE, Outcome, PackedPosition, write_all};
use std::path::Path;

/// `n` positions of pseudo-random games scored by the default linear evaluation (side to
/// move's view, as a `.kpos` score), every fifth left unscored.
fn positions_scored_by_linear(n: usize) -> Vec<PackedPosition> {
    let evaluator = Evaluator::default();
    let (mut board, mut step, mut out) = (Board::startpos(), 0usize, Vec::new());
    while out.len() < n {
        let moves = board.legal_moves();
        if moves.is_empty() || board.fullmove_number() > 40 {
            board = Board::startpos();
            continue;
        }
        step += 1;
        board.make_move(moves.as_slice()[(step * 104_729) % moves.len()]);
        let score = if out.len() % 5 == 4 {
            NO_SCORE
        } else {
            evaluator.evaluate(&board) as i16
        };
        out.push(PackedPosition::pack(&board, score, Outcome::Draw));
    }
    out
}

/// The table's row of `name`, split on whitespace.
fn row<'a>(table: &'a str, name: &str) -> Vec<&'a str> {
    table
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.first() == Some(&name))
        .unwrap_or_else(|| panic!("no row {name} in\n{table}"))
}

fn error_run(data: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["nnue", "error", "--data", data.to_str().unwrap()];
    args.extend_from_slice(extra);
    kestrel(&args)
}

#[test]
fn the_scoring_evaluation_has_no_error_and_others_have_some_on_any_thread_count() {
    let dir = temp_dir("nnue-error");
    let data = dir.join("linear.kpos");
    write_all(&data, &positions_scored_by_linear(500)).unwrap();
    let params = dir.join("knight.toml");
    std::fs::write(&params, "[eval]\nKNIGHT_VALUE = 500\n").unwrap();
    let network = if kestrel_nnue::has_builtin_network() {
        "builtin"
    } else {
        params.to_str().unwrap()
    };
    let evals = format!("linear,{},{network}", params.display());
    let run = |threads: &str, csv: &str| {
        let csv = dir.join(csv);
        let o = error_run(
            &data,
            &[
                "--eval",
                &evals,
                "--threads",
                threads,
                "--csv",
                csv.to_str().unwrap(),
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        (stdout(&o), std::fs::read_to_string(csv).unwrap())
    };
    let (table, csv) = run("1", "one.csv");
    assert!(
        table.starts_with("500 positions read, 400 scored (100 without a score skipped)"),
        "{table}"
    );
    assert_eq!(
        row(&table, "linear"),
        ["linear", "400", "0.00", "0.00", "0.000000", "+0.00"]
    );
    for name in [params.to_str().unwrap(), network] {
        let r = row(&table, name);
        assert_eq!(r[1], "400");
        let mean_abs: f64 = r[2].parse().unwrap();
        let loss: f64 = r[4].parse().unwrap();
        assert!(mean_abs > 1.0 && loss > 0.0, "{name}: {r:?}");
    }
    // The CSV holds the same rows.
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(lines[0].starts_with("evaluation,positions,mean_abs_cp,rms_cp,loss,bias_cp"));
    assert!(lines[1].starts_with("linear,400,0.0000,0.0000,0.00000000,0.0000,"));
    assert_eq!(run("2", "two.csv"), (table, csv));
}

#[test]
fn bad_inputs_are_one_line_errors_that_write_no_csv() {
    let dir = temp_dir("nnue-error-bad");
    let good = dir.join("good.kpos");
    write_all(&good, &positions_scored_by_linear(50)).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.join("truncated.kpos");
    std::fs::write(&truncated, &bytes[..bytes.len() - 10]).unwrap();
    let corrupt = dir.join("corrupt.kpos");
    let mut flipped = bytes.clone();
    flipped[40] ^= 0x10;
    std::fs::write(&corrupt, flipped).unwrap();
    let unscored = dir.join("unscored.kpos");
    let none: Vec<PackedPosition> = positions_scored_by_linear(20)
        .into_iter()
        .map(|r| r.with_score(NO_SCORE))
        .collect();
    write_all(&unscored, &none).unwrap();
    let bad_params = dir.join("bad.toml");
    std::fs::write(&bad_params, "[eval]\nNO_SUCH_TERM = 3\n").unwrap();
    let bad_net = dir.join("bad.knet");
    std::fs::write(&bad_net, b"KSTRLNET but not a network").unwrap();
    let missing = dir.join("missing.kpos");
    let cases: Vec<(&Path, String, &str)> = vec![
        (&missing, "linear".into(), "missing.kpos"),
        (&truncated, "linear".into(), "truncated"),
        (&corrupt, "linear".into(), "checksum mismatch"),
        (
            &unscored,
            "linear".into(),
            "no position of the data carries a score",
        ),
        (&good, bad_params.display().to_string(), "NO_SUCH_TERM"),
        (
            &good,
            bad_net.display().to_string(),
            "not a usable Kestrel network",
        ),
        (&good, "lnear".into(), "unknown evaluation"),
        (
            &good,
            "/nonexistent/net.knet".into(),
            "--eval /nonexistent/net.knet",
        ),
    ];
    let csv = dir.join("out.csv");
    for (data, eval, why) in cases {
        let o = error_run(data, &["--eval", &eval, "--csv", csv.to_str().unwrap()]);
        let err = stderr(&o);
        assert!(!o.status.success(), "{eval} on {data:?} accepted");
        assert!(err.contains(why), "{eval} on {data:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
        assert!(!csv.exists(), "{eval} on {data:?} wrote a csv");
    }
    let o = error_run(&good, &["--eval", "linear", "--scale", "0"]);
    assert!(!o.status.success() && stderr(&o).contains("--scale"));
}

#[test]
fn every_flag_shows_its_default() {
    let o = kestrel(&["nnue", "error", "--help"]);
    assert!(o.status.success());
    let help = stdout(&o);
    for flag in ["--eval", "--max-positions", "--scale", "--threads", "--csv"] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(flag))
            .unwrap_or_else(|| panic!("no {flag} in\n{help}"));
        assert!(line.contains("default"), "{line}");
    }
    assert!(help.contains("[default: linear builtin]"), "{help}");
}
