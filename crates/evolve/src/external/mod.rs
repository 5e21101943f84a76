//! Tuning an external UCI engine (`kestrel tune spsa --engine uci:PATH`): its tunables
//! ([`tunables`]: an OpenBench input or its own option list, checked against what it
//! declares), how it is run and its game pairs with faults replayed ([`engine`]), SPSA's
//! duels over `setoption` ([`pairs`]), the games GA over its options ([`ga`]) and both as
//! data for cluster workers ([`remote`], [`games_remote`]).

pub mod engine;
pub mod fault_ledger;
pub mod ga;
pub mod games_remote;
pub mod pairs;
pub mod remote;
pub mod tunables;

pub use engine::{ExternalEngine, PlayerPool};
pub use fault_ledger::FaultLedger;
pub use ga::{ExternalGameFitness, GameTally, Gene, Opponent, gene_options};
pub use games_remote::ExternalGamesSpec;
pub use pairs::{ExternalPairs, options_of};
