//! Kestrel's progress display for its GAs: the GA engine reports generations through
//! [`kestrel_ga::ProgressReport`]; here that becomes the tools crate's bar on a terminal and
//! plain stderr lines otherwise (CI, nohup, a pipe).

use indicatif::{ProgressBar, ProgressStyle};
use kestrel_ga::{ExtraFiles, GaOutcome, GaRun, GenerationStats, GenerationView, Genome};
use kestrel_tools::progress::Progress;
use std::path::Path;

/// A run's generations on a [`Progress`] bar.
struct GenerationBar(Progress);

impl kestrel_ga::ProgressReport for GenerationBar {
    fn set(&self, done: u64, message: String) {
        self.0.set(done, message);
    }

    fn finish(&self) {
        self.0.finish();
    }
}

/// [`kestrel_ga::run_logged`] with a generation bar when `progress` is on.
pub fn run_logged<G: Genome>(
    run: &GaRun<'_, G>,
    progress: bool,
    log_path: &Path,
    describe: &dyn Fn(&GenerationStats) -> String,
    extra_files: &mut dyn FnMut(&GenerationView<G>) -> ExtraFiles,
) -> Result<GaOutcome<G>, String> {
    let bar = progress.then(|| {
        GenerationBar(
            Progress::new(run.settings.termination.generations, "generation").with_first_line(),
        )
    });
    let report = bar.as_ref().map(|b| b as &dyn kestrel_ga::ProgressReport);
    kestrel_ga::run_logged(run, report, log_path, describe, extra_files)
}

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
