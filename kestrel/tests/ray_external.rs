//! `tune spsa --engine uci:PATH --executor ray`: the workers play the external engine's pairs;
//! a worker killed after it took a job loses nothing (the job, and so its pairs, is played
//! again) and the run equals the run in process. Skips when Python cannot import `ray` and
//! `kestrel_ray`, unless KESTREL_REQUIRE_RAY=1 (CI), which turns the skip into a failure.
//! (A worker without the engine is refused with its host named: `external::remote` tests.)

use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::{fixture, stderr, temp_dir};

const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");
const TOY: &str = env!("CARGO_BIN_EXE_kestrel-toy-uci");

fn ray_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import ray, kestrel_ray"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("KESTREL_REQUIRE_RAY").is_err(),
            "KESTREL_REQUIRE_RAY is set but python3 cannot import ray and kestrel_ray"
        );
        eprintln!("skipped: python3 cannot import ray and kestrel_ray (pip install ./python)");
    }
    ok
}

fn tune(out: &Path, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let openings = fixture("openings-2moves-60.epd");
    let engine = format!("uci:{TOY}");
    let mut cmd = Command::new(KESTREL);
    cmd.args(["tune", "spsa", "--engine", &engine, "--set", "Accuracy"])
        .args([
            "--iterations",
            "8",
            "--pairs",
            "4",
            "--nodes",
            "200",
            "--threads",
            "2",
        ])
        .args(["--openings", &openings, "--quiet", "--out"])
        .arg(out)
        .args(extra);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

#[test]
fn ray_workers_play_the_pairs_and_a_killed_worker_loses_none() {
    if !ray_available() {
        return;
    }
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
    std::fs::remove_dir_all(&dir).unwrap();
}
