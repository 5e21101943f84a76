//! `kestrel evolve mnc`: Phoenix — evolve the 640 values of 10 piece-square tables from random
//! by multi-niche crowding, fitness = score in in-process games between the organisms; store
//! the final niche leaders in the chromosome database. `--algorithm generational` runs a plain
//! generational GA on the same tournament fitness (the comparison), and `--bench-games N`
//! measures fitness games per second.

use super::executor_options::ExecutorOptions;
use super::ga_options::CrossoverArg;
use super::job_options::JobOptions;
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use kestrel_chromodb::{ChromosomeDb, NewChromosome, NewRun};
use kestrel_evolve::mnc::remote::MncRemoteSpec;
use kestrel_evolve::mnc::store::{generational_leaders, mnc_leaders, params_text};
use kestrel_evolve::mnc::tables::{distance, kestrel_chromosome, pst_space};
use kestrel_evolve::mnc::{
    MncLine, MncRun, MncSettings, MncTermination, MoveBudget, SmallChange, TournamentFitness,
    TournamentSpec, render_mnc_csv,
};
use kestrel_ga::cluster::{FitnessExecutor, FitnessSpec};
use kestrel_ga::{
    Crossover, GaRun, GaSettings, GenerationStats, RealGenome, Selection, Termination, write_chart,
};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which GA evolves the tables.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum AlgorithmArg {
    /// Multi-niche crowding, steady state (Phoenix).
    Mnc,
    /// A plain generational GA (roulette, elitism 1) on the same fitness, for comparison.
    Generational,
}

#[derive(Args)]
pub struct MncArgs {
    #[arg(long, value_enum, default_value = "mnc")]
    algorithm: AlgorithmArg,
    /// Organisms in the population.
    #[arg(long, default_value_t = 20)]
    population: usize,
    /// Children bred per generation (MNC: inserted one at a time).
    #[arg(long, default_value_t = 10)]
    offspring: usize,
    /// C_s: candidates among which a parent's mate is the most similar.
    #[arg(long = "cs", default_value_t = 3)]
    selection_crowd: usize,
    /// C_f: crowding factor groups in the replacement.
    #[arg(long = "cf", default_value_t = 3)]
    replacement_groups: usize,
    /// s: individuals per crowding factor group.
    #[arg(long = "group-size", short = 's', default_value_t = 3)]
    group_size: usize,
    #[arg(long, value_enum, default_value = "uniform")]
    crossover: CrossoverArg,
    /// Alpha of blend crossover.
    #[arg(long, default_value_t = 0.5)]
    blend_alpha: f64,
    #[arg(long, default_value_t = 0.9)]
    crossover_rate: f64,
    /// Per-gene mutation probability.
    #[arg(long, default_value_t = 0.05)]
    mutation_rate: f64,
    /// Gaussian mutation step as a fraction of the value range (255).
    #[arg(long, default_value_t = 0.05)]
    sigma: f64,
    /// Niche radius: mean |difference| of table values in centipawns.
    #[arg(long, default_value_t = 30.0)]
    niche_radius: f64,
    /// Initial genes uniform in [-R, R] cp instead of the whole table range (MNC only).
    #[arg(long, value_name = "R")]
    init_range: Option<f64>,
    /// Stop after this many generations.
    #[arg(long, default_value_t = 1000)]
    generations: u64,
    /// Stop when the best organism is the same for this many generations (0: never).
    #[arg(long, default_value_t = 10)]
    best_unchanged: u64,
    /// Stop when the best changes less than this percent of the value range ...
    #[arg(long, default_value_t = 1.0)]
    small_change_percent: f64,
    /// ... for this many generations in a row (0: never).
    #[arg(long, default_value_t = 20)]
    small_change_generations: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Opening book for the fitness games (EPD or PGN, optionally gzipped).
    #[arg(long, default_value = "../shared/data/openings/8moves_v3.pgn.gz")]
    openings: PathBuf,
    /// Random pairings per generation; each pair plays an opening with both colours.
    #[arg(long, default_value_t = 2)]
    rounds: usize,
    /// Nodes per move in the fitness games.
    #[arg(long, default_value_t = 2000, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Fixed depth per move instead of nodes.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..))]
    depth: Option<i32>,
    /// Full moves after which a game is drawn.
    #[arg(long, default_value_t = 100)]
    max_moves: usize,
    /// Resign when both engines see this many centipawns for `--resign-moves` moves each.
    #[arg(long, default_value_t = 1500)]
    resign_cp: i32,
    #[arg(long, default_value_t = 4)]
    resign_moves: usize,
    /// Output folder: best.toml, niche-K.toml, log.csv, evolution.svg, checkpoint.json.
    #[arg(long, default_value = "evolve-mnc-out")]
    out: PathBuf,
    /// Chromosome database the final niche leaders are added to.
    #[arg(long, default_value = "chromosomes.sqlite")]
    db: PathBuf,
    /// Instead of evolving: play this many fitness games between random organisms on one
    /// thread and on all threads, and print games per second.
    #[arg(long, value_name = "N")]
    bench_games: Option<usize>,
    /// Instead of evolving: write OUT/kestrel-tables.toml and OUT/random-tables.toml.
    #[arg(long)]
    write_references: bool,
    #[command(flatten)]
    job: JobOptions,
    #[command(flatten)]
    executor: ExecutorOptions,
}

