//! Tuning an external UCI engine (`kestrel tune spsa --engine uci:PATH`): its tunables
//! ([`tunables`]: an OpenBench input or its own option list, checked against what it
//! declares), how it is run and its game pairs with faults replayed ([`engine`]) and SPSA's
//! duels over `setoption` ([`pairs`]).

pub mod engine;
pub mod fault_ledger;
pub mod ga;
pub mod pairs;
pub mod remote;
pub mod tunables;

pub use engine::{ExternalEngine, PlayerPool};
pub use fault_ledger::FaultLedger;
pub use ga::{ExternalGameFitness, GameTally, Gene, Opponent, gene_options};
pub use pairs::{ExternalPairs, options_of};
