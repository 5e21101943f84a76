//! The integration tests of the GA engine, one module per subject, built as one binary
//! (one link and one copy of the generic code instead of one per file).

mod example_problem;
mod ga_engine;
mod log_chart;
mod start_point;
