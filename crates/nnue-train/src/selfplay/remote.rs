//! Self-play on cluster workers: a block of games cut into jobs of the worker protocol
//! (`kestrel_ga::cluster`), each a range of game indices played by a `kestrel worker` with the
//! run's settings, openings (`kestrel_evolve::openings`) and network (shipped once as blobs).
//! Game `i` depends only on the
//! settings and `i`, so the leader writes the bytes a run here writes, and either continues the
//! other.

use super::game::{GameOutput, SelfPlaySettings, network_id, play_game};
use super::player::GamePlayer;
use super::run::{DataRun, GameSource};
use crate::format::{Outcome, PackedPosition, RECORD_LEN};
use crate::progress::RunError;
use kestrel_evolve::openings::{get_openings, put_openings};
use kestrel_ga::TaskResult;
use kestrel_ga::cluster::{
    BlobStore, FitnessSpec, JobEnvelope, JobRunner, PROTOCOL_VERSION, RemoteFitness,
};
use kestrel_nnue::NetEval;
use kestrel_tools::Opening;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::Arc;

/// The network the workers' searches evaluate with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum NetworkSource {
    /// The linear evaluation.
    Linear,
    /// The network compiled into the worker's `kestrel`.
    Builtin,
    /// A `.knet` file shipped as the blob with this hash.
    Blob(String),
}

/// What a worker needs to play a run's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelfPlaySpec {
    /// How games are played (with the network's identity).
    pub settings: SelfPlaySettings,
    /// The blob of the openings ([`put_openings`]).
    pub openings: String,
    /// The network.
    pub network: NetworkSource,
}

impl SelfPlaySpec {
    /// Stores `openings` (and the `--net` file `net`, if any) in `store`, the leader's blob
    /// folder, and describes the run. Openings that do not survive the trip as FEN and UCI
    /// moves (e.g. Chess960 starts) are refused.
    pub fn store(
        settings: &SelfPlaySettings,
        openings: &[Opening],
        net: Option<&str>,
        store: &BlobStore,
    ) -> Result<SelfPlaySpec, String> {
        let hash = put_openings(store, openings)?;
        for (i, (back, sent)) in get_openings(store, &hash)?.iter().zip(openings).enumerate() {
            if back.position().hash() != sent.position().hash() || back.start.chess960() {
                return Err(format!(
                    "opening {} cannot be sent to workers (Chess960 starts play in process)",
                    i + 1
                ));
            }
        }
        let network = match net.map(str::trim) {
            None | Some(kestrel_nnue::LINEAR) => NetworkSource::Linear,
            Some(spec) if kestrel_nnue::BUILTIN_NAMES.contains(&spec) => NetworkSource::Builtin,
            Some(path) => {
                let bytes = std::fs::read(path).map_err(|e| format!("--net {path}: {e}"))?;
                NetworkSource::Blob(store.put(&bytes)?)
            }
        };
        Ok(SelfPlaySpec {
            settings: settings.clone(),
            openings: hash,
            network,
        })
    }

    /// What the leader and every worker call this run (checked on every job).
    pub fn fingerprint(&self) -> String {
        format!(
            "nnue-data {:?} openings {} network {:?}",
            self.settings, self.openings, self.network
        )
    }

    /// The network as the worker loads it, checked against the settings' identity.
    fn network(&self, blobs: &BlobStore) -> Result<Option<Arc<NetEval>>, String> {
        let spec = match &self.network {
            NetworkSource::Linear => return Ok(None),
            NetworkSource::Builtin => "builtin".to_string(),
            NetworkSource::Blob(hash) => blobs.path(hash).display().to_string(),
        };
        let net = kestrel_nnue::read_network(&spec).map_err(|e| format!("network {spec}: {e}"))?;
        let id = network_id(&net);
        if self.settings.network.as_deref() != Some(id.as_str()) {
            return Err(format!(
                "the worker's network is '{id}', the run's {:?}: run the same kestrel build on \
                 every node",
                self.settings.network
            ));
        }
        let eval = NetEval::with_detected_kernel(&net, &spec).map_err(|e| e.to_string())?;
        Ok(Some(Arc::new(eval)))
    }
}

impl FitnessSpec for SelfPlaySpec {
    const KIND: &'static str = "nnue-data";

