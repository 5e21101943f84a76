//! What every GA command does after each generation: move the progress bar (plain lines on
//! stderr when it is not a terminal), rewrite the CSV
//! log in the background, and save any files of its own (e.g. a fitness memo), stopping the
//! run cleanly (checkpoint saved) if a write fails.

use crate::{
    BackgroundWriter, GaOutcome, GaRun, GenerationStats, GenerationView, Genome, render_log_csv,
};
use indicatif::{ProgressBar, ProgressStyle};
use kestrel_tools::progress::Progress;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Files a GA saves after a generation besides its log: `(path, bytes)`, written atomically.
pub type ExtraFiles = Vec<(PathBuf, Vec<u8>)>;

/// A progress bar labelled `what` over `len` steps, or a hidden one when `progress` is off.
pub fn progress_bar(progress: bool, len: u64, what: &str) -> ProgressBar {
    if !progress {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template(&format!(
            "{what:>10} [{{elapsed_precise}}] {{bar:40}} {{pos}}/{{len}} {{msg}}"
        ))
        .expect("valid template"),
    );
    pb
}

/// Runs `run` with a progress bar whose message is `describe(stats)`, the log at `log_path`,
/// and the `(path, bytes)` files `extra_files` returns after each generation.
pub fn run_logged<G: Genome>(
    run: &GaRun<'_, G>,
    progress: bool,
    log_path: &Path,
    describe: &dyn Fn(&GenerationStats) -> String,
    extra_files: &mut dyn FnMut(&GenerationView<G>) -> ExtraFiles,
) -> Result<GaOutcome<G>, String> {
    // A bar on a terminal; plain lines on stderr otherwise (CI, nohup, a pipe).
    let pb = progress.then(|| {
        Progress::new(run.settings.termination.generations, "generation").with_first_line()
    });
    let writer = BackgroundWriter::new();
    let mut write_error = None;
    let outcome = run
        .run(&mut |v: &GenerationView<G>| {
            if let Some(pb) = &pb {
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
    if let Some(pb) = &pb {
        pb.finish();
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    writer.finish()?;
    Ok(outcome)
}
