//! Generation 0 of a coevolution: the parents themselves, then their offspring (crossover of two
//! different parents, then mutation), instead of random points in the box the parents span. A
//! random point in that box is mostly weaker than the best parent (last session's run drew
//! them and its winner lost −241 Elo to the Toga II parent); starting from the parents keeps
//! the best of them in the race from the first game.

use kestrel_ga::{GaSettings, Genome, Purpose, RealGenome, RealSpace, stream_rng};
use kestrel_params::{BitSchema, ParamValues};
use rand::Rng;

/// The parent's evolved values as a real genome (exact: the genes are its integers).
pub fn parent_genome(schema: &BitSchema, values: &ParamValues) -> RealGenome {
    RealGenome(
        schema
            .fields
            .iter()
            .map(|f| values.values[f.flat_index] as f64)
            .collect(),
    )
}

/// `settings.population` genomes: every parent once (as many as fit), then children of two
/// different parents drawn at random (the settings' crossover, always applied, then the
/// settings' mutation rate and step). Seeded by `(settings.seed, generation 0, Init)`.
pub fn seeded_population(
    parents: &[RealGenome],
    space: &RealSpace,
    settings: &GaSettings,
) -> Vec<RealGenome> {
    let mut rng = stream_rng(settings.seed, 0, Purpose::Init);
    let step = settings
        .mutation_step
        .map(|s| s.at(0, settings.termination.generations));
    let mut population: Vec<RealGenome> =
        parents.iter().take(settings.population).cloned().collect();
    while population.len() < settings.population {
        let a = rng.random_range(0..parents.len());
        let mut b = rng.random_range(0..parents.len());
        if parents.len() > 1 {
            while b == a {
                b = rng.random_range(0..parents.len());
            }
        }
        let (mut child, _) = parents[a].crossover(&parents[b], space, settings.crossover, &mut rng);
        child.mutate(space, settings.mutation_rate, step, &mut rng);
        population.push(child);
    }
    population
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mentor::run::ParamSet;
    use kestrel_eval::{EVAL_TABLE, compact_values};
    use kestrel_ga::Crossover;
    use kestrel_params::Coding;

    #[test]
    fn generation_zero_holds_the_parents_then_their_children() {
        let schema = ParamSet::Compact.schema(Coding::Binary);
        let hand = compact_values(&ParamValues::defaults(&EVAL_TABLE));
        let random = crate::mentor::paper_match::random_organism(7);
        let parents = [
            parent_genome(&schema, &hand),
            parent_genome(&schema, &random),
        ];
        // The genome decodes back to the parent's values exactly.
        assert_eq!(
            crate::mentor::organism::with_fields(
                &schema,
                &ParamValues::zeros(&EVAL_TABLE),
                &crate::mentor::organism::Organism::field_values(&parents[0], &schema)
            ),
            hand
        );
        let space = super::super::parents_space(&schema, &[hand, random], 0.0);
        let settings = GaSettings {
            population: 6,
            crossover: Crossover::Uniform,
            mutation_rate: 0.0,
            ..GaSettings::default()
        };
        let population = seeded_population(&parents, &space, &settings);
        assert_eq!(population.len(), 6);
        assert_eq!(&population[..2], &parents);
        // Without mutation every child gene comes from one of the two parents, and children
        // mix them (neither parent copied whole).
        for child in &population[2..] {
            let (mut first, mut second) = (0, 0);
            for ((c, a), b) in child.0.iter().zip(&parents[0].0).zip(&parents[1].0) {
                assert!(c == a || c == b, "gene {c} from neither parent");
                if a != b {
                    first += (c == a) as usize;
                    second += (c == b) as usize;
                }
            }
            assert!(first > 0 && second > 0, "{first} / {second}");
        }
        assert_eq!(population, seeded_population(&parents, &space, &settings));
    }
}
