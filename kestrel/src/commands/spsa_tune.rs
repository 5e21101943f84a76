//! `kestrel tune spsa`: SPSA on game pairs of θ+ against θ− (docs/spsa.md). The tuned values
//! are a `--set` of SEARCH_TABLE/EVAL_TABLE names (as `kestrel tune spsa-input` takes) or an
//! OpenBench-format `--input`; the run writes OUT/spsa.csv, OUT/spsa.svg, OUT/final.toml and
//! OUT/checkpoint.json, and `--resume` continues it.

use super::executor_options::ExecutorOptions;
use super::job_options::JobOptions;
use super::run_folder::{RunFolder, say};
use super::spsa_input::{TableArg, selection};
use crate::commands::checked;
use anyhow::{Context, bail};
use clap::Args;
use kestrel_evolve::spsa::chess::{GamePairs, TunedElement, spsa_params};
use kestrel_evolve::spsa::pairs::PairsFitness;
use kestrel_evolve::spsa::remote::SpsaPairsSpec;
use kestrel_evolve::spsa::report::row_elo;
use kestrel_evolve::spsa::{SpsaRow, SpsaSettings, SpsaState, run_spsa};
use kestrel_ga::cluster::FitnessSpec;
use kestrel_params::{ParamValues, ParamsFile, SpsaLine, spsa_lines};
use kestrel_search::EngineParams;
use kestrel_tools::progress::Progress;
use kestrel_tools::stats::fmt_elo;
use kestrel_tools::{GameSettings, Limit, Opening, Sprt, load_openings};
use std::path::{Path, PathBuf};

