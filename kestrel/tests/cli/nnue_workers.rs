//! `nnue data` and `nnue label` on cluster workers without Ray: the same jobs `--executor ray`
//! sends, answered by `kestrel worker` processes. They write the bytes the in-process run
//! writes and continue an in-process run; a mentor that does not start, or a network other than
//! the run's, on the workers is a clear error.

use crate::common;
use common::{fixture, kestrel, stderr, temp_dir};
use kestrel_ga::cluster::{BlobStore, FitnessSpec, WorkerProcesses};
use kestrel_nnue_train::label::{LabelProgress, LabelSpec, MentorLimit, RemoteLabeller, run_label};
use kestrel_nnue_train::selfplay::{
    DataProgress, DataRun, GameSource, NetworkSource, RemoteGames, SelfPlaySpec, run_on,
};
use std::path::{Path, PathBuf};

const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");

/// Six recorded games' positions, unscored, in `dir`.
fn unscored_positions(dir: &Path) -> PathBuf {
    let out = dir.join("unscored");
    let o = kestrel(&[
        "nnue",
        "data",
        "--from-pgn",
        &fixture("gm-games-40.pgn"),
        "--no-score",
        "--games",
        "6",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    out.join("positions.kpos")
}

/// `kestrel nnue label` in process: Kestrel at depth 3 as the mentor, batches of 40.
fn label_in_process(input: &Path, out: &Path, extra: &[&str]) {
    let mentor = format!("uci:{KESTREL}");
    let mut args = vec![
        "nnue",
        "label",
        "--in",
        input.to_str().unwrap(),
        "--mentor",
        &mentor,
        "--depth",
        "3",
        "--batch",
        "40",
        "--threads",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = kestrel(&args);
    assert!(o.status.success(), "{}", stderr(&o));
}

fn spec(command: &str) -> LabelSpec {
    LabelSpec {
        command: command.to_string(),
        limit: MentorLimit::Depth(3),
        processes: 1,
        move_timeout_ms: 60_000,
    }
}

/// Two `kestrel worker` processes labelling for `spec`, `job` positions a job.
fn on_workers(spec: LabelSpec, job: usize) -> Result<RemoteLabeller<WorkerProcesses>, String> {
    let workers = WorkerProcesses::spawn(Path::new(KESTREL), &["worker".into()], 2, spec.tagged())?;
    RemoteLabeller::start(workers, spec, 2, Some(job))
}

fn progress(dir: &Path) -> LabelProgress {
    serde_json::from_str(&std::fs::read_to_string(dir.join("progress.json")).unwrap()).unwrap()
}

fn data(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join("positions.kpos")).unwrap()
}

#[test]
fn worker_processes_label_the_same_bytes_as_the_run_here_and_continue_it() {
    let dir = temp_dir("nnue-label-workers");
    let input = unscored_positions(&dir);
    let here = dir.join("here");
    label_in_process(&input, &here, &[]);

    // Jobs of 7 positions: batches of 40 cut unevenly over the two workers.
    let remote = dir.join("remote");
    std::fs::create_dir_all(&remote).unwrap();
    let mut labeller = on_workers(spec(KESTREL), 7).unwrap();
    let report = run_label(&remote, &input, 40, None, &mut labeller, &|_| {}).unwrap();
    assert!(!report.resumed);
    assert_eq!(report.progress, progress(&here));
    assert!(report.progress.written > 100, "{:?}", report.progress);
    assert!(data(&remote) == data(&here), "labels on workers differ");

    // 80 positions here, the rest on the workers: the same run.
    let mixed = dir.join("mixed");
    label_in_process(&input, &mixed, &["--positions", "80"]);
    let mut labeller = on_workers(spec(KESTREL), 13).unwrap();
    let report = run_label(&mixed, &input, 40, None, &mut labeller, &|_| {}).unwrap();
    assert!(report.resumed);
    assert_eq!(report.consumed_now, report.progress.input_records - 80);
    assert!(
        data(&mixed) == data(&here),
        "a run continued on workers differs"
    );
}

#[test]
fn a_mentor_missing_on_the_workers_is_an_error_before_any_position() {
    let missing = "/nonexistent/kestrel-mentor";
    let Err(e) = on_workers(spec(missing), 10) else {
        panic!("a missing mentor started");
    };
    assert!(
        e.contains("failed on a worker") && e.contains(missing),
        "{e}"
    );
}

/// `kestrel nnue data` in process: 300-node self-play from the default openings in blocks of
/// four games, plus `extra`.
fn data_in_process(out: &Path, extra: &[&str]) {
    let mut args = vec![
        "nnue",
        "data",
        "--nodes",
        "300",
        "--block-games",
        "4",
        "--seed",
        "3",
        "--threads",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = kestrel(&args);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The run the command in `dir` made (its settings from `progress.json`), `games` long.
fn data_run(dir: &Path, games: u64) -> DataRun {
    let text = std::fs::read_to_string(dir.join("progress.json")).unwrap();
    let progress: DataProgress = serde_json::from_str(&text).unwrap();
    let openings =
        kestrel_tools::load_openings(Path::new(kestrel_tools::data::DEFAULT_OPENINGS)).unwrap();
    DataRun {
        settings: progress.settings,
        source: GameSource::SelfPlay(openings),
        network: None,
        source_name: progress.source,
        games,
        block_games: progress.block_games,
        threads: 1,
    }
}

/// Two `kestrel worker` processes (blobs in `cache`) playing `job`'s games, `per_job` a job.
fn games_on_workers(
    job: &DataRun,
    network: Option<&str>,
    cache: &Path,
    per_job: usize,
) -> RemoteGames<WorkerProcesses> {
    let GameSource::SelfPlay(openings) = &job.source else {
        unreachable!()
    };
    let store = BlobStore::new(cache);
    let spec = SelfPlaySpec::store(&job.settings, openings, network, &store).unwrap();
    let args = [
        "worker".to_string(),
        "--cache".into(),
        cache.display().to_string(),
    ];
    let workers = WorkerProcesses::spawn(Path::new(KESTREL), &args, 2, spec.tagged()).unwrap();
    RemoteGames::new(
        workers,
        spec,
        2,
        Some(per_job),
        "two worker processes".into(),
    )
}

#[test]
fn worker_processes_play_the_same_self_play_data_and_continue_a_run_here() {
    let dir = temp_dir("nnue-data-workers");
    let cache = dir.join("cache");
    let here = dir.join("here");
    data_in_process(&here, &["--games", "10"]);
    let job = data_run(&here, 10);

    // Jobs of 3 games: blocks of 4 cut unevenly over the two workers.
    let remote = dir.join("remote");
    std::fs::create_dir_all(&remote).unwrap();
    let mut games = games_on_workers(&job, None, &cache, 3);
    let report = run_on(&remote, &job, &mut games, &|_: &DataProgress| {}).unwrap();
    assert_eq!(report.games_played, 10);
    assert!(report.progress.records > 100, "{:?}", report.progress);
    assert!(data(&remote) == data(&here), "self-play on workers differs");

    // One block here, the rest on the workers: the same run.
    let mixed = dir.join("mixed");
    data_in_process(&mixed, &["--games", "4"]);
    let mut games = games_on_workers(&job, None, &cache, 2);
    let report = run_on(&mixed, &job, &mut games, &|_: &DataProgress| {}).unwrap();
    assert!(report.resumed && report.games_played == 6);
    assert!(
        data(&mixed) == data(&here),
        "a run continued on workers differs"
    );
}

#[test]
fn workers_with_another_network_refuse_the_games() {
    let dir = temp_dir("nnue-data-workers-net");
    let here = dir.join("here");
    data_in_process(&here, &["--games", "2"]);
    let mut job = data_run(&here, 2);
    // The run claims a network the workers' built-in one is not.
    job.settings.network = Some("hidden 8 fnv1a64 0000000000000000".into());
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let mut games = games_on_workers(&job, Some("builtin"), &dir.join("cache"), 1);
    let Err(e) = run_on(&out, &job, &mut games, &|_: &DataProgress| {}) else {
        panic!("workers played with another network");
    };
    let e = e.to_string();
    assert!(
        e.contains("failed on a worker") && e.contains("network"),
        "{e}"
    );
    let spec = SelfPlaySpec::store(
        &job.settings,
        &[kestrel_tools::Opening::startpos()],
        Some("builtin"),
        &BlobStore::new(dir.join("cache")),
    )
    .unwrap();
    assert_eq!(spec.network, NetworkSource::Builtin);
}
