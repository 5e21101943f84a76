//! Game fitness for parameter sets: each organism (values of named SEARCH_TABLE/EVAL_TABLE
//! elements) plays game pairs against a reference engine, and its fitness is its measured
//! score. The noise is handled by racing ([`race`]): every organism plays a few pairs, the
//! better part plays more, and so on, all on the same openings; an organism's fitness ranks it
//! first by the rounds it survived and then by its score, so a lucky start on few pairs never
//! outranks an organism measured on many. The GA scores the whole population every generation
//! (elites included) on new openings, so elites are re-measured rather than trusted.

pub mod fitness;
pub mod race;
pub mod remote;

pub use fitness::GameFitness;
pub use race::{RaceEntry, RaceSettings, race};
pub use remote::{GameFitnessSpec, game_settings};
