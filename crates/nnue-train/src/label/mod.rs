//! Rescoring positions by a UCI mentor: here ([`pool`]) or on cluster workers ([`remote`]),
//! behind one [`Labeller`], in resumable runs ([`run`]).

pub mod labeller;
pub mod pool;
pub mod remote;
pub mod run;

pub use labeller::Labeller;
pub use pool::{MentorLimit, UciPool, Verdict};
pub use remote::{LabelSpec, RemoteLabeller};
pub use run::{LabelProgress, LabelReport, run_label};
