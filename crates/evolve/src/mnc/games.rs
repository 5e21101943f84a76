//! MNC's piece-square-table chromosome with fitness by play ([`GamePlay`]): each organism is
//! Kestrel's whole evaluation (the defaults) with its 10 tables written in, and it races game
//! pairs against a reference (default: the defaults, the organisms' parent) and optionally
//! against the other members. Fitness = rounds survived + score (as [`GameScore::fitness`]);
//! the objective is the games the organism played, which is what MNC's log sums into its game
//! count. [`PstGamesSpec`] (registered as `mnc-games`) rebuilds it on cluster workers.

use crate::games::fitness::values_hash;
use crate::games::play::GamePlay;
use crate::games::{GameScore, PlaySpec};
use crate::mnc::tables::params_of;
use kestrel_ga::cluster::{BlobStore, FitnessSpec, RemoteFitness, remote_fitness};
use kestrel_ga::{Evaluation, FitnessFunction, RealGenome};
use kestrel_params::ParamValues;
use kestrel_search::{EngineConfig, EngineParams};
use serde::{Deserialize, Serialize};

/// Piece-square tables over the defaults, scored by play.
pub struct PstGameFitness {
    play: GamePlay,
    /// Hash of the defaults and the reference, for the fingerprint.
    values_hash: u64,
}

impl PstGameFitness {
    /// Tables over this build's defaults, measured by `play`.
    pub fn new(play: GamePlay) -> PstGameFitness {
        let base = EngineParams::default();
        let reference = play.reference();
        let values_hash =
            values_hash(&[&base.eval, &base.search, &reference.eval, &reference.search]);
        PstGameFitness { play, values_hash }
    }

    /// How the organisms play.
    pub fn play(&self) -> &GamePlay {
        &self.play
    }

    /// The evaluation an organism plays with: the defaults with its tables.
    pub fn base() -> ParamValues {
        EngineParams::default().eval
    }

    /// The whole parameter set an organism plays with.
    pub fn params(genome: &RealGenome) -> EngineParams {
        let mut params = EngineParams::default();
        params.eval = params_of(genome, &params.eval);
        params
    }

    /// Every organism's games of the generation `sample_seed`.
    pub fn measure(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<GameScore> {
        let configs: Vec<EngineConfig> = genomes
            .iter()
            .map(|g| self.play.config(&Self::params(g)))
            .collect();
        self.play.measure(sample_seed, &configs)
    }
}

impl FitnessFunction<RealGenome> for PstGameFitness {
    fn evaluate(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<Evaluation> {
        let opponents = self.play.opponents();
        self.measure(sample_seed, genomes)
            .iter()
            .map(|s| Evaluation {
                fitness: s.fitness(opponents),
                objective: s.games(),
            })
            .collect()
    }

    /// The race (and the population's games) need the whole population in one call.
    fn chunk_size(&self) -> usize {
        usize::MAX
    }

    fn fingerprint(&self) -> String {
        format!(
            "pst games | {} | values {:016x}",
            self.play.fingerprint(),
            self.values_hash
        )
    }
}

/// Everything a worker needs to rebuild a [`PstGameFitness`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PstGamesSpec {
    /// The games.
    pub play: PlaySpec,
}

impl FitnessSpec for PstGamesSpec {
    const KIND: &'static str = "mnc-games";
    fn blobs(&self) -> Vec<String> {
        vec![self.play.openings.clone()]
    }
    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        Ok(remote_fitness::<RealGenome, _>(PstGameFitness::new(
            self.play.play(blobs)?,
        )))
    }
}

impl PstGamesSpec {
    /// The spec of `fitness`, its openings stored in `store`.
    pub fn store(fitness: &PstGameFitness, store: &BlobStore) -> Result<Self, String> {
        Ok(PstGamesSpec {
            play: PlaySpec::store(&fitness.play, store)?,
        })
    }
}
