#![warn(missing_docs)]
//! The database of evolved chromosomes: an embedded SQLite file holding every evolution run
//! (kind, settings, seed, date, budget, why it stopped) and the chromosomes it kept (its
//! niche leaders) with their fitness, niche, parents, ancestry and a params file the engine
//! can play from. `kestrel evolve mnc --db` writes it; the UCI options `ChromosomeDB` and
//! `Chromosome` and `kestrel db` read it.

mod db;
mod pick;
mod records;

pub use db::{ChromosomeDb, DbError};
pub use pick::Pick;
pub use records::{ChromosomeRow, NewChromosome, NewRun, RunRow};
