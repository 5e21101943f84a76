//! The games GA over an external engine's options (`kestrel evolve games --engine`): each
//! organism is a set of option values (spins as integers, `check` options as 0/1 genes),
//! raced in game pairs against opponents: by default the same engine at its start values,
//! or the same engine with an options file, or other engines, one drawn per pair from the
//! generation's seed (every organism meets the same opponent on pair `j`, so the race
//! compares like with like).

use super::engine::{ExternalEngine, PlayerPool};
use super::tunables::format_value;
use crate::games::race::{RaceEntry, RaceSettings, race};
use crate::spsa::step::iteration_rng;
use crate::spsa::{FaultKinds, SpsaParam};
use kestrel_ga::{Evaluation, FitnessFunction, RealGenome, RealSpace};
use kestrel_tools::{GameSettings, Opening, Outcome};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// One gene: an option's range and start, and whether it is a `check` (true/false).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gene {
    /// Name, start, range (`c_end` and `r_end` unused here).
    pub param: SpsaParam,
    /// A `check` option: 0 is `false`, 1 `true`.
    pub check: bool,
}

/// An opponent: an engine with the options it plays every game with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opponent {
    /// The engine.
    pub engine: ExternalEngine,
    /// Its per-game options (the start values, or an options file's).
    pub options: Vec<(String, String)>,
}

/// Organisms of option values scored by raced pairs against the opponents.
pub struct ExternalGameFitness {
    engine: ExternalEngine,
    genes: Vec<Gene>,
    opponents: Vec<Opponent>,
    openings: Vec<Opening>,
    game: GameSettings,
    race: RaceSettings,
    pool: PlayerPool,
    failure: Mutex<Option<String>>,
    tally: Mutex<GameTally>,
}

/// Games finished and the tuned engine's faults since the tally was last taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameTally {
    /// Games of the pairs that finished (a pair that kept failing counts none).
    pub games: u64,
    /// Crashes, hangs, illegal moves, losses on time and pairs replayed.
    pub faults: FaultKinds,
}

impl std::ops::AddAssign for GameTally {
    fn add_assign(&mut self, other: GameTally) {
        self.games += other.games;
        self.faults += other.faults;
    }
}

/// What a worker sends back after a job: its tally and why a pair kept failing, if one did.
#[derive(Serialize, Deserialize)]
struct WorkerTally {
    tally: GameTally,
    failure: Option<String>,
}

/// The `setoption`s of `values` of `genes` (integers rounded and clamped, checks as
/// true/false).
pub fn gene_options(genes: &[Gene], values: &[f64]) -> Vec<(String, String)> {
    genes
        .iter()
        .zip(values)
        .map(|(g, &v)| {
            let p = &g.param;
            let v = v.clamp(p.min, p.max);
            let value = match (g.check, p.float) {
                (true, _) => (v.round() >= 1.0).to_string(),
                (false, true) => format_value(p, v),
                (false, false) => format_value(p, v.round()),
            };
            (p.name.clone(), value)
        })
        .collect()
}

impl ExternalGameFitness {
    /// Checks the race, the openings and that there is an opponent.
    pub fn new(
        engine: ExternalEngine,
        genes: Vec<Gene>,
        opponents: Vec<Opponent>,
        openings: Vec<Opening>,
        game: GameSettings,
        race: RaceSettings,
    ) -> Result<ExternalGameFitness, String> {
        race.validate()?;
        if openings.is_empty() || opponents.is_empty() || genes.is_empty() {
            return Err("the games GA needs openings, an opponent and a gene".into());
        }
        Ok(ExternalGameFitness {
            engine,
            genes,
            opponents,
            openings,
            game,
            race,
            pool: PlayerPool::default(),
            failure: Mutex::new(None),
            tally: Mutex::new(GameTally::default()),
        })
    }

    /// The engine under tuning.
    pub fn engine(&self) -> &ExternalEngine {
        &self.engine
    }

    /// The evolved options.
    pub fn genes(&self) -> &[Gene] {
        &self.genes
    }

    /// The opponents, one drawn per pair.
    pub fn opponents(&self) -> &[Opponent] {
        &self.opponents
    }

    /// The book.
    pub fn openings(&self) -> &[Opening] {
        &self.openings
    }

