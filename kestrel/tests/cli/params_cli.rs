//! One params file everywhere, the SPSA input and plain GA progress, as a user runs them.

use crate::common;
use common::{fixture, kestrel, stderr, stdout, temp_dir};

/// The node count of `kestrel bench DEPTH [--params FILE]` with the linear evaluation (the
/// one a params file's `[eval]` section sets).
fn bench_nodes(depth: &str, params: Option<&str>) -> u64 {
    let mut args = vec!["bench", depth, "--net", "linear"];
    if let Some(p) = params {
        args.extend(["--params", p]);
    }
    let o = kestrel(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let last = text.lines().last().expect("a bench line");
    last.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn bench_and_search_stats_read_an_evolved_eval_file() {
    let dir = temp_dir("params-cli-eval");
    let best = dir.join("best.toml");
    std::fs::write(&best, "[eval]\nPAWN_VALUE = 60\nKNIGHT_VALUE = 500\n").unwrap();
    let best = best.to_str().unwrap();
    // The file's evaluation is used: the same bench searches another tree.
    assert_ne!(bench_nodes("3", Some(best)), bench_nodes("3", None));
    let o = kestrel(&["search-stats", "--depth", "1", "--params", best]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn every_params_flag_names_the_flag_the_file_and_the_parameter() {
    let dir = temp_dir("params-cli-bad");
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "[eval]\nBISHOP_PAIR = 40\n[search]\nNOT_A_PARAM = 1\n",
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    let expected = format!("--params {bad}: [search] unknown parameter 'NOT_A_PARAM'");
    let bk = fixture("bk.epd");
    for args in [
        vec!["bench", "1", "--params", bad],
        vec!["search-stats", "--depth", "1", "--params", bad],
        vec!["eval", "--params", bad],
        vec!["epd", &bk, "--depth", "1", "--params", bad],
        vec!["tune", "spsa-input", "--params", bad],
    ] {
        let o = kestrel(&args);
        assert!(!o.status.success(), "{args:?} accepted a bad file");
        assert!(stderr(&o).contains(&expected), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn spsa_input_names_go_back_into_a_params_file() {
    let o = kestrel(&["tune", "spsa-input", "--set", "PST_KNIGHT,NULL_MOVE_R"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 128 + 1);
    assert!(
        lines
            .iter()
            .all(|l| l.split(", ").count() == 7 && l.contains(", int, "))
    );
    assert_eq!(lines[128], "NULL_MOVE_R, int, 4, 0, 7, 1, 0.002");
    // A tuner's result: `NAME, value` lines become a params file the engine reads.
    let dir = temp_dir("params-cli-spsa");
    let tuned = dir.join("tuned.toml");
    std::fs::write(
        &tuned,
        "[eval]\nPST_KNIGHT_EG_12 = -9\n[search]\nNULL_MOVE_R = 3\n",
    )
    .unwrap();
    let tuned = tuned.to_str().unwrap();
    let o = kestrel(&[
        "tune",
        "spsa-input",
        "--params",
        tuned,
        "--set",
        "PST_KNIGHT_EG_12,NULL_MOVE_R",
    ]);
    assert_eq!(
        stdout(&o),
        "PST_KNIGHT_EG_12, int, -9, -128, 127, 4, 0.002\nNULL_MOVE_R, int, 3, 0, 7, 1, 0.002\n"
    );
    let o = kestrel(&[
        "tune",
        "spsa-input",
        "--format",
        "json",
        "--set",
        "BISHOP_PAIR",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json[0]["name"], "BISHOP_PAIR");
    assert_eq!(json[0]["c_end"], 3.0);
    let o = kestrel(&["tune", "spsa-input", "--set", "USE_LMR"]);
    assert!(
        !o.status.success() && stderr(&o).contains("switch"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn evolve_prints_plain_progress_lines_without_a_terminal() {
    let out = temp_dir("params-cli-progress");
    let bk = fixture("bk.epd");
    let o = kestrel(&[
        "evolve",
        "search",
        "--suite",
        &bk,
        "--train-size",
        "3",
        "--node-cap",
        "200",
        "--population",
        "4",
        "--generations",
        "3",
        "--threads",
        "1",
        "--seed",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // stderr is a pipe here: no bar, but a line at the first and the last generation.
    let err = stderr(&o);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("generation "))
        .collect();
    assert!(lines.len() >= 2, "{err}");
    assert!(
        lines[0].starts_with("generation 1/3 (") && lines[0].contains("best "),
        "{err}"
    );
    assert!(
        lines.last().unwrap().starts_with("generation 3/3 ("),
        "{err}"
    );
}

#[test]
fn simplify_writes_a_params_file_with_the_unneeded_changes_reverted() {
    let out = temp_dir("params-cli-simplify");
    let bk = fixture("bk.epd");
    let evolved = out.join("evolved.toml");
    // CHESSMAPS_BOTH_WEIGHT is unused at QUIET_ORDER 0: drift that must go back to its default.
    std::fs::write(&evolved, "[search]\nCHESSMAPS_BOTH_WEIGHT = 500\n").unwrap();
    let out_arg = out.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["evolve", "search", "--suite", &bk, "--node-cap", "300"];
        args.extend_from_slice(&["--seed", "2", "--out", out_arg]);
        args.extend_from_slice(extra);
        kestrel(&args)
    };
    let o = run(&["--simplify", evolved.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("0 of 1 changes kept"), "{text}");
    assert!(text.contains("on the 12 test positions"), "{text}");
    let written = std::fs::read_to_string(out.join("simplified.toml")).unwrap();
    assert!(written.contains("CHESSMAPS_BOTH_WEIGHT = 64"), "{written}");
    let o = run(&[
        "--simplify",
        evolved.to_str().unwrap(),
        "--simplify-tolerance",
        "2",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--simplify-tolerance must be within [0, 1)"));
    let missing = out.join("missing.toml");
    let o = run(&["--simplify", missing.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("missing.toml"), "{}", stderr(&o));
}
