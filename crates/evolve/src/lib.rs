//! Evolution for Kestrel: a small, seeded, resumable genetic-algorithm core ([`ga`]) and the
//! expert-driven ("mentor-assisted") fitness that evolves an evaluation function from random
//! parameters by imitating a mentor's scores ([`mentor`]), and a gradient tuner of the whole
//! evaluation against a mentor's scores and game results ([`tune`]).

use kestrel_ga::cluster::Registry;

pub mod chessmaps;
pub mod coevolve;
pub mod mentor;
pub mod mnc;
pub mod moves;
pub mod openings;
pub mod progress;
pub mod search;
pub mod tournament;
pub mod tune;

/// Registers every GA of this crate with a worker's registry, one line per GA: what a worker
/// (`kestrel worker`) can rebuild from a job's spec.
pub fn register_all(registry: &mut Registry) {
    registry.add::<mentor::remote::MentorFitnessSpec>();
    registry.add::<coevolve::remote::CoevolveRemoteSpec>();
    registry.add::<mnc::remote::MncRemoteSpec>();
    registry.add::<moves::remote::MovesRemoteSpec>();
    registry.add::<search::remote::SearchRemoteSpec>();
    registry.add::<tournament::RoundRobinRemoteSpec>();
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
