//! Expert-driven ("mentor-assisted") fitness: organisms are scored by how closely their static
//! evaluation matches a mentor's shallow-search score on real game positions. [`run`] is the
//! whole experiment ([`settings`] in, [`outcome`] out; `data`, `evolution` and `errors` its
//! steps), [`report`] what the commands print, [`paper_match`] the paper's matches and
//! [`remote`] the fitness for cluster workers.

pub mod builtin;
pub mod crowd;
mod data;
mod errors;
mod evolution;
pub mod fitness;
pub mod floor;
pub mod labels;
pub mod organism;
pub mod outcome;
pub mod paper_match;
pub mod positions;
pub mod remote;
pub mod report;
pub mod run;
pub mod settings;
pub mod trace_matrix;
pub mod uci_mentor;
