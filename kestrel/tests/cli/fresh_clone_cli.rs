//! Every GA and tuner command runs on its defaults, at tiny sizes, in an empty folder with
//! nothing beside it (no `../shared`): what a user with a fresh clone gets. Also the run
//! folder's promises: a finished run is never replaced without `--overwrite`, a folder in use
//! is refused, and every run leaves a `summary.txt`.

use crate::common;

use common::{stderr, stdout, temp_dir};
use std::path::Path;
use std::process::{Command, Output};

/// Runs `kestrel` in `dir` with the shared-data variables removed.
fn kestrel_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kestrel"))
        .args(args)
        .current_dir(dir)
        .env_remove("KESTREL_SHARED_DATA")
        .output()
        .expect("kestrel runs")
}

fn ok_in(dir: &Path, args: &[&str]) -> String {
    let out = kestrel_in(dir, args);
    assert!(
        out.status.success(),
        "kestrel {args:?} failed:\n{}\n{}",
        stdout(&out),
        stderr(&out)
    );
    stdout(&out)
}

/// The summary a run left: it names the seed, the build and the command.
fn assert_summary(dir: &Path, out: &str, seed: u64) {
    let text = std::fs::read_to_string(dir.join(out).join("summary.txt"))
        .unwrap_or_else(|e| panic!("{out}/summary.txt: {e}"));
    assert!(text.contains(&format!("seed      {seed}\n")), "{text}");
    assert!(text.contains("build     kestrel 0."), "{text}");
    assert!(text.contains("command   "), "{text}");
}

/// Each GA or tuner on its defaults at tiny sizes: its output folder and its command line.
const RUNS: &[(&str, &str)] = &[
    ("evolve-out", "evolve --population 20 --generations 2"),
    (
        "evolve-search-out",
        "evolve search --population 4 --generations 1 --node-cap 1000",
    ),
    (
        "evolve-tournament-out",
        "evolve tournament --population 4 --generations 1",
    ),
    (
        "evolve-mnc-out",
        "evolve mnc --population 6 --generations 2 --nodes 100",
    ),
    (
        "evolve-moves-out",
        "evolve moves --games 100 --population 10 --generations 2",
    ),
    (
        "spsa-out",
        "tune spsa --set KNIGHT_VALUE --table eval --iterations 2 --pairs 1 --nodes 100",
    ),
    (
        "evolve-games-out",
        "evolve games --set KNIGHT_VALUE --table eval --population 4 --generations 1 --nodes 100",
    ),
    ("tune-out", "tune --games 50 --epochs 3"),
    (
        "evolve-coevolve-out",
        "evolve coevolve --parents evolve-out/best.toml,p2/best.toml --population 4 \
         --generations 1 --nodes 100 --playoff-nodes 100 --playoff-openings 1",
    ),
];

#[test]
fn every_ga_runs_on_its_defaults_in_an_empty_folder() {
    let dir = temp_dir("fresh-clone");
    // Coevolution starts from other runs' organisms: `evolve-out` (first in RUNS) and this one.
    ok_in(
        &dir,
        &words("evolve --population 10 --generations 1 --seed 2 --out p2 --quiet"),
    );
    for (out, command) in RUNS {
        let mut args = words(command);
        args.extend(["--quiet", "--threads", "2"]);
        ok_in(&dir, &args);
        assert_summary(&dir, out, 1);
    }
    let text = ok_in(
        &dir,
        &words("chessmaps train --positions 100 --test-positions 20 --epochs 1"),
    );
    assert!(text.contains("builtin:games-gm2600.pgn.gz"), "{text}");
    assert!(dir.join("chessmaps.net").exists());
}

#[test]
fn the_game_fitness_of_the_search_ga_and_mnc_runs_in_an_empty_folder() {
    let dir = temp_dir("fresh-game-ga");
    let text = ok_in(
        &dir,
        &words(
            "evolve search --fitness games --population 4 --generations 1 --nodes 100 \
             --first-pairs 1 --rounds 1 --verify-pairs 1 --quiet --threads 2",
        ),
    );
    assert!(text.contains("best vs reference Ptnml"), "{text}");
    assert!(dir.join("evolve-search-out/best.toml").exists());
    assert_summary(&dir, "evolve-search-out", 1);
    let text = ok_in(
        &dir,
        &words(
            "evolve mnc --init defaults --fitness games --population 4 --offspring 2 \
             --generations 1 --nodes 100 --first-pairs 1 --rounds 1 --verify-pairs 1 \
             --opponents both --quiet --threads 2",
        ),
    );
    assert!(text.contains("best vs parent    Ptnml"), "{text}");
    assert!(dir.join("evolve-mnc-out/best.toml").exists());
    assert_summary(&dir, "evolve-mnc-out", 1);
}

/// A command line split at white space.
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

#[test]
fn a_finished_run_is_refused_unless_resumed_or_overwritten() {
    let dir = temp_dir("refuse-run");
    let args = [
        "evolve",
        "tournament",
        "--population",
        "4",
        "--generations",
        "1",
        "--quiet",
    ];
    ok_in(&dir, &args);
    let best = std::fs::read(dir.join("evolve-tournament-out/best.toml")).unwrap();
    let again = kestrel_in(&dir, &args);
    assert!(!again.status.success());
    let err = stderr(&again);
    assert!(
        err.contains("holds an earlier run") && err.contains("--overwrite"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(dir.join("evolve-tournament-out/best.toml")).unwrap(),
        best
    );
    let mut overwrite = args.to_vec();
    overwrite.push("--overwrite");
    ok_in(&dir, &overwrite);
    let both = kestrel_in(&dir, &[&args[..], &["--overwrite", "--resume"]].concat());
    assert!(
        !both.status.success(),
        "--overwrite with --resume must be refused"
    );
}

#[test]
fn a_folder_in_use_by_another_run_is_refused() {
    let dir = temp_dir("locked-run");
    let out = dir.join("evolve-tournament-out");
    std::fs::create_dir_all(&out).unwrap();
    // Another run holds the folder: this process takes the lock as a run would.
    let lock = std::fs::File::create(out.join(".kestrel.lock")).unwrap();
    lock.try_lock().unwrap();
    let o = kestrel_in(
        &dir,
        &[
            "evolve",
            "tournament",
            "--population",
            "4",
            "--generations",
            "1",
        ],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("is in use by"), "{}", stderr(&o));
    drop(lock);
    ok_in(
        &dir,
        &[
            "evolve",
            "tournament",
            "--population",
            "4",
            "--generations",
            "1",
            "--quiet",
        ],
    );
}

#[test]
fn version_names_the_build() {
    let text = ok_in(&std::env::temp_dir(), &["--version"]);
    assert!(
        text.starts_with("kestrel 0.") && text.contains("(commit "),
        "{text}"
    );
}