    /// Limit and adjudication of every game.
    pub fn game(&self) -> &GameSettings {
        &self.game
    }

    /// How each generation is raced.
    pub fn race(&self) -> RaceSettings {
        self.race
    }

    /// The GA space: every gene's range, mutation `sigma` of the range.
    pub fn space(&self, sigma: f64) -> RealSpace {
        RealSpace {
            min: self.genes.iter().map(|g| g.param.min).collect(),
            max: self.genes.iter().map(|g| g.param.max).collect(),
            sigma,
        }
    }

    /// The `setoption`s of an organism (integers rounded and clamped, checks as true/false).
    pub fn options(&self, genes: &[f64]) -> Vec<(String, String)> {
        gene_options(&self.genes, genes)
    }

    /// Why a pair kept failing, once one has (the run must stop).
    pub fn failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The games and faults since the last call (one generation's, when taken after each).
    pub fn take_tally(&self) -> GameTally {
        std::mem::take(&mut *self.tally.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Every organism's race on the openings and opponents of `sample_seed`.
    pub fn measure(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<RaceEntry> {
        let most = self.race.pairs_after(self.race.rounds);
        let mut rng = iteration_rng(sample_seed, 0);
        let picks: Vec<(usize, usize)> = (0..most)
            .map(|_| {
                (
                    rng.random_range(0..self.openings.len()),
                    rng.random_range(0..self.opponents.len()),
                )
            })
            .collect();
        let options: Vec<_> = genomes.iter().map(|g| self.options(&g.0)).collect();
        race(&self.race, genomes.len(), &|c, j| {
            let (opening, opponent) = picks[j];
            let o = &self.opponents[opponent];
            let r = self.pool.play_pair(
                (&self.engine, &options[c]),
                (&o.engine, &o.options),
                &self.openings[opening],
                &self.game,
            );
            {
                let mut tally = self.tally.lock().unwrap_or_else(|e| e.into_inner());
                tally.faults += r.kinds;
                tally.games += if r.outcomes.is_some() { 2 } else { 0 };
            }
            r.outcomes.unwrap_or_else(|| {
                let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
                failure.get_or_insert_with(|| {
                    format!(
                        "a game pair failed {} times in a row: the engine keeps failing (its last error is printed above)",
                        super::engine::PAIR_ATTEMPTS
                    )
                });
                (Outcome::Draw, Outcome::Draw)
            })
        })
    }
}

impl FitnessFunction<RealGenome> for ExternalGameFitness {
    fn evaluate(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<Evaluation> {
        self.measure(sample_seed, genomes)
            .iter()
            .map(|r| Evaluation {
                fitness: r.fitness(),
                objective: r.penta.elo().clamp(-1000.0, 1000.0),
            })
            .collect()
    }

    /// The race needs the whole population in one call.
    fn chunk_size(&self) -> usize {
        usize::MAX
    }

    /// The games, faults and failure of the jobs since the last call (a worker's, for the
    /// leader's faults.csv and stop).
    fn take_report(&self) -> Option<serde_json::Value> {
        let report = WorkerTally {
            tally: self.take_tally(),
            failure: self
                .failure
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take(),
        };
        serde_json::to_value(report).ok()
    }

    fn absorb_report(&self, report: &serde_json::Value) -> Result<(), String> {
        let report: WorkerTally = serde_json::from_value(report.clone())
            .map_err(|e| format!("malformed games tally: {e}"))?;
        *self.tally.lock().unwrap_or_else(|e| e.into_inner()) += report.tally;
        if let Some(why) = report.failure {
            let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
            failure.get_or_insert(why);
        }
        Ok(())
    }

    fn fingerprint(&self) -> String {
        let names: Vec<&str> = self.genes.iter().map(|g| g.param.name.as_str()).collect();
        let opponents: Vec<String> = self
            .opponents
            .iter()
            .map(|o| format!("{} {:?}", o.engine.command, o.options))
            .collect();
        format!(
            "games external {} {:?} | {} | {} | race {:?} | {} openings | opponents {}",
            self.engine.command,
            self.engine.options,
            names.join(","),
            self.game.limit,
            self.race,
            self.openings.len(),
            opponents.join("; ")
        )
    }
}
