//! `kestrel evolve coevolve`: the best organisms of several runs (params files) and their
//! children form a population that evolves by round-robin game results; a playoff between the
//! parents and the best offspring picks the result, which is then measured against each parent.

use super::executor_options::ExecutorOptions;
use super::ga_options::{GaArgs, GaDefaults, GenomeArg};
use super::job_options::JobOptions;
use super::run_folder::say;
use crate::commands::checked;
use anyhow::{Context, bail};
use clap::Args;
use kestrel_evolve::coevolve::remote::CoevolveRemoteSpec;
use kestrel_evolve::coevolve::{
    CoevolveFitness, challengers, parent_genome, parents_space, player, playoff, seeded_population,
};
use kestrel_evolve::mentor::organism::{Organism, with_fields};
use kestrel_evolve::mentor::run::ParamSet;
use kestrel_ga::cluster::FitnessSpec;
use kestrel_ga::{GaOutcome, GaRun, GenerationView, RealGenome, render_log_csv, write_chart};
use kestrel_params::{ParamValues, ParamsFile};
use kestrel_tools::{
    EngineSpec, GameSettings, Limit, MatchSettings, Opening, Termination, load_openings, run_match,
    sample_openings,
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
    #[arg(long, default_value_t = 1, value_parser = checked::positive)]
    pub openings_per_pair: usize,
    /// Opening pool (EPD or PGN).
    #[arg(long, default_value = kestrel_tools::data::DEFAULT_OPENINGS)]
    pub openings: PathBuf,
    /// How far (share of each value's range) generation 0 may reach beyond the parents' box.
    #[arg(long, default_value_t = 0.05, value_parser = checked::non_negative_f64)]
    pub margin: f64,
    /// Offspring of the last generation (best round-robin score first) that join the parents
    /// in the final playoff.
    #[arg(long, default_value_t = 3, value_parser = checked::positive)]
    pub finalists: usize,
    /// Openings per pairing in the playoff (each played with both colours).
    #[arg(long, default_value_t = 4, value_parser = checked::positive)]
    pub playoff_openings: usize,
    /// Nodes per move in the playoff.
    #[arg(long, default_value_t = 5000, value_parser = checked::positive_u64)]
    pub playoff_nodes: u64,
    /// After the playoff: games of the winner against each other parent (0: none).
    #[arg(long, default_value_t = 0)]
    pub measure_games: usize,
    /// Nodes per move in those games.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub measure_nodes: u64,
    #[command(flatten)]
    pub ga: GaArgs,
    /// Output folder: best.toml, log.csv, evolution.svg, checkpoint.json.
    #[arg(long, default_value = "evolve-coevolve-out", value_parser = checked::writable_dir)]
    pub out: PathBuf,
    #[command(flatten)]
    pub job: JobOptions,
    #[command(flatten)]
    pub executor: ExecutorOptions,
}

/// Runs `kestrel evolve coevolve`.
pub fn run(a: CoevolveArgs) -> anyhow::Result<()> {
    let parents: Vec<_> = a.parents.iter().map(|p| p.display()).collect();
    checked::distinct("--parents", &parents)?;
    let threads = a.job.start_threads()?;
    if a.parents.len() < 2 {
        bail!("--parents needs at least two params files");
    }
    if a.nodes == 0 || a.openings_per_pair == 0 || a.playoff_nodes == 0 || a.playoff_openings == 0 {
        bail!(
            "--nodes, --openings-per-pair, --playoff-nodes and --playoff-openings must be at least 1"
        );
    }
    let parents: Vec<ParamValues> = a
        .parents
        .iter()
        .map(|p| Ok(kestrel_search::EngineParams::load(p, "--parents")?.eval))
        .collect::<anyhow::Result<_>>()?;
    let pool = load_openings(&a.openings)?;
    let mut ga_args = a.ga.clone();
    ga_args.genome = GenomeArg::Real;
    let mut settings = ga_args.settings(COEVOLVE_DEFAULTS, None)?;
    // The parents stay while they outscore their offspring.
    settings.elitism = settings.elitism.max(parents.len());
    if settings.population <= parents.len() {
        bail!(
            "--population must exceed the number of parents ({}) to leave room for offspring",
            parents.len()
        );
    }
    let schema = ParamSet::Compact.schema(ga_args.coding());
    let fitness = CoevolveFitness {
        schema: schema.clone(),
        openings: pool.clone(),
        openings_per_pair: a.openings_per_pair,
        nodes: a.nodes,
    };
    let mut folder = a.job.claim(&a.out)?;
    let space = parents_space(&schema, &parents, a.margin);
    let executor = a.executor.start(|store| {
        let set = ParamSet::Compact;
        Ok(CoevolveRemoteSpec::store(&fitness, set, ga_args.coding(), store)?.tagged())
    })?;
    println!("fitness on        {}", executor.describe());
    let parent_genomes: Vec<RealGenome> =
        parents.iter().map(|p| parent_genome(&schema, p)).collect();
    // Generation 0: the parents and their children.
    let generation_zero = seeded_population(&parent_genomes, &space, &settings);
    let run = GaRun {
        settings,
        space: &space,
        fitness: &fitness,
        executor: &executor,
        checkpoint: Some(a.out.join("checkpoint.json")),
        resume: a.job.resume,
        seed_population: Some(generation_zero),
    };
    let start = std::time::Instant::now();
    let outcome = evolve(&run, &a)?;
    println!(
        "coevolution       {} generations in {:.1} s ({:?})",
        outcome.history.len(),
        start.elapsed().as_secs_f64(),
        outcome.stop
    );
    let offspring = challengers(
        &schema,
        &parent_genomes,
        &outcome.population,
        &outcome.evaluations,
        a.finalists,
    );
    let (winner_name, best) = final_playoff(&a, &schema, &parents, &offspring, &pool)?;
    let best_path = a.out.join("best.toml");
    ParamsFile::save(&best_path, &[&best])
        .with_context(|| format!("cannot write {}", best_path.display()))?;
    say!(
        folder,
        "result            {winner_name} -> {}",
        best_path.display()
    );
    if a.measure_games > 0 {
        measure(&a, &pool, threads, &winner_name, best, &parents);
    }
    folder.finish(a.ga.seed)
}

