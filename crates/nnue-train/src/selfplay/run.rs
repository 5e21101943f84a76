//! A self-play data run: games played in parallel in blocks of a fixed number, each block
//! appended to `positions.kpos` in game order, then `progress.json` rewritten atomically. A run
//! killed at any moment continues from its last complete block (the torn tail cut off) and
//! writes the same bytes as an uninterrupted run, whatever the thread count.

use super::game::{GameOutput, SelfPlaySettings, play_game};
use super::pgn::pgn_positions;
use super::player::{GamePlayer, LocalPlayer};
use crate::format::{DataWriter, PackedPosition};
use crate::progress::{DATA_FILE, RunError, other_settings, read_progress, write_progress};
use kestrel_chess::PgnGame;
use kestrel_nnue::NetEval;
use kestrel_tools::Opening;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// What a run is asked to do.
#[derive(Clone, Debug)]
pub struct DataRun {
    /// How games are played.
    pub settings: SelfPlaySettings,
    /// Where the games come from.
    pub source: GameSource,
    /// The network the searches evaluate with (`None`: the linear evaluation); its
    /// [`super::network_id`] belongs in `settings.network`.
    pub network: Option<Arc<NetEval>>,
    /// Names the source and its settings (a resume must use the same).
    pub source_name: String,
    /// Games in total (a resumed run may raise it; a PGN source stops at its last game).
    pub games: u64,
    /// Games per block (checkpoint granularity; part of the output's layout).
    pub block_games: u64,
    /// Worker threads (of [`run`]'s [`LocalPlayer`]).
    pub threads: usize,
}

/// Where a run's games come from.
#[derive(Clone, Debug)]
pub enum GameSource {
    /// Self-play from these openings (not empty).
    SelfPlay(Vec<Opening>),
    /// Recorded games, positions from ply `skip_plies` on, scored by Kestrel or not.
    Pgn {
        /// The games, in file order.
        games: Vec<PgnGame>,
        /// Opening plies never taken.
        skip_plies: usize,
        /// Whether Kestrel's search scores the positions (else they are left unscored).
        score: bool,
    },
}

impl GameSource {
    /// The games this source can give (`None`: any number).
    fn available(&self) -> Option<u64> {
        match self {
            GameSource::SelfPlay(_) => None,
            GameSource::Pgn { games, .. } => Some(games.len() as u64),
        }
    }

    /// Game `index` of this source.
    pub fn play(
        &self,
        settings: &SelfPlaySettings,
        network: Option<&Arc<NetEval>>,
        index: u64,
    ) -> GameOutput {
        match self {
            GameSource::SelfPlay(openings) => play_game(settings, network, openings, index),
            GameSource::Pgn {
                games,
                skip_plies,
                score,
            } => pgn_positions(
                settings,
                network,
                &games[index as usize],
                *skip_plies,
                *score,
            ),
        }
    }
}

/// `progress.json`: how far a run is, and what it was started with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataProgress {
    /// How games are played.
    pub settings: SelfPlaySettings,
    /// The games' source (for self-play: the openings file).
    #[serde(alias = "openings")]
    pub source: String,
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

/// Opens the data file: a new one, or the earlier run's cut back to its last complete block.
fn open(dir: &Path, job: &DataRun) -> Result<(DataWriter, DataProgress, bool), RunError> {
    let data = dir.join(DATA_FILE);
    match read_progress::<DataProgress>(dir)? {
        Some(progress) => {
            let same = progress.settings == job.settings
                && progress.source == job.source_name
                && progress.block_games == job.block_games;
            if !same {
                return Err(other_settings(dir, &progress.settings));
            }
            let writer = DataWriter::resume(&data, progress.bytes)?;
            Ok((writer, progress, true))
        }
        None => {
            let writer = DataWriter::create(&data)?;
            let progress = DataProgress {
                settings: job.settings.clone(),
                source: job.source_name.clone(),
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

/// Runs (or continues) the self-play run in `dir` up to `job.games` games on `job.threads`
/// threads, calling `on_block` after every block written.
pub fn run(
    dir: &Path,
    job: &DataRun,
    on_block: &dyn Fn(&DataProgress),
) -> Result<RunReport, RunError> {
    run_on(dir, job, &mut LocalPlayer::new(job.threads)?, on_block)
}

/// [`run`] with the games played by `player` (here, or on cluster workers): the same bytes.
pub fn run_on(
    dir: &Path,
    job: &DataRun,
    player: &mut dyn GamePlayer,
    on_block: &dyn Fn(&DataProgress),
) -> Result<RunReport, RunError> {
    if let GameSource::SelfPlay(openings) = &job.source
        && openings.is_empty()
    {
        return Err(RunError::Input(
            "self-play needs at least one opening".into(),
        ));
    }
    let total = job
        .source
        .available()
        .map_or(job.games, |n| n.min(job.games));
    let started = Instant::now();
    let (mut writer, mut progress, resumed) = open(dir, job)?;
    let (games_before, records_before) = (progress.games_done, progress.records);
    on_block(&progress);
    while progress.games_done < total {
        let first = progress.games_done;
        // Blocks end at multiples of `block_games`, so a run killed and resumed cuts its
        // blocks where an uninterrupted one does.
        let block = job.block_games.max(1);
        let last = ((first / block + 1) * block).min(total);
        let games = player.play(job, first..last)?;
        if games.len() as u64 != last - first {
            return Err(RunError::Cluster(format!(
                "{} games played of {}",
                games.len(),
                last - first
            )));
        }
        let records: Vec<PackedPosition> = games
            .iter()
            .flat_map(|g| g.records.iter().copied())
            .collect();
        writer.write_block(&records)?;
        for g in &games {
            if let Some(outcome) = g.outcome {
                progress.results[2 - outcome as usize] += 1;
            }
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
