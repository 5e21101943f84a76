//! The verification gate of `kestrel tune spsa`: the tuned params play the start params in an
//! SPRT (pentanomial, game pairs) at a clock the user names; only an accepted H1 counts as
//! better, and `--adopt FILE` writes the tuned params only then.

use anyhow::{Context, bail};
use kestrel_params::ParamsFile;
use kestrel_search::{EngineConfig, EngineParams};
use kestrel_tools::match_runner::{MatchSettings, run_match};
use kestrel_tools::{
    EngineSpec, GameSettings, Limit, Opening, Sprt, SprtDecision, sample_openings,
};
use std::path::Path;

/// What the gate needs from the command line.
pub struct Gate<'a> {
    pub sprt: Sprt,
    pub limit: Limit,
    pub max_games: usize,
    pub concurrency: usize,
    pub seed: u64,
    pub adopt: Option<&'a Path>,
}

fn spec(name: &str, params: &EngineParams) -> EngineSpec {
    let mut config = EngineConfig {
        hash_mb: 16,
        ..EngineConfig::default()
    };
    params.apply_to(&mut config);
    EngineSpec::builtin(name, config)
}

/// Plays `tuned` against `start`; returns whether H1 was accepted (and adopts then).
pub fn verify(
    gate: &Gate,
    tuned: &EngineParams,
    start: &EngineParams,
    openings: &[Opening],
) -> anyhow::Result<bool> {
    if gate.max_games < 2 {
        bail!("--verify-games must be at least 2 (one pair)");
    }
    let settings = MatchSettings {
        games: gate.max_games,
        concurrency: gate.concurrency.max(1),
        game: GameSettings::new(gate.limit),
        sprt: Some(gate.sprt),
    };
    let book = sample_openings(openings, gate.max_games.div_ceil(2), gate.seed);
    println!(
        "verification: tuned against start, {}, {}",
        gate.limit, gate.sprt
    );
    let r = run_match(
        &spec("tuned", tuned),
        &spec("start", start),
        &book,
        &settings,
        &|_| {},
    );
    println!("verification: {}", r.wdl.summary());
    println!("verification pairs: {}", r.penta.summary());
    let (llr, decision) = r.sprt.expect("an SPRT was run");
    let passed = decision == SprtDecision::AcceptH1;
    let verdict = match decision {
        SprtDecision::AcceptH1 => "H1 accepted: the tuned params are better",
        SprtDecision::AcceptH0 => "H0 accepted: not the improvement hoped for",
        SprtDecision::Continue => "no decision within --verify-games: not shown better",
    };
    println!("verification SPRT: LLR {llr:.3}: {verdict}");
    if let Some(path) = gate.adopt {
        if passed {
            ParamsFile::save(path, &[&tuned.eval, &tuned.search])
                .with_context(|| format!("cannot write {}", path.display()))?;
            println!("adopted: wrote {}", path.display());
        } else {
            println!("not adopted: {} left unwritten", path.display());
        }
    }
    Ok(passed)
}
