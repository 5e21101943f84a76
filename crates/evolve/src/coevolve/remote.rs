//! The coevolution fitness on a cluster: its round robin split into pairings (tasks, each a
//! short match) and its settings as data, the opening pool as one blob shipped once per node.

use crate::coevolve::{CoevolveFitness, player};
use crate::mentor::organism::{Organism, with_fields};
use crate::mentor::run::ParamSet;
use crate::openings::{get_openings, put_openings};
use kestrel_eval::EVAL_TABLE;
use kestrel_ga::cluster::{BlobStore, FitnessSpec, RemoteFitness, remote_fitness};
use kestrel_ga::{Evaluation, FitnessTasks, RealGenome, TaskResult};
use kestrel_params::{Coding, ParamValues};
use kestrel_tools::{
    EngineSpec, GameSettings, Limit, MatchSettings, Wdl, run_match, sample_openings,
};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Every pairing (i < j) of `n` organisms, in a fixed order.
fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

impl CoevolveFitness {
    fn engines(&self, genomes: &[RealGenome]) -> Vec<EngineSpec> {
        let base = ParamValues::zeros(&EVAL_TABLE);
        genomes
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let values = with_fields(&self.schema, &base, &g.field_values(&self.schema));
                player(&format!("org{i}"), values)
            })
            .collect()
    }
}

impl FitnessTasks<RealGenome> for CoevolveFitness {
    fn task_count(&self, _sample_seed: u64, genomes: &[RealGenome]) -> usize {
        pairs(genomes.len()).len()
    }

    /// One task per pairing: the first organism's wins, draws and losses in its match.
    fn run_tasks(
        &self,
        sample_seed: u64,
        genomes: &[RealGenome],
        range: Range<usize>,
    ) -> Vec<TaskResult> {
        let openings = sample_openings(&self.openings, self.openings_per_pair, sample_seed);
        let engines = self.engines(genomes);
        let settings = MatchSettings {
            games: 2 * openings.len(),
            concurrency: 1,
            game: GameSettings::new(Limit::Nodes(self.nodes)),
            sprt: None,
        };
        pairs(genomes.len())[range]
            .par_iter()
            .map(|&(i, j)| {
                let wdl = run_match(&engines[i], &engines[j], &openings, &settings, &|_| {}).wdl;
                vec![wdl.wins as f64, wdl.draws as f64, wdl.losses as f64]
            })
            .collect()
    }

    /// Fitness is the points scored, the objective the score share (%).
    fn combine(
        &self,
        _sample_seed: u64,
        genomes: &[RealGenome],
        results: &[TaskResult],
    ) -> Vec<Evaluation> {
        let mut totals = vec![Wdl::default(); genomes.len()];
        for (&(i, j), r) in pairs(genomes.len()).iter().zip(results) {
            let wdl = Wdl::new(r[0] as u64, r[1] as u64, r[2] as u64);
            totals[i] += wdl;
            totals[j] += wdl.flipped();
        }
        totals
            .into_iter()
            .map(|wdl| Evaluation {
                fitness: wdl.points(),
                objective: 100.0 * wdl.score(),
            })
            .collect()
    }
}

/// Everything that defines a [`CoevolveFitness`], the opening pool as a blob.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoevolveRemoteSpec {
    /// The evolved parameter set; with `coding` it rebuilds the fitness's schema.
    pub set: ParamSet,
    /// Bit coding of the schema (binary or Gray), as used by the parents' runs.
    pub coding: Coding,
    /// Openings per pairing, each played with both colours (at least 1).
    pub openings_per_pair: usize,
    /// Nodes per move (at least 1).
    pub nodes: u64,
    /// Blob hash: the opening pool (see `crate::openings`).
    pub openings: String,
}

impl FitnessSpec for CoevolveRemoteSpec {
    const KIND: &'static str = "coevolve";
    fn blobs(&self) -> Vec<String> {
        vec![self.openings.clone()]
    }
    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        if self.nodes == 0 || self.openings_per_pair == 0 {
            return Err("coevolve spec: nodes and openings per pair must be at least 1".into());
        }
        Ok(remote_fitness::<RealGenome, _>(CoevolveFitness {
            schema: self.set.schema(self.coding),
            openings: get_openings(blobs, &self.openings)?,
            openings_per_pair: self.openings_per_pair,
            nodes: self.nodes,
        }))
    }
}

impl CoevolveRemoteSpec {
    /// The spec of `fitness` (whose schema is `set` coded by `coding`), its pool in `store`.
    pub fn store(
        fitness: &CoevolveFitness,
        set: ParamSet,
        coding: Coding,
        store: &BlobStore,
    ) -> Result<Self, String> {
        Ok(CoevolveRemoteSpec {
            set,
            coding,
            openings_per_pair: fitness.openings_per_pair,
            nodes: fitness.nodes,
            openings: put_openings(store, &fitness.openings)?,
        })
    }
}