impl MncArgs {
    fn spec(&self) -> TournamentSpec {
        TournamentSpec {
            openings: self.openings.clone(),
            rounds: self.rounds,
            budget: match self.depth {
                Some(d) => MoveBudget::Depth(d),
                None => MoveBudget::Nodes(self.nodes),
            },
            max_moves: self.max_moves,
            resign_cp: self.resign_cp,
            resign_moves: self.resign_moves,
            hash_mb: 1,
        }
    }

    fn crossover(&self) -> Crossover {
        match self.crossover {
            CrossoverArg::Single => Crossover::SinglePoint,
            CrossoverArg::Uniform => Crossover::Uniform,
            CrossoverArg::Blend => Crossover::Blend {
                alpha: self.blend_alpha,
            },
        }
    }

    fn settings(&self) -> MncSettings {
        MncSettings {
            population: self.population,
            offspring: self.offspring,
            selection_crowd: self.selection_crowd,
            replacement_groups: self.replacement_groups,
            group_size: self.group_size,
            crossover: self.crossover(),
            crossover_rate: self.crossover_rate,
            mutation_rate: self.mutation_rate,
            mutation_sigma: self.sigma,
            niche_radius: self.niche_radius,
            init_range: self.init_range,
            termination: MncTermination {
                generations: self.generations,
                best_unchanged: (self.best_unchanged > 0).then_some(self.best_unchanged),
                small_change: (self.small_change_generations > 0).then_some(SmallChange {
                    percent: self.small_change_percent,
                    generations: self.small_change_generations,
                }),
            },
            seed: self.seed,
        }
    }
}

