//! The integration tests of the network evaluation, one module per subject, built as one binary
//! (one link and one copy of the generic code instead of one per file).

mod format;
mod inference;
