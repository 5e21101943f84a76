//! `kestrel wdl-fit`: fits the win/draw/loss model of `UCI_ShowWDL` to Kestrel's own games,
//! played here against itself at a node limit or read from a data file (`--data`); prints the
//! constants for `crates/search/src/wdl.rs`.

use anyhow::{Context, bail};
use kestrel_nnue_train::wdl_data::load_wdl_data;
use kestrel_search::EngineConfig;
use kestrel_search::wdl::WDL_A;
use kestrel_tools::wdl_by_material::loss_by_material;
use kestrel_tools::wdl_constants::WdlConstants;
use kestrel_tools::wdl_fit::{WDL_MAX_CP, WdlSample, fit, loss, samples_from_games};
use kestrel_tools::{
    EngineSpec, GameSettings, Limit, MatchSettings, load_openings, run_match, sample_openings,
};
use std::path::PathBuf;

/// The fewest positions worth a fit.
const MIN_SAMPLES: usize = 100;

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
    /// Degree of `a` and `b` as polynomials in material (the shipped model's by default).
    #[arg(long, default_value_t = WDL_A.len() as u64 - 1, value_parser = clap::value_parser!(u64).range(0..=5))]
    pub degree: u64,
    /// Fit on a data file (.kpos) or a run folder of `nnue data` instead of playing games.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["games", "nodes", "openings", "concurrency", "skip_plies"])]
    pub data: Option<PathBuf>,
    /// Share of the data's records, the last ones (cut at a game's start), held out for validation.
    #[arg(long, default_value_t = 0.1, requires = "data")]
    pub validation_fraction: f64,
    /// Also print the validation loss by material, against a fit of each material range alone (default: off).
    #[arg(long, requires = "data")]
    pub by_material: bool,
}

/// Fits the win/draw/loss model to games played here or read from `--data`, and prints its
/// constants.
pub fn run(args: WdlFitArgs) -> anyhow::Result<()> {
    match &args.data {
        Some(path) => fit_data(path, &args),
        None => fit_games(&args),
    }
}

fn fit_data(path: &std::path::Path, args: &WdlFitArgs) -> anyhow::Result<()> {
    if !(0.0..1.0).contains(&args.validation_fraction) {
        bail!(
            "--validation-fraction must lie in [0, 1), not {}",
            args.validation_fraction
        );
    }
    let data = load_wdl_data(path, args.validation_fraction, WDL_MAX_CP)
        .with_context(|| format!("--data {}", path.display()))?;
    if data.train.len() < MIN_SAMPLES {
        bail!(
            "--data {}: only {} scored training positions, at least {MIN_SAMPLES} needed",
            path.display(),
            data.train.len()
        );
    }
    println!(
        "{} records of about {} games; {} left out (unscored or |score| > {WDL_MAX_CP} cp)",
        data.records, data.games, data.left_out
    );
    println!(
        "training: {} positions; validation: {} positions of the last {} records ({} games)",
        data.train.len(),
        data.validation.len(),
        data.validation_records,
        data.validation_games
    );
    let current = WdlConstants::shipped();
    let fitted = fit(&data.train, &current, args.degree as usize);
    let losses = |p| (loss(&data.train, p), loss(&data.validation, p));
    let ((train_now, val_now), (train_fit, val_fit)) = (losses(&current), losses(&fitted));
    println!("mean log-loss      training  validation");
    println!("current constants  {train_now:.4}    {val_now:.4}");
    println!(
        "fitted constants   {train_fit:.4}    {val_fit:.4}   (degree {})",
        args.degree
    );
    if args.by_material && !data.validation.is_empty() {
        print_by_material(&data.train, &data.validation, [&current, &fitted]);
    }
    println!("{}", fitted.rust_literal());
    Ok(())
}

fn print_by_material(train: &[WdlSample], validation: &[WdlSample], constants: [&WdlConstants; 2]) {
    println!("validation log-loss by material (both sides; own fit: fitted to the range alone)");
    println!("material  validation  current  fitted  own fit");
    let [current, fitted] = constants;
    for bucket in loss_by_material(train, validation, &[fitted.clone(), current.clone()]) {
        println!(
            "{:>2}..{:<2}    {:>10}  {:.4}   {:.4}  {:.4}",
            bucket.range.0,
            bucket.range.1,
            bucket.validation_positions,
            bucket.compared[1],
            bucket.compared[0],
            bucket.own_fit
        );
    }
}

fn fit_games(args: &WdlFitArgs) -> anyhow::Result<()> {
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
    let samples = samples_from_games(&result.games, args.skip_plies, WDL_MAX_CP);
    if samples.len() < MIN_SAMPLES {
        bail!("only {} scored positions: play more games", samples.len());
    }
    let current = WdlConstants::shipped();
    let fitted = fit(&samples, &current, args.degree as usize);
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
        loss(&samples, &current),
        loss(&samples, &fitted)
    );
    println!("{}", fitted.rust_literal());
    Ok(())
}