pub fn run(args: MncArgs) -> anyhow::Result<()> {
    let threads = args.job.start_threads()?;
    let fitness = TournamentFitness::build(args.spec()).map_err(anyhow::Error::msg)?;
    if let Some(games) = args.bench_games {
        return bench(&fitness, games, threads);
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    if args.write_references {
        return write_references(&args.out, args.seed);
    }
    let executor = args
        .executor
        .start(|store| Ok(MncRemoteSpec::store(&fitness, store)?.tagged()))?;
    println!("fitness on        {}", executor.describe());
    match args.algorithm {
        AlgorithmArg::Mnc => run_mnc(&args, &fitness, &executor),
        AlgorithmArg::Generational => run_generational(&args, &fitness, &executor),
    }
}

fn run_mnc(
    args: &MncArgs,
    fitness: &TournamentFitness,
    executor: &FitnessExecutor,
) -> anyhow::Result<()> {
    let settings = args.settings();
    let run = MncRun {
        settings: settings.clone(),
        fitness,
        executor,
        checkpoint: Some(args.out.join("checkpoint.json")),
        resume: args.job.resume,
    };
    let quiet = args.job.quiet;
    let log_path = args.out.join("log.csv");
    let outcome = run
        .run(&mut |line: &MncLine, _| {
            if !quiet {
                eprintln!(
                    "gen {:>4}  best #{:<5} score {:.3} (lifetime {:.3})  niches {:>2}  \
                     best-to-Kestrel {:>5.1} cp  {} games {:.1} s",
                    line.generation,
                    line.best_id,
                    line.best_score,
                    line.best_lifetime,
                    line.niches,
                    line.best_to_kestrel_cp,
                    line.games,
                    line.seconds
                );
            }
            ControlFlow::Continue(())
        })
        .map_err(anyhow::Error::msg)?;
    let history = &outcome.state.history;
    kestrel_params::atomic::write_atomic(&log_path, render_mnc_csv(history).as_bytes())?;
    write_chart(
        &args.out.join("evolution.svg"),
        &chart_lines(history),
        "distance to Kestrel's tables (cp)",
    )
    .map_err(anyhow::Error::msg)?;
    let leaders = mnc_leaders(&outcome.state, &outcome.population, &outcome.niches);
    write_leaders(&args.out, &leaders)?;
    let db_run = NewRun {
        kind: "mnc".into(),
        seed: settings.seed,
        settings_json: settings_json(&settings, &fitness.spec),
        generations: history.len() as u64,
        games: outcome.state.games,
        stop_reason: outcome.stop.name().into(),
    };
    let ids = store(&args.db, &db_run, &leaders)?;
    println!(
        "evolution         {} generations, {} games ({})",
        history.len(),
        outcome.state.games,
        outcome.stop.name()
    );
    print_leaders(&leaders, &ids, &outcome.population.len());
    println!("database          {} (run stored)", args.db.display());
    println!(
        "params, log       {}, {}",
        args.out.join("best.toml").display(),
        log_path.display()
    );
    Ok(())
}

fn run_generational(
    args: &MncArgs,
    fitness: &TournamentFitness,
    executor: &FitnessExecutor,
) -> anyhow::Result<()> {
    if args.init_range.is_some() {
        bail!("--init-range is for --algorithm mnc only (the core GA starts from the whole range)");
    }
    let mnc = args.settings();
    let settings = GaSettings {
        population: mnc.population,
        crossover_rate: mnc.crossover_rate,
        crossover: mnc.crossover,
        mutation_rate: mnc.mutation_rate,
        selection: Selection::Roulette,
        elitism: 1,
        termination: Termination {
            generations: mnc.termination.generations,
            fitness_threshold: None,
            stall_generations: None,
        },
        seed: mnc.seed,
        mutation_step: None,
    };
    let space = pst_space(mnc.mutation_sigma);
    let run = GaRun::<RealGenome> {
        settings: settings.clone(),
        space: &space,
        fitness,
        executor,
        checkpoint: Some(args.out.join("checkpoint.json")),
        resume: args.job.resume,
        seed_population: None,
    };
    let quiet = args.job.quiet;
    let outcome = run
        .run(&mut |v| {
            if !quiet {
                eprintln!(
                    "gen {:>4}  best score {:.3}  {:.1} s",
                    v.stats.generation, v.stats.best_fitness, v.stats.seconds
                );
            }
            ControlFlow::Continue(())
        })
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    kestrel_params::atomic::write_atomic(
        &args.out.join("log.csv"),
        kestrel_ga::render_log_csv(&outcome.history).as_bytes(),
    )?;
    let scores: Vec<f64> = outcome.evaluations.iter().map(|e| e.fitness).collect();
    let generations = outcome.history.len() as u64;
    let leaders = generational_leaders(&outcome.population, &scores, mnc.niche_radius, generations);
    write_leaders(&args.out, &leaders)?;
    // Every generation plays one tournament of the whole population: n * 2 * rounds games.
    let games = generations * (mnc.population as u64 * fitness.spec.rounds as u64);
    let db_run = NewRun {
        kind: "generational".into(),
        seed: mnc.seed,
        settings_json: settings_json(&mnc, &fitness.spec),
        generations,
        games,
        stop_reason: format!("{:?}", outcome.stop).to_lowercase(),
    };
    let ids = store(&args.db, &db_run, &leaders)?;
    println!("evolution         {generations} generations, about {games} games (generational)");
    print_leaders(&leaders, &ids, &mnc.population);
    println!("database          {}", args.db.display());
    Ok(())
}

/// The chart's two lines: the best organism's and the population's mean distance to Kestrel's
/// tuned tables (an outside yardstick; tournament scores are relative).
fn chart_lines(history: &[MncLine]) -> Vec<GenerationStats> {
    history
        .iter()
        .map(|l| GenerationStats {
            generation: l.generation,
            best_objective: l.best_to_kestrel_cp,
            mean_objective: l.mean_to_kestrel_cp,
            best_fitness: l.best_score,
            mean_fitness: 0.5,
            diversity: l.diversity,
            seconds: l.seconds,
        })
        .collect()
}

fn settings_json(settings: &MncSettings, spec: &TournamentSpec) -> String {
    serde_json::json!({ "mnc": settings, "games": spec }).to_string()
}

/// best.toml (niche 1) and niche-K.toml for every leader.
fn write_leaders(out: &Path, leaders: &[NewChromosome]) -> anyhow::Result<()> {
    for c in leaders {
        let path = out.join(format!("niche-{}.toml", c.niche));
        kestrel_params::atomic::write_atomic(&path, c.params.as_bytes())?;
        if c.niche == 1 {
            kestrel_params::atomic::write_atomic(&out.join("best.toml"), c.params.as_bytes())?;
        }
    }
    Ok(())
}

fn store(db: &Path, run: &NewRun, leaders: &[NewChromosome]) -> anyhow::Result<Vec<i64>> {
    let mut db = ChromosomeDb::create_or_open(db)?;
    Ok(db.add_run(run, leaders)?.1)
}

fn print_leaders(leaders: &[NewChromosome], ids: &[i64], population: &usize) {
    let kestrel = kestrel_chromosome();
    println!(
        "niches            {} distinct in a population of {population}",
        leaders.len()
    );
    for (c, id) in leaders.iter().zip(ids) {
        let genome: RealGenome =
            serde_json::from_str(&c.genes_json).expect("genes were written as JSON");
        println!(
            "  niche {:>2}: {:>2} organisms, leader #{} (db id {id}) fitness {:.3}, \
             {:.1} cp from Kestrel's tables",
            c.niche,
            c.niche_size,
            c.organism,
            c.fitness,
            distance(&genome, &kestrel)
        );
    }
}

/// Games per second of the fitness games, one thread against the whole pool.
fn bench(fitness: &TournamentFitness, games: usize, threads: usize) -> anyhow::Result<()> {
    if games < 2 {
        bail!("--bench-games needs at least 2 games");
    }
    // A population that plays `games` games in one round: games / 2 pairs.
    let players = games.div_ceil(2) * 2 / fitness.spec.rounds.max(1);
    let players = players.max(2);
    let space = pst_space(0.05);
    let mut rng = kestrel_ga::stream_rng(1, 0, kestrel_ga::Purpose::Init);
    let genomes: Vec<RealGenome> = (0..players)
        .map(|_| <RealGenome as kestrel_ga::Genome>::random(&space, &mut rng))
        .collect();
    let time = |pool_threads: usize| -> anyhow::Result<(u64, f64)> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(pool_threads)
            .build()?;
        let started = Instant::now();
        let (tallies, _) = pool.install(|| fitness.play(7, &genomes));
        let played: u64 = tallies.iter().map(|t| t.games).sum::<u64>() / 2;
        Ok((played, started.elapsed().as_secs_f64()))
    };
    let (n1, t1) = time(1)?;
    println!(
        "1 thread          {n1} games in {t1:.2} s: {:.2} games/s",
        n1 as f64 / t1
    );
    if threads > 1 {
        let (n, t) = time(threads)?;
        println!(
            "{threads} threads         {n} games in {t:.2} s: {:.2} games/s ({:.2}x)",
            n as f64 / t,
            t1 / t
        );
    }
    Ok(())
}

/// OUT/kestrel-tables.toml (Kestrel's tuned tables in the organism's term set) and
/// OUT/random-tables.toml (a random organism, by `--seed`): the measurement references.
fn write_references(out: &Path, seed: u64) -> anyhow::Result<()> {
    let space = pst_space(0.05);
    let mut rng = kestrel_ga::stream_rng(seed, 0, kestrel_ga::Purpose::Init);
    let random = <RealGenome as kestrel_ga::Genome>::random(&space, &mut rng);
    for (name, genome) in [
        ("kestrel-tables.toml", kestrel_chromosome()),
        ("random-tables.toml", random),
    ] {
        let path = out.join(name);
        kestrel_params::atomic::write_atomic(&path, params_text(&genome).as_bytes())?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
