//! The integration tests of network training, one module per subject, built as one binary
//! (one link and one copy of the generic code instead of one per file).

mod blend;
mod curve;
mod format;
mod mirror;
mod selfplay;
mod train;
mod wdl_data;
