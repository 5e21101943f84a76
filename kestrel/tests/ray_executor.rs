//! `--executor ray`: a run on a local Ray equals the same run in process (best organism and log
//! apart from timings), a worker killed mid-job loses nothing, a job that fails every retry
//! stops the run with a checkpoint that `--resume` continues, and a driver that cannot start
//! or never answers gives a clear error. The Ray tests skip when Python cannot import `ray`
//! and `kestrel_ray`, unless KESTREL_REQUIRE_RAY=1 (CI), which turns the skip into a failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

mod common;
use common::ray::{log_without_seconds, ray_session};
use common::stderr;

const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");

fn temp_dir(name: &str) -> kestrel_testdata::ScratchDir {
    common::temp_dir(&format!("ray-{name}"))
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

#[test]
fn ray_run_equals_in_process_despite_killed_workers_and_resumes_after_failure() {
    let Some(_session) = ray_session() else {
        return;
    };
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
}

/// A Ray head on the loopback address, shared by several GA runs (Ray's start-up is the cost);
/// stopped with SIGTERM, which makes `ray start --block` stop every process it started.
struct LoopbackRay {
    child: std::process::Child,
    address: String,
    /// The same cluster through Ray Client (`ray://`), as a remote user reaches it.
    client_address: String,
}

/// Environment for a loopback Ray without token authentication (head and drivers).
const LOOPBACK_ENV: [(&str, &str); 2] = [
    ("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0"),
    ("RAY_AUTH_MODE", "disabled"),
];

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl LoopbackRay {
    fn start(dir: &Path) -> LoopbackRay {
        let port = free_port();
        let client_port = free_port();
        let log = dir.join("ray-head.log");
        // The `ray` command of the python3 that has ray (its console script may not be on PATH).
        let child = Command::new("python3")
            .args([
                "-c",
                "import sys; from ray.scripts.scripts import main; sys.exit(main())",
            ])
            .args(["start", "--head", "--block", "--node-ip-address=127.0.0.1"])
            .arg(format!("--port={port}"))
            .arg(format!("--ray-client-server-port={client_port}"))
            .args([
                "--num-cpus=2",
                "--include-dashboard=false",
                "--disable-usage-stats",
            ])
            .envs(LOOPBACK_ENV)
            .stdout(std::fs::File::create(&log).unwrap())
            .stderr(std::process::Stdio::from(
                std::fs::File::options().append(true).open(&log).unwrap(),
            ))
            .spawn()
            .expect("python3 runs ray start");
        let ray = LoopbackRay {
            child,
            address: format!("ray:127.0.0.1:{port}"),
            client_address: format!("ray://127.0.0.1:{client_port}"),
        };
        let start = Instant::now();
        loop {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if text.contains("Ray runtime started") {
                return ray;
            }
            assert!(
                start.elapsed().as_secs() < 180,
                "ray start did not come up:\n{text}"
            );
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    }
}

impl Drop for LoopbackRay {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

/// `kestrel ARGS --out DIR/NAME` (plus `extra`), checked to succeed.
fn kestrel_ok(dir: &Path, args: &[&str], name: &str, extra: &[&str], env: &[(&str, &str)]) {
    let o = Command::new(KESTREL)
        .args(args)
        .arg("--out")
        .arg(dir.join(name))
        .args(extra)
        .envs(LOOPBACK_ENV)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?} {extra:?}: {}{}",
        stderr(&o),
        ray_client_server_logs()
    );
    if extra.contains(&"--executor") {
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(stdout.contains("Ray, 2 workers"), "{args:?}: {stdout}");
    }
}

/// The error logs of Ray Client's per-connection servers in the latest Ray session, so a failure
/// to start one explains itself in the test's output.
fn ray_client_server_logs() -> String {
    let logs = Path::new("/tmp/ray/session_latest/logs");
    let Ok(entries) = std::fs::read_dir(logs) else {
        return String::new();
    };
    let mut text = String::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("ray_client_server") && name.ends_with(".err") {
            let body = std::fs::read_to_string(entry.path()).unwrap_or_default();
            let tail: Vec<&str> = body.lines().rev().take(30).collect();
            text += &format!("\n--- {name} (last lines) ---\n");
            text += &tail.into_iter().rev().collect::<Vec<_>>().join("\n");
        }
    }
    text
}

