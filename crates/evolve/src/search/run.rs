//! The whole search-GA experiment: evolve the chosen search parameters on the training suite
//! (from random, or with the defaults in the first generation), then report the defaults, a
//! random organism and the evolved one on the training and held-out test suites. Writes
//! `best.toml` (a `[search]` params file), `random.toml`, `log.csv`, `evolution.svg`,
//! `checkpoint.json` and `memo.json` (the fitness memo, so a resumed run searches nothing twice).

use crate::mentor::organism::{GenomeKind, Organism, real_space};
use crate::progress::run_logged;
use crate::search::fitness::{
    FitnessStats, SearchFitness, SearchFitnessSpec, SuiteScore, score_sets,
};
use crate::search::remote::SearchRemoteSpec;
use crate::search::suite::parse_positions;
use crate::search::validation::ValidationTrack;
use kestrel_ga::cluster::{FitnessExecutor, FitnessSpec, RayOptions};
use kestrel_ga::{
    BitGenome, BitSpace, GaOutcome, GaRun, GaSettings, Genome, Purpose, RealGenome, StopReason,
    stream_rng, write_chart,
};
use kestrel_params::{ParamValues, ParamsFile};
use kestrel_search::SEARCH_TABLE;
use kestrel_tools::epd_suite::SuitePosition;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What to run.
#[derive(Clone, Debug)]
pub struct SearchRunConfig {
    /// The fitness: training positions, evolved parameters, coding, node cap, hash, objective.
    pub spec: SearchFitnessSpec,
    /// Held-out positions (EPD lines), scored after the run; may be empty.
    pub test: Vec<String>,
    /// Validation positions (EPD lines) taken from the training suite: when given, each
    /// generation's best is scored on them and the run returns the one that does best there.
    pub validation: Vec<String>,
    /// Bit or real genomes.
    pub genome: GenomeKind,
    /// The GA's settings (population, operators, stop rules, seed).
    pub ga: GaSettings,
    /// Put the default values in the first generation (the rest random).
    pub seed_with_defaults: bool,
    /// Output folder for `best.toml`, `log.csv`, `evolution.svg`, checkpoint and memo files.
    pub out_dir: PathBuf,
    /// Continue from the checkpoint (and memo, validation track) in `out_dir`.
    pub resume: bool,
    /// Show a progress bar of the generations.
    pub progress: bool,
    /// Run the fitness on Ray with these options (`None`: in process).
    pub ray: Option<RayOptions>,
}

/// One parameter set's line of the final table.
#[derive(Clone, Debug)]
pub struct ReportRow {
    /// Which set: `defaults`, `random`, `evolved` or `selected` (the validation's pick).
    pub label: &'static str,
    /// The set's values of the evolved parameters, in chromosome order.
    pub fields: Vec<i32>,
    /// Score on the training positions.
    pub train: SuiteScore,
    /// Score on the validation positions (`None` without validation).
    pub validation: Option<SuiteScore>,
    /// Score on the held-out test positions (`None` when there are none).
    pub test: Option<SuiteScore>,
}

/// What a search-GA run found, as [`run_search_ga`] returns it.
#[derive(Clone, Debug)]
pub struct SearchRunReport {
    /// Positions in the training suite.
    pub train_positions: usize,
    /// Validation positions (0 without validation).
    pub validation_positions: usize,
    /// The generation whose best the validation picked (with validation positions).
    pub selected_generation: Option<u64>,
    /// Held-out test positions (0 when none were given).
    pub test_positions: usize,
    /// Generations evaluated (the length of the GA's history).
    pub generations: usize,
    /// Why the GA stopped.
    pub stop: StopReason,
    /// Seconds the GA ran.
    pub ga_seconds: f64,
    /// Where the fitness ran, e.g. `in process` or `Ray, 2 workers`.
    pub executor: String,
    /// Fitness work during the GA (searches, memo hits, nodes; on Ray the workers' work, as
    /// they report it: each worker keeps its own memo, so it may search an organism another
    /// worker searched).
    pub stats: FitnessStats,
    /// Defaults, random organism, evolved organism.
    pub rows: Vec<ReportRow>,
    /// The recommended `SEARCH_TABLE` values: the validation's pick if any, else the evolved one.
    pub best: ParamValues,
    /// The written `best.toml` (the values of `best`).
    pub params_path: PathBuf,
    /// The written per-generation log, `log.csv`.
    pub log_path: PathBuf,
    /// The written evolution chart, `evolution.svg`.
    pub chart_path: PathBuf,
}

