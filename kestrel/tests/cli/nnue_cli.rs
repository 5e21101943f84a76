//! `kestrel nnue data`, `label` and `blend` from the command line: positions from recorded
//! games, labelled by Kestrel itself as a UCI mentor, resumable and independent of the number
//! of mentor processes; bad input is a clear error.

use crate::common;
use common::{fixture, kestrel, stderr, stdout, temp_dir};
use kestrel_nnue_train::format::read_all;
use std::path::Path;
use std::process::Output;

fn run_ok(args: &[&str]) -> String {
    let o = kestrel(args);
    assert!(
        o.status.success(),
        "{args:?}\n{}\n{}",
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

/// Runs `kestrel args` and asserts it fails with `needle` in its error output.
fn assert_refused(args: &[&str], needle: &str) {
    let o = kestrel(args);
    assert!(
        !o.status.success() && stderr(&o).contains(needle),
        "{}",
        stderr(&o)
    );
}

/// `kestrel eval` of the start position with the network file `knet`.
fn eval_start_with(knet: &Path) -> String {
    run_ok(&[
        "eval",
        "--fen",
        kestrel_chess::START_FEN,
        "--net",
        knet.to_str().unwrap(),
    ])
}

fn data_of(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join("positions.kpos")).unwrap()
}

/// The arguments of `kestrel nnue train` for a small network (8 hidden, two epochs) on `data`
/// into `out`.
fn small_train_args<'a>(data: &'a Path, out: &'a Path) -> Vec<&'a str> {
    vec![
        "nnue",
        "train",
        "--data",
        data.to_str().unwrap(),
        "--hidden",
        "8",
        "--epochs",
        "2",
        "--batch",
        "64",
        "--lambda",
        "0.5",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]
}

/// `kestrel nnue data` scoring three recorded games at 300 nodes into `out`, plus `extra` flags.
fn score_games(out: &Path, extra: &[&str]) -> Output {
    let games = fixture("gm-games-40.pgn");
    let mut args = vec![
        "nnue",
        "data",
        "--from-pgn",
        &games,
        "--games",
        "3",
        "--nodes",
        "300",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    kestrel(&args)
}

/// `kestrel nnue label` of `input` by `mentor` into `out`, with the default settings.
fn label_with(input: &Path, mentor: &str, out: &Path) -> Output {
    kestrel(&[
        "nnue",
        "label",
        "--in",
        input.to_str().unwrap(),
        "--mentor",
        mentor,
        "--out",
        out.to_str().unwrap(),
    ])
}

/// The arguments of `kestrel nnue blend` of `own` and `mentor` at `weight` into `out`.
fn blend_args<'a>(weight: &'a str, own: &'a Path, mentor: &'a Path, out: &'a Path) -> Vec<&'a str> {
    vec![
        "nnue",
        "blend",
        "--own",
        own.to_str().unwrap(),
        "--mentor",
        mentor.to_str().unwrap(),
        "--mentor-weight",
        weight,
        "--out",
        out.to_str().unwrap(),
    ]
}

#[test]
fn pgn_positions_are_labelled_by_a_uci_mentor_resumably() {
    let dir = temp_dir("nnue-label");
    let pgn = fixture("gm-games-40.pgn");
    let unscored = dir.join("unscored");
    run_ok(&[
        "nnue",
        "data",
        "--from-pgn",
        &pgn,
        "--no-score",
        "--games",
        "6",
        "--quiet",
        "--out",
        unscored.to_str().unwrap(),
    ]);
    let input = read_all(&unscored.join("positions.kpos")).unwrap();
    assert!(input.len() > 100, "{} positions", input.len());
    assert!(input.iter().all(|r| r.score().is_none()));
    let input_path = unscored.join("positions.kpos");
    let mentor = format!("uci:{}", env!("CARGO_BIN_EXE_kestrel"));
    let label = |out: &Path, threads: &str, extra: &[&str]| {
        let mut args = vec![
            "nnue",
            "label",
            "--in",
            input_path.to_str().unwrap(),
            "--mentor",
            &mentor,
            "--depth",
            "3",
            "--batch",
            "40",
            "--threads",
            threads,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        run_ok(&args)
    };
    let straight = dir.join("straight");
    let text = label(&straight, "2", &[]);
    assert!(text.contains("labelled"), "{text}");
    let labelled = read_all(&straight.join("positions.kpos")).unwrap();
    assert!(
        labelled.len() > input.len() / 2,
        "{} of {}",
        labelled.len(),
        input.len()
    );
    assert!(labelled.iter().all(|r| r.score().is_some()));
    assert!(labelled.iter().any(|r| r.score() != Some(0)));

    // Stopped after 80 positions (two batches), then continued by one process: the same
    // bytes. Stopped inside a batch (50), the blocks are cut elsewhere but the records agree.
    let resumed = dir.join("resumed");
    label(&resumed, "1", &["--positions", "80"]);
    let text = label(&resumed, "1", &[]);
    assert!(text.contains("resumed           at position 80"), "{text}");
    assert!(
        data_of(&straight) == data_of(&resumed),
        "resumed labels differ"
    );
    let uneven = dir.join("uneven");
    label(&uneven, "2", &["--positions", "50"]);
    label(&uneven, "2", &[]);
    assert!(read_all(&uneven.join("positions.kpos")).unwrap() == labelled);
}

#[test]
fn recorded_games_scored_by_kestrel_carry_scores_and_results() {
    let dir = temp_dir("nnue-pgn-scored");
    let out = dir.join("scored");
    let o = score_games(&out, &["--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("games             3"), "{text}");
    let records = read_all(&out.join("positions.kpos")).unwrap();
    assert!(!records.is_empty());
    assert!(records.iter().all(|r| r.score().is_some()));

    let net_dir = dir.join("net");
    check_training_runs_resume_and_finish(&out, &net_dir);
    check_mirroring_is_a_setting_of_the_run(&out, &dir, &net_dir);
    check_output_buckets_are_recorded(&out, &dir);
    check_king_buckets_are_recorded(&out, &dir);
    check_corrupt_checkpoint_is_refused(&out, &net_dir);
    check_games_scored_by_a_network(&dir, &out, &net_dir.join("net.knet"));
}

/// A small network trained on the scored games (the run folder stands for its data file),
/// exported, and the run continued by the same command.
fn check_training_runs_resume_and_finish(data: &Path, net_dir: &Path) {
    let train = || run_ok(&small_train_args(data, net_dir));
    let text = train();
    assert!(text.contains("float vs quantised"), "{text}");
    let net = kestrel_nnue::file::read(&net_dir.join("net.knet")).unwrap();
    assert_eq!(net.hidden, 8);
    for file in ["log.csv", "loss.svg", "checkpoint.bin", "summary.txt"] {
        assert!(net_dir.join(file).exists(), "{file}");
    }
    let log = std::fs::read_to_string(net_dir.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 3, "{log}");
    // Run again, the finished run is left as it was: nothing trained, the summary untouched.
    let summary = std::fs::read_to_string(net_dir.join("summary.txt")).unwrap();
    let again = train();
    assert!(again.contains("finished earlier  all 2 epochs"), "{again}");
    assert!(!again.contains("positions/s"), "{again}");
    let unchanged = std::fs::read_to_string(net_dir.join("summary.txt")).unwrap();
    assert_eq!(unchanged, summary);
    // A run killed between its last checkpoint and its summary gets the summary, with no speed.
    std::fs::remove_file(net_dir.join("summary.txt")).unwrap();
    let text = train();
    assert!(text.contains("resumed           after epoch 2"), "{text}");
    assert!(text.contains("no epoch trained by this call"), "{text}");
    let summary = std::fs::read_to_string(net_dir.join("summary.txt")).unwrap();
    assert!(summary.contains("mirror            on: "), "{summary}");
}

/// Mirroring (the default) is a setting of the run, and a bad λ is refused.
fn check_mirroring_is_a_setting_of_the_run(data: &Path, dir: &Path, net_dir: &Path) {
    // The folder is not continued without mirroring.
    let mut plain = small_train_args(data, net_dir);
    plain.push("--no-mirror");
    assert_refused(&plain, "other settings");
    let plain_dir = dir.join("net-plain");
    let mut plain = small_train_args(data, &plain_dir);
    plain.push("--no-mirror");
    let text = run_ok(&plain);
    assert!(text.contains("mirror            off"), "{text}");
    plain.push("--mirror");
    assert_refused(&plain, "--no-mirror");
    let (data, bad) = (data.to_str().unwrap(), dir.join("bad"));
    let bad_lambda = ["nnue", "train", "--data", data, "--lambda", "2", "--out"];
    assert_refused(
        &[&bad_lambda[..], &[bad.to_str().unwrap()]].concat(),
        "--lambda",
    );
}

/// Output buckets: the network records them, and a count beyond 31 is refused.
fn check_output_buckets_are_recorded(data: &Path, dir: &Path) {
    let bucketed_dir = dir.join("net-buckets");
    let mut bucketed = small_train_args(data, &bucketed_dir);
    bucketed.extend_from_slice(&["--output-buckets", "4"]);
    let text = run_ok(&bucketed);
    assert!(text.contains("(hidden 8, 4 output buckets)"), "{text}");
    let net = kestrel_nnue::file::read(&bucketed_dir.join("net.knet")).unwrap();
    assert_eq!((net.hidden, net.buckets, net.out_bias.len()), (8, 4, 4));
    let text = eval_start_with(&bucketed_dir.join("net.knet"));
    assert!(text.contains("hidden 8, 4 output buckets]"), "{text}");
    let last = bucketed.len() - 1;
    bucketed[last] = "32";
    assert_refused(&bucketed, "--output-buckets");
}

/// King-relative inputs: recorded in the network, mirroring in the inputs; a count other than 1,
/// 2 or 4 and `--mirror` beside them are refused.
fn check_king_buckets_are_recorded(data: &Path, dir: &Path) {
    let king_dir = dir.join("net-king");
    let mut king = small_train_args(data, &king_dir);
    king.extend_from_slice(&["--king-buckets", "2"]);
    let text = run_ok(&king);
    assert!(text.contains("(hidden 8, 2 king buckets)"), "{text}");
    assert!(text.contains("mirror            in the inputs"), "{text}");
    assert!(
        text.contains("held out          runs of 4096 consecutive positions"),
        "the default holdout: {text}"
    );
    let net = kestrel_nnue::file::read(&king_dir.join("net.knet")).unwrap();
    assert_eq!(
        net.inputs,
        kestrel_nnue::InputLayout::king_buckets(2).unwrap()
    );
    let text = eval_start_with(&king_dir.join("net.knet"));
    assert!(text.contains("hidden 8, 2 king buckets]"), "{text}");
    let last = king.len() - 1;
    king[last] = "3";
    assert_refused(&king, "3 king buckets");
    king[last] = "2";
    king.extend_from_slice(&["--holdout", "games"]);
    assert_refused(&king, "use runs or positions");
    let last = king.len() - 1;
    king[last] = "positions";
    let o = kestrel(&king);
    assert!(
        !o.status.success() && stderr(&o).contains("other settings"),
        "another split is another run: {}",
        stderr(&o)
    );
    king.truncate(king.len() - 2);
    king.push("--mirror");
    assert_refused(&king, "--king-buckets");
}

/// A corrupt checkpoint is refused, not silently restarted.
fn check_corrupt_checkpoint_is_refused(data: &Path, net_dir: &Path) {
    let ckpt = net_dir.join("checkpoint.bin");
    let mut bytes = std::fs::read(&ckpt).unwrap();
    let last = bytes.len() - 20;
    bytes[last] ^= 0xff;
    std::fs::write(&ckpt, bytes).unwrap();
    assert_refused(&small_train_args(data, net_dir), "checksum");
}

/// The same games scored by the network just trained (`--net`): the next round of data.
fn check_games_scored_by_a_network(dir: &Path, out: &Path, net_file: &Path) {
    let by_net = dir.join("scored-by-net");
    let o = score_games(&by_net, &["--net", net_file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("evaluation        hidden 8 fnv1a64 "),
        "{}",
        stdout(&o)
    );
    assert_ne!(data_of(&by_net), data_of(out));
    // `--net linear` names the default: the same data, and the linear run continues with it.
    let by_linear = dir.join("scored-by-linear");
    let o = score_games(&by_linear, &["--net", "linear"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(data_of(&by_linear), data_of(out));
    let o = score_games(out, &["--net", "linear"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let never = dir.join("never");
    let o = score_games(&never, &["--net", "/nonexistent/n.knet"]);
    assert!(
        !o.status.success() && stderr(&o).contains("--net /nonexistent/n.knet"),
        "{}",
        stderr(&o)
    );
    assert!(!never.exists(), "nothing is written for a bad network");
}

#[test]
fn bad_mentors_and_corrupt_inputs_are_clear_errors() {
    let dir = temp_dir("nnue-bad");
    let input = dir.join("in.kpos");
    std::fs::write(
        &input,
        b"KSTRLPOS\x01\x00\x00\x00\x20\x00\x00\x00\x05\x00\x00\x00",
    )
    .unwrap();
    let mentor = format!("uci:{}", env!("CARGO_BIN_EXE_kestrel"));
    let o = label_with(&input, &mentor, &dir.join("a"));
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("block 0 is truncated"),
        "{}",
        stderr(&o)
    );
    let o = label_with(&input, "uci:/no/such/engine", &dir.join("b"));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("/no/such/engine"), "{}", stderr(&o));
    let o = kestrel(&["nnue", "data", "--out", dir.join("c").to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--games"), "{}", stderr(&o));
}

#[test]
fn own_scores_and_a_mentor_rescoring_are_blended_into_one_data_set() {
    let dir = temp_dir("nnue-blend");
    let own_dir = dir.join("own");
    let o = score_games(&own_dir, &["--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let own_path = own_dir.join("positions.kpos");
    let mentor_dir = dir.join("mentor");
    let mentor = format!("uci:{}", env!("CARGO_BIN_EXE_kestrel"));
    let o = label_with(&own_path, &mentor, &mentor_dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let own = read_all(&own_path).unwrap();
    let rescored = read_all(&mentor_dir.join("positions.kpos")).unwrap();

    let out = dir.join("blend.kpos");
    let text = run_ok(&blend_args("1", &own_path, &mentor_dir, &out));
    assert!(
        text.contains(&format!("blended           {} positions", rescored.len())),
        "{text}"
    );
    // With the whole weight on the mentor, the blend is the mentor's file.
    assert!(read_all(&out).unwrap() == rescored);
    let half = dir.join("half.kpos");
    run_ok(&blend_args("0.5", &own_path, &mentor_dir, &half));
    let half = read_all(&half).unwrap();
    let differ = half.iter().zip(&rescored).filter(|(a, b)| a != b).count();
    assert!(differ > 0 && half.len() == rescored.len() && own.len() >= half.len());

    assert_refused(&blend_args("0.5", &own_path, &mentor_dir, &out), "exists");
    let x = dir.join("x.kpos");
    assert_refused(
        &blend_args("1.5", &own_path, &mentor_dir, &x),
        "--mentor-weight",
    );
    // A mentor file that is not a rescoring of the own file: the own positions in its place.
    let y = dir.join("y.kpos");
    assert_refused(&blend_args("0.5", &mentor_dir, &own_path, &y), "rescoring");
    assert!(!dir.join("y.kpos").exists());
}
