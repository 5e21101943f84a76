//! A self-play data run: games played in parallel in blocks of a fixed number, each block
//! appended to `positions.kpos` in game order, then `progress.json` rewritten atomically. A run
//! killed at any moment continues from its last complete block (the torn tail cut off) and
//! writes the same bytes as an uninterrupted run, whatever the thread count.

use super::game::{SelfPlaySettings, play_game};
use crate::format::{DataWriter, PackedPosition};
use kestrel_tools::Opening;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The data file of a run folder.
pub const DATA_FILE: &str = "positions.kpos";
/// The progress file of a run folder.
pub const PROGRESS_FILE: &str = "progress.json";

/// What a run is asked to do.
#[derive(Clone, Debug)]
pub struct DataRun {
    /// How games are played.
    pub settings: SelfPlaySettings,
    /// Where the openings came from (a resume must use the same).
    pub openings_source: String,
    /// The openings (not empty).
    pub openings: Vec<Opening>,
    /// Games in total (a resumed run may raise it).
    pub games: u64,
    /// Games per block (checkpoint granularity; part of the output's layout).
    pub block_games: u64,
    /// Worker threads.
    pub threads: usize,
}

/// `progress.json`: how far a run is, and what it was started with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataProgress {
    /// How games are played.
    pub settings: SelfPlaySettings,
    /// The openings' source.
    pub openings: String,
    /// Games per block.
    pub block_games: u64,
    /// Games whose positions are in the data file.
    pub games_done: u64,
    /// Records in the data file.
    pub records: u64,
    /// Bytes of the data file that hold complete blocks.
    pub bytes: u64,
    /// Games won by White, drawn and won by Black.
    pub results: [u64; 3],
    /// Plies played in all games.
    pub plies: u64,
}

/// What a call of [`run`] did.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The progress at the end.
    pub progress: DataProgress,
    /// Games played by this call.
    pub games_played: u64,
    /// Records written by this call.
    pub records_written: u64,
    /// Seconds this call took.
    pub seconds: f64,
    /// Whether this call continued an earlier run.
    pub resumed: bool,
}

/// Why a run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A file could not be read or written.
    #[error("{0}")]
    Data(#[from] crate::format::DataError),
    /// The progress file is unreadable, or from other settings.
    #[error("{path}: {why}")]
    Progress {
        /// The progress file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The thread pool could not be built.
    #[error("cannot start {0} threads")]
    Threads(usize),
}

/// Reads a folder's progress file, if there is one.
pub fn read_progress(dir: &Path) -> Result<Option<DataProgress>, RunError> {
    let path = dir.join(PROGRESS_FILE);
    let bad = |why: String| RunError::Progress {
        path: path.clone(),
        why,
    };
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| bad(format!("corrupt progress file: {e}"))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(bad(e.to_string())),
    }
}

fn write_progress(dir: &Path, progress: &DataProgress) -> Result<(), RunError> {
    let path = dir.join(PROGRESS_FILE);
    let text = serde_json::to_string_pretty(progress).expect("progress serialises");
    kestrel_params::atomic::write_atomic(&path, text.as_bytes()).map_err(|e| RunError::Progress {
        path,
        why: e.to_string(),
    })
}

/// Opens the data file: a new one, or the earlier run's cut back to its last complete block.
fn open(dir: &Path, job: &DataRun) -> Result<(DataWriter, DataProgress, bool), RunError> {
    let data = dir.join(DATA_FILE);
    match read_progress(dir)? {
        Some(progress) => {
            let same = progress.settings == job.settings
                && progress.openings == job.openings_source
                && progress.block_games == job.block_games;
            if !same {
                return Err(RunError::Progress {
                    path: dir.join(PROGRESS_FILE),
                    why: format!(
                        "the run in this folder was started with other settings ({}); use the \
                         same options, or another --out",
                        serde_json::to_string(&progress.settings).unwrap_or_default()
                    ),
                });
            }
            let writer = DataWriter::resume(&data, progress.bytes)?;
            Ok((writer, progress, true))
        }
        None => {
            let writer = DataWriter::create(&data)?;
            let progress = DataProgress {
                settings: job.settings.clone(),
                openings: job.openings_source.clone(),
                block_games: job.block_games,
                games_done: 0,
                records: 0,
                bytes: writer.bytes(),
                results: [0; 3],
                plies: 0,
            };
            write_progress(dir, &progress)?;
            Ok((writer, progress, false))
        }
    }
}

/// Runs (or continues) the self-play run in `dir` up to `job.games` games, calling
/// `on_block` after every block written.
pub fn run(
    dir: &Path,
    job: &DataRun,
    on_block: &dyn Fn(&DataProgress),
) -> Result<RunReport, RunError> {
    assert!(!job.openings.is_empty(), "self-play needs openings");
    let started = Instant::now();
    let (mut writer, mut progress, resumed) = open(dir, job)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(job.threads.max(1))
        .build()
        .map_err(|_| RunError::Threads(job.threads))?;
    let (games_before, records_before) = (progress.games_done, progress.records);
    on_block(&progress);
    while progress.games_done < job.games {
        let first = progress.games_done;
        // Blocks end at multiples of `block_games`, so a run killed and resumed cuts its
        // blocks where an uninterrupted one does.
        let block = job.block_games.max(1);
        let last = ((first / block + 1) * block).min(job.games);
        let games = pool.install(|| {
            (first..last)
                .into_par_iter()
                .map(|i| play_game(&job.settings, &job.openings, i))
                .collect::<Vec<_>>()
        });
        let records: Vec<PackedPosition> = games
            .iter()
            .flat_map(|g| g.records.iter().copied())
            .collect();
        writer.write_block(&records)?;
        for g in &games {
            progress.results[2 - g.outcome as usize] += 1;
            progress.plies += g.plies as u64;
        }
        progress.games_done = last;
        progress.records += records.len() as u64;
        progress.bytes = writer.bytes();
        write_progress(dir, &progress)?;
        on_block(&progress);
    }
    Ok(RunReport {
        games_played: progress.games_done - games_before,
        records_written: progress.records - records_before,
        progress,
        seconds: started.elapsed().as_secs_f64(),
        resumed,
    })
}
