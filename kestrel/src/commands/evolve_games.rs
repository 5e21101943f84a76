//! `kestrel evolve games`: a real-vector GA over named SEARCH_TABLE/EVAL_TABLE values whose
//! fitness is play: organisms race game pairs against a reference engine (docs/spsa.md, "Game
//! fitness for the GA"). The first generation is the start values and mutants of them.

use super::executor_options::ExecutorOptions;
use super::ga_options::{GaArgs, GaDefaults, GenomeArg, print_output_paths};
use super::game_fitness_args::GameFitnessArgs;
use super::job_options::JobOptions;
use super::spsa_input::{TableArg, selection};
use crate::commands::checked;
use anyhow::bail;
use clap::Args;
use kestrel_evolve::games::{GameFitness, GameFitnessSpec};
use kestrel_evolve::progress::run_logged;
use kestrel_evolve::spsa::chess::TunedElement;
use kestrel_ga::cluster::FitnessSpec;
use kestrel_ga::{GaRun, GenerationStats, RealGenome, centre, start_and_mutants, write_chart};
use kestrel_params::{ParamValues, ParamsFile, spsa_lines};
use kestrel_search::EngineParams;
use std::path::PathBuf;

/// Small populations: every organism costs games.
const GAMES_DEFAULTS: GaDefaults = GaDefaults {
    population: 8,
    generations: 10,
    bits_crossover_rate: 0.9,
    bits_mutation_rate: 0.05,
};

/// Arguments of `kestrel evolve games`.
#[derive(Args)]
pub struct GamesGaArgs {
    /// Which values evolve: `all`, `compact`, `falcon` or NAME,NAME,... (as `tune spsa-input`);
    /// with --engine: `all` (every spin and check option but the set-up ones) or the engine's
    /// option names (default: none: --input).
    #[arg(long, value_name = "all|compact|falcon|NAMES", value_parser = checked::distinct_list)]
    pub(super) set: Option<String>,
    /// With --engine: the evolved options, their starts and ranges as an OpenBench SPSA input
    /// (`NAME, int, value, min, max, c_end, r_end`) (default: none: --set).
    #[arg(long, value_name = "FILE", requires = "engine", conflicts_with = "set")]
    pub(super) input: Option<PathBuf>,
    /// With --engine: race the same engine with these options (NAME=VALUE lines) instead of
    /// its start values.
    #[arg(
        long,
        value_name = "FILE",
        requires = "engine",
        conflicts_with = "opponent"
    )]
    pub(super) opponent_options: Option<PathBuf>,
    /// With --engine: race these engines instead (uci:PATH, repeatable; one drawn per pair).
    #[arg(long, value_name = "uci:PATH", requires = "engine")]
    pub(super) opponent: Vec<String>,
    #[command(flatten)]
    pub(super) engine: super::engine_options::EngineArgs,
    /// Which tables `--set` looks in.
    #[arg(long, value_enum, default_value = "both")]
    pub(super) table: TableArg,
    /// Start values (and every value not evolved); default: the defaults.
    #[arg(long, value_name = "FILE")]
    pub(super) params: Option<PathBuf>,
    #[command(flatten)]
    pub(super) games: GameFitnessArgs,
    /// Spread of the first generation's mutants, as a share of each value's range.
    #[arg(long, default_value_t = 0.02, value_parser = checked::positive_f64)]
    pub(super) start_spread: f64,
    /// Hash table per engine, MB.
    #[arg(long, default_value_t = 2, value_parser = checked::hash_mb)]
    pub(super) hash: usize,
    #[command(flatten)]
    pub(super) ga: GaArgs,
    /// Output folder: best.toml, centre.toml, log.csv, evolution.svg, checkpoint.json.
    #[arg(long, default_value = "evolve-games-out", value_parser = checked::writable_dir)]
    pub(super) out: PathBuf,
    #[command(flatten)]
    pub(super) job: JobOptions,
    #[command(flatten)]
    pub(super) executor: ExecutorOptions,
}

