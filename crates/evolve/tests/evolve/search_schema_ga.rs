//! The GA core on Kestrel's own chromosome: Falcon's search parameters, Gray coded, evolve
//! towards target values through the search parameter schema.

use kestrel_ga::{
    BitGenome, BitSpace, Evaluation, FitnessFunction, GaRun, GaSettings, GenerationView,
    InProcessExecutor, Selection, Termination,
};
use std::ops::ControlFlow;

/// Falcon's search chromosome: the GA evolves its 70 bits (Gray coded) towards target values,
/// decoding every organism through the search parameter schema.
struct FalconTarget {
    schema: kestrel_params::BitSchema,
    target: Vec<i32>,
}

impl FitnessFunction<BitGenome> for FalconTarget {
    fn evaluate(&self, _seed: u64, genomes: &[BitGenome]) -> Vec<Evaluation> {
        genomes
            .iter()
            .map(|g| {
                let values = self.schema.decode_fields(&g.0);
                let miss: f64 = values
                    .iter()
                    .zip(&self.schema.fields)
                    .zip(&self.target)
                    .map(|((&v, f), &t)| (v - t).abs() as f64 / (f.max - f.min).max(1) as f64)
                    .sum();
                Evaluation {
                    fitness: 1.0 / (0.01 + miss),
                    objective: miss,
                }
            })
            .collect()
    }
    fn fingerprint(&self) -> String {
        "falcon-target".into()
    }
}

#[test]
fn falcon_chromosome_evolves_through_the_search_schema() {
    use kestrel_params::{BitSchema, Coding};
    use kestrel_search::{FALCON_SET, SEARCH_TABLE};
    let schema = BitSchema::new(&SEARCH_TABLE, Some(FALCON_SET), Coding::Gray).unwrap();
    assert_eq!(schema.bit_len(), 70);
    // Targets: the middle of each range.
    let target: Vec<i32> = schema.fields.iter().map(|f| (f.min + f.max) / 2).collect();
    let space = BitSpace { len: 70 };
    let fitness = FalconTarget {
        schema: schema.clone(),
        target,
    };
    let out = GaRun {
        settings: GaSettings {
            population: 60,
            mutation_rate: 0.02,
            selection: Selection::Tournament { size: 3 },
            termination: Termination {
                generations: 80,
                fitness_threshold: None,
                stall_generations: None,
            },
            seed: 70,
            ..GaSettings::default()
        },
        space: &space,
        fitness: &fitness,
        executor: &InProcessExecutor,
        checkpoint: None,
        resume: false,
        seed_population: None,
    }
    .run(&mut |_: &GenerationView<BitGenome>| ControlFlow::Continue(()))
    .unwrap();
    let best = &out.population[out.best_index()];
    for (v, f) in schema.decode_fields(&best.0).iter().zip(&schema.fields) {
        assert!((f.min..=f.max).contains(v), "{} = {v}", f.name);
    }
    let first = out.history[0].best_objective;
    let last = out.evaluations[out.best_index()].objective;
    assert!(last < first / 3.0, "{first} -> {last}");
}
