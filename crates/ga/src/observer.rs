//! What every GA run does after each generation: report its progress, rewrite the CSV log in
//! the background, and save any files of its own (e.g. a fitness memo), stopping the
//! run cleanly (checkpoint saved) if a write fails.

use crate::{
    BackgroundWriter, GaOutcome, GaRun, GenerationStats, GenerationView, Genome, render_log_csv,
};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Files a GA saves after a generation besides its log: `(path, bytes)`, written atomically.
pub type ExtraFiles = Vec<(PathBuf, Vec<u8>)>;

/// Where a run reports its progress (a bar on a terminal, plain lines in a log, a test's
/// counter); the GA engine draws nothing itself.
pub trait ProgressReport {
    /// `done` generations of the run's total are finished; `message` describes the last.
    fn set(&self, done: u64, message: String);
    /// The run has ended.
    fn finish(&self);
}

/// Runs `run` reporting `describe(stats)` to `progress` (if any), with the log at `log_path`
/// and the `(path, bytes)` files `extra_files` returns after each generation.
pub fn run_logged<G: Genome>(
    run: &GaRun<'_, G>,
    progress: Option<&dyn ProgressReport>,
    log_path: &Path,
    describe: &dyn Fn(&GenerationStats) -> String,
    extra_files: &mut dyn FnMut(&GenerationView<G>) -> ExtraFiles,
) -> Result<GaOutcome<G>, String> {
    let writer = BackgroundWriter::new();
    let mut write_error = None;
    let outcome = run
        .run(&mut |v: &GenerationView<G>| {
            if let Some(pb) = progress {
                pb.set(v.stats.generation + 1, describe(v.stats));
            }
            let log = (
                log_path.to_path_buf(),
                render_log_csv(v.history).into_bytes(),
            );
            for (path, bytes) in std::iter::once(log).chain(extra_files(v)) {
                if let Err(e) = writer.write(path, bytes) {
                    write_error = Some(e);
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        })
        .map_err(|e| e.to_string())?;
    if let Some(pb) = progress {
        pb.finish();
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    writer.finish()?;
    Ok(outcome)
}