    fn blobs(&self) -> Vec<String> {
        let mut blobs = vec![self.openings.clone()];
        if let NetworkSource::Blob(hash) = &self.network {
            blobs.push(hash.clone());
        }
        blobs
    }

    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        let openings = get_openings(blobs, &self.openings)?;
        if openings.is_empty() {
            return Err("self-play needs at least one opening".into());
        }
        Ok(Box::new(SelfPlayWorker {
            fingerprint: self.fingerprint(),
            settings: self.settings.clone(),
            network: self.network(blobs)?,
            openings,
        }))
    }
}

/// The worker side: a [`RemoteFitness`] whose tasks are games.
struct SelfPlayWorker {
    fingerprint: String,
    settings: SelfPlaySettings,
    network: Option<Arc<NetEval>>,
    openings: Vec<Opening>,
}

impl RemoteFitness for SelfPlayWorker {
    fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }

    /// Plays games `range` (game indices of the run) on the worker's threads.
    fn run_tasks_json(
        &self,
        _seed: u64,
        _genomes: serde_json::Value,
        range: Range<usize>,
    ) -> Result<Vec<TaskResult>, String> {
        Ok((range.start as u64..range.end as u64)
            .into_par_iter()
            .map(|i| {
                encode(&play_game(
                    &self.settings,
                    self.network.as_ref(),
                    &self.openings,
                    i,
                ))
            })
            .collect())
    }

    fn take_report(&self) -> Option<serde_json::Value> {
        None
    }
}

/// Bytes of a record per number of a task result: four, so every number is an exact `f64`.
const CHUNK: usize = 4;

/// A game as a task result: its outcome (−1 none, else [`Outcome`]'s code), its plies, then
/// each record's bytes as little-endian `u32`s.
fn encode(game: &GameOutput) -> TaskResult {
    let mut out = Vec::with_capacity(2 + game.records.len() * RECORD_LEN / CHUNK);
    out.push(game.outcome.map_or(-1.0, |o| f64::from(o as u8)));
    out.push(game.plies as f64);
    for record in &game.records {
        for chunk in record.0.chunks_exact(CHUNK) {
            let word = u32::from_le_bytes(chunk.try_into().expect("chunks of four"));
            out.push(f64::from(word));
        }
    }
    out
}

/// The game an [`encode`]d task result holds; anything else is an error.
fn decode(result: &[f64]) -> Result<GameOutput, String> {
    let bad = |why: &str| format!("a worker answered a malformed game ({why})");
    let [outcome, plies, words @ ..] = result else {
        return Err(bad("too short"));
    };
    let outcome = match *outcome {
        -1.0 => None,
        0.0 => Some(Outcome::BlackWin),
        1.0 => Some(Outcome::Draw),
        2.0 => Some(Outcome::WhiteWin),
        _ => return Err(bad("outcome")),
    };
    let words_per_record = RECORD_LEN / CHUNK;
    if words.len() % words_per_record != 0 || plies.fract() != 0.0 || *plies < 0.0 {
        return Err(bad("length"));
    }
    let mut records = Vec::with_capacity(words.len() / words_per_record);
    for chunk in words.chunks_exact(words_per_record) {
        let mut bytes = [0u8; RECORD_LEN];
        for (i, &w) in chunk.iter().enumerate() {
            if w.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&w) {
                return Err(bad("record bytes"));
            }
            bytes[i * CHUNK..(i + 1) * CHUNK].copy_from_slice(&(w as u32).to_le_bytes());
        }
        let record = PackedPosition(bytes);
        record.to_board().map_err(|e| bad(&e.to_string()))?;
        records.push(record);
    }
    Ok(GameOutput {
        records,
        outcome,
        plies: *plies as usize,
    })
}

/// The leader side: a run's games played by jobs on `R` (Ray, or worker processes here).
pub struct RemoteGames<R: JobRunner> {
    runner: R,
    spec: SelfPlaySpec,
    workers: usize,
    job_games: Option<usize>,
    place: String,
}

impl<R: JobRunner> RemoteGames<R> {
    /// Games played through `runner`'s `workers` (which serve [`SelfPlaySpec`]), `job_games`
    /// a job (default: two jobs per worker a block); `place` names them for the summary.
    pub fn new(
        runner: R,
        spec: SelfPlaySpec,
        workers: usize,
        job_games: Option<usize>,
        place: String,
    ) -> Self {
        RemoteGames {
            runner,
            spec,
            workers: workers.max(1),
            job_games,
            place,
        }
    }
}

