//! The paper's strength table: a random organism (RandOrg), the evolved organism (Evol*) and
//! the expert (Kestrel's hand-tuned evaluation) play each other with the same search, from
//! the same openings, each opening once with each colour.

use crate::ga::{BitGenome, BitSpace, Genome};
use crate::mentor::run::ParamSet;
use kestrel_eval::{EVAL_TABLE, Evaluator};
use kestrel_params::{Coding, ParamValues};
use kestrel_search::EngineConfig;
use kestrel_tools::match_runner::GameDone;
use kestrel_tools::stats::EloSummary;
use kestrel_tools::{EngineSpec, GameSettings, MatchSettings, Opening, run_match};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A random organism of the compact set, as the GA's first generation would draw it.
pub fn random_organism(seed: u64) -> ParamValues {
    let schema = ParamSet::Compact.schema(Coding::Binary);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let genome = BitGenome::random(
        &BitSpace {
            len: schema.bit_len(),
        },
        &mut rng,
    );
    schema.decode(&genome.0, &ParamValues::zeros(&EVAL_TABLE))
}

fn engine(name: &str, params: ParamValues) -> EngineSpec {
    EngineSpec::builtin(
        name,
        EngineConfig {
            hash_mb: 16,
            threads: 1,
            evaluator: Evaluator::new(params),
            ..EngineConfig::default()
        },
    )
}

/// One line of the table: first engine's result against the second.
#[derive(Clone, Debug)]
pub struct PairingResult {
    pub first: String,
    pub second: String,
    pub summary: EloSummary,
}

/// The hand-tuned values of the compact set alone (every other term zero): what Evol* would be
/// if a person had tuned the same 35 parameters.
pub fn hand_tuned_compact() -> ParamValues {
    let schema = ParamSet::Compact.schema(Coding::Binary);
    let defaults = ParamValues::defaults(&EVAL_TABLE);
    schema.decode(&schema.encode(&defaults), &ParamValues::zeros(&EVAL_TABLE))
}

/// One line of the strength table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    ExpertRandOrg,
    EvolRandOrg,
    EvolExpert,
    /// Evol* against the hand-tuned values of the same 35 parameters.
    EvolHand35,
}

impl Pairing {
    /// The paper's three lines.
    pub const PAPER: [Pairing; 3] = [
        Pairing::ExpertRandOrg,
        Pairing::EvolRandOrg,
        Pairing::EvolExpert,
    ];
}

/// Plays each pairing, `games` games each (first engine named first).
#[allow(clippy::too_many_arguments)]
pub fn paper_match(
    evolved: ParamValues,
    random: ParamValues,
    pairings: &[Pairing],
    openings: &[Opening],
    games: usize,
    game: GameSettings,
    concurrency: usize,
    on_game: &(dyn Fn(&str, &GameDone) + Sync),
) -> Vec<PairingResult> {
    let expert = engine("Expert", ParamValues::defaults(&EVAL_TABLE));
    let evol = engine("Evol*", evolved);
    let rand_org = engine("RandOrg", random);
    let hand35 = engine("Hand35", hand_tuned_compact());
    let settings = MatchSettings {
        games,
        concurrency,
        game,
        sprt: None,
    };
    pairings
        .iter()
        .map(|p| match p {
            Pairing::ExpertRandOrg => (&expert, &rand_org),
            Pairing::EvolRandOrg => (&evol, &rand_org),
            Pairing::EvolExpert => (&evol, &expert),
            Pairing::EvolHand35 => (&evol, &hand35),
        })
        .map(|(a, b)| {
            let label = format!("{} - {}", a.name(), b.name());
            let result = run_match(a, b, openings, &settings, &|done| on_game(&label, done));
            PairingResult {
                first: a.name().to_string(),
                second: b.name().to_string(),
                summary: result.wdl.summary(),
            }
        })
        .collect()
}
