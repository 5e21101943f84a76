//! `nnue label` on cluster workers without Ray: the same labelling jobs `--executor ray` sends,
//! answered by `kestrel worker` processes. They write the bytes the in-process run writes,
//! continue an in-process run, and a mentor that does not start on the workers is a clear
//! error before any position is labelled.

use crate::common;
use common::{fixture, kestrel, stderr, temp_dir};
use kestrel_ga::cluster::{FitnessSpec, WorkerProcesses};
use kestrel_nnue_train::label::{LabelProgress, LabelSpec, MentorLimit, RemoteLabeller, run_label};
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
