//! The teaching engine's tournament GA: ten evaluation functions of 19 integer weights (plus
//! fixed material) play a round robin at 2 plies plus quiescence, games cut at 50 moves and
//! judged by both sides' own evaluations; the best half survives (`preservation`: as it is;
//! `mutation`: the best kept, the others mutated) and the rest is bred from pairings of the
//! survivors. See `docs/evolve-tournament.md`.

mod bench;
mod fitness;
mod openings;
mod organism;
mod remote;
mod run;
mod teaching;

pub use bench::{BenchRun, bench_round_robin};
pub use fitness::{RoundRobinFitness, TournamentSpec};
pub use openings::{book_openings, opening_fens};
pub use organism::{GENE_NAMES, Organism, OrganismSpace, PAGE_MATERIAL};
pub use remote::RoundRobinRemoteSpec;
pub use run::{TournamentConfig, TournamentOutcome, Variant, run_tournament};
pub use teaching::{teaching_config, teaching_params_file, teaching_search_params};
