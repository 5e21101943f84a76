//! A whole `evolve search --fitness games` run: the GA over Falcon's chromosome (bits or real
//! genes) scored by [`SearchGameFitness`], its log, chart and checkpoint, `best.toml` (the
//! last generation's fittest, a `[search]` params file) and a verification match of the best
//! against the reference on openings the GA never chose by.

use crate::mentor::organism::{GenomeKind, Organism, real_space};
use crate::progress::run_logged;
use crate::search::games::SearchGameFitness;
use crate::search::run::seeded_population;
use kestrel_ga::{
    BitGenome, BitSpace, Executor, GaOutcome, GaRun, GaSettings, GenerationStats, RealGenome,
    write_chart,
};
use kestrel_params::{ParamValues, ParamsFile};
use kestrel_search::SEARCH_TABLE;
use kestrel_tools::Penta;
use std::fmt::Write as _;
use std::path::PathBuf;

/// What to run.
#[derive(Clone, Debug)]
pub struct SearchGamesConfig {
    /// Bit strings (the paper) or real genes.
    pub genome: GenomeKind,
    /// The GA's settings.
    pub ga: GaSettings,
    /// Put the defaults in the first generation (the rest random).
    pub seed_with_defaults: bool,
    /// Pairs of the best against the reference after the run (0: none).
    pub verify_pairs: usize,
    /// best.toml, log.csv, evolution.svg, checkpoint.json.
    pub out_dir: PathBuf,
    /// Continue from the checkpoint in `out_dir`.
    pub resume: bool,
    /// A generation bar on stderr.
    pub progress: bool,
}

/// What a run found.
#[derive(Clone, Debug)]
pub struct SearchGamesReport {
    /// (name, default, evolved) of every evolved value.
    pub values: Vec<(String, i32, i32)>,
    /// Generations evaluated.
    pub generations: usize,
    /// The last generation's best fitted Elo (against the reference, or the population's
    /// middle without reference games).
    pub last_best_elo: f64,
    /// The best against the reference, from the best's side (`None`: not verified).
    pub verify: Option<Penta>,
    /// best.toml.
    pub params_path: PathBuf,
    /// log.csv.
    pub log_path: PathBuf,
    /// evolution.svg.
    pub chart_path: PathBuf,
}

/// Runs the GA on `executor` (in process, worker processes or Ray alike).
pub fn run_search_games<E>(
    cfg: &SearchGamesConfig,
    fitness: &SearchGameFitness,
    executor: &E,
) -> Result<SearchGamesReport, String>
where
    E: Executor<BitGenome> + Executor<RealGenome>,
{
    std::fs::create_dir_all(&cfg.out_dir)
        .map_err(|e| format!("cannot create {}: {e}", cfg.out_dir.display()))?;
    let defaults_fields = fitness
        .schema
        .decode_fields(&fitness.schema.encode(&ParamValues::defaults(&SEARCH_TABLE)));
    let (best, history) = match cfg.genome {
        GenomeKind::Bits => {
            let space = BitSpace {
                len: fitness.schema.bit_len(),
            };
            let defaults = BitGenome(fitness.schema.encode(&ParamValues::defaults(&SEARCH_TABLE)));
            best_of(evolve(cfg, fitness, executor, &space, defaults)?, fitness)
        }
        GenomeKind::Real => {
            let space = real_space(&fitness.schema);
            let defaults = RealGenome(defaults_fields.iter().map(|&v| f64::from(v)).collect());
            best_of(evolve(cfg, fitness, executor, &space, defaults)?, fitness)
        }
    };
    let chart_path = cfg.out_dir.join("evolution.svg");
    write_chart(&chart_path, &history, "Elo of the best organism")?;
    let params = fitness.params_of(&best);
    let params_path = cfg.out_dir.join("best.toml");
    ParamsFile::save(&params_path, &[&params.search])
        .map_err(|e| format!("cannot write {}: {e}", params_path.display()))?;
    let verify = (cfg.verify_pairs > 0).then(|| {
        fitness
            .play()
            .verify(&params, cfg.verify_pairs, cfg.ga.seed)
    });
    let values = fitness
        .schema
        .fields
        .iter()
        .zip(defaults_fields.iter().zip(&best))
        .map(|(f, (&d, &b))| (f.name.clone(), d, b))
        .collect();
    Ok(SearchGamesReport {
        values,
        generations: history.len(),
        last_best_elo: history.last().map_or(0.0, |h| h.best_objective),
        verify,
        params_path,
        log_path: cfg.out_dir.join("log.csv"),
        chart_path,
    })
}

/// The last generation's fittest organism's values and the run's history.
fn best_of<G: Organism>(
    out: GaOutcome<G>,
    fitness: &SearchGameFitness,
) -> (Vec<i32>, Vec<GenerationStats>) {
    let best = out.population[out.best_index()].field_values(&fitness.schema);
    (best, out.history)
}

fn evolve<G: Organism>(
    cfg: &SearchGamesConfig,
    fitness: &SearchGameFitness,
    executor: &dyn Executor<G>,
    space: &G::Space,
    defaults: G,
) -> Result<GaOutcome<G>, String>
where
    SearchGameFitness: kestrel_ga::FitnessFunction<G>,
{
    let run = GaRun {
        settings: cfg.ga.clone(),
        space,
        fitness,
        executor,
        checkpoint: Some(cfg.out_dir.join("checkpoint.json")),
        resume: cfg.resume,
        seed_population: cfg
            .seed_with_defaults
            .then(|| seeded_population(&cfg.ga, space, defaults)),
    };
    let describe = |s: &GenerationStats| {
        format!(
            "best Elo {:+.1}, mean {:+.1}",
            s.best_objective, s.mean_objective
        )
    };
    let log = cfg.out_dir.join("log.csv");
    run_logged(&run, cfg.progress, &log, &describe, &mut |_| Vec::new())
}

/// What the command prints after a run.
pub fn render_games_report(r: &SearchGamesReport) -> String {
    let mut s = format!(
        "evolution         {} generations, last best Elo {:+.1}\n",
        r.generations, r.last_best_elo
    );
    for (name, default, best) in &r.values {
        let mark = if default == best { "" } else { "  *" };
        let _ = writeln!(s, "  {name:<24} default {default:>6}  best {best:>6}{mark}");
    }
    match &r.verify {
        Some(p) => {
            let _ = writeln!(s, "best vs reference {}", p.summary());
        }
        None => s.push_str("best vs reference not verified (--verify-pairs 0)\n"),
    }
    s
}
