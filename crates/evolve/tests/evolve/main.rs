//! The integration tests of the chess GAs and tuners, one module per subject, built as one binary
//! (one link and one copy of the generic code instead of one per file).

mod cluster_worker;
mod games_fitness;
mod games_ga;
mod mentor_run;
mod mnc_experiment;
mod mnc_run;
mod paper_match;
mod positions;
mod search_ga;
mod search_schema_ga;
mod spsa_core;
mod spsa_games;
mod support;
mod tournament;
mod tune;
mod uci_mentor;
