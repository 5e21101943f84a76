//! Who plays a data run's games: this machine's threads ([`LocalPlayer`]) or cluster workers
//! ([`super::remote::RemoteGames`]). Game `i` depends only on the settings and `i`, so every
//! player gives the same games.

use super::game::GameOutput;
use super::run::DataRun;
use crate::progress::RunError;
use rayon::prelude::*;
use std::ops::Range;

/// Plays games of a [`DataRun`] for [`super::run_on`].
pub trait GamePlayer {
    /// Games `games` of `job`, in index order.
    fn play(&mut self, job: &DataRun, games: Range<u64>) -> Result<Vec<GameOutput>, RunError>;
    /// Where the games are played, for the summary (e.g. "2 threads").
    fn place(&self) -> String;
}

/// The games on a thread pool of this process.
pub struct LocalPlayer {
    pool: rayon::ThreadPool,
    threads: usize,
}

impl LocalPlayer {
    /// A pool of `threads` threads.
    pub fn new(threads: usize) -> Result<Self, RunError> {
        let threads = threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|_| RunError::Threads(threads))?;
        Ok(LocalPlayer { pool, threads })
    }
}

impl GamePlayer for LocalPlayer {
    fn play(&mut self, job: &DataRun, games: Range<u64>) -> Result<Vec<GameOutput>, RunError> {
        Ok(self.pool.install(|| {
            games
                .into_par_iter()
                .map(|i| job.source.play(&job.settings, job.network.as_ref(), i))
                .collect()
        }))
    }

    fn place(&self) -> String {
        match self.threads {
            1 => "1 thread".into(),
            n => format!("{n} threads"),
        }
    }
}