/// Arguments of `kestrel tune spsa`.
#[derive(Args)]
pub struct SpsaArgs {
    /// Output folder: spsa.csv, spsa.svg, final.toml, checkpoint.json, summary.txt.
    #[arg(long, default_value = "spsa-out", value_parser = checked::writable_dir)]
    pub(super) out: PathBuf,
    /// Which values: `all`, `compact`, `falcon` or NAME,NAME,... (as `tune spsa-input`)
    /// (default: none: --input).
    #[arg(
        long,
        value_name = "all|compact|falcon|NAMES",
        conflicts_with = "input",
        value_parser = checked::distinct_list
    )]
    pub(super) set: Option<String>,
    /// Which tables `--set` looks in.
    #[arg(long, value_enum, default_value = "both")]
    pub(super) table: TableArg,
    /// OpenBench SPSA input (`NAME, int, value, min, max, c_end, r_end` per line) instead of
    /// --set: start, range, step and learning rate per value.
    #[arg(long, value_name = "FILE")]
    pub(super) input: Option<PathBuf>,
    /// Start values (and every untuned value) from this params file; default: the defaults.
    #[arg(long, value_name = "FILE")]
    pub(super) params: Option<PathBuf>,
    /// Iterations (one iteration = --pairs game pairs of θ+ against θ−).
    #[arg(long, default_value_t = 200)]
    pub(super) iterations: u64,
    /// Game pairs per iteration (one opening each, colours reversed).
    #[arg(long, default_value_t = 1, value_parser = checked::positive)]
    pub(super) pairs: usize,
    /// Iterations drawn from the same θ and played side by side, their updates then applied
    /// in order. 1 is classic SPSA; more keep the cores busy (every iteration waits for its
    /// slowest game otherwise). The result depends on it, never on --threads or the executor.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub(super) batch: u64,
    /// Batches played ahead: a batch's θ± are drawn around θ after the batch N + 1 before it, so
    /// the next batch's pairs start while the last pairs of a batch finish; 0: every batch waits
    /// for the one before (default: 1; with --resume, the checkpoint's).
    #[arg(long, value_name = "N")]
    pub(super) lag: Option<u64>,
    /// With --set: OpenBench's r_end (learning rate at the end of the run).
    #[arg(long, default_value_t = kestrel_params::DEFAULT_R_END, value_parser = checked::positive_f64)]
    pub(super) r_end: f64,
    /// With --set: c_end = this × the declared step.
    #[arg(long, default_value_t = 1.0, value_parser = checked::positive_f64)]
    pub(super) c_end_scale: f64,
    #[command(flatten)]
    pub(super) limit: super::game_limit::GameLimitArgs,
    #[command(flatten)]
    pub(super) executor: ExecutorOptions,
    /// Opening book (EPD/PGN, optionally gzipped); default: the built-in balanced GM openings.
    #[arg(long, value_name = "FILE")]
    pub(super) openings: Option<PathBuf>,
    /// Games end as draws after this many moves.
    #[arg(long, default_value_t = 200, value_parser = checked::positive)]
    pub(super) max_moves: usize,
    /// Hash table per engine, MB.
    #[arg(long, default_value_t = 2, value_parser = checked::hash_mb)]
    pub(super) hash: usize,
    /// Seed of the perturbations, roundings and opening picks.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Write the checkpoint, CSV and chart every N iterations.
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = checked::positive_u64)]
    pub(super) checkpoint_every: u64,
    /// Verification gate: after the run, the tuned params play the start params in this SPRT
    /// (`elo0,elo1[,alpha,beta]`, pentanomial) at --verify-tc; only H1 counts as better (default:
    /// off).
    #[arg(long, value_name = "ELO0,ELO1[,A,B]", value_parser = checked::sprt)]
    pub(super) verify_sprt: Option<String>,
    /// The verification clock `BASE+INC` in seconds [default: the tuning limit].
    #[arg(long, value_name = "BASE+INC", requires = "verify_sprt")]
    pub(super) verify_tc: Option<String>,
    /// Most games the verification plays.
    #[arg(long, default_value_t = 2000, requires = "verify_sprt", value_parser = checked::positive)]
    pub(super) verify_games: usize,
    /// Write the tuned params to FILE only if the verification accepts H1 (default: none).
    #[arg(long, value_name = "FILE", requires = "verify_sprt", value_parser = checked::writable_file)]
    pub(super) adopt: Option<PathBuf>,
    /// With --resume: run to the new --iterations (more than the run has done); the gains
    /// follow the new total from the next iteration (docs/spsa.md).
    #[arg(long, requires = "resume")]
    pub(super) extend: bool,
    #[command(flatten)]
    pub(super) engine: super::engine_options::EngineArgs,
    #[command(flatten)]
    pub(super) job: JobOptions,
}

/// The openings when `--openings` is not given: the built-in balanced GM openings.
fn default_openings() -> anyhow::Result<Vec<Opening>> {
    Ok(load_openings(std::path::Path::new(
        kestrel_tools::data::DEFAULT_OPENINGS,
    ))?)
}

pub(super) fn openings(a: &SpsaArgs) -> anyhow::Result<Vec<Opening>> {
    match &a.openings {
        Some(path) => Ok(load_openings(path)?),
        None => default_openings(),
    }
}

/// The tuned lines and the base params (with the input's start values put in).
fn tuned_lines(a: &SpsaArgs) -> anyhow::Result<(Vec<SpsaLine>, EngineParams)> {
    let mut base = match &a.params {
        Some(path) => EngineParams::load(path, "--params")?,
        None => EngineParams::default(),
    };
    let lines = if let Some(path) = &a.input {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read --input {}", path.display()))?;
        let origin = format!("--input {}", path.display());
        super::spsa_file::parse_input(&text, &origin, &[&base.eval, &base.search])
            .map_err(anyhow::Error::msg)?
    } else {
        let Some(set) = &a.set else {
            bail!(
                "name the tuned values with --set NAMES (or all, compact, falcon) or --input FILE"
            );
        };
        let sets: Vec<&ParamValues> = match a.table {
            TableArg::Eval => vec![&base.eval],
            TableArg::Search => vec![&base.search],
            TableArg::Both => vec![&base.eval, &base.search],
        };
        let mut lines = spsa_lines(&sets, selection(set).as_deref())
            .map_err(|e| anyhow::anyhow!("--set {set}: {e}"))?;
        for l in &mut lines {
            l.r_end = a.r_end;
            l.c_end *= a.c_end_scale;
        }
        lines
    };
    anyhow::ensure!(!lines.is_empty(), "the selection names no tunable value");
    for l in &lines {
        let set = if l.section == "eval" {
            &mut base.eval
        } else {
            &mut base.search
        };
        set.set_element(&l.name, l.value)
            .map_err(anyhow::Error::msg)?;
    }
    Ok((lines, base))
}

