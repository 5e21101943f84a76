//! `kestrel evolve coevolve`: the best organisms of several runs (params files) seed a
//! population that evolves by round-robin game results; the winner is then measured against
//! each parent.

use super::executor_options::ExecutorOptions;
use super::ga_options::{GaArgs, GaDefaults, GenomeArg};
use super::job_options::JobOptions;
use anyhow::{Context, bail};
use clap::Args;
use kestrel_evolve::cluster::FitnessSpec;
use kestrel_evolve::coevolve::remote::CoevolveRemoteSpec;
use kestrel_evolve::coevolve::{CoevolveFitness, parents_space, player};
use kestrel_evolve::ga::{GaRun, GenerationView, RealGenome, render_log_csv, write_chart};
use kestrel_evolve::mentor::organism::{Organism, with_fields};
use kestrel_evolve::mentor::run::ParamSet;
use kestrel_params::{ParamValues, ParamsFile};
use kestrel_tools::{
    GameSettings, Limit, MatchSettings, load_openings, run_match, sample_openings,
};
use std::ops::ControlFlow;
use std::path::PathBuf;

/// A small population of strong organisms: games are expensive.
const COEVOLVE_DEFAULTS: GaDefaults = GaDefaults {
    population: 8,
    generations: 10,
    bits_crossover_rate: 0.75,
    bits_mutation_rate: 0.005,
};

/// Arguments of `kestrel evolve coevolve`.
#[derive(Args)]
pub struct CoevolveArgs {
    /// The parents: params files of the best organisms of earlier runs (comma-separated).
    #[arg(long, value_delimiter = ',', required = true, value_name = "FILES")]
    pub parents: Vec<PathBuf>,
    /// Nodes per move in the population's games.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Openings per pairing and generation (each played with both colours).
    #[arg(long, default_value_t = 1)]
    pub openings_per_pair: usize,
    /// Opening pool (EPD or PGN).
    #[arg(long, default_value = "../shared/data/openings/8moves_v3.pgn.gz")]
    pub openings: PathBuf,
    /// How far (share of each value's range) generation 0 may reach beyond the parents' box.
    #[arg(long, default_value_t = 0.05)]
    pub margin: f64,
    /// After evolution: games of the winner against each parent (0: none).
    #[arg(long, default_value_t = 0)]
    pub measure_games: usize,
    /// Nodes per move in those games.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub measure_nodes: u64,
    #[command(flatten)]
    pub ga: GaArgs,
    /// Output folder: best.toml, log.csv, evolution.svg, checkpoint.json.
    #[arg(long, default_value = "evolve-coevolve-out")]
    pub out: PathBuf,
    #[command(flatten)]
    pub job: JobOptions,
    #[command(flatten)]
    pub executor: ExecutorOptions,
}

/// Runs `kestrel evolve coevolve`.
pub fn run(a: CoevolveArgs) -> anyhow::Result<()> {
    let threads = a.job.start_threads()?;
    if a.parents.len() < 2 {
        bail!("--parents needs at least two params files");
    }
    if a.nodes == 0 || a.openings_per_pair == 0 {
        bail!("--nodes and --openings-per-pair must be at least 1");
    }
    let parents: Vec<ParamValues> = a
        .parents
        .iter()
        .map(|p| Ok(kestrel_search::EngineParams::load(p, "--parents")?.eval))
        .collect::<anyhow::Result<_>>()?;
    let pool = load_openings(&a.openings)?;
    let mut ga_args = a.ga.clone();
    ga_args.genome = GenomeArg::Real;
    let settings = ga_args.settings(COEVOLVE_DEFAULTS, None)?;
    let schema = ParamSet::Compact.schema(ga_args.coding());
    let fitness = CoevolveFitness {
        schema: schema.clone(),
        openings: pool.clone(),
        openings_per_pair: a.openings_per_pair,
        nodes: a.nodes,
    };
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    let space = parents_space(&schema, &parents, a.margin);
    let log_path = a.out.join("log.csv");
    let executor = a.executor.start(|store| {
        let set = ParamSet::Compact;
        Ok(CoevolveRemoteSpec::store(&fitness, set, ga_args.coding(), store)?.tagged())
    })?;
    println!("fitness on        {}", executor.describe());
    let run = GaRun {
        settings,
        space: &space,
        fitness: &fitness,
        executor: &executor,
        checkpoint: Some(a.out.join("checkpoint.json")),
        resume: a.job.resume,
    };
    let start = std::time::Instant::now();
    let mut log_error = None;
    let outcome = run
        .run(&mut |v: &GenerationView<RealGenome>| {
            if !a.job.quiet {
                eprintln!(
                    "generation {}: best {:.1}%, mean {:.1}%",
                    v.stats.generation, v.stats.best_objective, v.stats.mean_objective
                );
            }
            if let Err(e) = kestrel_params::atomic::write_atomic(
                &log_path,
                render_log_csv(v.history).as_bytes(),
            ) {
                log_error = Some(e);
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        })
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(e) = log_error {
        bail!("cannot write {}: {e}", log_path.display());
    }
    write_chart(
        &a.out.join("evolution.svg"),
        &outcome.history,
        "round-robin score (%)",
    )
    .map_err(anyhow::Error::msg)?;
    let best_genome = &outcome.population[outcome.best_index()];
    let best = with_fields(
        &schema,
        &ParamValues::zeros(&kestrel_eval::EVAL_TABLE),
        &best_genome.field_values(&schema),
    );
    let best_path = a.out.join("best.toml");
    ParamsFile::save(&best_path, &[&best])
        .with_context(|| format!("cannot write {}", best_path.display()))?;
    println!(
        "coevolution       {} generations in {:.1} s ({:?}); best organism {}",
        outcome.history.len(),
        start.elapsed().as_secs_f64(),
        outcome.stop,
        best_path.display()
    );
    if a.measure_games > 0 {
        let openings = sample_openings(&pool, a.measure_games.div_ceil(2), a.ga.seed);
        let settings = MatchSettings {
            games: a.measure_games,
            concurrency: threads,
            game: GameSettings::new(Limit::Nodes(a.measure_nodes)),
            sprt: None,
        };
        let winner = player("Coevolved", best);
        for (path, values) in a.parents.iter().zip(parents) {
            let parent = player(&path.display().to_string(), values);
            let r = run_match(&winner, &parent, &openings, &settings, &|_| {});
            let s = r.wdl.summary();
            println!(
                "vs {:<40} W {} D {} L {}  {:.1}%  {:+.0} [{:+.0}, {:+.0}] Elo",
                path.display(),
                r.wdl.wins,
                r.wdl.draws,
                r.wdl.losses,
                100.0 * s.score,
                s.elo,
                s.ci_low,
                s.ci_high
            );
        }
    }
    Ok(())
}
