//! `kestrel wdl-fit`: plays Kestrel against itself at a node limit and fits the win/draw/loss
//! model of `UCI_ShowWDL` to the scores and results; prints the constants for
//! `crates/search/src/wdl.rs`.

use anyhow::{Context, bail};
use kestrel_search::EngineConfig;
use kestrel_search::wdl::{WDL_A, WDL_B};
use kestrel_tools::wdl_fit::{fit, loss, samples_from_games};
use kestrel_tools::{
    EngineSpec, GameSettings, Limit, MatchSettings, load_openings, run_match, sample_openings,
};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct WdlFitArgs {
    /// Games to play (pairs: each opening with both colours).
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Openings file (EPD or PGN), or chess960 / dchess960.
    #[arg(long, default_value = "builtin:openings-gm2600.epd")]
    pub openings: PathBuf,
    /// Seed for sampling the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// Plies at the start of each game left out of the fit (book-like positions).
    #[arg(long, default_value_t = 8)]
    pub skip_plies: usize,
}

pub fn run(args: WdlFitArgs) -> anyhow::Result<()> {
    if args.games < 2 || args.nodes == 0 || args.concurrency == 0 {
        bail!("--games must be at least 2, --nodes and --concurrency at least 1");
    }
    let pool = load_openings(&args.openings)
        .with_context(|| format!("openings {}", args.openings.display()))?;
    let openings = sample_openings(&pool, args.games.div_ceil(2), args.seed);
    let engine = |name: &str| EngineSpec::builtin(name, EngineConfig::default());
    let settings = MatchSettings {
        games: args.games,
        concurrency: args.concurrency,
        game: GameSettings::new(Limit::Nodes(args.nodes)),
        sprt: None,
    };
    let result = run_match(&engine("a"), &engine("b"), &openings, &settings, &|_| {});
    let samples = samples_from_games(&result.games, args.skip_plies, 2000);
    if samples.len() < 100 {
        bail!("only {} scored positions: play more games", samples.len());
    }
    let current = [WDL_A[0], WDL_A[1], WDL_B[0], WDL_B[1]];
    let fitted = fit(&samples, current);
    println!(
        "{} games, {} scored positions (W {} D {} L {} for the first engine)",
        result.games.len(),
        samples.len(),
        result.wdl.wins,
        result.wdl.draws,
        result.wdl.losses
    );
    println!(
        "mean log-loss: current constants {:.4}, fitted {:.4}",
        loss(&samples, current),
        loss(&samples, fitted)
    );
    println!(
        "const WDL_FIT: (f64, f64, f64, f64) = ({:.1}, {:.1}, {:.1}, {:.1});",
        fitted[0], fitted[1], fitted[2], fitted[3]
    );
    Ok(())
}
