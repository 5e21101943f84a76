//! Self-play data runs: the same bytes on one and two threads, and a killed run resumed (with
//! a torn tail) writes the same bytes as an uninterrupted one; with a network, the games are
//! its games and a run continues only with it.

use kestrel_chess::Board;
use kestrel_nnue::{FloatNetwork, NetEval, Network};
use kestrel_nnue_train::format::read_all;
use kestrel_nnue_train::progress::{DATA_FILE, read_data, read_progress};
use kestrel_nnue_train::selfplay::{
    DataProgress, DataRun, GameSource, SelfPlaySettings, network_id, run,
};
use kestrel_testdata::ScratchDir;
use kestrel_tools::Opening;
use std::io::Write;
use std::sync::Arc;

/// An empty folder for one test, removed when the test passes.
fn temp_dir(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("nnue-selfplay-{name}"))
}

fn job(games: u64, threads: usize) -> DataRun {
    let openings = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    ]
    .iter()
    .map(|fen| Opening::from_board(Board::from_fen(fen).unwrap()))
    .collect();
    DataRun {
        settings: SelfPlaySettings {
            seed: 11,
            nodes: 400,
            max_plies: 80,
            ..SelfPlaySettings::default()
        },
        source: GameSource::SelfPlay(openings),
        network: None,
        source_name: "test".into(),
        games,
        block_games: 3,
        threads,
    }
}

fn bytes(dir: &std::path::Path) -> Vec<u8> {
    std::fs::read(dir.join(DATA_FILE)).unwrap()
}

#[test]
fn one_and_two_threads_write_the_same_bytes() {
    let (a, b) = (temp_dir("t1"), temp_dir("t2"));
    let ra = run(&a, &job(7, 1), &|_| {}).unwrap();
    let rb = run(&b, &job(7, 2), &|_| {}).unwrap();
    assert_eq!(bytes(&a), bytes(&b));
    assert_eq!(ra.progress, rb.progress);
    let records = read_all(&a.join(DATA_FILE)).unwrap();
    assert_eq!(records.len() as u64, ra.progress.records);
    assert!(
        records.len() > 100,
        "{} positions from 7 games",
        records.len()
    );
}

#[test]
fn a_killed_run_resumes_to_the_same_bytes() {
    let straight = temp_dir("straight");
    run(&straight, &job(12, 2), &|_| {}).unwrap();

    let resumed = temp_dir("resumed");
    run(&resumed, &job(6, 2), &|_| {}).unwrap();
    // A kill in the middle of writing the next block leaves a torn tail after the last
    // complete block the progress file records.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(resumed.join(DATA_FILE))
        .unwrap();
    f.write_all(&[7u8; 45]).unwrap();
    drop(f);
    // The file is refused as it stands, but its run folder gives its complete blocks.
    assert!(read_all(&resumed.join(DATA_FILE)).is_err());
    let done = read_progress::<DataProgress>(&resumed).unwrap().unwrap();
    assert_eq!(read_data(&resumed).unwrap().len() as u64, done.records);
    let report = run(&resumed, &job(12, 1), &|_| {}).unwrap();
    assert!(report.resumed);
    assert_eq!(report.games_played, 6);
    assert_eq!(bytes(&straight), bytes(&resumed));
    assert_eq!(
        read_progress::<DataProgress>(&straight).unwrap(),
        read_progress::<DataProgress>(&resumed).unwrap()
    );
}

#[test]
fn a_resume_with_other_settings_is_refused() {
    let dir = temp_dir("other");
    run(&dir, &job(3, 1), &|_| {}).unwrap();
    let mut other = job(6, 1);
    other.settings.nodes = 500;
    let err = run(&dir, &other, &|_| {}).unwrap_err().to_string();
    assert!(err.contains("other settings"), "{err}");
}

/// A small network that plays legal but different chess from the linear evaluation.
fn small_network(bias: f32) -> Network {
    let mut float = FloatNetwork::zeros(32);
    for (i, w) in float.ft_weights.iter_mut().enumerate() {
        *w = ((i * 7919) % 101) as f32 / 400.0 - 0.1;
    }
    float.ft_bias.iter_mut().for_each(|b| *b = bias);
    for (i, w) in float.out_weights.iter_mut().enumerate() {
        *w = if i % 3 == 0 { -0.7 } else { 0.5 };
    }
    Network::quantise(&float).unwrap()
}

fn job_with(net: &Network, games: u64, threads: usize) -> DataRun {
    let mut job = job(games, threads);
    job.network = Some(Arc::new(
        NetEval::with_detected_kernel(net, "small").unwrap(),
    ));
    job.settings.network = Some(network_id(net));
    job
}

#[test]
fn a_network_plays_its_own_games_on_any_thread_count() {
    let net = small_network(0.3);
    let (lin, a, b) = (temp_dir("lin"), temp_dir("net1"), temp_dir("net2"));
    run(&lin, &job(4, 1), &|_| {}).unwrap();
    run(&a, &job_with(&net, 4, 1), &|_| {}).unwrap();
    run(&b, &job_with(&net, 4, 2), &|_| {}).unwrap();
    assert_eq!(bytes(&a), bytes(&b));
    assert_ne!(bytes(&a), bytes(&lin), "the network's search scores differ");

    let other = small_network(0.1);
    assert_ne!(network_id(&other), network_id(&net));
    for (what, resumed) in [
        ("another network", job_with(&other, 6, 1)),
        ("no network", job(6, 1)),
    ] {
        let err = run(&a, &resumed, &|_| {}).unwrap_err().to_string();
        assert!(err.contains("other settings"), "{what}: {err}");
    }
    let progress: DataProgress = read_progress(&a).unwrap().unwrap();
    assert_eq!(progress.settings.network, Some(network_id(&net)));
}

#[test]
fn a_run_written_before_networks_resumes_as_linear() {
    let dir = temp_dir("legacy");
    run(&dir, &job(3, 1), &|_| {}).unwrap();
    let path = dir.join("progress.json");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        !text.contains("network"),
        "no network key for a linear run: {text}"
    );
    run(&dir, &job(6, 1), &|_| {}).unwrap();
}
