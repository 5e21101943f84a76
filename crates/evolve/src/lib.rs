//! Evolution for Kestrel: a small, seeded, resumable genetic-algorithm core ([`ga`]) and the
//! expert-driven ("mentor-assisted") fitness that evolves an evaluation function from random
//! parameters by imitating a mentor's scores ([`mentor`]), and a gradient tuner of the whole
//! evaluation against a mentor's scores and game results ([`tune`]), and SPSA on game pairs
//! ([`spsa`]).

pub mod chessmaps;
pub mod cluster;
pub mod coevolve;
pub mod ga;
pub mod games;
pub mod mentor;
pub mod mnc;
pub mod moves;
pub mod search;
pub mod spsa;
pub mod tournament;
pub mod tune;

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
