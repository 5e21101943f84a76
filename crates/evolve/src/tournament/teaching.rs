//! The teaching engine as Kestrel settings: plain alpha-beta with null move and quiescence
//! (every other search heuristic of `SEARCH_TABLE` off) and an evaluation of material plus the
//! page's weights (every other evaluation value zero).

use crate::tournament::Organism;
use kestrel_eval::Evaluator;
use kestrel_params::{ParamValues, ParamsFile};
use kestrel_search::{EngineConfig, SEARCH_TABLE, SWITCHES};

/// Search parameters: every switch in `SWITCHES` off except the null move (non-adaptive,
/// unverified); quiescence is part of every search.
pub fn teaching_search_params() -> ParamValues {
    let mut p = ParamValues::defaults(&SEARCH_TABLE);
    for (_, name) in SWITCHES {
        p.set_scalar(name, 0)
            .expect("SWITCHES names search parameters");
    }
    p.set_scalar("NULL_MOVE_USE", 1).expect("declared");
    p.set_scalar("USE_TIME_STABILITY", 0).expect("declared");
    p
}

/// A one-thread engine with the teaching search and these evaluation values (a small hash:
/// the table is off, and players are created per game).
pub fn teaching_config(eval: ParamValues) -> EngineConfig {
    EngineConfig {
        hash_mb: 1,
        threads: 1,
        evaluator: Evaluator::new(eval),
        search_params: teaching_search_params(),
        ..EngineConfig::default()
    }
}

/// A complete params file (every value written, so nothing falls back to Kestrel's defaults)
/// for `--params` or the UCI option `ParamsFile`.
pub fn teaching_params_file(organism: &Organism, title: &str) -> String {
    let eval = organism.to_params();
    let search = teaching_search_params();
    format!(
        "# {title}\n# Weights: {}\n# The teaching engine: material + 19 weights, plain alpha-beta \
         with null move and quiescence\n# (docs/evolve-tournament.md).\n{}",
        organism.describe(),
        ParamsFile::render(&[&eval, &search])
    )
}
