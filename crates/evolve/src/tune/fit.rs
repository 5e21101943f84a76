//! The epochs: full-batch gradient, Adam step, log row; a checkpoint and the log every N
//! epochs, so a killed run resumes with exactly the steps it would have taken.

use crate::tune::checkpoint::{LogRow, TuneCheckpoint, render_log};
use crate::tune::model::Dataset;
use crate::tune::optimise::{Adam, Bounds};
use kestrel_params::atomic::write_atomic;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How [`fit`] runs the epochs: the sigmoid's K, Adam's rate, penalty, length and checkpointing.
pub struct FitSettings {
    /// Scale K of the sigmoid σ(x) = 1 / (1 + 10^(−K·x/400)) turning centipawns into expected
    /// scores.
    pub k: f64,
    /// Adam's learning rate: roughly how far each value moves per step, in evaluation units.
    pub lr: f64,
    /// Weight of the penalty Σ (v − start)² over the trainable values, which holds values the
    /// data says little about (rare squares, rare king-danger buckets) near their start.
    pub l2: f64,
    /// Total full-batch steps the run ends at (counting those before a resume).
    pub epochs: u64,
    /// A progress line on stderr every N epochs (0: none).
    pub print_every: u64,
    /// 0: no checkpoints.
    pub checkpoint_every: u64,
    /// Where the checkpoint JSON is written (and read from on resume).
    pub checkpoint_path: PathBuf,
    /// Where `log.csv` (epoch, train loss, test loss) is written with each checkpoint.
    pub log_path: PathBuf,
    /// Continue from the checkpoint if there is one.
    pub resume: bool,
    /// Names the data and settings; a checkpoint with another one is refused.
    pub fingerprint: String,
}

/// What [`fit`] ends with.
pub struct FitOutcome {
    /// The state after the last epoch (values, Adam, log rows `0..epoch`).
    pub state: TuneCheckpoint,
    /// Epoch the run resumed from (0 when it started afresh).
    pub resumed_at: u64,
    /// Wall-clock seconds per epoch run by this process.
    pub seconds_per_epoch: f64,
}

/// Writes `log.csv` atomically.
pub fn write_log(path: &Path, rows: &[LogRow]) -> Result<(), String> {
    write_atomic(path, render_log(rows).as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Runs epochs from `start` (or the checkpoint) up to `s.epochs`. The log holds the data loss
/// (mean squared error) without the L2 penalty.
pub fn fit(
    train: &Dataset,
    test: &Dataset,
    start: &[f64],
    bounds: &Bounds,
    s: &FitSettings,
) -> Result<FitOutcome, String> {
    let resumed = if s.resume {
        let found = TuneCheckpoint::load(&s.checkpoint_path)?;
        if found.is_none() {
            return Err(format!(
                "--resume: there is no checkpoint {}; run without --resume to start afresh",
                s.checkpoint_path.display()
            ));
        }
        if let Some(dir) = s.checkpoint_path.parent() {
            kestrel_params::atomic::clean_stale_temps(dir);
        }
        found
    } else {
        None
    };
    let mut state = match resumed {
        Some(cp) if cp.fingerprint != s.fingerprint => {
            return Err(format!(
                "checkpoint {} was made with other data or settings; resume with the same \
                 options or start afresh without --resume",
                s.checkpoint_path.display()
            ));
        }
        Some(cp) => cp,
        None => TuneCheckpoint {
            fingerprint: s.fingerprint.clone(),
            epoch: 0,
            values: start.to_vec(),
            adam: Adam::new(start.len(), s.lr),
            log: Vec::new(),
        },
    };
    let resumed_at = state.epoch;
    let clock = Instant::now();
    while state.epoch < s.epochs {
        let (train_loss, mut grad) = train.loss_and_gradient(&state.values, s.k);
        if s.l2 > 0.0 {
            for ((g, v), v0) in grad.iter_mut().zip(&state.values).zip(start) {
                *g += 2.0 * s.l2 * (v - v0);
            }
        }
        let test_loss = test.loss(&state.values, s.k);
        state.log.push(LogRow {
            epoch: state.epoch,
            train: train_loss,
            test: test_loss,
        });
        if s.print_every > 0 && state.epoch % s.print_every == 0 {
            let done = (state.epoch - resumed_at).max(1);
            eprintln!(
                "epoch {:>6}: train {train_loss:.7}  test {test_loss:.7}  ({:.3} s/epoch)",
                state.epoch,
                clock.elapsed().as_secs_f64() / done as f64
            );
        }
        state.adam.step(&mut state.values, &grad, bounds);
        state.epoch += 1;
        if s.checkpoint_every > 0 && state.epoch % s.checkpoint_every == 0 {
            state.save(&s.checkpoint_path)?;
            write_log(&s.log_path, &state.log)?;
        }
    }
    let run = (state.epoch - resumed_at).max(1);
    Ok(FitOutcome {
        seconds_per_epoch: clock.elapsed().as_secs_f64() / run as f64,
        state,
        resumed_at,
    })
}
