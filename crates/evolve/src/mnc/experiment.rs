//! The whole `kestrel evolve mnc` experiment: an MNC run (or the plain generational GA on the
//! same fitness, the comparison) with its log, chart, niche leaders' params files and their
//! rows in the chromosome database, and the report the command prints.

use crate::mnc::store::{generational_leaders, mnc_leaders};
use crate::mnc::tables::{base_params, distance, kestrel_chromosome, pst_space};
use crate::mnc::{MncLine, MncRun, MncSettings, TournamentFitness, render_mnc_csv};
use kestrel_chromodb::{ChromosomeDb, NewChromosome, NewRun};
use kestrel_ga::{
    Executor, FitnessFunction, GaRun, GaSettings, GenerationStats, RealGenome, Selection,
    Termination, render_log_csv, write_chart,
};
use kestrel_params::ParamValues;
use kestrel_params::atomic::write_atomic;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Where an experiment writes and how it runs.
#[derive(Clone, Debug)]
pub struct MncOutput {
    /// best.toml, niche-K.toml, log.csv, evolution.svg, checkpoint.json.
    pub out: PathBuf,
    /// The chromosome database the final niche leaders are added to.
    pub db: PathBuf,
    /// Continue from the checkpoint in `out`.
    pub resume: bool,
    /// No per-generation line on stderr.
    pub quiet: bool,
}

/// The fitness an MNC experiment runs and what its records say about it.
pub struct MncFitness<'a> {
    /// The fitness function that scores each generation's organisms.
    pub fitness: &'a dyn FitnessFunction<RealGenome>,
    /// The game settings as the database's run row records them.
    pub games: serde_json::Value,
    /// The evaluation the tables are written over in the leaders' params files.
    pub base: ParamValues,
}

impl<'a> MncFitness<'a> {
    /// Phoenix's tournament among the organisms (tables over the material alone).
    pub fn tournament(fitness: &'a TournamentFitness) -> Self {
        MncFitness {
            fitness,
            games: serde_json::to_value(&fitness.spec).expect("a spec is plain data"),
            base: base_params(),
        }
    }
}

fn io(path: &Path, e: std::io::Error) -> String {
    format!("cannot write {}: {e}", path.display())
}

/// Runs MNC on `fitness` to a stop rule, writes its files and database rows; returns the
/// report.
pub fn evolve_mnc(
    settings: &MncSettings,
    fitness: &MncFitness,
    executor: &dyn Executor<RealGenome>,
    output: &MncOutput,
) -> Result<String, String> {
    let run = MncRun {
        settings: settings.clone(),
        fitness: fitness.fitness,
        executor,
        checkpoint: Some(output.out.join("checkpoint.json")),
        resume: output.resume,
    };
    let quiet = output.quiet;
    let log_path = output.out.join("log.csv");
    let outcome = run.run(&mut |line: &MncLine, _| {
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
    })?;
    let history = &outcome.state.history;
    write_atomic(&log_path, render_mnc_csv(history).as_bytes()).map_err(|e| io(&log_path, e))?;
    write_chart(
        &output.out.join("evolution.svg"),
        &chart_lines(history),
        "distance to Kestrel's tables (cp)",
    )?;
    let leaders = mnc_leaders(
        &outcome.state,
        &outcome.population,
        &outcome.niches,
        &fitness.base,
    );
    write_leaders(&output.out, &leaders)?;
    let db_run = NewRun {
        kind: "mnc".into(),
        seed: settings.seed,
        settings_json: settings_json(settings, &fitness.games),
        generations: history.len() as u64,
        games: outcome.state.games,
        stop_reason: outcome.stop.name().into(),
    };
    let ids = store(&output.db, &db_run, &leaders)?;
    let mut report = format!(
        "evolution         {} generations, {} games ({})\n",
        history.len(),
        outcome.state.games,
        outcome.stop.name()
    );
    report.push_str(&render_leaders(&leaders, &ids, outcome.population.len()));
    let _ = writeln!(
        report,
        "database          {} (run stored)",
        output.db.display()
    );
    let _ = writeln!(
        report,
        "params, log       {}, {}",
        output.out.join("best.toml").display(),
        log_path.display()
    );
    Ok(report)
}

