//! The chess objective of SPSA: θ+ and θ− as built-in engines (the base params with the
//! tuned elements set), playing game pairs (one opening, θ+ White then θ− White) at a fixed
//! node count, depth or clock ([`PairsFitness`]) on any executor. The results are combined in
//! pair order and the openings drawn from the seed and the iteration, so that at fixed nodes
//! or depth a run is the same on any thread count, in process or on workers.

use super::pairs::{PairsFitness, outcome_of};
use super::run::{Duel, DuelPoints, Objective};
use super::schedule::SpsaParam;
use kestrel_ga::{Executor, FitnessFunction, FitnessJob, RealGenome};
use kestrel_params::{ParamDecl, ParamValues, SpsaLine};
use kestrel_search::EngineParams;
use kestrel_tools::{Outcome, Penta};

/// The tuned elements of an engine, by params-file section and element name.
#[derive(Clone, Debug)]
pub struct TunedElement {
    /// Params-file section holding the element: `eval` or `search`.
    pub section: &'static str,
    /// Element name as declared in that section's table.
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
            float: false,
        })
        .collect()
}

/// SPSA's chess objective: an iteration's game pairs ([`PairsFitness`], or an external
/// engine's) played on an executor (in process, worker processes or Ray) and summed into a
/// [`Duel`]. Task `j·pairs + i` of a job answers pair `i` of duel `j`: θ+'s two points, the
/// faults, then optionally the [`super::FaultKinds`]; `[-1, attempts]` is a pair that kept
/// failing.
pub struct GamePairs<'a, F = PairsFitness> {
    fitness: F,
    pairs: usize,
    executor: &'a (dyn Executor<RealGenome> + Sync),
}

impl<'a> GamePairs<'a> {
    /// The duel of `fitness`'s pairs, run on `executor`.
    pub fn new(fitness: PairsFitness, executor: &'a (dyn Executor<RealGenome> + Sync)) -> Self {
        let pairs = fitness.pairs;
        GamePairs {
            fitness,
            pairs,
            executor,
        }
    }

    /// The base params with the tuned elements set to `values`.
    pub fn params_with(&self, values: &[i32]) -> Result<EngineParams, String> {
        self.fitness.params_with(values)
    }
}

impl<'a, F: FitnessFunction<RealGenome>> GamePairs<'a, F> {
    /// The duels of any tasked fitness of `pairs` game pairs per duel.
    pub fn with_fitness(
        fitness: F,
        pairs: usize,
        executor: &'a (dyn Executor<RealGenome> + Sync),
    ) -> Self {
        GamePairs {
            fitness,
            pairs,
            executor,
        }
    }

    /// The fitness playing the pairs.
    pub fn fitness(&self) -> &F {
        &self.fitness
    }
}

impl<F: FitnessFunction<RealGenome>> Objective for GamePairs<'_, F> {
    fn duel(&self, plus: &[f64], minus: &[f64], k: u64) -> Result<Duel, String> {
        let mut duels = self.duels(&[DuelPoints { plus, minus, k }])?;
        Ok(duels.remove(0))
    }

    /// Every pair of every duel in one executor job, so the executor keeps all its cores or
    /// workers busy until the batch's last game.
    fn duels(&self, points: &[DuelPoints<'_>]) -> Result<Vec<Duel>, String> {
        let Some(first) = points.first() else {
            return Ok(Vec::new());
        };
        if points
            .iter()
            .enumerate()
            .any(|(j, p)| p.k != first.k + j as u64)
        {
            return Err("a batch of duels must hold consecutive iterations".into());
        }
        let genome = |values: &[f64]| RealGenome(values.to_vec());
        let job = FitnessJob {
            generation: first.k,
            sample_seed: first.k,
            genomes: points
                .iter()
                .flat_map(|p| [genome(p.plus), genome(p.minus)])
                .collect(),
        };
        let results = self.executor.run_tasks(&self.fitness, &job)?;
        let pairs = self.pairs;
        if results.len() != pairs * points.len() {
            return Err(format!(
                "{} game pairs answered, {} expected",
                results.len(),
                pairs * points.len()
            ));
        }
        results.chunks(pairs).map(duel_of).collect()
    }
}

/// One duel's totals from its pairs' task results.
fn duel_of(results: &[Vec<f64>]) -> Result<Duel, String> {
    let mut duel = Duel::default();
    let mut penta = Penta::default();
    for r in results {
        if let [marker, attempts] = r[..]
            && marker < 0.0
        {
            return Err(format!(
                "a game pair failed {attempts} times in a row: the engine keeps failing \
                 (its last error is printed above); stopped rather than tuning on forfeits"
            ));
        }
        if r.len() < 3 {
            return Err(format!(
                "a game pair answered {} numbers, not 3 or more",
                r.len()
            ));
        }
        let (first, second, faults) = (r[0], r[1], r[2]);
        duel.kinds += super::FaultKinds::from_numbers(&r[3..]);
        let (a, b) = (outcome_of(first), outcome_of(second));
        for o in [a, b] {
            match o {
                Outcome::Win => duel.wins += 1,
                Outcome::Draw => duel.draws += 1,
                Outcome::Loss => duel.losses += 1,
            }
        }
        penta.add_pair(a, b);
        duel.faults += faults as u64;
    }
    duel.penta = [penta.ll, penta.ld, penta.wl, penta.dd, penta.wd, penta.ww];
    Ok(duel)
}