/// The memo file: the fitness's fingerprint and its entries.
#[derive(Serialize, Deserialize)]
struct MemoFile {
    fingerprint: String,
    entries: Vec<(Vec<i32>, SuiteScore)>,
}

/// Runs the experiment.
pub fn run_search_ga(cfg: &SearchRunConfig) -> Result<SearchRunReport, String> {
    std::fs::create_dir_all(&cfg.out_dir)
        .map_err(|e| format!("cannot create {}: {e}", cfg.out_dir.display()))?;
    let fitness = SearchFitness::build(cfg.spec.clone())?;
    let test = parse_positions(&cfg.test)?;
    let mut track = if cfg.validation.is_empty() {
        None
    } else {
        Some(ValidationTrack::new(&cfg.spec, cfg.validation.clone())?)
    };
    let executor = FitnessExecutor::start(cfg.ray.as_ref(), |store| {
        Ok(SearchRemoteSpec::store(&cfg.spec, cfg.genome, store)?.tagged())
    })?;
    let start = Instant::now();
    let defaults = BitGenome(fitness.schema.encode(&ParamValues::defaults(&SEARCH_TABLE)));
    let (outcome_fields, random_fields, history, stop) = match cfg.genome {
        GenomeKind::Bits => {
            let space = BitSpace {
                len: fitness.schema.bit_len(),
            };
            let out = evolve::<BitGenome>(
                cfg,
                &space,
                &fitness,
                &executor,
                defaults.clone(),
                &mut track,
            )?;
            let random = BitGenome::random(&space, &mut stream_rng(cfg.ga.seed, 0, Purpose::Init));
            best_fields(&fitness, out, &random)
        }
        GenomeKind::Real => {
            let space = real_space(&fitness.schema);
            let values = defaults.field_values(&fitness.schema);
            let seed = RealGenome(values.iter().map(|&v| v as f64).collect());
            let out = evolve::<RealGenome>(cfg, &space, &fitness, &executor, seed, &mut track)?;
            let random = RealGenome::random(&space, &mut stream_rng(cfg.ga.seed, 0, Purpose::Init));
            best_fields(&fitness, out, &random)
        }
    };
    let ga_seconds = start.elapsed().as_secs_f64();
    let executor_name = executor.describe();
    drop(executor); // shuts Ray down before the final, in-process scoring
    let stats = fitness.stats();
    let chart_path = cfg.out_dir.join("evolution.svg");
    write_chart(&chart_path, &history, "nodes to solve the training suite")?;

    let mut labelled = vec![
        ("defaults", fitness.schema.decode_fields(&defaults.0)),
        ("random", random_fields),
        ("evolved", outcome_fields),
    ];
    let selected = track.as_ref().and_then(|t| t.selected().cloned());
    if let Some(entry) = &selected {
        labelled.push(("selected", entry.fields.clone()));
    }
    let rows = score_rows(cfg, &fitness, track.as_ref(), &test, labelled);
    // The params file holds what the run recommends: the validation's pick when there is one.
    let best = fitness.values_of(&rows[rows.len() - 1].fields);
    let params_path = cfg.out_dir.join("best.toml");
    save_params(&params_path, &best)?;
    save_params(
        &cfg.out_dir.join("random.toml"),
        &fitness.values_of(&rows[1].fields),
    )?;
    if selected.is_some() {
        save_params(
            &cfg.out_dir.join("train-best.toml"),
            &fitness.values_of(&rows[2].fields),
        )?;
    }
    Ok(SearchRunReport {
        train_positions: fitness.positions.len(),
        validation_positions: track.as_ref().map_or(0, ValidationTrack::positions),
        selected_generation: selected.map(|e| e.generation),
        test_positions: test.len(),
        generations: history.len(),
        stop,
        ga_seconds,
        executor: executor_name,
        stats,
        rows,
        best,
        params_path,
        log_path: cfg.out_dir.join("log.csv"),
        chart_path,
    })
}

