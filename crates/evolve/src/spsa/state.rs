//! The run's state after each iteration (θ, running results, one row per iteration), saved as
//! a JSON checkpoint written atomically; a resumed run refuses a checkpoint of other settings.

use super::schedule::{SpsaParam, SpsaSettings};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One iteration's record: θ after it, and the running results of θ+ against θ−.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaRow {
    /// The iteration (1-based).
    pub iteration: u64,
    /// θ after the iteration, one value per parameter.
    pub theta: Vec<f64>,
    /// Games played so far.
    pub games: u64,
    /// θ+'s running wins, draws, losses.
    pub wdl: [u64; 3],
    /// θ+'s running pair counts LL, LD, WL, DD, WD, WW.
    pub penta: [u64; 6],
    /// Games lost to an engine fault so far.
    pub faults: u64,
    /// Faults so far by kind (external engines).
    #[serde(default, skip_serializing_if = "super::FaultKinds::is_zero")]
    pub kinds: super::FaultKinds,
}

/// Everything a run needs to go on from where it stopped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaState {
    /// The tuned parameters; a resume must pass the same ones.
    pub params: Vec<SpsaParam>,
    /// The run's settings; a resume must pass the same ones.
    pub settings: SpsaSettings,
    /// Iterations done.
    pub done: u64,
    /// θ after the last iteration done (the start values before the first).
    pub theta: Vec<f64>,
    /// One row per iteration done, in order.
    pub rows: Vec<SpsaRow>,
}

impl SpsaState {
    /// A fresh run at the parameters' start values.
    pub fn new(params: &[SpsaParam], settings: &SpsaSettings) -> SpsaState {
        SpsaState {
            params: params.to_vec(),
            settings: settings.clone(),
            done: 0,
            theta: params.iter().map(|p| p.start).collect(),
            rows: Vec::new(),
        }
    }

    /// The last row (zeros before the first iteration).
    pub fn last(&self) -> SpsaRow {
        self.rows.last().cloned().unwrap_or(SpsaRow {
            iteration: 0,
            theta: self.theta.clone(),
            games: 0,
            wdl: [0; 3],
            penta: [0; 6],
            faults: 0,
            kinds: super::FaultKinds::default(),
        })
    }

    /// θ after iteration `k` (at most the iterations done; 0: the start values).
    pub fn theta_after(&self, k: u64) -> Vec<f64> {
        match k {
            0 => self.params.iter().map(|p| p.start).collect(),
            k if k >= self.done => self.theta.clone(),
            k => self.rows[k as usize - 1].theta.clone(),
        }
    }

    /// The lag of the run checkpointed at `path`, if there is a readable checkpoint (a resumed
    /// run keeps its lag unless told otherwise).
    pub fn checkpointed_lag(path: &Path) -> Option<u64> {
        let text = std::fs::read_to_string(path).ok()?;
        let state: SpsaState = serde_json::from_str(&text).ok()?;
        Some(state.settings.lag)
    }

    /// Writes the checkpoint atomically.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let json = serde_json::to_string(self).map_err(|e| format!("checkpoint: {e}"))?;
        kestrel_params::atomic::write_atomic(path, json.as_bytes())
            .map_err(|e| format!("cannot write checkpoint {}: {e}", path.display()))
    }

    /// Extends the run checkpointed at `path` to `settings.iterations` (more than it has done),
    /// rewriting the checkpoint; every other setting and parameter must be the checkpoint's.
    /// From the next iteration on the gains follow the new total (OpenBench's `c` and `a`
    /// are computed from it), as if the run had been planned at that length: `c_k` and `a_k`
    /// rise a little at the extension and decay to `c_end` and `r_end` at the new end.
    /// Returns the iterations the checkpoint had planned.
    pub fn extend(
        path: &Path,
        params: &[SpsaParam],
        settings: &SpsaSettings,
    ) -> Result<u64, String> {
        let mut planned = settings.clone();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--extend: cannot read checkpoint {}: {e}", path.display()))?;
        let mut state: SpsaState = serde_json::from_str(&text)
            .map_err(|e| format!("checkpoint {} is damaged: {e}", path.display()))?;
        let old = state.settings.iterations;
        planned.iterations = old;
        if state.params != params || state.settings != planned {
            return Err(format!(
                "checkpoint {} was written with other parameters or settings (only --iterations may change with --extend)",
                path.display()
            ));
        }
        if settings.iterations <= state.done {
            return Err(format!(
                "--extend: the run has done {} iterations; --iterations must be more",
                state.done
            ));
        }
        state.settings.iterations = settings.iterations;
        state.save(path)?;
        Ok(old)
    }

    /// Reads a checkpoint and checks it was written for these parameters and settings.
    pub fn load(
        path: &Path,
        params: &[SpsaParam],
        settings: &SpsaSettings,
    ) -> Result<SpsaState, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read checkpoint {}: {e}", path.display()))?;
        let state: SpsaState = serde_json::from_str(&text)
            .map_err(|e| format!("checkpoint {} is damaged: {e}", path.display()))?;
        if state.params != params || state.settings != *settings {
            return Err(format!(
                "checkpoint {} was written with other parameters or settings; \
                 resume with the same ones or use another --out",
                path.display()
            ));
        }
        if state.theta.len() != params.len() || state.rows.len() as u64 != state.done {
            return Err(format!("checkpoint {} is inconsistent", path.display()));
        }
        Ok(state)
    }
}