/// Same best params file and same log (apart from the timing column).
fn assert_same_outputs(a: &Path, b: &Path) {
    let best = |d: &Path| std::fs::read_to_string(d.join("best.toml")).unwrap();
    assert_eq!(best(a), best(b), "best organisms differ: {}", b.display());
    assert_eq!(
        log_without_seconds(a),
        log_without_seconds(b),
        "logs differ: {}",
        b.display()
    );
    assert!(log_without_seconds(a).lines().count() >= 3);
}

/// A command line: the words of `words`, then each (option, value) pair (values are paths,
/// kept whole).
fn command(words: &str, paths: &[(&str, &str)]) -> Vec<String> {
    let mut args: Vec<String> = words.split_whitespace().map(String::from).collect();
    for (option, value) in paths {
        args.extend([option.to_string(), value.to_string()]);
    }
    args
}

/// Every GA command but the expert's (run by the test above), small: name and arguments.
fn ga_runs(dir: &Path) -> Vec<(&'static str, Vec<String>)> {
    let fixture = |name: &str| kestrel_testdata::fixture(name).display().to_string();
    let (suite, pgn, openings) = (
        fixture("bk.epd"),
        fixture("gm-games-40.pgn"),
        fixture("openings-2moves-60.epd"),
    );
    let mnc_db = dir.join("mnc.sqlite").display().to_string();
    let games = "--nodes 200 --max-moves 40";
    let racing = "--first-pairs 1 --rounds 2 --verify-pairs 0";
    vec![
        (
            "search",
            command(
                "evolve search --train-size 4 --node-cap 2000 --population 6 --generations 2 \
                 --seed 3",
                &[("--suite", &suite)],
            ),
        ),
        (
            "tournament",
            command(
                "evolve tournament --population 4 --iterations 2 --depth 1 --max-moves 10 --seed 1",
                &[],
            ),
        ),
        (
            "mnc",
            command(
                "evolve mnc --population 6 --offspring 2 --generations 3 --rounds 1 --nodes 300 \
                 --max-moves 30 --seed 4",
                &[("--openings", &openings), ("--db", &mnc_db)],
            ),
        ),
        (
            "games",
            command(
                &format!(
                    "evolve games --set KNIGHT_VALUE,BISHOP_VALUE --table eval --population 4 \
                     --generations 2 {games} --seed 5"
                ),
                &[("--openings", &openings)],
            ),
        ),
        (
            "search-games",
            command(
                &format!(
                    "evolve search --fitness games --opponents both --population 4 \
                     --generations 2 {games} {racing} --seed 3"
                ),
                &[("--openings", &openings)],
            ),
        ),
        (
            "mnc-games",
            command(
                &format!(
                    "evolve mnc --init defaults --fitness games --population 4 --offspring 2 \
                     --generations 2 {games} {racing} --seed 4"
                ),
                &[("--openings", &openings), ("--db", &mnc_db)],
            ),
        ),
        (
            "moves1",
            command(
                "evolve moves --games 20 --per-game 2 --population 100 --generations 2 --seed 2",
                &[("--pgn", &pgn)],
            ),
        ),
        (
            "moves2",
            command(
                "evolve moves --games 10 --per-game 1 --depth 2 --population 8 --generations 2 \
                 --seed 2",
                &[("--pgn", &pgn)],
            ),
        ),
    ]
}