/// The plain generational GA of the comparison: MNC's population, operators and generation
/// limit with roulette selection and one elite.
pub fn generational_settings(mnc: &MncSettings) -> GaSettings {
    GaSettings {
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
    }
}

/// Runs the generational GA on `fitness`, writes its files and database rows; returns the
/// report.
pub fn evolve_generational(
    mnc: &MncSettings,
    fitness: &TournamentFitness,
    executor: &dyn Executor<RealGenome>,
    output: &MncOutput,
) -> Result<String, String> {
    if mnc.init_range.is_some() {
        return Err(
            "--init-range is for --algorithm mnc only (the core GA starts from the whole range)"
                .into(),
        );
    }
    let space = pst_space(mnc.mutation_sigma);
    let run = GaRun::<RealGenome> {
        settings: generational_settings(mnc),
        space: &space,
        fitness,
        executor,
        checkpoint: Some(output.out.join("checkpoint.json")),
        resume: output.resume,
        seed_population: None,
    };
    let quiet = output.quiet;
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
        .map_err(|e| e.to_string())?;
    let log_path = output.out.join("log.csv");
    write_atomic(&log_path, render_log_csv(&outcome.history).as_bytes())
        .map_err(|e| io(&log_path, e))?;
    let scores: Vec<f64> = outcome.evaluations.iter().map(|e| e.fitness).collect();
    let generations = outcome.history.len() as u64;
    let leaders = generational_leaders(&outcome.population, &scores, mnc.niche_radius, generations);
    write_leaders(&output.out, &leaders)?;
    // Every generation plays one tournament of the whole population: n * 2 * rounds games.
    let games = generations * (mnc.population as u64 * fitness.spec.rounds as u64);
    let db_run = NewRun {
        kind: "generational".into(),
        seed: mnc.seed,
        settings_json: settings_json(
            mnc,
            &serde_json::to_value(&fitness.spec).expect("plain data"),
        ),
        generations,
        games,
        stop_reason: format!("{:?}", outcome.stop).to_lowercase(),
    };
    let ids = store(&output.db, &db_run, &leaders)?;
    let mut report = format!(
        "evolution         {generations} generations, about {games} games (generational)\n"
    );
    report.push_str(&render_leaders(&leaders, &ids, mnc.population));
    let _ = writeln!(report, "database          {}", output.db.display());
    Ok(report)
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

fn settings_json(settings: &MncSettings, games: &serde_json::Value) -> String {
    serde_json::json!({ "mnc": settings, "games": games }).to_string()
}

/// best.toml (niche 1) and niche-K.toml for every leader.
fn write_leaders(out: &Path, leaders: &[NewChromosome]) -> Result<(), String> {
    for c in leaders {
        let path = out.join(format!("niche-{}.toml", c.niche));
        write_atomic(&path, c.params.as_bytes()).map_err(|e| io(&path, e))?;
        if c.niche == 1 {
            let best = out.join("best.toml");
            write_atomic(&best, c.params.as_bytes()).map_err(|e| io(&best, e))?;
        }
    }
    Ok(())
}

/// Adds the run and its leaders to the database at `db`; returns the leaders' ids.
fn store(db: &Path, run: &NewRun, leaders: &[NewChromosome]) -> Result<Vec<i64>, String> {
    let mut db = ChromosomeDb::create_or_open(db).map_err(|e| e.to_string())?;
    Ok(db.add_run(run, leaders).map_err(|e| e.to_string())?.1)
}

/// The niches and their leaders, one line each.
fn render_leaders(leaders: &[NewChromosome], ids: &[i64], population: usize) -> String {
    let kestrel = kestrel_chromosome();
    let mut s = format!(
        "niches            {} distinct in a population of {population}\n",
        leaders.len()
    );
    for (c, id) in leaders.iter().zip(ids) {
        let genome: RealGenome =
            serde_json::from_str(&c.genes_json).expect("genes were written as JSON");
        let _ = writeln!(
            s,
            "  niche {:>2}: {:>2} organisms, leader #{} (db id {id}) fitness {:.3}, \
             {:.1} cp from Kestrel's tables",
            c.niche,
            c.niche_size,
            c.organism,
            c.fitness,
            distance(&genome, &kestrel)
        );
    }
    s
}
