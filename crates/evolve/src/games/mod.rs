//! Game fitness for parameter sets: each organism (values of named SEARCH_TABLE/EVAL_TABLE
//! elements) plays game pairs against a reference engine, and its fitness is its measured
//! score. The noise is handled by racing ([`race`](mod@race)): every organism plays a few pairs, the
//! better part plays more, and so on, all on the same openings; an organism's fitness ranks it
//! first by the rounds it survived and then by its score, so a lucky start on few pairs never
//! outranks an organism measured on many. The GA scores the whole population every generation
//! (elites included) on new openings, so elites are re-measured rather than trusted. With
//! [`Opponents`] the organisms also (or only) play each other, and one Elo per organism is
//! fitted from all their games ([`elo`]). [`GamePlay`] is the games part any genome shares
//! (the named-values GA here, the search GA's bit strings, MNC's tables).

pub mod elo;
pub mod fitness;
pub mod opponents;
pub mod play;
pub mod race;
pub mod remote;

pub use fitness::GameFitness;
pub use opponents::Opponents;
pub use play::{GamePlay, GameScore};
pub use race::{RaceEntry, RaceSettings, race};
pub use remote::{GameFitnessSpec, PlaySpec, game_settings};
