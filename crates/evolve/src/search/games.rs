//! The search GA with fitness by play (`kestrel evolve search --fitness games`): Falcon's
//! chromosome (bit strings or real genes over the chosen SEARCH_TABLE set, decoded through the
//! run's schema onto the defaults) with organisms measured by [`GamePlay`] (raced pairs
//! against a reference, optionally against each other) instead of nodes on a tactical suite.
//! [`SearchGamesSpec`] (registered as `search-games`) rebuilds it on cluster workers.

use crate::games::PlaySpec;
use crate::games::fitness::values_hash;
use crate::games::play::GamePlay;
use crate::mentor::organism::{GenomeKind, Organism, with_fields};
use kestrel_ga::cluster::{BlobStore, FitnessSpec, RemoteFitness, remote_fitness};
use kestrel_ga::{BitGenome, Evaluation, FitnessFunction, RealGenome};
use kestrel_params::{BitSchema, Coding};
use kestrel_search::{EngineConfig, EngineParams, SEARCH_TABLE};
use serde::{Deserialize, Serialize};

/// Search-parameter organisms scored by play.
pub struct SearchGameFitness {
    /// Names of the evolved SEARCH_TABLE values, in chromosome order.
    pub set: Vec<String>,
    /// The chromosome layout of the set.
    pub schema: BitSchema,
    play: GamePlay,
    /// Hash of the defaults and the reference, for the fingerprint.
    values_hash: u64,
}

impl SearchGameFitness {
    /// The set's schema in `coding`; refuses unknown names and an empty set.
    pub fn new(set: Vec<String>, coding: Coding, play: GamePlay) -> Result<Self, String> {
        let names: Vec<&str> = set.iter().map(String::as_str).collect();
        let schema = BitSchema::new(&SEARCH_TABLE, Some(&names), coding)?;
        if schema.fields.is_empty() {
            return Err("no search parameter to evolve".into());
        }
        let base = EngineParams::default();
        let reference = play.reference();
        let values_hash =
            values_hash(&[&base.eval, &base.search, &reference.eval, &reference.search]);
        Ok(SearchGameFitness {
            set,
            schema,
            play,
            values_hash,
        })
    }

    /// How the organisms play.
    pub fn play(&self) -> &GamePlay {
        &self.play
    }

    /// The defaults with the evolved values written in.
    pub fn params_of(&self, fields: &[i32]) -> EngineParams {
        let mut params = EngineParams::default();
        params.search = with_fields(&self.schema, &params.search, fields);
        params
    }

    fn evaluations<G: Organism>(&self, sample_seed: u64, genomes: &[G]) -> Vec<Evaluation> {
        let configs: Vec<EngineConfig> = genomes
            .iter()
            .map(|g| {
                self.play
                    .config(&self.params_of(&g.field_values(&self.schema)))
            })
            .collect();
        self.play.evaluate(sample_seed, &configs)
    }

    fn fingerprint_of<G: Organism>(&self) -> String {
        format!(
            "search games {} | {} | {} | values {:016x}",
            self.set.join(","),
            G::describe(&self.schema),
            self.play.fingerprint(),
            self.values_hash
        )
    }
}

impl FitnessFunction<BitGenome> for SearchGameFitness {
    fn evaluate(&self, sample_seed: u64, genomes: &[BitGenome]) -> Vec<Evaluation> {
        self.evaluations(sample_seed, genomes)
    }

    /// The race (and the population's games) need the whole population in one call.
    fn chunk_size(&self) -> usize {
        usize::MAX
    }

    fn fingerprint(&self) -> String {
        self.fingerprint_of::<BitGenome>()
    }
}

impl FitnessFunction<RealGenome> for SearchGameFitness {
    fn evaluate(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<Evaluation> {
        self.evaluations(sample_seed, genomes)
    }

    /// The race (and the population's games) need the whole population in one call.
    fn chunk_size(&self) -> usize {
        usize::MAX
    }

    fn fingerprint(&self) -> String {
        self.fingerprint_of::<RealGenome>()
    }
}

/// Everything a worker needs to rebuild a [`SearchGameFitness`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchGamesSpec {
    /// The genome the leader evolves.
    pub genome: GenomeKind,
    /// Names of the evolved values.
    pub set: Vec<String>,
    /// Bit coding of the chromosome.
    pub coding: Coding,
    /// The games.
    pub play: PlaySpec,
}

impl SearchGamesSpec {
    /// The spec of `fitness` evolving `genome`, its openings stored in `store`.
    pub fn store(
        fitness: &SearchGameFitness,
        genome: GenomeKind,
        store: &BlobStore,
    ) -> Result<Self, String> {
        Ok(SearchGamesSpec {
            genome,
            set: fitness.set.clone(),
            coding: fitness.schema.coding,
            play: PlaySpec::store(&fitness.play, store)?,
        })
    }
}

impl FitnessSpec for SearchGamesSpec {
    const KIND: &'static str = "search-games";
    fn blobs(&self) -> Vec<String> {
        vec![self.play.openings.clone()]
    }
    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        let fitness =
            SearchGameFitness::new(self.set.clone(), self.coding, self.play.play(blobs)?)?;
        Ok(match self.genome {
            GenomeKind::Bits => remote_fitness::<BitGenome, _>(fitness),
            GenomeKind::Real => remote_fitness::<RealGenome, _>(fitness),
        })
    }
}
