//! What a run leaves in the chromosome database: one row per surviving niche, its leader with
//! fitness, niche size, parents, full ancestry and a params file to play it.

use crate::mnc::niches::{Niche, find_niches};
use crate::mnc::state::{MncCheckpoint, Organism};
use crate::mnc::tables::{base_params, distance, params_of};
use kestrel_chromodb::NewChromosome;
use kestrel_ga::{RealGenome, fittest_first};
use kestrel_params::{ParamValues, ParamsFile};

/// The params file an organism plays with: its tables over `base` (the fixed material of
/// the tournament fitness, [`base_params`], or the defaults of the game fitness).
pub fn params_text(genome: &RealGenome, base: &ParamValues) -> String {
    ParamsFile::render(&[&params_of(genome, base)])
}

/// One database row per niche of an MNC run's final population.
pub fn mnc_leaders(
    state: &MncCheckpoint,
    population: &[Organism],
    niches: &[Niche],
    base: &ParamValues,
) -> Vec<NewChromosome> {
    niches
        .iter()
        .enumerate()
        .map(|(k, niche)| {
            let o = &population[niche.leader];
            NewChromosome {
                label: format!("mnc niche {} leader", k + 1),
                niche: (k + 1) as u32,
                niche_size: niche.members.len() as u32,
                fitness: o.lifetime_score(),
                tournaments: o.tournaments,
                organism: o.id,
                born: o.born,
                parents: o.parents.clone(),
                lineage_json: serde_json::to_string(&state.lineage(o.id))
                    .expect("births are plain data"),
                genes_json: serde_json::to_string(&o.genome).expect("genes are plain data"),
                params: params_text(&o.genome, base),
            }
        })
        .collect()
}

/// One row per niche of a generational run's final population (no lineage is kept there).
pub fn generational_leaders(
    genomes: &[RealGenome],
    fitness: &[f64],
    radius: f64,
    generation: u64,
) -> Vec<NewChromosome> {
    let order = fittest_first(|i| fitness[i], genomes.len());
    let dist = |a: usize, b: usize| distance(&genomes[a], &genomes[b]);
    find_niches(&order, radius, &dist)
        .iter()
        .enumerate()
        .map(|(k, niche)| {
            let g = &genomes[niche.leader];
            NewChromosome {
                label: format!("generational niche {} leader", k + 1),
                niche: (k + 1) as u32,
                niche_size: niche.members.len() as u32,
                fitness: fitness[niche.leader],
                tournaments: 1,
                organism: niche.leader as u64,
                born: generation,
                parents: Vec::new(),
                lineage_json: "[]".into(),
                genes_json: serde_json::to_string(g).expect("genes are plain data"),
                params: params_text(g, &base_params()),
            }
        })
        .collect()
}
