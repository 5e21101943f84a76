//! Validation inside a search-GA run: after every generation the generation's best organism
//! (on the training positions) is also scored on validation positions that the GA never
//! trains on, and the run returns the organism with the lowest validation objective instead
//! of the last training best. This is early stopping for a GA: training gains that are luck on
//! the training positions do not survive a second, unseen set of positions.
//!
//! The track (each generation's best, with both scores) is saved as `validation.json` after
//! every generation and reloaded on `--resume`; scoring is deterministic, so it is a record of
//! what the run saw, and a resumed run selects from the same candidates.

use crate::search::fitness::{SearchFitness, SearchFitnessSpec, SuiteScore, evaluation_of};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One generation's best organism with its training objective and validation score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrackEntry {
    /// The generation the organism was the best of.
    pub generation: u64,
    /// The organism's values of the evolved parameters, in chromosome order.
    pub fields: Vec<i32>,
    /// Its objective on the training positions (total cost or geometric mean, in nodes).
    pub train_objective: f64,
    /// Its score on the validation positions.
    pub validation: SuiteScore,
}

/// The saved track: the validation fitness's fingerprint and the entries.
#[derive(Serialize, Deserialize)]
struct TrackFile {
    fingerprint: String,
    entries: Vec<TrackEntry>,
}

/// Validation positions and the per-generation track of the run.
pub struct ValidationTrack {
    fitness: SearchFitness,
    entries: Vec<TrackEntry>,
}

impl ValidationTrack {
    /// A track on `lines` (EPD) scored under the training spec's rule, set and objective.
    pub fn new(training: &SearchFitnessSpec, lines: Vec<String>) -> Result<Self, String> {
        let spec = SearchFitnessSpec {
            train: lines,
            ..training.clone()
        };
        Ok(ValidationTrack {
            fitness: SearchFitness::build(spec)
                .map_err(|e| format!("validation positions: {e}"))?,
            entries: Vec::new(),
        })
    }

    /// Number of validation positions.
    pub fn positions(&self) -> usize {
        self.fitness.positions.len()
    }

    /// Scores decoded organisms on the validation positions (memoised).
    pub fn score(&self, organisms: &[Vec<i32>]) -> Vec<SuiteScore> {
        self.fitness.score_fields(organisms)
    }

    /// Records generation `generation`'s best organism (a generation already recorded, e.g.
    /// after a resume, is replaced: the scores are the same).
    pub fn observe(&mut self, generation: u64, fields: Vec<i32>, train_objective: f64) {
        let validation = self.score(std::slice::from_ref(&fields))[0];
        self.entries.retain(|e| e.generation != generation);
        self.entries.push(TrackEntry {
            generation,
            fields,
            train_objective,
            validation,
        });
        self.entries.sort_by_key(|e| e.generation);
    }

    /// The recorded generations, in order.
    pub fn entries(&self) -> &[TrackEntry] {
        &self.entries
    }

    /// The objective the run minimises, on validation.
    pub fn objective_of(&self, score: SuiteScore) -> f64 {
        evaluation_of(score, self.fitness.spec.objective, self.positions()).objective
    }

    /// The entry with the lowest validation objective (the earliest on a tie: the fewer
    /// generations of fitting, the better).
    pub fn selected(&self) -> Option<&TrackEntry> {
        self.entries.iter().reduce(|best, e| {
            if self.objective_of(e.validation) < self.objective_of(best.validation) {
                e
            } else {
                best
            }
        })
    }

    /// The track as JSON, tagged with the validation fitness's fingerprint.
    pub fn to_json(&self) -> Vec<u8> {
        let file = TrackFile {
            fingerprint: self.fitness.spec.fingerprint(),
            entries: self.entries.clone(),
        };
        serde_json::to_vec_pretty(&file).expect("the track is plain data")
    }

    /// The track as CSV (one line per generation) for plotting.
    pub fn to_csv(&self) -> Vec<u8> {
        let mut s = String::from(
            "generation,train_objective,validation_objective,validation_cost,validation_solved\n",
        );
        for e in &self.entries {
            s.push_str(&format!(
                "{},{:.4},{:.4},{},{}\n",
                e.generation,
                e.train_objective,
                self.objective_of(e.validation),
                e.validation.cost,
                e.validation.solved
            ));
        }
        s.into_bytes()
    }

    /// Reloads a saved track when it belongs to these validation positions and settings.
    pub fn load(&mut self, path: &Path) {
        let Ok(bytes) = std::fs::read(path) else {
            return;
        };
        if let Ok(file) = serde_json::from_slice::<TrackFile>(&bytes)
            && file.fingerprint == self.fitness.spec.fingerprint()
        {
            self.entries = file.entries;
        }
    }
}
