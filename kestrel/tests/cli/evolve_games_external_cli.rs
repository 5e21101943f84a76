//! `kestrel evolve games --engine uci:PATH`: the games GA over an external engine's options.
//! The test engine (`kestrel-toy-uci`) plays best at `Accuracy = 120`; from 40 the GA's
//! organisms climb toward it against the engine at its start values, an options file or
//! another engine.

use crate::common;
use common::{fixture, kestrel, stderr, temp_dir};
use std::path::Path;

const TOY: &str = env!("CARGO_BIN_EXE_kestrel-toy-uci");

fn evolve(out: &Path, extra: &[&str]) -> std::process::Output {
    let openings = fixture("openings-2moves-60.epd");
    let engine = format!("uci:{TOY}");
    let out = out.display().to_string();
    let mut args = vec![
        "evolve",
        "games",
        "--engine",
        &engine,
        "--openings",
        &openings,
        "--nodes",
        "200",
        "--population",
        "8",
        "--generations",
        "6",
        "--first-pairs",
        "2",
        "--rounds",
        "2",
        "--start-spread",
        "0.2",
        "--threads",
        "2",
        "--quiet",
        "--out",
        &out,
    ];
    args.extend_from_slice(extra);
    kestrel(&args)
}

fn option(dir: &Path, file: &str, name: &str) -> String {
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}=")).map(str::to_string))
        .unwrap_or_else(|| panic!("{name} missing from {text}"))
}

#[test]
fn the_ga_moves_the_toy_engine_toward_its_best_value() {
    let dir = temp_dir("ext-ga");
    let o = evolve(&dir.join("start"), &["--set", "all", "--seed", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let centre: i64 = option(&dir.join("start"), "centre.options", "Accuracy")
        .parse()
        .unwrap();
    assert!(centre >= 80, "Accuracy centre {centre} (from 40, best 120)");
    // Every generation's games and the engine's faults, and their total in the summary.
    let ledger = std::fs::read_to_string(dir.join("start/faults.csv")).unwrap();
    let games: Vec<u64> = ledger
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<u64> = l.split(',').map(|x| x.parse().unwrap()).collect();
            assert_eq!(f[2..], [0, 0, 0, 0, 0], "no faults: {l}");
            f[1]
        })
        .collect();
    assert_eq!(games.len(), 6, "{ledger}");
    assert!(games.iter().all(|&g| g > 0 && g % 2 == 0 && g == games[0]));
    let summary = std::fs::read_to_string(dir.join("start/summary.txt")).unwrap();
    let line = format!(
        "{} games; faults of {TOY}: crashes 0, hangs 0, illegal moves 0, time losses 0, pairs replayed 0",
        games.iter().sum::<u64>()
    );
    assert!(summary.contains(&line), "{summary}");
    // The check option is a gene too.
    assert!(
        ["true", "false"].contains(&option(&dir.join("start"), "best.options", "Fast").as_str())
    );
    // Against an options file, and against another engine.
    let file = dir.join("opp.options");
    std::fs::write(&file, "Accuracy=100\n").unwrap();
    let o = evolve(
        &dir.join("file"),
        &[
            "--set",
            "Accuracy",
            "--opponent-options",
            file.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let toy = format!("uci:{TOY}");
    let o = evolve(
        &dir.join("other"),
        &["--set", "Accuracy", "--opponent", &toy, "--opponent", &toy],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::write(&file, "Nope=1\n").unwrap();
    let o = evolve(
        &dir.join("bad"),
        &[
            "--set",
            "Accuracy",
            "--opponent-options",
            file.to_str().unwrap(),
        ],
    );
    assert!(stderr(&o).contains("no option 'Nope'"), "{}", stderr(&o));
    assert!(!dir.join("bad").exists());
    // An opponent that crashes at every process's third move: the GA stops with an error.
    let crashing = format!("uci:{TOY} --crash-at 3");
    let o = evolve(
        &dir.join("crash"),
        &["--set", "Accuracy", "--opponent", &crashing],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("keeps failing"), "{}", stderr(&o));
    let o = evolve(
        &dir.join("bad"),
        &["--set", "Accuracy", "--opponent", "uci:/nonexistent/x"],
    );
    assert!(
        stderr(&o).contains("cannot run '/nonexistent/x'"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("bad").exists());
}
