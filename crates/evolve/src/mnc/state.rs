//! A run's state: the organisms with their identity and lineage, the counters behind the stop
//! rules, and the log. Saved after every generation (JSON, atomically) for an exact resume.

use crate::mnc::settings::MncSettings;
use kestrel_ga::RealGenome;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One organism of the population.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Organism {
    /// Its number within the run (0.. in birth order).
    pub id: u64,
    /// The 640 table values (10 piece-square tables × 64 squares), in centipawns.
    pub genome: RealGenome,
    /// Parents' ids (empty for the random initial population).
    pub parents: Vec<u64>,
    /// Generation it was born in (0 for the initial population).
    pub born: u64,
    /// Score in its latest tournament (newborns: the mean of their parents' until they play).
    pub fitness: f64,
    /// Sum of its tournament scores and the number of tournaments played.
    pub score_sum: f64,
    /// Tournaments played (the divisor of `score_sum`).
    pub tournaments: u64,
}

impl Organism {
    /// Mean score over the tournaments it played (0 before the first).
    pub fn lifetime_score(&self) -> f64 {
        self.score_sum / self.tournaments.max(1) as f64
    }
}

/// A birth, kept for every organism of the run (lineages of the stored leaders).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Birth {
    /// Id of the organism born (its [`Organism::id`]).
    pub id: u64,
    /// Generation it was born in (0 for the initial population).
    pub born: u64,
    /// Parents' ids (empty for the initial population).
    pub parents: Vec<u64>,
}

/// One line of the MNC log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MncLine {
    /// The generation this line describes.
    pub generation: u64,
    /// Id of the generation's best organism.
    pub best_id: u64,
    /// The best organism's score in this generation's tournament (mean points per game).
    pub best_score: f64,
    /// The best organism's mean score over all its tournaments.
    pub best_lifetime: f64,
    /// Phenotypic distance (cp) between this and the previous generation's best.
    pub best_change_cp: f64,
    /// Number of niches found within the niche radius.
    pub niches: usize,
    /// Spread of the population's genes in [0, 1] (0: all identical).
    pub diversity: f64,
    /// Mean distance (cp) to Kestrel's own tables: best organism, population.
    pub best_to_kestrel_cp: f64,
    /// Mean distance (cp) of the whole population to Kestrel's tables.
    pub mean_to_kestrel_cp: f64,
    /// Games played in this generation's tournament.
    pub games: u64,
    /// Wall time of the generation (the only non-reproducible column).
    pub seconds: f64,
}

/// Everything saved after a generation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MncCheckpoint {
    /// The settings the run was started with (a resume must use the same).
    pub settings: MncSettings,
    /// The fitness function's fingerprint.
    pub fitness: String,
    /// The generation `population` belongs to (not evaluated yet).
    pub next_generation: u64,
    /// The organisms of `next_generation`.
    pub population: Vec<Organism>,
    /// The id the next newborn gets.
    pub next_id: u64,
    /// Every birth of the run, for the leaders' lineages.
    pub births: Vec<Birth>,
    /// The log, one line per evaluated generation.
    pub history: Vec<MncLine>,
    /// Generations in a row the best organism stayed the same, and moved less than the
    /// small-change threshold.
    pub unchanged_run: u64,
    /// Generations in a row the best chromosome moved less than the small-change threshold.
    pub small_change_run: u64,
    /// The best organism of the last evaluated generation.
    pub last_best: Option<Organism>,
    /// Games played over the whole run so far.
    pub games: u64,
}

impl MncCheckpoint {
    /// The checkpoint as JSON bytes.
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a checkpoint is plain data")
    }

    /// Reads a checkpoint file; errs when it cannot be read or is not a valid checkpoint.
    pub fn load(path: &Path) -> Result<MncCheckpoint, String> {
        let bytes = std::fs::read(path)
            .map_err(|e| format!("cannot read checkpoint {}: {e}", path.display()))?;
        serde_json::from_slice(&bytes)
            .map_err(|e| format!("checkpoint {} is damaged: {e}", path.display()))
    }

    /// Every ancestor of `id` (itself included), by id.
    pub fn lineage(&self, id: u64) -> Vec<Birth> {
        let by_id: std::collections::HashMap<u64, &Birth> =
            self.births.iter().map(|b| (b.id, b)).collect();
        let mut seen = std::collections::BTreeSet::new();
        let mut stack = vec![id];
        while let Some(x) = stack.pop() {
            if seen.insert(x)
                && let Some(b) = by_id.get(&x)
            {
                stack.extend(&b.parents);
            }
        }
        seen.into_iter()
            .filter_map(|x| by_id.get(&x).map(|b| (*b).clone()))
            .collect()
    }
}

/// The log as CSV.
pub fn render_mnc_csv(history: &[MncLine]) -> String {
    use std::fmt::Write as _;
    let mut s = String::from(
        "generation,best_id,best_score,best_lifetime,best_change_cp,niches,diversity,\
         best_to_kestrel_cp,mean_to_kestrel_cp,games,seconds\n",
    );
    for h in history {
        writeln!(
            s,
            "{},{},{:.4},{:.4},{:.3},{},{:.4},{:.3},{:.3},{},{:.3}",
            h.generation,
            h.best_id,
            h.best_score,
            h.best_lifetime,
            h.best_change_cp,
            h.niches,
            h.diversity,
            h.best_to_kestrel_cp,
            h.mean_to_kestrel_cp,
            h.games,
            h.seconds
        )
        .expect("writing to a String cannot fail");
    }
    s
}