/// The GA loop with the per-generation log and chart.
fn evolve(run: &GaRun<RealGenome>, a: &CoevolveArgs) -> anyhow::Result<GaOutcome<RealGenome>> {
    let log_path = a.out.join("log.csv");
    let mut log_error = None;
    let outcome = run
        .run(&mut |v: &GenerationView<RealGenome>| {
            if !a.job.quiet {
                eprintln!(
                    "generation {}: best {:.1}%, mean {:.1}%, scores {:?}",
                    v.stats.generation,
                    v.stats.best_objective,
                    v.stats.mean_objective,
                    v.evaluations
                        .iter()
                        .map(|e| e.objective.round())
                        .collect::<Vec<_>>()
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
    Ok(outcome)
}

/// The playoff between the parents (listed first, so a tie keeps a parent) and the offspring;
/// returns the winner's name and values.
fn final_playoff(
    a: &CoevolveArgs,
    schema: &kestrel_params::BitSchema,
    parents: &[ParamValues],
    offspring: &[RealGenome],
    pool: &[Opening],
) -> anyhow::Result<(String, ParamValues)> {
    let base = ParamValues::zeros(&kestrel_eval::EVAL_TABLE);
    let mut names: Vec<String> = a.parents.iter().map(|p| p.display().to_string()).collect();
    let mut values: Vec<ParamValues> = parents.to_vec();
    for (i, g) in offspring.iter().enumerate() {
        let name = format!("coevolved-{}", i + 1);
        let v = with_fields(schema, &base, &g.field_values(schema));
        // Every finalist is kept, so it can be measured against the result later.
        let path = a.out.join(format!("{name}.toml"));
        ParamsFile::save(&path, &[&v])
            .with_context(|| format!("cannot write {}", path.display()))?;
        names.push(name);
        values.push(v);
    }
    let engines: Vec<EngineSpec> = names
        .iter()
        .zip(&values)
        .map(|(n, v)| player(n, v.clone()))
        .collect();
    // Other openings than the evolution's (a different seed stream).
    let openings = sample_openings(pool, a.playoff_openings, a.ga.seed.wrapping_add(1_000_003));
    let start = std::time::Instant::now();
    let result = playoff(&engines, &openings, a.playoff_nodes);
    println!(
        "playoff           {} finalists, {} games each at {} nodes, {:.1} s",
        engines.len(),
        result.scores[0].games(),
        a.playoff_nodes,
        start.elapsed().as_secs_f64()
    );
    for (name, s) in names.iter().zip(&result.scores) {
        println!(
            "  {name:<40} W {} D {} L {}  {:.1}%",
            s.wins,
            s.draws,
            s.losses,
            100.0 * s.score()
        );
    }
    let w = result.winner;
    Ok((names[w].clone(), values[w].clone()))
}

/// The result against every parent it is not.
fn measure(
    a: &CoevolveArgs,
    pool: &[Opening],
    threads: usize,
    winner_name: &str,
    best: ParamValues,
    parents: &[ParamValues],
) {
    let openings = sample_openings(pool, a.measure_games.div_ceil(2), a.ga.seed);
    let settings = MatchSettings {
        games: a.measure_games,
        concurrency: threads,
        game: GameSettings::new(Limit::Nodes(a.measure_nodes)),
        sprt: None,
    };
    let winner = player("Coevolved", best.clone());
    for (path, values) in a.parents.iter().zip(parents) {
        if *values == best {
            println!(
                "vs {:<40} is the result itself ({winner_name})",
                path.display()
            );
            continue;
        }
        let parent = player(&path.display().to_string(), values.clone());
        let r = run_match(&winner, &parent, &openings, &settings, &|_| {});
        let s = r.wdl.summary();
        // Built-in engines cannot forfeit on time (fixed nodes); a crash would show here.
        let faults = r
            .games
            .iter()
            .filter(|g| matches!(g.termination, Termination::Fault(..)))
            .count();
        println!(
            "vs {:<40} W {} D {} L {}  {:.1}%  {:+.0} [{:+.0}, {:+.0}] Elo, {faults} faults",
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
