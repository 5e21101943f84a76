//! Falcon's search GA (David, Koppel & Netanyahu 2010): evolve the search parameters
//! ([`kestrel_search::FALCON_SET`] by default) so that the search needs as few nodes as possible
//! to solve the positions of a tactical test suite.
//!
//! - [`suite`]: EPD suites with `bm`/`am`, read and split (seeded) into train and test halves;
//! - [`data`]: a command's positions (split or given suites, training cap, validation share),
//!   its set names and the params files it loads;
//! - [`solve`]: the cost of one position under one parameter set (node-counted, deterministic);
//! - [`fitness`]: the serialisable [`fitness::SearchFitnessSpec`] and the memoised
//!   [`fitness::SearchFitness`] (a `kestrel_ga::FitnessFunction` for bit and real genomes);
//! - [`run`]: the whole experiment (GA, params file, log, chart, checkpoint, held-out report);
//! - [`validation`]: each generation's best scored on validation positions; the run returns
//!   the one that does best there (early stopping);
//! - [`compare`]: several parameter sets side by side on one suite;
//! - [`simplify`]: an evolved set's values reverted to the defaults wherever the positions do
//!   not need the change;
//! - [`files`]: params files compared or simplified, as `--compare` and `--simplify` do;
//! - [`report`]: what the command prints after a run;
//! - [`remote`]: the fitness as a spec for cluster workers;
//! - [`games`]: the same chromosome with fitness by play (`--fitness games`), and its spec;
//! - [`games_run`]: a whole run with that fitness (log, chart, best.toml, verification).

pub mod compare;
pub mod data;
pub mod files;
pub mod fitness;
pub mod games;
pub mod games_run;
pub mod remote;
pub mod report;
pub mod run;
pub mod simplify;
pub mod solve;
pub mod suite;
pub mod validation;
