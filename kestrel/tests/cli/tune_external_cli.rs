//! `kestrel tune spsa --engine uci:PATH`: SPSA over an external engine's UCI options. The
//! test engine (`kestrel-toy-uci`, built with these tests) plays best at `Accuracy = 120`;
//! Kestrel itself through UCI follows the in-process run; bad input stops before any game;
//! faults are counted and their pairs replayed; a killed run resumes to the uninterrupted end.

use crate::common;
use common::{fixture, kestrel, stderr, stdout, temp_dir};
use std::path::Path;

const TOY: &str = env!("CARGO_BIN_EXE_kestrel-toy-uci");
const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");

/// `kestrel tune spsa --engine ENGINE` at 200 nodes on the 60 test openings, 2 threads.
fn tune(engine: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    tune_on(engine, out, "2", extra)
}

/// [`tune`] on `threads` threads.
fn tune_on(engine: &str, out: &Path, threads: &str, extra: &[&str]) -> std::process::Output {
    let openings = fixture("openings-2moves-60.epd");
    let out = out.display().to_string();
    let mut args = vec![
        "tune",
        "spsa",
        "--engine",
        engine,
        "--out",
        &out,
        "--openings",
        &openings,
        "--nodes",
        "200",
        "--threads",
        threads,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    kestrel(&args)
}

fn toy(args: &str) -> String {
    format!("uci:{TOY} {args}")
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The value a finished run's final.options gives `name`.
fn final_value(dir: &Path, name: &str) -> i64 {
    read(dir, "final.options")
        .lines()
        .find_map(|l| {
            l.strip_prefix(&format!("{name}="))
                .map(|v| v.parse().unwrap())
        })
        .unwrap()
}

#[test]
fn the_toy_engine_is_tuned_toward_its_best_value() {
    let dir = temp_dir("ext-toy");
    let input = dir.join("toy.spsa");
    std::fs::write(&input, "Accuracy, int, 40, 0, 400, 20, 0.02\n").unwrap();
    let adopted = dir.join("adopted.options");
    let gate = [
        "--verify-sprt",
        "0,50",
        "--verify-games",
        "200",
        "--adopt",
        adopted.to_str().unwrap(),
    ];
    for seed in ["1", "2"] {
        let out = dir.join(format!("run{seed}"));
        let gate: &[&str] = if seed == "1" { &gate } else { &[] };
        let o = tune(
            &toy(""),
            &out,
            &[
                gate,
                &[
                    "--input",
                    input.to_str().unwrap(),
                    "--iterations",
                    "40",
                    "--pairs",
                    "2",
                    "--seed",
                    seed,
                ],
            ]
            .concat(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let v = final_value(&out, "Accuracy");
        // From 40 (a random move every second turn) to near 120 (none).
        assert!((95..=145).contains(&v), "seed {seed}: Accuracy {v}");
        assert_eq!(read(&out, "final.openbench"), format!("Accuracy, {v}\n"));
        assert_eq!(read(&out, "spsa.csv").lines().count(), 41);
        assert!(read(&out, "summary.txt").contains("crashes 0, hangs 0, illegal moves 0"));
        assert!(out.join("spsa.svg").exists());
    }
    // The gate played the tuned values against the start (40) and adopted them.
    assert_eq!(
        std::fs::read_to_string(&adopted).unwrap(),
        read(&dir.join("run1"), "final.options")
    );
    // The options file plays in a match as --option-a @FILE.
    let opts = format!("@{}", dir.join("run1/final.options").display());
    let engine = toy("");
    let o = kestrel(&[
        "match",
        "-a",
        &engine,
        "--option-a",
        &opts,
        "-b",
        &engine,
        "--nodes",
        "100",
        "--games",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bad = dir.join("bad.options");
    std::fs::write(&bad, "Accuracy 3\n").unwrap();
    let bad = format!("@{}", bad.display());
    let o = kestrel(&[
        "match",
        "-a",
        &engine,
        "--option-a",
        &bad,
        "-b",
        &engine,
        "--nodes",
        "100",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("line 1: expected NAME=VALUE"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn kestrel_through_uci_follows_the_in_process_run() {
    let dir = temp_dir("ext-knight");
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, "[eval]\nKNIGHT_VALUE = 185\n").unwrap();
    let inproc = dir.join("inproc");
    let o = tune_in_process(&broken, &inproc);
    assert!(o.status.success(), "{}", stderr(&o));
    let input = dir.join("knight.spsa");
    std::fs::write(&input, "KNIGHT_VALUE, int, 185, 0, 1023, 60, 0.01\n").unwrap();
    let uci = dir.join("uci");
    let engine = format!("uci:{KESTREL} uci");
    let o = tune(
        &engine,
        &uci,
        &[
            "--option",
            "Hash=2",
            // The knight is a linear-evaluation weight, as in the in-process run.
            "--option",
            "UseNNUE=false",
            "--input",
            input.to_str().unwrap(),
            "--iterations",
            "12",
            "--pairs",
            "2",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&uci, "spsa.csv"), read(&inproc, "spsa.csv"));
    let knight = final_value(&uci, "KNIGHT_VALUE");
    assert!(read(&inproc, "final.toml").contains(&format!("KNIGHT_VALUE = {knight}")));
    assert!(knight > 185, "{knight}");
}

fn tune_in_process(params: &Path, out: &Path) -> std::process::Output {
    let openings = fixture("openings-2moves-60.epd");
    kestrel(&[
        "tune",
        "spsa",
        "--set",
        "KNIGHT_VALUE",
        "--table",
        "eval",
        "--params",
        params.to_str().unwrap(),
        "--c-end-scale",
        "6",
        "--r-end",
        "0.01",
        "--iterations",
        "12",
        "--pairs",
        "2",
        "--nodes",
        "200",
        "--hash",
        "2",
        "--openings",
        &openings,
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ])
}

#[test]
fn bad_input_stops_before_any_game_and_writes_nothing() {
    let dir = temp_dir("ext-bad");
    let out = dir.join("run");
    let input = dir.join("in.spsa");
    let input_arg = input.to_str().unwrap().to_string();
    let cases: &[(&str, &str, &[&str], &str)] = &[
        (
            "",
            "Nope, int, 1, 0, 2, 1, 0.002",
            &[],
            "Nope: the engine has no such option",
        ),
        (
            "",
            "Accuracy, int, 40, 0, 800, 20, 0.002",
            &[],
            "beyond the engine's [0, 400]",
        ),
        (
            "",
            "Fast, int, 0, 0, 1, 1, 0.002",
            &[],
            "Fast: the engine's option is a check",
        ),
        (
            "",
            "Accuracy, int, 40, 0, 400",
            &[],
            "line 1: expected NAME",
        ),
        (
            "",
            "Accuracy, int, forty, 0, 400, 20, 0.002",
            &[],
            "line 1: Accuracy: value 'forty'",
        ),
        (
            "--no-uciok",
            "Accuracy, int, 40, 0, 400, 20, 0.002",
            &["--engine-timeout", "1"],
            "no answer within",
        ),
        (
            "--no-readyok",
            "Accuracy, int, 40, 0, 400, 20, 0.002",
            &["--engine-timeout", "1"],
            "no readyok",
        ),
        (
            "",
            "Accuracy, int, 40, 0, 400, 20, 0.002",
            &["--option", "Depth=3"],
            "has no option 'Depth'",
        ),
    ];
    for (engine_args, line, extra, message) in cases {
        std::fs::write(&input, line).unwrap();
        let args = [&["--input", input_arg.as_str()], *extra].concat();
        let o = tune(&toy(engine_args), &out, &args);
        assert!(!o.status.success(), "{line}");
        assert!(stderr(&o).contains(message), "{line}: {}", stderr(&o));
        assert!(!out.exists(), "{line}: --out was written");
    }
    let o = tune("uci:/nonexistent/engine", &out, &["--set", "all"]);
    assert!(
        stderr(&o).contains("cannot run '/nonexistent/engine'"),
        "{}",
        stderr(&o)
    );
    let o = tune(&toy(""), &out, &["--set", "Fast"]);
    assert!(stderr(&o).contains("'Fast' is a check"), "{}", stderr(&o));
    assert!(!out.exists());
}

#[test]
fn a_crashed_pair_is_replayed_and_an_engine_that_keeps_failing_stops_the_tune() {
    let dir = temp_dir("ext-faults");
    let args = ["--set", "Accuracy", "--iterations", "6", "--pairs", "2"];
    let clean = dir.join("clean");
    let o = tune(&toy(""), &clean, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    // One engine process crashes once, at its 30th move: the pair is replayed from fresh
    // engines and the run's games are the clean run's.
    let marker = dir.join("crashed");
    let crashed = dir.join("crashed-run");
    let o = tune(
        &toy(&format!("--crash-once {} 30", marker.display())),
        &crashed,
        &args,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(marker.exists(), "the engine never crashed");
    // Same games and path; the faults column counts the crash from iteration 1 on.
    let without_faults = |dir: &Path| -> Vec<String> {
        read(dir, "spsa.csv")
            .lines()
            .map(|l| {
                let mut cols: Vec<&str> = l.split(',').collect();
                cols.remove(11);
                cols.join(",")
            })
            .collect()
    };
    assert_eq!(without_faults(&crashed), without_faults(&clean));
    let last = read(&crashed, "spsa.csv")
        .lines()
        .last()
        .unwrap()
        .to_string();
    assert_eq!(last.split(',').nth(11), Some("1"), "{last}");
    let summary = read(&crashed, "summary.txt");
    assert!(
        summary.contains("crashes 1, hangs 0, illegal moves 0, time losses 0, pairs replayed 1"),
        "{summary}"
    );
    for (fault, message) in [
        ("--crash-at 3", "keeps failing"),
        ("--illegal-at 2", "illegal move"),
        ("--hang-at 2", "hung"),
    ] {
        let out = dir.join(fault.replace(' ', ""));
        let o = tune(
            &toy(fault),
            &out,
            &[&args[..], &["--move-timeout", "1"]].concat(),
        );
        assert!(!o.status.success(), "{fault}");
        assert!(stderr(&o).contains(message), "{fault}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("keeps failing"),
            "{fault}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_killed_external_tune_resumes_to_the_uninterrupted_end_and_extends() {
    let dir = temp_dir("ext-resume");
    let input = dir.join("toy.spsa");
    // Hash frozen (c_end 0): sent at its start value, never moved.
    std::fs::write(
        &input,
        "Accuracy, int, 40, 0, 400, 20, 0.02\nHash, int, 1, 1, 16, 0, 0.002\n",
    )
    .unwrap();
    let args = [
        "--input",
        input.to_str().unwrap(),
        "--iterations",
        "30",
        "--checkpoint-every",
        "2",
    ];
    let whole = dir.join("whole");
    let o = tune(&toy(""), &whole, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(final_value(&whole, "Hash"), 1);
    assert!(
        stdout(&o).contains("Hash: 1 -> 1.00 (frozen)"),
        "{}",
        stdout(&o)
    );
    let part = dir.join("part");
    let openings = fixture("openings-2moves-60.epd");
    let engine = toy("");
    let part_dir = part.to_str().unwrap();
    let run_args = [
        "tune",
        "spsa",
        "--engine",
        &engine,
        "--out",
        part_dir,
        "--openings",
        &openings,
        "--nodes",
        "200",
        "--threads",
        "2",
        "--quiet",
    ];
    let checkpoint = part.join("checkpoint.json");
    common::kill_once_written(&[&run_args[..], &args[..]].concat(), &checkpoint);
    assert!(
        !read(&part, "checkpoint.json").contains("\"done\":30"),
        "ended before the kill"
    );
    let o = tune(&toy(""), &part, &[&args[..], &["--resume"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    for f in ["spsa.csv", "final.options", "checkpoint.json"] {
        assert_eq!(read(&part, f), read(&whole, f), "{f}");
    }
    // The finished run extended by 6 iterations: rows 31-36 added, the first 30 kept.
    let mut longer = args.to_vec();
    longer[3] = "36";
    let o = tune(
        &toy(""),
        &part,
        &[&longer[..], &["--resume", "--extend"]].concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("extended: 30 -> 36"), "{}", stdout(&o));
    let csv = read(&part, "spsa.csv");
    assert_eq!(csv.lines().count(), 37);
    assert!(csv.starts_with(&read(&whole, "spsa.csv")));
    let o = tune(
        &toy(""),
        &part,
        &[&args[..], &["--resume", "--extend"]].concat(),
    );
    assert!(
        stderr(&o).contains("--iterations must be more"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_lagged_tune_is_the_same_on_one_and_two_threads_and_keeps_its_lag() {
    let dir = temp_dir("ext-lag");
    let input = dir.join("toy.spsa");
    std::fs::write(&input, "Accuracy, int, 40, 0, 400, 20, 0.02\n").unwrap();
    let base = [
        "--input",
        input.to_str().unwrap(),
        "--pairs",
        "2",
        "--batch",
        "2",
        "--checkpoint-every",
        "4",
    ];
    let run = |name: &str, threads: &str, extra: &[&str]| {
        let out = dir.join(name);
        let o = tune_on(&toy(""), &out, threads, &[&base[..], extra].concat());
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        out
    };
    // Three batches of 2 iterations in play at once (lag 2), on 1 and 2 threads.
    let lagged = ["--iterations", "12", "--lag", "2"];
    let one = run("one", "1", &lagged);
    let two = run("two", "2", &lagged);
    for f in ["spsa.csv", "final.options", "checkpoint.json"] {
        assert_eq!(read(&one, f), read(&two, f), "{f}");
    }
    assert!(read(&one, "checkpoint.json").contains("\"lag\":2"));
    assert_eq!(read(&one, "spsa.csv").lines().count(), 13);
    // A run without lag writes the checkpoint of before the lag; extended without --lag, it
    // keeps its own (a resumed run of another lag would be refused).
    let classic = run("classic", "2", &["--iterations", "6", "--lag", "0"]);
    assert!(!read(&classic, "checkpoint.json").contains("\"lag\""));
    run(
        "classic",
        "2",
        &["--iterations", "8", "--resume", "--extend"],
    );
    assert_eq!(read(&classic, "spsa.csv").lines().count(), 9);
    assert!(!read(&classic, "checkpoint.json").contains("\"lag\""));
    let o = tune(
        &toy(""),
        &classic,
        &[
            &base[..],
            &["--iterations", "8", "--lag", "1", "--resume"][..],
        ]
        .concat(),
    );
    assert!(
        stderr(&o).contains("other parameters or settings"),
        "{}",
        stderr(&o)
    );
}
