//! `kestrel evolve tournament`: the teaching engine's tournament GA (round robins of ten
//! evaluation functions at 2 plies, best five kept, five bred), resumable, seeded.

use super::executor_options::ExecutorOptions;
use super::job_options::JobOptions;
use super::run_folder::say;
use crate::commands::checked;
use anyhow::bail;
use clap::{Args, ValueEnum};
use kestrel_evolve::tournament::{
    Organism, RoundRobinFitness, RoundRobinRemoteSpec, TournamentConfig, TournamentSpec, Variant,
    bench_round_robin, book_openings, opening_fens, run_tournament, teaching_params_file,
};
use kestrel_ga::cluster::{FitnessExecutor, FitnessSpec};
use kestrel_tools::book::Book;
use kestrel_tools::{load_openings, sample_openings};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
enum VariantArg {
    /// The best half kept as it is.
    Preservation,
    /// The best kept, the other survivors mutated.
    Mutation,
}

#[derive(Clone, Copy, ValueEnum)]
enum ParamsArg {
    /// The page's hand-set weights (this is `params/teaching.toml`).
    Page,
    /// Kestrel's tuned middle-game values of the same terms.
    KestrelTuned,
}

/// Options of `kestrel evolve tournament`.
#[derive(Args)]
pub struct TournamentArgs {
    /// Which organisms survive a generation: `preservation` keeps the best half as it is,
    /// `mutation` mutates all but the best.
    #[arg(long, value_enum, default_value = "preservation")]
    variant: VariantArg,
    /// Organisms per round robin; the best half survives.
    #[arg(long, default_value_t = 10, value_parser = checked::positive)]
    population: usize,
    /// Generations (one round robin each; `--iterations` is the teaching page's name).
    #[arg(long, alias = "iterations", default_value_t = 10, value_parser = checked::positive_u64)]
    generations: u64,
    /// Genes are integers 0..=MAX.
    #[arg(long, default_value_t = 5, value_name = "MAX")]
    gene_max: i32,
    /// Per-gene probability of a ±1 step when mutating.
    #[arg(long, default_value_t = 0.2, value_parser = checked::probability)]
    mutation_rate: f64,
    /// Search depth in plies (quiescence follows).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(i32).range(1..))]
    depth: i32,
    /// Full moves before a game is cut and judged by both sides' evaluations.
    #[arg(long, default_value_t = 50, value_parser = checked::positive)]
    max_moves: usize,
    /// At the cut, a side wins only if both evaluations see it ahead by more than CP.
    #[arg(long, default_value_t = 0, value_name = "CP")]
    margin: i32,
    /// Openings (PGN/EPD, e.g. 8moves_v3.pgn.gz); default: lines from the built-in book.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Opening positions to draw from.
    #[arg(long, default_value_t = 200, value_parser = checked::positive)]
    opening_count: usize,
    /// Random seed (organisms, openings, mutations).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output folder: best.toml, random.toml, log.csv, evolution.svg, checkpoint.json.
    #[arg(long, default_value = "evolve-tournament-out", value_parser = checked::writable_dir)]
    out: PathBuf,
    /// Print a teaching-engine params file and exit (default: off).
    #[arg(long, value_enum, value_name = "WHICH")]
    print_params: Option<ParamsArg>,
    /// Benchmark: one round robin of random organisms on 1 thread and on all; games/s.
    #[arg(long)]
    bench: bool,
    #[command(flatten)]
    job: JobOptions,
    #[command(flatten)]
    executor: ExecutorOptions,
}

/// Runs `kestrel evolve tournament`.
pub fn run(a: TournamentArgs) -> anyhow::Result<()> {
    if let Some(which) = a.print_params {
        let (organism, title) = match which {
            ParamsArg::Page => (
                Organism::page_default(),
                "the teaching engine's hand-set weights",
            ),
            ParamsArg::KestrelTuned => (Organism::kestrel_tuned(), "Kestrel's tuned weights"),
        };
        print!("{}", teaching_params_file(&organism, title));
        return Ok(());
    }
    let threads = a.job.start_threads()?;
    let fitness = RoundRobinFitness::build(spec(&a)?).map_err(anyhow::Error::msg)?;
    let config = TournamentConfig {
        variant: match a.variant {
            VariantArg::Preservation => Variant::Preservation,
            VariantArg::Mutation => Variant::Mutation,
        },
        population: a.population,
        iterations: a.generations,
        gene_max: a.gene_max,
        mutation_rate: a.mutation_rate,
        seed: a.seed,
        out: a.out.clone(),
        resume: a.job.resume,
    };
    if a.bench {
        return bench(&config, &fitness);
    }
    let mut folder = a.job.claim(&a.out)?;
    let quiet = a.job.quiet;
    let games = (a.population * a.population.saturating_sub(1)) as f64;
    let executor = a
        .executor
        .start(|store| Ok(RoundRobinRemoteSpec::store(fitness.spec(), store)?.tagged()))?;
    let outcome = run_tournament(&config, &fitness, &executor, &mut |s, best| {
        if !quiet {
            println!(
                "generation {:>3}: best {:.1} points ({:.0}%), mean {:.1}, diversity {:.2}, {:.1} games/s; best: {}",
                s.generation,
                s.best_fitness,
                100.0 * s.best_objective,
                s.mean_fitness,
                s.diversity,
                games / s.seconds.max(1e-9),
                best.describe()
            );
        }
    })
    .map_err(anyhow::Error::msg)?;
    say!(
        folder,
        "{} games in {:.1} s ({:.1} games/s, {}); best: {}",
        outcome.games_played,
        outcome.seconds,
        outcome.games_played as f64 / outcome.seconds.max(1e-9),
        match &executor {
            FitnessExecutor::InProcess => format!("{threads} threads"),
            ray => ray.describe(),
        },
        outcome.best.describe()
    );
    say!(
        folder,
        "wrote {}/best.toml (play it: kestrel match -a {}/best.toml ...)",
        a.out.display(),
        a.out.display()
    );
    folder.finish(a.seed)
}

fn spec(a: &TournamentArgs) -> anyhow::Result<TournamentSpec> {
    if a.opening_count == 0 {
        bail!("--opening-count must be at least 1");
    }
    let openings = match &a.openings {
        Some(path) => opening_fens(&sample_openings(
            &load_openings(path)?,
            a.opening_count,
            a.seed,
        )),
        None => book_openings(&Book::builtin(), a.opening_count, 8, a.seed),
    };
    Ok(TournamentSpec {
        depth: a.depth,
        max_moves: a.max_moves,
        margin_cp: a.margin,
        openings,
    })
}

/// Games per second of one round robin on one thread and on all `threads` (same games).
fn bench(config: &TournamentConfig, fitness: &RoundRobinFitness) -> anyhow::Result<()> {
    let runs = bench_round_robin(fitness, config.population, config.gene_max, config.seed)
        .map_err(anyhow::Error::msg)?;
    for r in &runs {
        println!(
            "{:>2} thread(s): {} games in {:.2} s = {:.1} games/s",
            r.threads,
            r.games,
            r.seconds,
            r.games_per_second()
        );
    }
    if runs[0].points != runs[1].points {
        bail!(
            "the round robin differs between thread counts: {:?} vs {:?}",
            runs[0].points,
            runs[1].points
        );
    }
    println!("same points on both: {:?}", runs[0].points);
    Ok(())
}
