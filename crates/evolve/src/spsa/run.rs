//! The SPSA loop: perturb, duel, update, record; checkpoint every few iterations; resume from
//! the checkpoint to end exactly where an uninterrupted run ends.

use super::report::{write_chart, write_csv};
use super::schedule::{SpsaParam, SpsaSettings};
use super::state::{SpsaRow, SpsaState};
use std::path::Path;

/// The result of one duel, from θ+'s point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Duel {
    /// Games θ+ won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games θ+ lost.
    pub losses: u64,
    /// Pair counts LL, LD, WL, DD, WD, WW (all zero for an objective without pairs).
    pub penta: [u64; 6],
    /// Games an engine lost by a fault (crash, hang, illegal move); they count in W/D/L.
    pub faults: u64,
    /// The faults by kind (external engines, whose faulty pairs are replayed).
    pub kinds: super::FaultKinds,
}

impl Duel {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// What SPSA measures: `plus` against `minus` at iteration `k`. It must depend only on its
/// arguments (and its own seed) for runs to be reproducible and resumable. An `Err` stops the
/// run (after the last checkpoint, which a resume continues from).
pub trait Objective: Sync {
    /// θ+ (`plus`) against θ− (`minus`) at iteration `k`.
    fn duel(&self, plus: &[f64], minus: &[f64], k: u64) -> Result<Duel, String>;

    /// The duels of consecutive iterations, in order; an objective that can play them side by
    /// side overrides this (the default plays them one after another).
    fn duels(&self, points: &[DuelPoints<'_>]) -> Result<Vec<Duel>, String> {
        points
            .iter()
            .map(|p| self.duel(p.plus, p.minus, p.k))
            .collect()
    }
}

/// The two points of one iteration's duel.
#[derive(Clone, Copy, Debug)]
pub struct DuelPoints<'a> {
    /// θ+ (θ + c_k·Δ), one value per parameter.
    pub plus: &'a [f64],
    /// θ− (θ − c_k·Δ), one value per parameter.
    pub minus: &'a [f64],
    /// The iteration (1-based).
    pub k: u64,
}

/// File names in the output folder.
pub const CHECKPOINT: &str = "checkpoint.json";
/// The per-iteration CSV: running results and every parameter's θ.
pub const CSV: &str = "spsa.csv";
/// The SVG chart of the parameters' paths and θ+'s Elo against θ−.
pub const CHART: &str = "spsa.svg";

/// Runs (or, with `resume` and a checkpoint in `out`, continues) SPSA to the end, writing the
/// checkpoint, CSV and chart in `out`. `on_iteration` sees every new row.
pub fn run_spsa(
    params: &[SpsaParam],
    settings: &SpsaSettings,
    objective: &dyn Objective,
    out: &Path,
    resume: bool,
    on_iteration: &mut dyn FnMut(&SpsaRow),
) -> Result<SpsaState, String> {
    settings.validate()?;
    if params.is_empty() {
        return Err("SPSA needs at least one parameter".into());
    }
    for p in params {
        p.validate()?;
    }
    if params.iter().all(SpsaParam::frozen) {
        return Err("every value is frozen (c_end 0): nothing to tune".into());
    }
    let checkpoint = out.join(CHECKPOINT);
    let mut state = if resume && checkpoint.exists() {
        SpsaState::load(&checkpoint, params, settings)?
    } else {
        if !resume && checkpoint.exists() {
            return Err(format!(
                "{} holds a run already: pass --resume to continue it or use another --out",
                out.display()
            ));
        }
        SpsaState::new(params, settings)
    };
    super::pipeline::play_batches(params, settings, objective, out, &mut state, on_iteration)?;
    Ok(state)
}

/// The running totals after `duel`.
pub(super) fn next_row(prev: &SpsaRow, k: u64, theta: &[f64], duel: &Duel) -> SpsaRow {
    let mut penta = prev.penta;
    for (total, add) in penta.iter_mut().zip(duel.penta) {
        *total += add;
    }
    SpsaRow {
        iteration: k,
        theta: theta.to_vec(),
        games: prev.games + duel.games(),
        wdl: [
            prev.wdl[0] + duel.wins,
            prev.wdl[1] + duel.draws,
            prev.wdl[2] + duel.losses,
        ],
        penta,
        faults: prev.faults + duel.faults,
        kinds: {
            let mut kinds = prev.kinds;
            kinds += duel.kinds;
            kinds
        },
    }
}

/// Checkpoint, CSV and chart (the checkpoint last: a run killed while writing the others
/// resumes from the previous checkpoint and rewrites them).
pub(super) fn save_all(state: &SpsaState, out: &Path) -> Result<(), String> {
    write_csv(&out.join(CSV), state)?;
    write_chart(&out.join(CHART), state)?;
    state.save(&out.join(CHECKPOINT))
}
