//! The cluster executor (now in `kestrel_ga::cluster`) and the registry of this crate's GAs.

pub use crate::openings;
pub use kestrel_ga::cluster::*;

/// Every GA fitness this binary can run on a cluster.
pub fn builtin_registry() -> Registry {
    let mut r = Registry::new();
    r.register(
        crate::mentor::remote::MentorFitnessSpec::KIND,
        crate::mentor::remote::build,
    );
    r.register(
        crate::coevolve::remote::CoevolveRemoteSpec::KIND,
        crate::coevolve::remote::build_remote,
    );
    r.register(
        crate::mnc::remote::MncRemoteSpec::KIND,
        crate::mnc::remote::build_remote,
    );
    r.register(
        crate::moves::remote::MovesRemoteSpec::KIND,
        crate::moves::remote::build_remote,
    );
    r.register(
        crate::search::remote::SearchRemoteSpec::KIND,
        crate::search::remote::build_remote,
    );
    r.register(
        crate::tournament::RoundRobinRemoteSpec::KIND,
        crate::tournament::build_remote,
    );
    r
}
