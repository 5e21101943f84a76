//! The integration tests of the linear evaluation, one module per subject, built as one binary
//! (one link and one copy of the generic code instead of one per file).

#[path = "../common/mod.rs"]
mod common;
mod default_params;
mod eval_cache;
mod features;
mod mentor_quality;
mod params_file;
mod piece_sums;
mod trace_exactness;
