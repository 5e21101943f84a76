//! `kestrel evolve search`: Falcon's search GA. Evolves search parameters (`FALCON_SET` by
//! default) by the nodes the search needs to solve a tactical suite; with `--compare` it
//! instead prints params files side by side on the test suite (solved count, total nodes).

use super::executor_options::ExecutorOptions;
use super::ga_options::{GaArgs, GaDefaults};
use super::job_options::JobOptions;
use super::run_folder::{RunFolder, say};
use anyhow::{Context, bail};
use clap::Args;
use kestrel_evolve::search::compare::{compare_sets, render_comparison};
use kestrel_evolve::search::fitness::{Objective, SearchFitnessSpec, SuiteScore};
use kestrel_evolve::search::run::{SearchRunConfig, SearchRunReport, run_search_ga};
use kestrel_evolve::search::simplify::{render_steps, simplify};
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
    /// Suite(s) split into train and test by --seed (EPD with bm/am); default WAC revised
    /// (`builtin:suites/wac-revised.epd`; LCT II, BK and Kaufman are built in too).
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
    /// Share of the training positions set aside for validation: each generation's best is
    /// scored on them and the run returns the one that does best there (0: the last best).
    #[arg(long, default_value_t = 0.0)]
    validation_fraction: f64,
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
    /// Simplify this params file instead of evolving: each search value that differs from the
    /// defaults is reverted in turn (least useful first) and stays reverted when the cost on the
    /// training positions keeps within --simplify-tolerance; writes simplified.toml to --out.
    #[arg(long, value_name = "FILE", conflicts_with = "compare")]
    simplify: Option<String>,
    /// Share by which --simplify may let the training cost rise above the evolved set's.
    #[arg(long, default_value_t = 0.0)]
    simplify_tolerance: f64,
    /// Seed of the train/test shuffle of --suite [default: --seed], so GA runs with other seeds
    /// can be held out on the same half.
    #[arg(long)]
    split_seed: Option<u64>,
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

/// Seed offset of the validation split, so it does not repeat the train/test shuffle.
const VALIDATION_SPLIT_SEED: u64 = 0x7a11_da7e;

/// (train, validation) lines: `--validation-fraction` of the training lines set aside.
fn validation_split(
    a: &SearchGaArgs,
    train: Vec<String>,
) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    if !(0.0..1.0).contains(&a.validation_fraction) {
        bail!("--validation-fraction must be within [0, 1)");
    }
    if a.validation_fraction == 0.0 {
        return Ok((train, Vec::new()));
    }
    if train.len() < 2 {
        bail!("--validation-fraction needs at least two training positions");
    }
    Ok(split(
        &train,
        a.validation_fraction,
        a.ga.seed ^ VALIDATION_SPLIT_SEED,
    ))
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
            vec![PathBuf::from(kestrel_tools::data::DEFAULT_SUITE)]
        } else {
            a.suite.clone()
        };
        split(
            &lines_of(&files)?,
            a.test_fraction,
            a.split_seed.unwrap_or(a.ga.seed),
        )
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
    if let Some(file) = &a.simplify {
        return run_simplify(&a, rule, file, &train, &test);
    }
    let (train, validation) = validation_split(&a, train)?;
    let mut folder = a.job.claim(&a.out)?;
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
        validation,
        genome: a.ga.genome_kind(),
        ga: a.ga.settings(FALCON_DEFAULTS, None)?,
        seed_with_defaults: a.seed_defaults,
        out_dir: a.out.clone(),
        resume: a.job.resume,
        progress: !a.job.quiet,
        ray: a.executor.ray()?,
    };
    let r = run_search_ga(&cfg).map_err(anyhow::Error::msg)?;
    say!(folder, "fitness on        {}", r.executor);
    say!(
        folder,
        "positions         {} train, {} validation, {} test; node cap {} + penalty {}",
        r.train_positions,
        r.validation_positions,
        r.test_positions,
        rule.node_cap,
        rule.penalty
    );
    if let Some(g) = r.selected_generation {
        say!(
            folder,
            "validation        picked generation {g}'s best (`selected`; the last training best is `evolved`, train-best.toml)"
        );
    }
    say!(
        folder,
        "evolution         {} generations in {:.1} s ({:?}); {} organisms searched, {} from the memo",
        r.generations,
        r.ga_seconds,
        r.stop,
        r.stats.searched_organisms,
        r.stats.memo_hits
    );
    say!(
        folder,
        "fitness speed     {} nodes in {:.1} s = {:.0} nodes/s (all threads)",
        r.stats.nodes,
        r.ga_seconds,
        r.stats.nodes as f64 / r.ga_seconds.max(1e-9)
    );
    print_table(&mut folder, &r);
    super::ga_options::print_output_paths(&r.params_path, &r.log_path, &r.chart_path);
    folder.finish(a.ga.seed)
}

/// The final table: each set's solved count and cost on train, validation and test.
fn print_table(folder: &mut RunFolder, r: &SearchRunReport) {
    say!(
        folder,
        "{:<10} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}   values",
        "params",
        "train solved",
        "train cost",
        "valid solved",
        "valid cost",
        "test solved",
        "test cost"
    );
    let cells = |s: Option<SuiteScore>, n: usize| {
        s.map_or(("-".to_string(), "-".to_string()), |s| {
            (format!("{}/{n}", s.solved), s.cost.to_string())
        })
    };
    for row in &r.rows {
        let (vs, vc) = cells(row.validation, r.validation_positions);
        let (ts, tc) = cells(row.test, r.test_positions);
        say!(
            folder,
            "{:<10} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}   {:?}",
            row.label,
            format!("{}/{}", row.train.solved, r.train_positions),
            row.train.cost,
            vs,
            vc,
            ts,
            tc,
            row.fields
        );
    }
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

/// `--simplify FILE`: simplifies the file's search values on every training position (the
/// validation share included: nothing is evolved here), writes `simplified.toml` and compares
/// the defaults, the file and the simplified set on the test positions.
fn run_simplify(
    a: &SearchGaArgs,
    rule: CostRule,
    file: &str,
    train: &[String],
    test: &[String],
) -> anyhow::Result<()> {
    if !(0.0..1.0).contains(&a.simplify_tolerance) {
        bail!("--simplify-tolerance must be within [0, 1)");
    }
    let set = load_search_params(file)?;
    let positions = parse_positions(train).map_err(anyhow::Error::msg)?;
    let hash_mb = a.hash.max(1);
    let s = simplify(&set, &positions, rule, hash_mb, a.simplify_tolerance);
    println!(
        "simplifying {file} on {} training positions",
        positions.len()
    );
    print!("{}", render_steps(&s, positions.len()));
    std::fs::create_dir_all(&a.out)?;
    let path = a.out.join("simplified.toml");
    kestrel_params::ParamsFile::save(&path, &[&s.values])
        .with_context(|| format!("cannot write {}", path.display()))?;
    println!("simplified set    {}", path.display());
    if !test.is_empty() {
        let positions = parse_positions(test).map_err(anyhow::Error::msg)?;
        let sets = vec![
            ("default".to_string(), ParamValues::defaults(&SEARCH_TABLE)),
            (file.to_string(), set),
            (path.display().to_string(), s.values),
        ];
        println!("on the {} test positions:", positions.len());
        print!(
            "{}",
            render_comparison(&compare_sets(&sets, &positions, rule, hash_mb))
        );
    }
    Ok(())
}
