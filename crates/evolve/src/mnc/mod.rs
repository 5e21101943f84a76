//! Phoenix's evolution of piece-square tables by multi-niche crowding (Cedeno's MNC): 640 real
//! genes (10 tables), fitness = score in a tournament played in process, steady-state
//! crowding selection and worst-among-the-most-similar replacement, niches counted by a
//! phenotypic distance, checkpoints after every generation. [`experiment`] is the whole command
//! (MNC or the generational comparison, files, database rows, report); [`measure`] times the
//! fitness games and writes the reference tables; [`remote`] is the fitness for workers;
//! [`games`] is the fitness by play against a reference (and each other) for tables seeded
//! from Kestrel's own.

pub mod crowding;
pub mod experiment;
pub mod fitness;
pub mod games;
pub mod measure;
pub mod niches;
pub mod remote;
pub mod run;
pub mod schedule;
pub mod settings;
pub mod state;
pub mod store;
pub mod tables;

pub use fitness::{MoveBudget, Tally, TournamentFitness, TournamentSpec};
pub use run::{MncOutcome, MncRun, MncStop, fitness_order};
pub use settings::{MncInit, MncSettings, MncTermination, SmallChange};
pub use state::{Birth, MncCheckpoint, MncLine, Organism, render_mnc_csv};
