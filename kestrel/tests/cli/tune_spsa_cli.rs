//! `kestrel tune spsa` from the command line: bad input is a clear error with a non-zero exit;
//! a short run writes its files and resumes to the same end.

use crate::common;
use common::{fixture, kestrel, stderr, stdout, temp_dir};

fn spsa(out: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let openings = fixture("openings-2moves-60.epd");
    let out = out.display().to_string();
    let mut args = vec![
        "tune",
        "spsa",
        "--out",
        &out,
        "--openings",
        &openings,
        "--nodes",
        "200",
        "--threads",
        "1",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    kestrel(&args)
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = temp_dir("spsa-bad");
    let out = dir.join("run");
    let o = spsa(&out, &["--set", "NOT_A_PARAM"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("unknown parameter 'NOT_A_PARAM'"),
        "{}",
        stderr(&o)
    );
    let input = dir.join("in.txt");
    let input_arg = input.display().to_string();
    for (line, message) in [
        (
            "KNIGHT_VALUE, int, 300, 0, 1023, -1, 0.002",
            "step (c_end) must be 0 (frozen) or above",
        ),
        (
            "KNIGHT_VALUE, int, 300, 400, 1023, 10, 0.002",
            "outside its range",
        ),
        ("USE_LMR, int, 1, 0, 1, 1, 0.002", "switch or a choice"),
    ] {
        std::fs::write(&input, line).unwrap();
        let o = spsa(&out, &["--input", &input_arg]);
        assert!(!o.status.success(), "{line}");
        assert!(stderr(&o).contains(message), "{line}: {}", stderr(&o));
    }
    let missing = dir.join("no-such-book.epd").display().to_string();
    let out_arg = out.display().to_string();
    let o = kestrel(&[
        "tune",
        "spsa",
        "--out",
        &out_arg,
        "--set",
        "KNIGHT_VALUE",
        "--openings",
        &missing,
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot read openings file") && stderr(&o).contains(&missing),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists(), "no run folder for bad input");
}

#[test]
fn a_killed_run_resumes_to_the_uninterrupted_end() {
    let dir = temp_dir("spsa-run");
    let whole = dir.join("whole");
    let args = [
        "--set",
        "BISHOP_PAIR",
        "--table",
        "eval",
        "--iterations",
        "60",
        "--checkpoint-every",
        "2",
    ];
    let o = spsa(&whole, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("BISHOP_PAIR: "), "{}", stdout(&o));
    for f in ["spsa.csv", "spsa.svg", "final.toml", "checkpoint.json"] {
        assert!(whole.join(f).exists(), "{f}");
    }
    // Kill a second run as soon as its first checkpoint is written.
    let part = dir.join("part");
    let openings = fixture("openings-2moves-60.epd");
    let part_dir = part.display().to_string();
    let run_args = [
        "tune",
        "spsa",
        "--out",
        &part_dir,
        "--openings",
        &openings,
        "--nodes",
        "200",
        "--threads",
        "1",
        "--quiet",
    ];
    let checkpoint = part.join("checkpoint.json");
    common::kill_once_written(&[&run_args[..], &args[..]].concat(), &checkpoint);
    let text = std::fs::read_to_string(&checkpoint).unwrap();
    assert!(
        !text.contains("\"done\":60"),
        "the run ended before it was killed"
    );
    // Starting over on a used folder is refused; --resume ends where `whole` ended.
    let o = spsa(&part, &args);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
    let o = spsa(&part, &[&args[..], &["--resume"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    for f in ["spsa.csv", "final.toml", "checkpoint.json"] {
        let read = |d: &std::path::Path| std::fs::read_to_string(d.join(f)).unwrap();
        assert_eq!(read(&part), read(&whole), "{f}");
    }
}

#[test]
fn adopt_writes_the_params_only_after_the_gate_passes() {
    let dir = temp_dir("spsa-gate");
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, "[eval]\nKNIGHT_VALUE = 185\n").unwrap();
    let adopted = dir.join("adopted.toml");
    let adopted_arg = adopted.display().to_string();
    let broken_arg = broken.display().to_string();
    // A halved knight tuned up is verified against the broken start and adopted.
    let o = spsa(
        &dir.join("good"),
        &[
            "--set",
            "KNIGHT_VALUE",
            "--table",
            "eval",
            "--params",
            &broken_arg,
            "--c-end-scale",
            "6",
            "--r-end",
            "0.01",
            "--iterations",
            "30",
            "--pairs",
            "2",
            "--verify-sprt",
            "0,20",
            "--verify-games",
            "600",
            "--adopt",
            &adopted_arg,
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("H1 accepted"), "{}", stdout(&o));
    let text = std::fs::read_to_string(&adopted).unwrap();
    let knight: i32 = text
        .lines()
        .find_map(|l| l.strip_prefix("KNIGHT_VALUE = "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(knight > 225, "{knight}");
    // Two games decide nothing: the file is not written.
    std::fs::remove_file(&adopted).unwrap();
    let o = spsa(
        &dir.join("short"),
        &[
            "--set",
            "BISHOP_PAIR",
            "--table",
            "eval",
            "--iterations",
            "2",
            "--verify-sprt",
            "0,20",
            "--verify-games",
            "2",
            "--adopt",
            &adopted_arg,
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("not adopted"), "{}", stdout(&o));
    assert!(!adopted.exists());
}
