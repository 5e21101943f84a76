//! `tune spsa --engine uci:PATH --executor ray` and `evolve games --engine uci:PATH
//! --executor ray`: the workers play the external engine's games; a worker killed after it
//! took a job loses nothing (the job, and so its games, is played again) and the run equals
//! the run in process, its faults.csv included. Skips when Python cannot import `ray` and
//! `kestrel_ray`, unless KESTREL_REQUIRE_RAY=1 (CI), which turns the skip into a failure.
//! (A worker without the engine is refused with its host named: `external::remote` tests.)

use std::path::Path;
use std::process::{Command, Output};

use crate::common;
use common::ray::{log_without_seconds, ray_session};
use common::{fixture, stderr, temp_dir};

const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");
const TOY: &str = env!("CARGO_BIN_EXE_kestrel-toy-uci");

/// Runs `kestrel COMMAND --engine uci:TOY SETTINGS --openings FIXTURE --quiet --out OUT EXTRA`
/// with `env` set.
fn on_toy(
    command: &[&str],
    settings: &[&str],
    out: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Output {
    let openings = fixture("openings-2moves-60.epd");
    let engine = format!("uci:{TOY}");
    let mut cmd = Command::new(KESTREL);
    cmd.args(command)
        .args(["--engine", &engine])
        .args(settings)
        .args(["--openings", &openings, "--quiet", "--out"])
        .arg(out)
        .args(extra);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn tune(out: &Path, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let settings = "--set Accuracy --iterations 8 --pairs 4 --nodes 200 --threads 2";
    let settings: Vec<&str> = settings.split_whitespace().collect();
    on_toy(&["tune", "spsa"], &settings, out, extra, env)
}

#[test]
fn ray_workers_play_the_pairs_and_a_killed_worker_loses_none() {
    let Some(_session) = ray_session() else {
        return;
    };
    let dir = temp_dir("ray-external");
    let local = tune(&dir.join("local"), &[], &[]);
    assert!(local.status.success(), "{}", stderr(&local));
    let ray = tune(
        &dir.join("ray"),
        &["--executor", "ray", "--ray-workers", "2"],
        &[("KESTREL_RAY_FAULT", "kill-once:3")],
    );
    assert!(ray.status.success(), "{}", stderr(&ray));
    assert!(String::from_utf8_lossy(&ray.stdout).contains("Ray, 2 workers"));
    for f in ["spsa.csv", "final.options", "checkpoint.json"] {
        let read = |d: &str| std::fs::read_to_string(dir.join(d).join(f)).unwrap();
        assert_eq!(read("ray"), read("local"), "{f}");
    }
}

fn evolve(out: &Path, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let settings = "--set all --population 6 --generations 3 --nodes 200 --first-pairs 2 \
                    --rounds 2 --start-spread 0.2 --seed 5";
    let settings: Vec<&str> = settings.split_whitespace().collect();
    on_toy(&["evolve", "games"], &settings, out, extra, env)
}

#[test]
fn ray_workers_race_the_games_ga_and_report_its_games_and_faults() {
    let Some(_session) = ray_session() else {
        return;
    };
    let dir = temp_dir("ray-external-ga");
    let local = evolve(&dir.join("local"), &["--threads", "2"], &[]);
    assert!(local.status.success(), "{}", stderr(&local));
    let ray = evolve(
        &dir.join("ray"),
        &[
            "--executor",
            "ray",
            "--ray-workers",
            "1",
            "--ray-worker-threads",
            "2",
        ],
        &[("KESTREL_RAY_FAULT", "kill-once:1")],
    );
    assert!(ray.status.success(), "{}", stderr(&ray));
    assert!(String::from_utf8_lossy(&ray.stdout).contains("Ray, 1 workers"));
    let read = |d: &str, f: &str| std::fs::read_to_string(dir.join(d).join(f)).unwrap();
    for f in ["best.options", "centre.options", "faults.csv"] {
        assert_eq!(read("ray", f), read("local", f), "{f}");
    }
    assert_eq!(
        log_without_seconds(&dir.join("ray")),
        log_without_seconds(&dir.join("local"))
    );
    // Every generation's games came back from the worker: 6 organisms race 2 pairs, the
    // best 3 play 4 in all, so 6*2*2 + 3*2*2 = 36 games a generation.
    let faults = read("ray", "faults.csv");
    let games: Vec<&str> = faults
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(games, ["36", "36", "36"], "{faults}");
}
