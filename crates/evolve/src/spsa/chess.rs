//! The chess objective of SPSA: θ+ and θ− as in-process built-in engines (the base params
//! with the tuned elements set), playing game pairs (one opening, θ+ White then θ− White) at
//! a fixed node count, depth or clock. The pairs of one iteration run in parallel on the rayon
//! pool and are combined in pair order; openings are drawn from the seed and the iteration,
//! so that at fixed nodes or depth a run is the same on any thread count.

use super::run::{Duel, Objective};
use super::schedule::SpsaParam;
use super::step::iteration_rng;
use kestrel_params::{ParamDecl, ParamValues, SpsaLine};
use kestrel_search::{EngineConfig, EngineParams};
use kestrel_tools::builtin::BuiltinPlayer;
use kestrel_tools::match_runner::outcome_for_a;
use kestrel_tools::{GameRecord, GameSettings, Opening, Outcome, Penta, Termination, play_game};
use rand::Rng;
use rayon::prelude::*;

/// The tuned elements of an engine, by params-file section and element name.
#[derive(Clone, Debug)]
pub struct TunedElement {
    pub section: &'static str,
    pub name: String,
}

impl TunedElement {
    /// An element of section `section` (`eval` or `search`; anything else is an error).
    pub fn new(section: &str, name: &str) -> Result<TunedElement, String> {
        let section = match section {
            "eval" => "eval",
            "search" => "search",
            other => return Err(format!("unknown params section [{other}]")),
        };
        Ok(TunedElement {
            section,
            name: name.to_string(),
        })
    }

    /// The values of `params` this element lives in.
    pub fn values<'a>(&self, params: &'a EngineParams) -> Result<&'a ParamValues, String> {
        match self.section {
            "eval" => Ok(&params.eval),
            "search" => Ok(&params.search),
            other => Err(format!("unknown params section [{other}]")),
        }
    }

    /// The element's flat index and declaration in `params`.
    pub fn find<'a>(&self, params: &'a EngineParams) -> Result<(usize, &'a ParamDecl), String> {
        self.values(params)?
            .table
            .find_element(&self.name)
            .ok_or_else(|| format!("unknown parameter '{}'", self.name))
    }

    /// Sets the element in `params` to `value` (checked against its declared range).
    pub fn set(&self, params: &mut EngineParams, value: i32) -> Result<(), String> {
        let values = match self.section {
            "eval" => &mut params.eval,
            "search" => &mut params.search,
            other => return Err(format!("unknown params section [{other}]")),
        };
        values.set_element(&self.name, value)
    }
}

/// SPSA parameters of SPSA input lines, with `r_end` and `c_end` as the lines say.
pub fn spsa_params(lines: &[SpsaLine]) -> Vec<SpsaParam> {
    lines
        .iter()
        .map(|l| SpsaParam {
            name: l.name.clone(),
            start: f64::from(l.value),
            min: f64::from(l.min),
            max: f64::from(l.max),
            c_end: l.c_end,
            r_end: l.r_end,
        })
        .collect()
}

/// Game pairs of θ+ against θ−.
pub struct GamePairs {
    base: EngineParams,
    elements: Vec<TunedElement>,
    openings: Vec<Opening>,
    /// Game pairs per iteration.
    pairs: usize,
    game: GameSettings,
    hash_mb: usize,
    seed: u64,
}

impl GamePairs {
    /// Checks that there are openings and pairs, and that every element exists in `base`.
    pub fn new(
        base: EngineParams,
        elements: Vec<TunedElement>,
        openings: Vec<Opening>,
        pairs: usize,
        game: GameSettings,
        hash_mb: usize,
        seed: u64,
    ) -> Result<GamePairs, String> {
        if openings.is_empty() {
            return Err("SPSA needs at least one opening".into());
        }
        if pairs == 0 {
            return Err("SPSA needs at least one game pair per iteration".into());
        }
        let duel = GamePairs {
            base,
            elements,
            openings,
            pairs,
            game,
            hash_mb: hash_mb.max(1),
            seed,
        };
        let current: Vec<i32> = duel
            .elements
            .iter()
            .map(|e| duel.current(e))
            .collect::<Result<_, _>>()?;
        duel.params_with(&current)?;
        Ok(duel)
    }

    /// The base value of an element.
    fn current(&self, e: &TunedElement) -> Result<i32, String> {
        let (flat, _) = e.find(&self.base)?;
        Ok(e.values(&self.base)?.values[flat])
    }

    /// The base params with the tuned elements set to `values`.
    pub fn params_with(&self, values: &[i32]) -> Result<EngineParams, String> {
        let mut params = self.base.clone();
        for (e, &v) in self.elements.iter().zip(values) {
            e.set(&mut params, v)?;
        }
        Ok(params)
    }

    fn config(&self, values: &[i32]) -> Result<EngineConfig, String> {
        let mut config = EngineConfig {
            hash_mb: self.hash_mb,
            ..EngineConfig::default()
        };
        self.params_with(values)?.apply_to(&mut config);
        Ok(config)
    }

    /// One pair from a fresh engine each (reproducible at fixed nodes or depth): θ+'s two
    /// outcomes and the games lost to a fault.
    fn play_pair(
        &self,
        plus: &EngineConfig,
        minus: &EngineConfig,
        opening: &Opening,
    ) -> (Outcome, Outcome, u64) {
        let mut p = BuiltinPlayer::new("theta+".into(), plus.clone());
        let mut m = BuiltinPlayer::new("theta-".into(), minus.clone());
        let first = play_game(&mut p, &mut m, opening, &self.game);
        let second = play_game(&mut m, &mut p, opening, &self.game);
        let faults = [&first, &second]
            .iter()
            .filter(|g: &&&GameRecord| matches!(g.termination, Termination::Fault(..)))
            .count() as u64;
        (outcome_for_a(0, &first), outcome_for_a(1, &second), faults)
    }
}

impl Objective for GamePairs {
    fn duel(&self, plus: &[i32], minus: &[i32], k: u64) -> Result<Duel, String> {
        let plus = self.config(plus)?;
        let minus = self.config(minus)?;
        // Openings from their own stream (the perturbation uses the seed's).
        let mut rng = iteration_rng(self.seed ^ 0x6f70_656e_696e_6773, k);
        let picks: Vec<usize> = (0..self.pairs)
            .map(|_| rng.random_range(0..self.openings.len()))
            .collect();
        let results: Vec<(Outcome, Outcome, u64)> = picks
            .par_iter()
            .map(|&i| self.play_pair(&plus, &minus, &self.openings[i]))
            .collect();
        let mut duel = Duel::default();
        let mut penta = Penta::default();
        for (a, b, faults) in results {
            for o in [a, b] {
                match o {
                    Outcome::Win => duel.wins += 1,
                    Outcome::Draw => duel.draws += 1,
                    Outcome::Loss => duel.losses += 1,
                }
            }
            penta.add_pair(a, b);
            duel.faults += faults;
        }
        duel.penta = [penta.ll, penta.ld, penta.wl, penta.dd, penta.wd, penta.ww];
        Ok(duel)
    }
}
