#![warn(missing_docs)]
//! Kestrel's chess GAs, each a module on the chess-free engine `kestrel-ga`, each with its
//! fitness, its spec for cluster workers (`remote`), its whole experiment and what its command
//! prints, so that command files only parse options and call in:
//!
//! - [`mentor`]: the expert-driven GA, an evaluation evolved from random by imitating one or
//!   several mentors' scores, and the paper's matches;
//! - [`search`]: Falcon's search GA, search parameters evolved by nodes to solve a suite;
//! - [`tournament`]: the teaching engine's round-robin GA;
//! - [`mnc`]: Phoenix, piece-square tables by multi-niche crowding from games;
//! - [`moves`]: an evaluation evolved by agreeing with the moves played in games;
//! - [`coevolve`]: earlier runs' best organisms evolved further by game results;
//! - [`games`]: a game fitness for any named parameter set, raced against a reference;
//! - [`spsa`]: SPSA on game pairs (`kestrel tune spsa`), the tuner engine authors compare with.
//!
//! Beside them: [`chessmaps`] (training the Chessmaps network), [`tune`] (a gradient tuner of
//! the whole evaluation), [`openings`] (opening lists as cluster blobs) and [`progress`] (the
//! GAs' progress bar). [`register_all`] is the one place a GA's spec is registered with a
//! worker; adding a GA touches its module and that function's one line.

use kestrel_ga::cluster::Registry;

pub mod chessmaps;
pub mod coevolve;
pub mod external;
pub mod games;
pub mod mentor;
pub mod mnc;
pub mod moves;
pub mod openings;
pub mod progress;
pub mod search;
pub mod spsa;
pub mod tournament;
pub mod tune;

/// Registers every GA of this crate with a worker's registry, one line per GA: what a worker
/// (`kestrel worker`) can rebuild from a job's spec.
pub fn register_all(registry: &mut Registry) {
    registry.add::<mentor::remote::MentorFitnessSpec>();
    registry.add::<coevolve::remote::CoevolveRemoteSpec>();
    registry.add::<mnc::remote::MncRemoteSpec>();
    registry.add::<mnc::games::PstGamesSpec>();
    registry.add::<moves::remote::MovesRemoteSpec>();
    registry.add::<search::remote::SearchRemoteSpec>();
    registry.add::<search::games::SearchGamesSpec>();
    registry.add::<tournament::RoundRobinRemoteSpec>();
    registry.add::<games::GameFitnessSpec>();
    registry.add::<spsa::remote::SpsaPairsSpec>();
    registry.add::<external::remote::ExternalPairsSpec>();
    registry.add::<external::games_remote::ExternalGamesSpec>();
}

/// A registry holding every GA of this crate ([`register_all`]).
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    register_all(&mut registry);
    registry
}

/// Sizes the global rayon pool (once per process; later calls with the same size are fine).
pub fn set_threads(threads: usize) -> Result<(), String> {
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build_global()
    {
        Ok(()) => Ok(()),
        Err(_) if rayon::current_num_threads() == threads.max(1) => Ok(()),
        Err(e) => Err(format!("cannot set up {threads} worker threads: {e}")),
    }
}
