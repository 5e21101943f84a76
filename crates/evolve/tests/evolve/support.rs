//! Helpers shared by the modules of this test binary: the repository's openings, cluster
//! workers on threads and tiny in-memory tournaments.

use kestrel_chess::Board;
use kestrel_evolve::mnc::{MoveBudget, TournamentFitness, TournamentSpec};
use kestrel_ga::cluster::{BlobStore, Worker, WorkerStreams};
use kestrel_tools::Opening;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// The repository's 60 two-move openings (every clone has them).
pub fn openings_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/fixtures/openings-2moves-60.epd")
}

/// Workers serving the cluster protocol on threads, rebuilt from the spec like Ray's.
pub fn piped_workers(count: usize, blobs: &Path) -> Vec<WorkerStreams> {
    (0..count)
        .map(|_| {
            let (job_reader, job_writer) = std::io::pipe().unwrap();
            let (reply_reader, reply_writer) = std::io::pipe().unwrap();
            let blobs = BlobStore::new(blobs);
            std::thread::spawn(move || {
                let registry = kestrel_evolve::registry();
                Worker::new(&registry, blobs)
                    .serve(BufReader::new(job_reader), reply_writer)
                    .unwrap();
            });
            let streams: WorkerStreams =
                (Box::new(job_writer), Box::new(BufReader::new(reply_reader)));
            streams
        })
        .collect()
}

/// A one-round tournament fitness from the openings `fens`, `nodes` a move and games cut at
/// `max_moves`: small enough for a test.
pub fn tiny_tournament(fens: &[&str], nodes: u64, max_moves: usize) -> TournamentFitness {
    let openings = fens
        .iter()
        .map(|f| Opening::from_board(Board::from_fen(f).unwrap()))
        .collect();
    let spec = TournamentSpec {
        openings: PathBuf::from("in-memory"),
        rounds: 1,
        budget: MoveBudget::Nodes(nodes),
        max_moves,
        resign_cp: 1500,
        resign_moves: 3,
        hash_mb: 1,
    };
    TournamentFitness::with_openings(spec, openings)
}
