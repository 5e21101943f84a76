//! `kestrel evolve search`: Falcon's search GA. Evolves search parameters (`FALCON_SET` by
//! default) by the nodes the search needs to solve a tactical suite; with `--compare` it
//! instead prints params files side by side on the test suite (solved count, total nodes).

use super::executor_options::ExecutorOptions;
use super::ga_options::{GaArgs, GaDefaults};
use super::job_options::JobOptions;
use anyhow::bail;
use clap::Args;
use kestrel_evolve::search::compare::{compare_sets, render_comparison};
use kestrel_evolve::search::fitness::{Objective, SearchFitnessSpec};
use kestrel_evolve::search::run::{SearchRunConfig, run_search_ga};
use kestrel_evolve::search::solve::CostRule;
use kestrel_evolve::search::suite::{parse_positions, read_suites, split};
use kestrel_params::ParamValues;
use kestrel_search::{FALCON_SET, SEARCH_TABLE};
use std::path::{Path, PathBuf};

/// Falcon's settings (David, Koppel & Netanyahu 2010): population 10, 50 generations,
/// crossover 0.75, mutation 0.05 per bit.
const FALCON_DEFAULTS: GaDefaults = GaDefaults {
    population: 10,
    generations: 50,
    bits_crossover_rate: 0.75,
    bits_mutation_rate: 0.05,
};

#[derive(Args)]
pub struct SearchGaArgs {
    /// Suite(s) split into train and test by --seed (EPD with bm/am); default WAC revised.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["train"])]
    suite: Vec<PathBuf>,
    /// Training suite(s) instead of a split.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    train: Vec<PathBuf>,
    /// Held-out suite(s) with --train (none: no test report).
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "train")]
    test: Vec<PathBuf>,
    /// Share of a --suite held out for testing.
    #[arg(long, default_value_t = 0.5)]
    test_fraction: f64,
    /// Use at most this many training positions (the first ones after the split).
    #[arg(long, value_name = "N")]
    train_size: Option<usize>,
    /// Which parameters evolve: `falcon` (18, 70 bits), `all` (SEARCH_TABLE) or NAME,NAME,...
    #[arg(long, default_value = "falcon")]
    set: String,
    /// Nodes per position at most.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    node_cap: u64,
    /// Extra cost of an unsolved position [default: the node cap, so it costs twice the cap].
    #[arg(long)]
    penalty: Option<u64>,
    /// Hash table per search, MB (cleared before every position).
    #[arg(long, default_value_t = 4)]
    hash: usize,
    /// Put the default values in the first generation (the rest random).
    #[arg(long)]
    seed_defaults: bool,
    /// What the GA minimises: total cost (the paper) or the geometric mean cost per position.
    #[arg(long, value_enum, default_value = "sum")]
    objective: ObjectiveArg,
    /// Compare these params files (or `default`) on the test suite instead of evolving.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    compare: Vec<String>,
    #[command(flatten)]
    ga: GaArgs,
    /// Output folder: best.toml, random.toml, log.csv, evolution.svg, checkpoint.json, memo.json.
    #[arg(long, default_value = "evolve-search-out")]
    out: PathBuf,
    #[command(flatten)]
    job: JobOptions,
    #[command(flatten)]
    executor: ExecutorOptions,
}

/// `--objective` on the command line.
#[derive(Clone, Copy, clap::ValueEnum)]
enum ObjectiveArg {
    Sum,
    Log,
}

const DEFAULT_SUITE: &str = "../shared/data/epd/wac-revised.epd";

fn set_names(set: &str) -> Vec<String> {
    match set {
        "falcon" => FALCON_SET.iter().map(|s| s.to_string()).collect(),
        "all" => SEARCH_TABLE
            .decls
            .iter()
            .map(|d| d.name.to_string())
            .collect(),
        list => list.split(',').map(|s| s.trim().to_string()).collect(),
    }
}

fn lines_of(paths: &[PathBuf]) -> anyhow::Result<Vec<String>> {
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let suites = read_suites(&refs).map_err(anyhow::Error::msg)?;
    for s in &suites.skipped {
        eprintln!("skipped: {s}");
    }
    Ok(suites.lines)
}

