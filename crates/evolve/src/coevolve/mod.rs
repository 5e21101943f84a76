//! Coevolution (the move-learning papers' last step): the best organisms of several runs seed a
//! population that evolves by game results alone. Each generation plays a round robin among
//! its organisms at a fixed node count (reproducible on any thread count), and an organism's
//! fitness is its score share; the GA core breeds the next generation. Organisms are real
//! vectors over the parents' evolved set, bounded by the box the parents span (widened a
//! little). Generation 0 is the parents themselves plus their children (`seed`), the elite
//! keeps the best of them while they outscore their offspring, and the final pick is a playoff
//! in which the parents play too (`playoff`): a coevolved organism replaces the best parent only
//! by outscoring it there.

mod playoff;
mod seed;

pub use playoff::{Playoff, challengers, most_points, playoff};
pub use seed::{parent_genome, seeded_population};

pub mod remote;

use crate::mentor::organism::Organism;
use kestrel_eval::Evaluator;
use kestrel_ga::{
    Evaluation, FitnessFunction, FitnessTasks, RealGenome, RealSpace, evaluate_by_tasks,
};
use kestrel_params::{BitSchema, ParamValues};
use kestrel_search::EngineConfig;
use kestrel_tools::{EngineSpec, GameSettings, Limit, MatchSettings, Opening, Wdl, run_match};
use rayon::prelude::*;

/// Fitness by a round robin inside the population.
pub struct CoevolveFitness {
    /// The evolved fields (flat parameter and range of each); a genome's values are written
    /// into a zeroed parameter table to make the player.
    pub schema: BitSchema,
    /// Opening pool; each generation draws `openings_per_pair` of them (seeded).
    pub openings: Vec<Opening>,
    /// Openings per pairing (each played with both colours).
    pub openings_per_pair: usize,
    /// Nodes per move.
    pub nodes: u64,
}

/// The organism as a player with Kestrel's search.
pub fn player(name: &str, values: ParamValues) -> EngineSpec {
    EngineSpec::builtin(
        name,
        EngineConfig {
            hash_mb: 4,
            threads: 1,
            evaluator: Evaluator::new(values),
            ..EngineConfig::default()
        },
    )
}

/// Every pairing's result for the first engine; pairings run in parallel, each match alone.
pub fn round_robin_scores(engines: &[EngineSpec], openings: &[Opening], nodes: u64) -> Vec<Wdl> {
    let pairs: Vec<(usize, usize)> = (0..engines.len())
        .flat_map(|i| (i + 1..engines.len()).map(move |j| (i, j)))
        .collect();
    let settings = MatchSettings {
        games: 2 * openings.len(),
        concurrency: 1,
        game: GameSettings::new(Limit::Nodes(nodes)),
        sprt: None,
    };
    let results: Vec<(usize, usize, Wdl)> = pairs
        .par_iter()
        .map(|&(i, j)| {
            let r = run_match(&engines[i], &engines[j], openings, &settings, &|_| {});
            (i, j, r.wdl)
        })
        .collect();
    let mut totals = vec![Wdl::default(); engines.len()];
    for (i, j, wdl) in results {
        totals[i] += wdl;
        totals[j] += wdl.flipped();
    }
    totals
}

impl FitnessFunction<RealGenome> for CoevolveFitness {
    fn evaluate(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<Evaluation> {
        evaluate_by_tasks(self, sample_seed, genomes)
    }

    /// On a cluster, the pairings of the round robin are the unit of work (`remote.rs`).
    fn tasks(&self) -> Option<&dyn FitnessTasks<RealGenome>> {
        Some(self)
    }

    fn chunk_size(&self) -> usize {
        // The whole population plays one round robin: fitness is relative to the others.
        usize::MAX
    }

    fn fingerprint(&self) -> String {
        format!(
            "coevolve | {} | {} openings/pair | {} nodes | pool {}",
            RealGenome::describe(&self.schema),
            self.openings_per_pair,
            self.nodes,
            self.openings.len()
        )
    }
}

/// Genes within the box spanned by the parents' values, widened by `margin` of each value's
/// declared range on both sides (and kept inside that range).
pub fn parents_space(schema: &BitSchema, parents: &[ParamValues], margin: f64) -> RealSpace {
    let (mut min, mut max) = (Vec::new(), Vec::new());
    for f in &schema.fields {
        let values = parents.iter().map(|p| p.values[f.flat_index] as f64);
        let lo = values.clone().fold(f64::INFINITY, f64::min);
        let hi = values.fold(f64::NEG_INFINITY, f64::max);
        let widen = margin * (f.max - f.min) as f64;
        min.push((lo - widen).max(f.min as f64 - 0.499));
        max.push((hi + widen).min(f.max as f64 + 0.499).max(lo + 1e-9));
    }
    RealSpace {
        min,
        max,
        sigma: crate::mentor::organism::DEFAULT_REAL_STEP,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mentor::run::ParamSet;
    use kestrel_ga::Genome;
    use kestrel_params::Coding;
    use rand::SeedableRng;

    #[test]
    fn the_space_spans_the_parents_and_a_stronger_organism_scores_more() {
        let schema = ParamSet::Compact.schema(Coding::Binary);
        let strong =
            kestrel_eval::compact_values(&ParamValues::defaults(&kestrel_eval::EVAL_TABLE));
        let weak = crate::mentor::paper_match::random_organism(7);
        let space = parents_space(&schema, &[strong.clone(), weak.clone()], 0.0);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let g = RealGenome::random(&space, &mut rng);
        for ((v, f), (lo, hi)) in g
            .field_values(&schema)
            .iter()
            .zip(&schema.fields)
            .zip(space.min.iter().zip(&space.max))
        {
            let (a, b) = (strong.values[f.flat_index], weak.values[f.flat_index]);
            assert!(
                *v >= a.min(b) && *v <= a.max(b),
                "{} = {v} outside [{lo}, {hi}]",
                f.name
            );
        }
        // Two games at a small node count: the hand-tuned values beat a random organism.
        let openings = vec![Opening::startpos()];
        let scores = round_robin_scores(
            &[player("strong", strong), player("weak", weak)],
            &openings,
            300,
        );
        assert_eq!(scores[0].games(), 2);
        assert!(scores[0].points() > scores[1].points(), "{scores:?}");
    }
}
