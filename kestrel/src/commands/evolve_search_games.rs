//! `kestrel evolve search --fitness games`: Falcon's search GA (its chromosome and operators)
//! with organisms scored by play through the shared game fitness (docs/evolve-search.md,
//! "Fitness by play").

use super::evolve_search::FALCON_DEFAULTS;
use super::executor_options::ExecutorOptions;
use super::ga_options::{GaArgs, print_output_paths};
use super::game_fitness_args::GameFitnessArgs;
use super::job_options::JobOptions;
use kestrel_evolve::search::games::{SearchGameFitness, SearchGamesSpec};
use kestrel_evolve::search::games_run::{SearchGamesConfig, render_games_report, run_search_games};
use kestrel_ga::cluster::FitnessSpec;
use std::path::PathBuf;

/// Verification pairs after a run.
const VERIFY_PAIRS: usize = 16;

/// What `evolve search --fitness games` takes from the command line.
pub struct SearchGamesOptions<'a> {
    /// Names of the evolved SEARCH_TABLE values.
    pub set: Vec<String>,
    /// The game options.
    pub games: &'a GameFitnessArgs,
    /// Pairs of the best against the reference after the run.
    pub verify_pairs: Option<usize>,
    /// Hash table per engine, MB.
    pub hash_mb: usize,
    /// The defaults in the first generation.
    pub seed_defaults: bool,
    /// The shared GA flags.
    pub ga: &'a GaArgs,
    /// Output folder.
    pub out: &'a PathBuf,
    /// Threads, resume, quiet, run folder.
    pub job: &'a JobOptions,
    /// Where fitness runs.
    pub executor: &'a ExecutorOptions,
}

/// Runs the search GA with game fitness.
pub fn run(o: &SearchGamesOptions) -> anyhow::Result<()> {
    let play = o.games.play(o.hash_mb)?;
    let fitness =
        SearchGameFitness::new(o.set.clone(), o.ga.coding(), play).map_err(anyhow::Error::msg)?;
    let genome = o.ga.genome_kind();
    let cfg = SearchGamesConfig {
        genome,
        ga: o.ga.settings(FALCON_DEFAULTS, None)?,
        seed_with_defaults: o.seed_defaults,
        verify_pairs: o.verify_pairs.unwrap_or(VERIFY_PAIRS),
        out_dir: o.out.clone(),
        resume: o.job.resume,
        progress: !o.job.quiet,
    };
    let mut folder = o.job.claim(o.out)?;
    let executor = o
        .executor
        .start(|store| Ok(SearchGamesSpec::store(&fitness, genome, store)?.tagged()))?;
    println!("fitness on        {}", executor.describe());
    let report = run_search_games(&cfg, &fitness, &executor).map_err(anyhow::Error::msg)?;
    folder.report(&render_games_report(&report));
    print_output_paths(&report.params_path, &report.log_path, &report.chart_path);
    folder.finish(o.ga.seed)
}