fn load(path: &Option<PathBuf>, flag: &str) -> anyhow::Result<EngineParams> {
    Ok(match path {
        Some(p) => EngineParams::load(p, flag)?,
        None => EngineParams::default(),
    })
}

/// Runs `kestrel evolve games`.
pub fn run(a: GamesGaArgs) -> anyhow::Result<()> {
    if let Some(engine) = a.engine.engine()? {
        return super::evolve_games_external::run(a, engine, GAMES_DEFAULTS);
    }
    let Some(set) = a.set.clone() else {
        bail!("name the evolved values with --set all|compact|falcon|NAMES");
    };
    let base = load(&a.params, "--params")?;
    let sets: Vec<&ParamValues> = match a.table {
        TableArg::Eval => vec![&base.eval],
        TableArg::Search => vec![&base.search],
        TableArg::Both => vec![&base.eval, &base.search],
    };
    let lines = spsa_lines(&sets, selection(&set).as_deref())
        .map_err(|e| anyhow::anyhow!("--set {set}: {e}"))?;
    if lines.is_empty() {
        bail!("--set {set} selects nothing");
    }
    let start = RealGenome(lines.iter().map(|l| f64::from(l.value)).collect());
    let elements = lines
        .iter()
        .map(|l| TunedElement {
            section: l.section,
            name: l.name.clone(),
        })
        .collect();
    a.job.start_threads()?;
    let play = a.games.play(a.hash)?;
    let fitness = GameFitness::new(base, elements, play).map_err(anyhow::Error::msg)?;
    let mut ga = a.ga.clone();
    ga.genome = GenomeArg::Real;
    let settings = ga.settings(GAMES_DEFAULTS, None)?;
    let space = fitness.space(a.ga.step);
    // Start values first, then mutants of them (Phoenix started from its parent's tables).
    let population = start_and_mutants(&start, &space, &settings, a.start_spread);
    let folder = a.job.claim(&a.out)?;
    let executor = a
        .executor
        .start(|store| Ok(GameFitnessSpec::store(&fitness, store)?.tagged()))?;
    println!("fitness on        {}", executor.describe());
    let run = GaRun {
        settings,
        space: &space,
        fitness: &fitness,
        executor: &executor,
        checkpoint: Some(a.out.join("checkpoint.json")),
        resume: a.job.resume,
        seed_population: Some(population),
    };
    let log = a.out.join("log.csv");
    let chart = a.out.join("evolution.svg");
    let outcome = run_logged(&run, !a.job.quiet, &log, &describe_elo, &mut |_| Vec::new())
        .map_err(anyhow::Error::msg)?;
    write_chart(&chart, &outcome.history, "Elo against the reference")
        .map_err(anyhow::Error::msg)?;
    report(
        &fitness,
        &outcome.population,
        outcome.best_index(),
        &lines,
        &a.out,
    )?;
    print_output_paths(&a.out.join("best.toml"), &log, &chart);
    folder.finish(a.ga.seed)
}

/// A generation's log line: the best and mean Elo (both games GAs).
pub(super) fn describe_elo(s: &GenerationStats) -> String {
    format!(
        "best Elo {:+.1}, mean {:+.1}",
        s.best_objective, s.mean_objective
    )
}

/// Writes best.toml and centre.toml (the population's mean) and prints both beside the start.
fn report(
    fitness: &GameFitness,
    population: &[RealGenome],
    best: usize,
    lines: &[kestrel_params::SpsaLine],
    out: &std::path::Path,
) -> anyhow::Result<()> {
    let centre = centre(population);
    for (name, genes) in [("best", &population[best].0), ("centre", &centre)] {
        let params = fitness.params_of(genes).map_err(anyhow::Error::msg)?;
        ParamsFile::save(
            &out.join(format!("{name}.toml")),
            &[&params.eval, &params.search],
        )?;
    }
    for (i, l) in lines.iter().enumerate() {
        println!(
            "{}: start {} best {:.0} centre {:.1}",
            l.name, l.value, population[best].0[i], centre[i]
        );
    }
    println!(
        "not verified: compare best.toml and centre.toml with the reference by `kestrel match`"
    );
    Ok(())
}