/// Batches played ahead when `--lag` is not given (and no checkpoint says otherwise).
pub(super) const DEFAULT_LAG: u64 = 1;

/// The run's settings from the flags; without `--lag` a resumed run keeps its checkpoint's
/// lag (runs checkpointed before the lag existed have none).
pub(super) fn spsa_settings(a: &SpsaArgs) -> SpsaSettings {
    let mut settings = SpsaSettings::new(a.iterations, a.seed);
    settings.checkpoint_every = a.checkpoint_every;
    settings.batch = a.batch;
    let checkpoint = a.out.join(kestrel_evolve::spsa::run::CHECKPOINT);
    let resumed = || {
        a.job
            .resume
            .then(|| SpsaState::checkpointed_lag(&checkpoint))?
    };
    settings.lag = a.lag.or_else(resumed).unwrap_or(DEFAULT_LAG);
    settings
}

pub(super) fn game_settings(a: &SpsaArgs) -> anyhow::Result<GameSettings> {
    let limit = a.limit.limit()?;
    Ok(kestrel_evolve::games::game_settings(
        limit,
        Some(a.max_moves),
    ))
}

/// Runs `kestrel tune spsa`.
pub fn run(a: SpsaArgs) -> anyhow::Result<()> {
    if let Some(engine) = a.engine.engine()? {
        return super::spsa_external::run(a, engine);
    }
    let (lines, base) = tuned_lines(&a)?;
    let openings = openings(&a)?;
    let gate = gate(&a)?;
    let threads = a.job.start_threads()?;
    let game = game_settings(&a)?;
    let elements = lines
        .iter()
        .map(|l| TunedElement {
            section: l.section,
            name: l.name.clone(),
        })
        .collect();
    let limit = game.limit;
    let start = base.clone();
    let book = openings.clone();
    let pairs = PairsFitness::new(base, elements, openings, a.pairs, game, a.hash, a.seed)
        .map_err(anyhow::Error::msg)?;
    let params = spsa_params(&lines);
    let mut folder = a.job.claim(&a.out)?;
    let settings = spsa_settings(&a);
    if a.extend {
        let checkpoint = a.out.join(kestrel_evolve::spsa::run::CHECKPOINT);
        let old = SpsaState::extend(&checkpoint, &params, &settings).map_err(anyhow::Error::msg)?;
        println!("extended: {old} -> {} iterations", a.iterations);
    }
    let executor = a
        .executor
        .start(|store| Ok(SpsaPairsSpec::store(&pairs, store)?.tagged()))?;
    let duel = GamePairs::new(pairs, &executor);
    println!("games on          {}", executor.describe());
    if !a.job.quiet {
        println!(
            "SPSA: {} values, {} iterations of {} pair(s) in batches of {} (lag {}), {limit}, seed {}, {threads} thread(s), out {}",
            params.len(),
            a.iterations,
            a.pairs,
            a.batch,
            settings.lag,
            a.seed,
            a.out.display()
        );
    }
    let progress = Progress::new(a.iterations, "spsa").with_step(a.batch);
    let mut on_row = report_rows(&progress, &a);
    let state = run_spsa(&params, &settings, &duel, &a.out, a.job.resume, &mut on_row)
        .map_err(anyhow::Error::msg)?;
    progress.finish();
    let final_path = write_final(&state, &duel, &a.out)?;
    report(&mut folder, &state, &final_path);
    if let Some((sprt, verify_limit)) = gate {
        let tuned = EngineParams::load(&final_path, "final.toml")?;
        let gate = super::spsa_verify::Gate {
            sprt,
            limit: verify_limit.unwrap_or(limit),
            max_games: a.verify_games,
            concurrency: threads,
            seed: a.seed,
            adopt: a.adopt.as_deref(),
        };
        super::spsa_verify::verify(&gate, &tuned, &start, &book)?;
    }
    folder.finish(a.seed)
}