impl<R: JobRunner> GamePlayer for RemoteGames<R> {
    fn play(&mut self, job: &DataRun, games: Range<u64>) -> Result<Vec<GameOutput>, RunError> {
        if !matches!(job.source, GameSource::SelfPlay(_)) || job.settings != self.spec.settings {
            return Err(RunError::Cluster(
                "the workers play this spec's self-play games only".into(),
            ));
        }
        let count = (games.end - games.start) as usize;
        let per_job = self
            .job_games
            .unwrap_or_else(|| count.div_ceil(2 * self.workers))
            .max(1);
        let fingerprint = self.spec.fingerprint();
        let jobs: Vec<JobEnvelope> = (games.start..games.end)
            .step_by(per_job)
            .map(|first| JobEnvelope {
                version: PROTOCOL_VERSION,
                fitness: self.spec.tagged(),
                fingerprint: fingerprint.clone(),
                generation: games.start,
                sample_seed: 0,
                genomes: serde_json::json!([]),
                tasks: Some([
                    first as usize,
                    (first + per_job as u64).min(games.end) as usize,
                ]),
            })
            .collect();
        let replies = self
            .runner
            .run_jobs(games.start, &jobs)
            .map_err(RunError::Cluster)?;
        if replies.len() != jobs.len() {
            let why = format!(
                "the workers answered {} of {} jobs",
                replies.len(),
                jobs.len()
            );
            return Err(RunError::Cluster(why));
        }
        let mut out = Vec::with_capacity(count);
        for (i, reply) in replies.iter().enumerate() {
            if !reply.ok {
                let why = reply.error.clone().unwrap_or_default();
                return Err(RunError::Cluster(format!(
                    "games from {} on: job {i} failed on a worker: {why}",
                    games.start
                )));
            }
            for result in &reply.task_results {
                out.push(decode(result).map_err(RunError::Cluster)?);
            }
        }
        Ok(out)
    }

    fn place(&self) -> String {
        self.place.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_chess::Board;

    #[test]
    fn games_survive_the_trip_as_task_results_and_nonsense_is_refused() {
        let openings = [Opening::startpos()];
        let settings = SelfPlaySettings {
            nodes: 300,
            ..SelfPlaySettings::default()
        };
        let game = play_game(&settings, None, &openings, 3);
        assert!(!game.records.is_empty());
        let back = decode(&encode(&game)).unwrap();
        assert_eq!(back.records, game.records);
        assert_eq!((back.outcome, back.plies), (game.outcome, game.plies));
        let mut cut = encode(&game);
        cut.pop();
        assert!(decode(&cut).is_err());
        let mut wrong = encode(&game);
        wrong[0] = 5.0;
        assert!(decode(&wrong).is_err());
        wrong[0] = -1.0;
        wrong[2] = 0.5;
        assert!(decode(&wrong).is_err());
        assert!(decode(&[]).is_err());
    }

    #[test]
    fn openings_travel_as_fen_and_uci_moves() {
        let mut board = Board::startpos();
        let mut moves = Vec::new();
        for text in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"] {
            let mv = board.parse_uci_move(text).unwrap();
            board.make_move(mv);
            moves.push(mv);
        }
        let opening = Opening {
            start: Board::startpos(),
            moves,
            name: Some("Two Knights".into()),
        };
        let dir = std::env::temp_dir().join(format!("kestrel-openings-{}", std::process::id()));
        let store = BlobStore::new(&dir);
        let settings = SelfPlaySettings::default();
        let spec =
            SelfPlaySpec::store(&settings, std::slice::from_ref(&opening), None, &store).unwrap();
        let back = get_openings(&store, &spec.openings).unwrap();
        assert_eq!(back[0].start.to_fen(), opening.start.to_fen());
        assert_eq!(back[0].moves, opening.moves);
        let bad = |line: &str| {
            let hash = kestrel_ga::cluster::put_lines(&store, &[line.to_string()]).unwrap();
            get_openings(&store, &hash)
        };
        assert!(bad("not a fen\te2e4").is_err());
        assert!(bad(&format!("{}\te2e5", Board::startpos().to_fen())).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
