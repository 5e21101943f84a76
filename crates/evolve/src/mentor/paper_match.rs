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

/// Plays Expert–RandOrg, Evol*–RandOrg and Evol*–Expert, `games` games each, and with
/// `with_hand35` also Evol*–Hand35 (the hand-tuned compact set).
#[allow(clippy::too_many_arguments)]
pub fn paper_match(
    evolved: ParamValues,
    random: ParamValues,
    with_hand35: bool,
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
    let mut pairings = vec![(&expert, &rand_org), (&evol, &rand_org), (&evol, &expert)];
    if with_hand35 {
        pairings.push((&evol, &hand35));
    }
    pairings
        .into_iter()
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