/// (train, test) EPD lines.
fn suites(a: &SearchGaArgs) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let (mut train, test) = if !a.train.is_empty() {
        let test = if a.test.is_empty() {
            Vec::new()
        } else {
            lines_of(&a.test)?
        };
        (lines_of(&a.train)?, test)
    } else {
        if !(0.0..1.0).contains(&a.test_fraction) {
            bail!("--test-fraction must be within [0, 1)");
        }
        let files = if a.suite.is_empty() {
            vec![PathBuf::from(DEFAULT_SUITE)]
        } else {
            a.suite.clone()
        };
        split(&lines_of(&files)?, a.test_fraction, a.ga.seed)
    };
    if let Some(n) = a.train_size {
        if n == 0 {
            bail!("--train-size must be at least 1");
        }
        train.truncate(n);
    }
    Ok((train, test))
}

fn load_search_params(name: &str) -> anyhow::Result<ParamValues> {
    if name == "default" {
        return Ok(ParamValues::defaults(&SEARCH_TABLE));
    }
    let params = kestrel_search::EngineParams::load(Path::new(name), "--compare")?;
    if params.has("eval") {
        eprintln!(
            "note: --compare {name}: its [eval] section is not used (search parameters only)"
        );
    }
    Ok(params.search)
}

pub fn run(a: SearchGaArgs) -> anyhow::Result<()> {
    a.job.start_threads()?;
    if a.node_cap == 0 {
        bail!("--node-cap must be at least 1");
    }
    let rule = CostRule {
        node_cap: a.node_cap,
        penalty: a.penalty.unwrap_or(a.node_cap),
    };
    let (train, test) = suites(&a)?;
    if !a.compare.is_empty() {
        return run_compare(&a, rule, if test.is_empty() { &train } else { &test });
    }
    let spec = SearchFitnessSpec {
        train,
        set: set_names(&a.set),
        coding: a.ga.coding(),
        rule,
        hash_mb: a.hash.max(1),
        objective: match a.objective {
            ObjectiveArg::Sum => Objective::Sum,
            ObjectiveArg::Log => Objective::LogMean,
        },
    };
    let cfg = SearchRunConfig {
        spec,
        test,
        genome: a.ga.genome_kind(),
        ga: a.ga.settings(FALCON_DEFAULTS, None)?,
        seed_with_defaults: a.seed_defaults,
        out_dir: a.out.clone(),
        resume: a.job.resume,
        progress: !a.job.quiet,
        ray: a.executor.ray()?,
    };
    let r = run_search_ga(&cfg).map_err(anyhow::Error::msg)?;
    println!("fitness on        {}", r.executor);
    println!(
        "positions         {} train, {} test; node cap {} + penalty {}",
        r.train_positions, r.test_positions, rule.node_cap, rule.penalty
    );
    println!(
        "evolution         {} generations in {:.1} s ({:?}); {} organisms searched, {} from the memo",
        r.generations, r.ga_seconds, r.stop, r.stats.searched_organisms, r.stats.memo_hits
    );
    println!(
        "fitness speed     {} nodes in {:.1} s = {:.0} nodes/s (all threads)",
        r.stats.nodes,
        r.ga_seconds,
        r.stats.nodes as f64 / r.ga_seconds.max(1e-9)
    );
    println!(
        "{:<10} {:>12} {:>14} {:>12} {:>14}   values",
        "params", "train solved", "train cost", "test solved", "test cost"
    );
    for row in &r.rows {
        let (ts, tc) = row.test.map_or(("-".into(), "-".into()), |t| {
            (
                format!("{}/{}", t.solved, r.test_positions),
                t.cost.to_string(),
            )
        });
        println!(
            "{:<10} {:>12} {:>14} {:>12} {:>14}   {:?}",
            row.label,
            format!("{}/{}", row.train.solved, r.train_positions),
            row.train.cost,
            ts,
            tc,
            row.fields
        );
    }
    println!("params            {}", r.params_path.display());
    println!(
        "log, chart        {}, {}",
        r.log_path.display(),
        r.chart_path.display()
    );
    Ok(())
}

fn run_compare(a: &SearchGaArgs, rule: CostRule, lines: &[String]) -> anyhow::Result<()> {
    let positions = parse_positions(lines).map_err(anyhow::Error::msg)?;
    let sets = a
        .compare
        .iter()
        .map(|name| Ok((name.clone(), load_search_params(name)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let c = compare_sets(&sets, &positions, rule, a.hash.max(1));
    print!("{}", render_comparison(&c));
    Ok(())
}
