//! What a mentor run returns: the best organism with its errors, the data it saw and the files
//! it wrote.

use crate::mentor::labels::LabelStats;
use kestrel_ga::StopReason;
use kestrel_params::ParamValues;
use std::path::PathBuf;

/// The best organism's error against one mentor, and how far that mentor is from the
/// combined label (its disagreement with the crowd).
#[derive(Clone, Debug)]
pub struct MentorError {
    /// The mentor's label key.
    pub key: String,
    /// Best organism vs this mentor (train, test).
    pub organism: (f64, f64),
    /// This mentor vs the combined label (train, test).
    pub vs_combined: (f64, f64),
}

/// What a mentor run reports.
#[derive(Clone, Debug)]
pub struct MentorRunReport {
    /// The best any values of the evolved terms can do (least-absolute-deviation fit; for sets
    /// of at most `floor::MAX_TERMS` values).
    pub floor: Option<crate::mentor::floor::LinearFloor>,
    /// Per mentor (several mentors only): errors against each of them.
    pub per_mentor: Vec<MentorError>,
    /// The label key of the mentor, or of the combination of several.
    pub mentor_key: String,
    /// Where the fitness ran, e.g. `in process` or `Ray, 2 workers`.
    pub executor: String,
    /// Training positions kept (with a centipawn label).
    pub train_positions: usize,
    /// Test positions kept.
    pub test_positions: usize,
    /// Positions left out: mentor saw a mate, or failed.
    pub dropped_mates: usize,
    /// Positions left out because no mentor gave a score.
    pub dropped_failures: usize,
    /// The labelling work (cached, computed, failed, seconds).
    pub labels: LabelStats,
    /// Seconds the GA took.
    pub ga_seconds: f64,
    /// Generations run.
    pub generations: usize,
    /// Why the GA stopped.
    pub stop: StopReason,
    /// The best organism's values.
    pub best: ParamValues,
    /// Its mean error on the whole training set (cp).
    pub train_error: f64,
    /// Its mean error on the test set (cp; NaN without test positions).
    pub test_error: f64,
    /// Mean error of the best organism of the random first generation (on its sample).
    pub first_generation_best: f64,
    /// Kestrel's hand-tuned static evaluation against the same labels (train, test).
    pub handtuned_error: (f64, f64),
    /// The hand-tuned values of the evolved set alone (every other term zero), (train, test).
    pub handtuned_set_error: (f64, f64),
    /// The best organism's params file.
    pub params_path: PathBuf,
    /// The generations' log.
    pub log_path: PathBuf,
    /// The evolution chart.
    pub chart_path: PathBuf,
}
