//! The batches of a run in play. Without lag one batch runs after another. With a lag each
//! batch's duels wait on a thread of their own, up to `lag + 1` batches at a time, and the
//! results are applied strictly in batch order. The batch starting at iteration `k` is drawn
//! around θ after iteration `k − 1 − lag·batch` ([`SpsaSettings::theta_source`]), which the
//! batches applied so far always hold, so the path depends on the seed, the settings and the
//! results alone, never on which batch finished first. Checkpoints hold the applied batches
//! only: a resumed run draws the batches that were in play again, from the same θ, and (at
//! fixed nodes) plays the very same games.

use super::run::{Duel, DuelPoints, Objective, next_row, save_all};
use super::schedule::{SpsaParam, SpsaSettings};
use super::state::{SpsaRow, SpsaState};
use super::step::{Perturbation, perturb, update};
use std::collections::VecDeque;
use std::path::Path;
use std::thread::ScopedJoinHandle;

/// Consecutive iterations drawn together.
struct Batch {
    first: u64,
    last: u64,
    perturbations: Vec<Perturbation>,
}

impl Batch {
    /// The batch starting at `first`, drawn around θ after its source iteration.
    fn draw(params: &[SpsaParam], settings: &SpsaSettings, state: &SpsaState, first: u64) -> Batch {
        let last = (first + settings.batch - 1).min(settings.iterations);
        let theta = state.theta_after(settings.theta_source(first));
        Batch {
            first,
            last,
            perturbations: (first..=last)
                .map(|k| perturb(params, settings, &theta, k))
                .collect(),
        }
    }

    /// The batch's duels, in iteration order, or the objective's error naming the batch.
    fn play(&self, objective: &dyn Objective) -> Result<Vec<Duel>, String> {
        let points: Vec<DuelPoints> = (self.first..=self.last)
            .zip(&self.perturbations)
            .map(|(k, p)| DuelPoints {
                plus: &p.plus,
                minus: &p.minus,
                k,
            })
            .collect();
        let (first, last) = (self.first, self.last);
        let duels = objective.duels(&points).map_err(|e| {
            if first == last {
                format!("iteration {first}: {e}")
            } else {
                format!("iterations {first}-{last}: {e}")
            }
        })?;
        if duels.len() != points.len() {
            return Err(format!(
                "iterations {first}-{last}: {} duels for {} iterations",
                duels.len(),
                points.len()
            ));
        }
        Ok(duels)
    }
}

type InPlay<'scope> = ScopedJoinHandle<'scope, (Batch, Result<Vec<Duel>, String>)>;

/// Plays and applies every batch from `state.done + 1` to the end, checkpointing between
/// batches.
pub(super) fn play_batches(
    params: &[SpsaParam],
    settings: &SpsaSettings,
    objective: &dyn Objective,
    out: &Path,
    state: &mut SpsaState,
    on_iteration: &mut dyn FnMut(&SpsaRow),
) -> Result<(), String> {
    if settings.lag == 0 {
        // Classic: one batch after another on the caller's thread (and rayon pool).
        while state.done < settings.iterations {
            let batch = Batch::draw(params, settings, state, state.done + 1);
            let duels = batch.play(objective)?;
            apply(params, settings, state, &batch, &duels, on_iteration, out)?;
        }
        return Ok(());
    }
    // Each batch in play waits for its duels on a thread of its own; their games go to rayon's
    // global pool (the one `crate::set_threads` sizes), whichever pool the caller runs in.
    std::thread::scope(|scope| {
        let mut in_play: VecDeque<InPlay> = VecDeque::new();
        let mut next = state.done + 1;
        loop {
            // Every batch whose θ is known starts now (at most lag + 1 are in play).
            while next <= settings.iterations && settings.theta_source(next) <= state.done {
                let batch = Batch::draw(params, settings, state, next);
                next = batch.last + 1;
                in_play.push_back(scope.spawn(move || {
                    let duels = batch.play(objective);
                    (batch, duels)
                }));
            }
            let Some(oldest) = in_play.pop_front() else {
                return Ok(());
            };
            // A panic in the objective stays a panic (as when it ran on this thread); an error
            // leaves the batches still in play to finish before the scope ends.
            let (batch, duels) = oldest
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            apply(params, settings, state, &batch, &duels?, on_iteration, out)?;
        }
    })
}

/// Applies a batch's updates in iteration order, each with its own gains and Δ; writes the
/// checkpoint after the batch when one falls due inside it.
fn apply(
    params: &[SpsaParam],
    settings: &SpsaSettings,
    state: &mut SpsaState,
    batch: &Batch,
    duels: &[Duel],
    on_iteration: &mut dyn FnMut(&SpsaRow),
    out: &Path,
) -> Result<(), String> {
    let mut checkpoint_due = false;
    for ((k, p), duel) in (batch.first..=batch.last)
        .zip(&batch.perturbations)
        .zip(duels)
    {
        let signal = duel.wins as f64 - duel.losses as f64;
        state.theta = update(params, settings, &state.theta, &p.delta, k, signal);
        let row = next_row(&state.last(), k, &state.theta, duel);
        on_iteration(&row);
        state.rows.push(row);
        state.done = k;
        checkpoint_due |= k % settings.checkpoint_every == 0 || k == settings.iterations;
    }
    if checkpoint_due {
        save_all(state, out)?;
    }
    Ok(())
}