/// `args` as the `&str` slice [`kestrel_ok`] takes.
fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn every_other_ga_on_one_ray_cluster_equals_in_process() {
    let Some(_session) = ray_session() else {
        return;
    };
    let dir = temp_dir("every-ga");
    let openings = kestrel_testdata::fixture("openings-2moves-60.epd")
        .display()
        .to_string();
    let runs = ga_runs(&dir);
    for (name, args) in &runs {
        kestrel_ok(
            &dir,
            &strs(args),
            &format!("{name}-local"),
            &["--quiet"],
            &[],
        );
    }
    let parents = format!(
        "{},{}",
        dir.join("moves1-local/best.toml").display(),
        dir.join("moves2-local/best.toml").display()
    );
    let coevolve = command(
        "evolve coevolve --population 4 --generations 2 --nodes 200 --finalists 1 \
         --playoff-openings 1 --playoff-nodes 200 --seed 2",
        &[("--parents", &parents), ("--openings", &openings)],
    );
    kestrel_ok(&dir, &strs(&coevolve), "coevolve-local", &["--quiet"], &[]);

    let ray = LoopbackRay::start(&dir);
    let on_ray = ["--quiet", "--executor", &ray.address, "--ray-workers", "2"];
    for (name, args) in &runs {
        // The tournament's worker taking generation 1's first game job is killed mid-job.
        let fault: &[(&str, &str)] = match *name {
            "tournament" => &[("KESTREL_RAY_FAULT", "kill-once:1")],
            _ => &[],
        };
        kestrel_ok(&dir, &strs(args), &format!("{name}-ray"), &on_ray, fault);
        assert_same_outputs(
            &dir.join(format!("{name}-local")),
            &dir.join(format!("{name}-ray")),
        );
    }
    // The search workers report what they searched: the leader's memo is the in-process one.
    let memo = |run: &str| std::fs::read_to_string(dir.join(run).join("memo.json")).unwrap();
    assert_eq!(memo("search-ray"), memo("search-local"));
    assert!(memo("search-local").len() > 100, "{}", memo("search-local"));
    kestrel_ok(&dir, &strs(&coevolve), "coevolve-ray", &on_ray, &[]);
    assert_same_outputs(&dir.join("coevolve-local"), &dir.join("coevolve-ray"));
    // SPSA's game pairs on Ray: the same duels, so the same path and final values.
    let spsa = command(
        "tune spsa --set NULL_MOVE_R,LMR_BASE,RFP_MARGIN --table search --iterations 6 \
         --pairs 3 --nodes 300 --max-moves 40 --seed 3",
        &[("--openings", &openings)],
    );
    kestrel_ok(&dir, &strs(&spsa), "spsa-local", &["--quiet"], &[]);
    kestrel_ok(&dir, &strs(&spsa), "spsa-ray", &on_ray, &[]);
    for file in ["spsa.csv", "final.toml"] {
        let read = |run: &str| std::fs::read_to_string(dir.join(run).join(file)).unwrap();
        assert_eq!(
            read("spsa-local"),
            read("spsa-ray"),
            "{file} differs on Ray"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("spsa-local/spsa.csv"))
            .unwrap()
            .lines()
            .count(),
        7
    );
    // The documented remote address: Ray Client needs `ray[client]`, which the package pulls in.
    let on_client = [
        "--quiet",
        "--executor",
        &ray.client_address,
        "--ray-workers",
        "2",
    ];
    let tournament = &runs.iter().find(|(n, _)| *n == "tournament").unwrap().1;
    kestrel_ok(
        &dir,
        &strs(tournament),
        "tournament-client",
        &on_client,
        &[],
    );
    assert_same_outputs(
        &dir.join("tournament-local"),
        &dir.join("tournament-client"),
    );
    nnue_on_ray(&dir, &on_ray);
    drop(ray);
}

/// `nnue data` and `nnue label` on the cluster (`on_ray`) write the in-process bytes, though a
/// worker is killed mid-job in each (the second block's, the second batch's first job).
fn nnue_on_ray(dir: &Path, on_ray: &[&str]) {
    let read = |run: &str| std::fs::read(dir.join(run).join("positions.kpos")).unwrap();
    let data = command(
        "nnue data --games 8 --nodes 300 --block-games 4 --seed 3 --threads 2",
        &[],
    );
    kestrel_ok(dir, &strs(&data), "data-local", &["--quiet"], &[]);
    kestrel_ok(
        dir,
        &strs(&data),
        "data-ray",
        on_ray,
        &[("KESTREL_RAY_FAULT", "kill-once:4")],
    );
    assert!(read("data-local").len() > 1000);
    assert!(
        read("data-local") == read("data-ray"),
        "self-play differs on Ray"
    );

    let input = dir.join("data-ray/positions.kpos").display().to_string();
    let mentor = format!("uci:{KESTREL}");
    let label = command(
        "nnue label --depth 2 --batch 30 --threads 2",
        &[("--in", &input), ("--mentor", &mentor)],
    );
    kestrel_ok(dir, &strs(&label), "label-local", &["--quiet"], &[]);
    let fault = [("KESTREL_RAY_FAULT", "kill-once:2")];
    kestrel_ok(dir, &strs(&label), "label-ray", on_ray, &fault);
    assert!(read("label-local").len() > 1000);
    assert!(
        read("label-local") == read("label-ray"),
        "labels differ on Ray"
    );
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
}