/// The verification SPRT and clock, checked before any game.
pub(super) fn gate(a: &SpsaArgs) -> anyhow::Result<Option<(Sprt, Option<Limit>)>> {
    let Some(text) = &a.verify_sprt else {
        return Ok(None);
    };
    let sprt = Sprt::parse(text).map_err(|e| anyhow::anyhow!("--verify-sprt: {e}"))?;
    let limit = a
        .verify_tc
        .as_deref()
        .map(Limit::parse_tc)
        .transpose()
        .map_err(|e| anyhow::anyhow!("--verify-tc: {e}"))?;
    if a.verify_games < 2 {
        bail!("--verify-games must be at least 2 (one pair)");
    }
    Ok(Some((sprt, limit)))
}

/// Writes OUT/final.toml: the base params with θ rounded.
fn write_final(state: &SpsaState, duel: &GamePairs, out: &Path) -> anyhow::Result<PathBuf> {
    let rounded: Vec<i32> = state
        .theta
        .iter()
        .zip(&state.params)
        .map(|(t, p)| t.round().clamp(p.min, p.max) as i32)
        .collect();
    let params = duel.params_with(&rounded).map_err(anyhow::Error::msg)?;
    let path = out.join("final.toml");
    ParamsFile::save(&path, &[&params.eval, &params.search])
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

fn report(folder: &mut RunFolder, state: &SpsaState, final_path: &Path) {
    let last = state.last();
    for (p, t) in state.params.iter().zip(&state.theta) {
        say!(folder, "{}: {} -> {:.2}", p.name, p.start, t);
    }
    let (elo, err) = row_elo(&last);
    let [ll, ld, wl, dd, wd, ww] = last.penta;
    say!(
        folder,
        "{} games, θ+ against θ−: W {} D {} L {}, Ptnml(0-2) [{ll}, {ld}, {}, {wd}, {ww}], Elo {} ± {err:.1}, faults {}",
        last.games,
        last.wdl[0],
        last.wdl[1],
        last.wdl[2],
        wl + dd,
        fmt_elo(elo),
        last.faults
    );
    say!(
        folder,
        "wrote {} (not verified unless --verify-sprt: e.g. `kestrel match -a {} -b builtin --sprt 0,5 --tc 10+0.1 --openings FILE`)",
        final_path.display(),
        final_path.display()
    );
}

/// The progress update of `tune spsa` (built-in or `--engine`): a batch's rows arrive
/// together, so one update a batch, at its last row; nothing with `--quiet`.
pub(super) fn report_rows<'a>(progress: &'a Progress, a: &SpsaArgs) -> impl FnMut(&SpsaRow) + 'a {
    let (batch, iterations, quiet) = (a.batch, a.iterations, a.job.quiet);
    move |row: &SpsaRow| {
        let batch_end = row.iteration.is_multiple_of(batch) || row.iteration == iterations;
        if !quiet && batch_end {
            let (elo, err) = row_elo(row);
            let games = row.games;
            progress.set(
                row.iteration,
                format!("{games} games, θ+ vs θ− Elo {} ± {err:.1}", fmt_elo(elo)),
            );
        }
    }
}
