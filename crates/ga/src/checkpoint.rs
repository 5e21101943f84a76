//! The state saved after every generation (JSON, written atomically): enough to continue a
//! killed run exactly where it stopped.

use crate::{GaSettings, GenerationStats, Genome};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A GA run's saved state after a generation: settings, fitness fingerprint, the next
/// population to evaluate and the history so far.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "G: Genome")]
pub struct Checkpoint<G> {
    /// Settings the run was started with; a resume must use the same ones.
    pub settings: GaSettings,
    /// The fitness function's fingerprint (data and its settings).
    pub fitness: String,
    /// The generation `population` belongs to (not evaluated yet).
    pub next_generation: u64,
    /// The organisms of `next_generation`, in order.
    pub population: Vec<G>,
    /// Statistics of every generation evaluated so far, oldest first.
    pub history: Vec<GenerationStats>,
    /// Best fitness seen so far and the generation it was seen in (for the stall rule).
    pub best_fitness: Option<f64>,
    /// Generation in which `best_fitness` was first reached (0 before any evaluation).
    pub best_generation: u64,
}

impl<G: Genome> Checkpoint<G> {
    /// The checkpoint of a run that has not evaluated anything yet: generation 0 is
    /// `population` (random, seeded by the caller, or holding parents or defaults).
    pub fn initial(settings: GaSettings, fitness: String, population: Vec<G>) -> Checkpoint<G> {
        Checkpoint {
            settings,
            fitness,
            next_generation: 0,
            population,
            history: Vec::new(),
            best_fitness: None,
            best_generation: 0,
        }
    }

    /// The checkpoint as JSON bytes.
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a checkpoint is plain data")
    }

    /// Writes the checkpoint as JSON to `path` atomically (a complete file or the old one).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        kestrel_params::atomic::write_atomic(path, &self.to_json())
    }

    /// Reads a checkpoint; errors name the file when it cannot be read or is not valid JSON.
    pub fn load(path: &Path) -> Result<Checkpoint<G>, String> {
        let bytes = std::fs::read(path)
            .map_err(|e| format!("cannot read checkpoint {}: {e}", path.display()))?;
        serde_json::from_slice(&bytes)
            .map_err(|e| format!("checkpoint {} is damaged: {e}", path.display()))
    }
}