/// Scores the labelled sets on the training, validation and test positions.
fn score_rows(
    cfg: &SearchRunConfig,
    fitness: &SearchFitness,
    track: Option<&ValidationTrack>,
    test: &[SuitePosition],
    labelled: Vec<(&'static str, Fields)>,
) -> Vec<ReportRow> {
    let fields: Vec<Fields> = labelled.iter().map(|(_, f)| f.clone()).collect();
    let train_scores = fitness.score_fields(&fields);
    let validation: Vec<Option<SuiteScore>> = match track {
        Some(t) => t.score(&fields).into_iter().map(Some).collect(),
        None => vec![None; fields.len()],
    };
    let test_scores: Vec<Option<SuiteScore>> = if test.is_empty() {
        vec![None; fields.len()]
    } else {
        let sets: Vec<ParamValues> = fields.iter().map(|f| fitness.values_of(f)).collect();
        score_sets(&sets, test, cfg.spec.rule, cfg.spec.hash_mb)
            .into_iter()
            .map(Some)
            .collect()
    };
    labelled
        .into_iter()
        .zip(
            train_scores
                .into_iter()
                .zip(validation.into_iter().zip(test_scores)),
        )
        .map(|((label, fields), (train, (validation, test)))| ReportRow {
            label,
            fields,
            train,
            validation,
            test,
        })
        .collect()
}

type Fields = Vec<i32>;

/// The evolved organism's fields (the last generation's fittest; with elitism the best ever
/// found), the random organism's fields, the history and why the run stopped.
fn best_fields<G: Organism>(
    fitness: &SearchFitness,
    out: GaOutcome<G>,
    random: &G,
) -> (Fields, Fields, Vec<kestrel_ga::GenerationStats>, StopReason) {
    let best = out.population[out.best_index()].field_values(&fitness.schema);
    (
        best,
        random.field_values(&fitness.schema),
        out.history,
        out.stop,
    )
}

fn save_params(path: &Path, values: &ParamValues) -> Result<(), String> {
    ParamsFile::save(path, &[values]).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Loads the memo saved beside the checkpoint when it belongs to this fitness.
fn load_memo(path: &Path, fingerprint: &str, fitness: &SearchFitness) {
    let Ok(bytes) = std::fs::read(path) else {
        return;
    };
    if let Ok(memo) = serde_json::from_slice::<MemoFile>(&bytes)
        && memo.fingerprint == fingerprint
    {
        fitness.preload(memo.entries);
    }
}

/// A first generation with the defaults as organism 0 and the GA's own random organisms
/// after it (the same draws as an unseeded run).
pub(crate) fn seeded_population<G: Organism>(
    ga: &GaSettings,
    space: &G::Space,
    defaults: G,
) -> Vec<G> {
    let mut rng = stream_rng(ga.seed, 0, Purpose::Init);
    let mut population: Vec<G> = (0..ga.population)
        .map(|_| G::random(space, &mut rng))
        .collect();
    population[0] = defaults;
    population
}

fn evolve<G: Organism>(
    cfg: &SearchRunConfig,
    space: &G::Space,
    fitness: &SearchFitness,
    executor: &FitnessExecutor,
    defaults: G,
    track: &mut Option<ValidationTrack>,
) -> Result<GaOutcome<G>, String> {
    let checkpoint = cfg.out_dir.join("checkpoint.json");
    let memo_path = cfg.out_dir.join("memo.json");
    let track_path = cfg.out_dir.join("validation.json");
    let track_csv = cfg.out_dir.join("validation.csv");
    let log_path = cfg.out_dir.join("log.csv");
    let fingerprint = <SearchFitness as kestrel_ga::FitnessFunction<G>>::fingerprint(fitness);
    if cfg.resume && checkpoint.exists() {
        load_memo(&memo_path, &fingerprint, fitness);
        if let Some(t) = track.as_mut() {
            t.load(&track_path);
        }
    }
    let run = GaRun {
        settings: cfg.ga.clone(),
        space,
        fitness,
        executor,
        checkpoint: Some(checkpoint),
        resume: cfg.resume,
        seed_population: cfg
            .seed_with_defaults
            .then(|| seeded_population(&cfg.ga, space, defaults)),
    };
    run_logged(
        &run,
        cfg.progress,
        &log_path,
        &|stats| {
            format!(
                "best {:.0} nodes, mean {:.0}",
                stats.best_objective, stats.mean_objective
            )
        },
        &mut |view| {
            let memo = MemoFile {
                fingerprint: fingerprint.clone(),
                entries: fitness.memo_entries(),
            };
            let memo = serde_json::to_vec(&memo).expect("the memo is plain data");
            let mut files = vec![(memo_path.clone(), memo)];
            if let Some(t) = track.as_mut() {
                let best = &view.population[view.best_index()];
                t.observe(
                    view.stats.generation,
                    best.field_values(&fitness.schema),
                    view.stats.best_objective,
                );
                files.push((track_path.clone(), t.to_json()));
                files.push((track_csv.clone(), t.to_csv()));
            }
            files
        },
    )
}
