//! Tuning an external UCI engine (`kestrel tune spsa --engine uci:PATH`): its tunables
//! ([`tunables`]: an OpenBench input or its own option list, checked against what it
//! declares), how it is run and its game pairs with faults replayed ([`engine`]) and SPSA's
//! duels over `setoption` ([`pairs`]).

pub mod engine;
pub mod ga;
pub mod pairs;
pub mod remote;
pub mod tunables;

pub use engine::{ExternalEngine, PlayerPool};
pub use ga::{ExternalGameFitness, Gene, Opponent, gene_options};
pub use pairs::{ExternalPairs, options_of};
