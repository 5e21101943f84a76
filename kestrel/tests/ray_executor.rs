//! `--executor ray`: a run on a local Ray equals the same run in process (best organism and log
//! apart from timings), a worker killed mid-job loses nothing, a job that fails every retry
//! stops the run with a checkpoint that `--resume` continues, and a driver that cannot start
//! or never answers gives a clear error. The Ray tests skip when Python cannot import `ray`
//! and `kestrel_ray`, unless KESTREL_REQUIRE_RAY=1 (CI), which turns the skip into a failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kestrel-ray-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// 60 train and 25 test positions of the shipped GM set.
fn small_positions(dir: &Path) -> PathBuf {
    let all = include_str!("../../data/positions-gm2600.epd");
    let pick = |tag: &str, n: usize| -> Vec<&str> {
        all.lines().filter(|l| l.contains(tag)).take(n).collect()
    };
    let mut lines = pick("\"train\"", 60);
    lines.extend(pick("\"test\"", 25));
    let path = dir.join("small.epd");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// A small GA run; `extra` adds executor options.
fn evolve(dir: &Path, out: &str, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let positions = small_positions(dir);
    let mut cmd = Command::new(KESTREL);
    cmd.args(["evolve", "mentor", "--depth", "1", "--population", "128"])
        .args([
            "--generations",
            "6",
            "--sample",
            "30",
            "--seed",
            "5",
            "--quiet",
        ])
        .args(["--threads", "2", "--coding", "gray"])
        .arg("--positions")
        .arg(&positions)
        .arg("--labels")
        .arg(dir.join("labels.tsv"))
        .arg("--out")
        .arg(dir.join(out))
        .args(extra);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The log without its timing column.
fn log_without_seconds(out: &Path) -> String {
    std::fs::read_to_string(out.join("log.csv"))
        .unwrap()
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n")
        .collect()
}

fn assert_same_run(a: &Path, b: &Path) {
    let best = |d: &Path| std::fs::read_to_string(d.join("best.toml")).unwrap();
    assert_eq!(best(a), best(b), "best organisms differ");
    assert_eq!(
        log_without_seconds(a),
        log_without_seconds(b),
        "logs differ"
    );
    assert_eq!(log_without_seconds(a).lines().count(), 7);
}

fn ray_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import ray, kestrel_ray"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("KESTREL_REQUIRE_RAY").is_err(),
            "KESTREL_REQUIRE_RAY is set but python3 cannot import ray and kestrel_ray \
             (pip install ./python)"
        );
        eprintln!("skipped: python3 cannot import ray and kestrel_ray (pip install ./python)");
    }
    ok
}

#[test]
fn ray_run_equals_in_process_despite_killed_workers_and_resumes_after_failure() {
    if !ray_available() {
        return;
    }
    let dir = temp_dir("same");
    let local = evolve(&dir, "local", &[], &[]);
    assert!(local.status.success(), "{}", stderr(&local));

    // Two workers; the worker taking generation 2's first job is killed right after it
    // received the job: the job is retried and the run is unchanged.
    let ray = evolve(
        &dir,
        "ray",
        &["--executor", "ray", "--ray-workers", "2"],
        &[("KESTREL_RAY_FAULT", "kill-once:2")],
    );
    assert!(ray.status.success(), "{}", stderr(&ray));
    assert!(String::from_utf8_lossy(&ray.stdout).contains("Ray, 2 workers"));
    assert_same_run(&dir.join("local"), &dir.join("ray"));

    // Every attempt of a generation-3 job dies: the run stops with a clear error ...
    let failed = evolve(
        &dir,
        "resumed",
        &[
            "--executor",
            "ray",
            "--ray-workers",
            "1",
            "--max-retries",
            "1",
        ],
        &[("KESTREL_RAY_FAULT", "kill-always:3")],
    );
    assert!(!failed.status.success());
    let err = stderr(&failed);
    assert!(
        err.contains("generation 3") && err.contains("failed on all 2 attempts"),
        "{err}"
    );
    // ... and the checkpoint of generation 3 lets --resume finish the same run (in process).
    let resumed = evolve(&dir, "resumed", &["--resume"], &[]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_same_run(&dir.join("local"), &dir.join("resumed"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stand-in for `python3`: a shell script with `body`.
fn fake_python(dir: &Path, body: &str) -> String {
    let path = dir.join("python");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    path.display().to_string()
}

#[test]
fn a_python_without_the_package_is_a_clear_error() {
    let dir = temp_dir("nopkg");
    // -S: no site-packages, so neither ray nor kestrel_ray can be imported.
    let python = fake_python(&dir, "exec python3 -S \"$@\"");
    let o = evolve(
        &dir,
        "out",
        &["--executor", "ray"],
        &[("KESTREL_PYTHON", &python)],
    );
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("Ray driver stopped") && err.contains("kestrel_ray"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_ray_that_never_answers_times_out() {
    let dir = temp_dir("hang");
    let python = fake_python(&dir, "exec sleep 600");
    let start = Instant::now();
    let o = evolve(
        &dir,
        "out",
        &["--executor", "ray:127.0.0.1:6379", "--ray-timeout", "2"],
        &[("KESTREL_PYTHON", &python)],
    );
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("no answer from the Ray driver within 7 s"),
        "{err}"
    );
    assert!(start.elapsed().as_secs() < 60, "took {:?}", start.elapsed());
    std::fs::remove_dir_all(&dir).unwrap();
}
