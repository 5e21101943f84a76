//! Rescoring positions by a UCI mentor ([`pool`]) in resumable runs ([`run`]).

pub mod pool;
pub mod run;

pub use pool::{MentorLimit, UciPool, Verdict};
pub use run::{LabelProgress, LabelReport, run_label};
