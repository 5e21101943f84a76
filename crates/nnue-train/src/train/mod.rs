//! The trainer: a perspective network (kestrel-nnue's `FloatNetwork`, optionally with output
//! buckets by material, `TrainConfig::output_buckets`) fitted on the CPU by
//! Adam to `λ·σ(score/K) + (1−λ)·result` ([`run`]), with sparse forward and backward passes
//! over the ~30 active features per perspective ([`model`]), deterministic batches ([`step`]),
//! optional left-right mirroring ([`mirror`]), checkpoints ([`checkpoint`]), a loss chart
//! ([`chart`]) and a start from a trained network ([`start`]).

pub mod adam;
pub mod chart;
pub mod checkpoint;
pub mod data;
pub mod mirror;
pub mod model;
pub mod run;
pub mod start;
pub mod step;

pub use data::{
    DEFAULT_SCALE, HOLDOUT_RUN, Holdout, Target, TrainData, load, load_first, sigmoid_f64,
};
pub use run::{CHECKPOINT_FILE, NET_FILE, TrainConfig, TrainReport, run_train};
pub use start::StartWeights;
