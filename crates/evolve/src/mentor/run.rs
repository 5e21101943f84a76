//! The whole expert-driven experiment: positions → mentor labels → GA from random → best
//! organism, with its train and test error, a params file, a log and a chart.

use crate::mentor::builtin::BuiltinMentor;
use crate::mentor::crowd::{Combine, combine_labels, kept_scores, mean_abs_diff};
use crate::mentor::fitness::{LabelledSet, MentorFitness, organism_matrix};
use crate::mentor::labels::{Label, LabelCache, LabelStats, Mentor, label_positions};
use crate::mentor::organism::{GenomeKind, Organism, real_space, with_fields};
use crate::mentor::positions::{PickRules, PositionSet, extract_from_pgn};
use crate::mentor::remote::MentorFitnessSpec;
use crate::mentor::uci_mentor::UciMentor;
use crate::progress::{progress_bar, run_logged};
use kestrel_chess::Board;
use kestrel_eval::{COMPACT_SET, EVAL_TABLE, Evaluator};
use kestrel_ga::cluster::{BlobStore, FitnessSpec, RayExecutor, RayOptions};
use kestrel_ga::{
    BitGenome, BitSpace, Executor, GaOutcome, GaRun, GaSettings, GenerationStats,
    InProcessExecutor, RealGenome, StopReason, write_chart,
};
use kestrel_params::{BitSchema, Coding, ParamValues, ParamsFile};
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// The shipped positions: 10,000 quiet positions, one per game, from 2600+ GM games.
pub const BUILTIN_POSITIONS: &str = include_str!("../../../../data/positions-gm2600.epd");

/// Which evaluation parameters evolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamSet {
    /// The paper's 35 values (230 bits); every other term is zero.
    Compact,
    /// Every value of `EVAL_TABLE`.
    Full,
}

impl ParamSet {
    pub fn schema(self, coding: Coding) -> BitSchema {
        let names = match self {
            ParamSet::Compact => Some(COMPACT_SET),
            ParamSet::Full => None,
        };
        BitSchema::new(&EVAL_TABLE, names, coding).expect("the evaluation declares its sets")
    }
}

/// Who scores the positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MentorSpec {
    Builtin,
    /// A UCI engine command line, e.g. `stockfish` or `/usr/games/toga2`.
    Uci(String),
}

impl std::str::FromStr for MentorSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "builtin" => Ok(MentorSpec::Builtin),
            _ => match s.strip_prefix("uci:") {
                Some(cmd) if !cmd.trim().is_empty() => Ok(MentorSpec::Uci(cmd.trim().into())),
                _ => Err(format!(
                    "unknown mentor '{s}' (expected builtin or uci:COMMAND)"
                )),
            },
        }
    }
}

/// Where the positions come from.
#[derive(Clone, Debug)]
pub enum PositionsSource {
    /// The positions shipped inside the binary.
    Builtin,
    /// An EPD file with `c0 "train"` / `c0 "test"` tags.
    Epd(PathBuf),
    /// One position per game of a PGN file, `count` games in all, split in halves.
    Pgn {
        path: PathBuf,
        count: usize,
        rules: PickRules,
    },
}

#[derive(Clone, Debug)]
pub struct MentorRunConfig {
    pub positions: PositionsSource,
    pub mentor: MentorSpec,
    /// Further mentors: every mentor labels the positions, `combine` makes one label of them.
    pub extra_mentors: Vec<MentorSpec>,
    pub combine: Combine,
    pub depth: i32,
    pub set: ParamSet,
    /// Bit strings (the paper) or real vectors.
    pub genome: GenomeKind,
    /// Bit coding (bit genomes only).
    pub coding: Coding,
    /// Training positions drawn per generation.
    pub sample: usize,
    pub ga: GaSettings,
    pub out_dir: PathBuf,
    /// Label cache file (default `<out>/labels.tsv`).
    pub labels: Option<PathBuf>,
    pub resume: bool,
    pub progress: bool,
    /// UCI mentor processes (default: one per core).
    pub mentor_processes: usize,
    /// Run the fitness on Ray with these options (`None`: in process).
    pub ray: Option<RayOptions>,
}

/// The best organism's error against one mentor, and how far that mentor is from the
/// combined label (its disagreement with the crowd).
#[derive(Clone, Debug)]
pub struct MentorError {
    pub key: String,
    /// Best organism vs this mentor (train, test).
    pub organism: (f64, f64),
    /// This mentor vs the combined label (train, test).
    pub vs_combined: (f64, f64),
}

#[derive(Clone, Debug)]
pub struct MentorRunReport {
    /// The best any values of the evolved terms can do (least-absolute-deviation fit; for sets
    /// of at most `floor::MAX_TERMS` values).
    pub floor: Option<crate::mentor::floor::LinearFloor>,
    /// Per mentor (several mentors only): errors against each of them.
    pub per_mentor: Vec<MentorError>,
    pub mentor_key: String,
    /// Where the fitness ran, e.g. `in process` or `Ray, 2 workers`.
    pub executor: String,
    pub train_positions: usize,
    pub test_positions: usize,
    /// Positions left out: mentor saw a mate, or failed.
    pub dropped_mates: usize,
    pub dropped_failures: usize,
    pub labels: LabelStats,
    pub ga_seconds: f64,
    pub generations: usize,
    pub stop: StopReason,
    pub best: ParamValues,
    pub train_error: f64,
    pub test_error: f64,
    /// Mean error of the best organism of the random first generation (on its sample).
    pub first_generation_best: f64,
    /// Kestrel's hand-tuned static evaluation against the same labels (train, test).
    pub handtuned_error: (f64, f64),
    /// The hand-tuned values of the evolved set alone (every other term zero), (train, test).
    pub handtuned_set_error: (f64, f64),
    pub params_path: PathBuf,
    pub log_path: PathBuf,
    pub chart_path: PathBuf,
}

fn load_positions(cfg: &MentorRunConfig) -> Result<PositionSet, String> {
    match &cfg.positions {
        PositionsSource::Builtin => PositionSet::parse_epd(BUILTIN_POSITIONS)
            .map_err(|e| format!("built-in positions: {e}")),
        PositionsSource::Epd(path) => PositionSet::load(path),
        PositionsSource::Pgn { path, count, rules } => {
            let (boards, _) = extract_from_pgn(path, *count, rules, cfg.ga.seed)?;
            let set = PositionSet::split(boards, cfg.ga.seed);
            let out = cfg.out_dir.join("positions.epd");
            set.save(&out)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            Ok(set)
        }
    }
}

fn make_mentor(cfg: &MentorRunConfig, spec: &MentorSpec) -> Result<Box<dyn Mentor>, String> {
    Ok(match spec {
        MentorSpec::Builtin => Box::new(BuiltinMentor::new(cfg.depth)),
        MentorSpec::Uci(cmd) => Box::new(UciMentor::new(cmd, cfg.depth, cfg.mentor_processes)?),
    })
}

/// Keeps positions with a centipawn label; counts mates and failures.
fn keep_labelled(
    boards: Vec<Board>,
    labels: &[Option<Label>],
) -> (Vec<Board>, Vec<i32>, usize, usize) {
    let (mut kept, mut values, mut mates, mut failed) = (Vec::new(), Vec::new(), 0, 0);
    for (b, l) in boards.into_iter().zip(labels) {
        match l {
            Some(Label::Cp(cp)) => {
                kept.push(b);
                values.push(*cp);
            }
            Some(Label::Mate) => mates += 1,
            None => failed += 1,
        }
    }
    (kept, values, mates, failed)
}

/// A short hash of positions and labels, so a checkpoint is never resumed on other data.
fn data_hash(boards: &[Board], labels: &[i32]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (b, l) in boards.iter().zip(labels) {
        for byte in b.hash().to_le_bytes().into_iter().chain(l.to_le_bytes()) {
            h = (h ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Mean |static evaluation − label| of fixed parameters.
fn static_error(params: &ParamValues, boards: &[Board], labels: &[i32]) -> f64 {
    if boards.is_empty() {
        return f64::NAN;
    }
    let eval = Evaluator::new(params.clone());
    let total: i64 = boards
        .par_iter()
        .zip(labels)
        .map(|(b, &l)| (eval.evaluate_white(b) as i64 - l as i64).abs())
        .sum();
    total as f64 / boards.len() as f64
}

pub fn run_mentor(cfg: &MentorRunConfig) -> Result<MentorRunReport, String> {
    std::fs::create_dir_all(&cfg.out_dir)
        .map_err(|e| format!("cannot create {}: {e}", cfg.out_dir.display()))?;
    let LabelledData {
        key,
        keys,
        per_mentor,
        labels,
        label_stats,
        n_train,
        train,
        train_labels,
        test,
        test_labels,
        dropped_mates,
        dropped_failures,
    } = labelled_data(cfg)?;

    // Traces and fitness.
    let schema = cfg.set.schema(cfg.coding);
    let base = ParamValues::zeros(&EVAL_TABLE);
    let data_id = format!(
        "{key} | {:?} | data {:016x}",
        cfg.set,
        data_hash(&train, &train_labels)
    );
    let fitness = MentorFitness {
        schema: schema.clone(),
        train: LabelledSet::new(&train, train_labels.clone(), &schema, &base),
        sample: cfg.sample,
        data_id,
    };
    let test_set = LabelledSet::new(&test, test_labels.clone(), &schema, &base);
    let ray = match &cfg.ray {
        Some(opts) => Some(start_ray(cfg, opts, &fitness, &train, &train_labels)?),
        None => None,
    };
    let executor = ray.as_ref().map_or("in process".to_string(), |r| {
        format!("Ray, {} workers", r.workers())
    });

    // Evolution.
    let log_path = cfg.out_dir.join("log.csv");
    let chart_path = cfg.out_dir.join("evolution.svg");
    let start = Instant::now();
    let (history, stop, organisms) =
        evolve_organisms(cfg, &schema, &fitness, ray.as_ref(), &log_path)?;
    let ga_seconds = start.elapsed().as_secs_f64();
    drop(ray); // shuts Ray down before the final, in-process scoring
    write_chart(&chart_path, &history, "mean |error| vs mentor (cp)")?;

    // The final organism: the last generation's best on the whole training set.
    let train_errors = fitness.train.mean_errors(&organisms, None);
    let best = (0..train_errors.len())
        .min_by(|&a, &b| train_errors[a].total_cmp(&train_errors[b]).then(a.cmp(&b)))
        .expect("non-empty population");
    let k = schema.fields.len();
    let best_fields = &organisms[best * k..(best + 1) * k];
    let test_error = if test_set.is_empty() {
        f64::NAN
    } else {
        test_set.mean_errors(best_fields, None)[0]
    };
    let best_ints: Vec<i32> = best_fields.iter().map(|&v| v as i32).collect();
    let best_values = with_fields(&schema, &base, &best_ints);
    let params_path = cfg.out_dir.join("best.toml");
    ParamsFile::save(&params_path, &[&best_values])
        .map_err(|e| format!("cannot write {}: {e}", params_path.display()))?;
    let per_mentor = per_mentor_errors(
        &keys,
        &per_mentor,
        &labels,
        n_train,
        (&train, &test),
        (&train_labels, &test_labels),
        &best_values,
    );
    let handtuned = ParamValues::defaults(&EVAL_TABLE);
    let handtuned_set = schema.decode(&schema.encode(&handtuned), &base);
    let floor = (schema.fields.len() <= crate::mentor::floor::MAX_TERMS).then(|| {
        crate::mentor::floor::linear_floor(
            &schema,
            (&train, &train_labels),
            (&test, &test_labels),
            30,
        )
    });
    Ok(MentorRunReport {
        floor,
        per_mentor,
        mentor_key: key,
        executor,
        train_positions: train.len(),
        test_positions: test.len(),
        dropped_mates,
        dropped_failures,
        labels: label_stats,
        ga_seconds,
        generations: history.len(),
        stop,
        best: best_values,
        train_error: train_errors[best],
        test_error,
        first_generation_best: history[0].best_objective,
        handtuned_error: (
            static_error(&handtuned, &train, &train_labels),
            static_error(&handtuned, &test, &test_labels),
        ),
        handtuned_set_error: (
            static_error(&handtuned_set, &train, &train_labels),
            static_error(&handtuned_set, &test, &test_labels),
        ),
        params_path,
        log_path,
        chart_path,
    })
}

/// A run's positions with their mentors' labels, those without a centipawn label dropped.
struct LabelledData {
    /// The label key of the mentor, or of the combination of several.
    key: String,
    /// Each mentor's label key.
    keys: Vec<String>,
    /// Each mentor's labels of every position (training positions first).
    per_mentor: Vec<Vec<Option<Label>>>,
    /// The combined labels of every position.
    labels: Vec<Option<Label>>,
    label_stats: LabelStats,
    /// Training positions before any was dropped.
    n_train: usize,
    train: Vec<Board>,
    train_labels: Vec<i32>,
    test: Vec<Board>,
    test_labels: Vec<i32>,
    /// Positions dropped because a mentor saw a mate.
    dropped_mates: usize,
    /// Positions dropped because no mentor gave a score.
    dropped_failures: usize,
}

/// Loads the positions, labels them with every mentor and keeps the labelled ones.
fn labelled_data(cfg: &MentorRunConfig) -> Result<LabelledData, String> {
    let positions = load_positions(cfg)?;
    let all: Vec<Board> = positions
        .train
        .iter()
        .chain(&positions.test)
        .cloned()
        .collect();
    let (keys, per_mentor, label_stats) = label_all(cfg, &all)?;
    let key = match keys.len() {
        1 => keys[0].clone(),
        _ => format!("{:?}({})", cfg.combine, keys.join(", ")).to_lowercase(),
    };
    let labels = combine_labels(&per_mentor, cfg.combine);
    let n_train = positions.train.len();
    let (train, train_labels, m1, f1) = keep_labelled(positions.train, &labels[..n_train]);
    let (test, test_labels, m2, f2) = keep_labelled(positions.test, &labels[n_train..]);
    if train.is_empty() {
        return Err("no training position has a centipawn label".into());
    }
    Ok(LabelledData {
        key,
        keys,
        per_mentor,
        labels,
        label_stats,
        n_train,
        train,
        train_labels,
        test,
        test_labels,
        dropped_mates: m1 + m2,
        dropped_failures: f1 + f2,
    })
}

/// Runs the GA in the genome `cfg` names, on Ray when `ray` is given: the generations' figures,
/// why it stopped and the last population's field values (organism-major).
fn evolve_organisms(
    cfg: &MentorRunConfig,
    schema: &BitSchema,
    fitness: &MentorFitness,
    ray: Option<&RayExecutor>,
    log_path: &std::path::Path,
) -> Result<(Vec<GenerationStats>, StopReason, Vec<f64>), String> {
    match cfg.genome {
        GenomeKind::Bits => {
            let space = BitSpace {
                len: schema.bit_len(),
            };
            let exec: &dyn Executor<BitGenome> = match ray {
                Some(r) => r,
                None => &InProcessExecutor,
            };
            let out = evolve::<BitGenome>(cfg, &space, fitness, exec, log_path)?;
            Ok((
                out.history,
                out.stop,
                organism_matrix(schema, &out.population),
            ))
        }
        GenomeKind::Real => {
            let exec: &dyn Executor<RealGenome> = match ray {
                Some(r) => r,
                None => &InProcessExecutor,
            };
            let space = real_space(schema);
            let out = evolve::<RealGenome>(cfg, &space, fitness, exec, log_path)?;
            Ok((
                out.history,
                out.stop,
                organism_matrix(schema, &out.population),
            ))
        }
    }
}

/// Labels `boards` with every mentor (each through the label cache): keys, labels per mentor,
/// and the labelling work summed over mentors.
#[allow(clippy::type_complexity)]
fn label_all(
    cfg: &MentorRunConfig,
    boards: &[Board],
) -> Result<(Vec<String>, Vec<Vec<Option<Label>>>, LabelStats), String> {
    let cache_path = cfg
        .labels
        .clone()
        .unwrap_or_else(|| cfg.out_dir.join("labels.tsv"));
    let (mut keys, mut per_mentor) = (Vec::new(), Vec::new());
    let mut total = LabelStats::default();
    for spec in std::iter::once(&cfg.mentor).chain(&cfg.extra_mentors) {
        let mut mentor = make_mentor(cfg, spec)?;
        let key = mentor.key();
        let mut cache = LabelCache::open(&cache_path, &key)?;
        let pb = progress_bar(cfg.progress, boards.len() as u64, "labelling");
        let (labels, stats) = label_positions(
            boards,
            mentor.as_mut(),
            &mut cache,
            500,
            &mut |done, todo| {
                pb.set_length(todo as u64);
                pb.set_position(done as u64);
            },
        )?;
        pb.finish_and_clear();
        total.cached += stats.cached;
        total.computed += stats.computed;
        total.failed += stats.failed;
        total.seconds += stats.seconds;
        keys.push(key);
        per_mentor.push(labels);
    }
    Ok((keys, per_mentor, total))
}

/// With several mentors: the best organism's error against each, and each mentor's distance
/// from the combined label, on the kept train and test positions.
fn per_mentor_errors(
    keys: &[String],
    per_mentor: &[Vec<Option<Label>>],
    combined: &[Option<Label>],
    n_train: usize,
    boards: (&[Board], &[Board]),
    combined_kept: (&[i32], &[i32]),
    best: &ParamValues,
) -> Vec<MentorError> {
    if keys.len() < 2 {
        return Vec::new();
    }
    let keep: Vec<bool> = combined
        .iter()
        .map(|l| matches!(l, Some(Label::Cp(_))))
        .collect();
    keys.iter()
        .zip(per_mentor)
        .map(|(key, labels)| {
            let train = kept_scores(&labels[..n_train], &keep[..n_train]);
            let test = kept_scores(&labels[n_train..], &keep[n_train..]);
            MentorError {
                key: key.clone(),
                organism: (
                    static_error(best, boards.0, &train),
                    static_error(best, boards.1, &test),
                ),
                vs_combined: (
                    mean_abs_diff(&train, combined_kept.0),
                    mean_abs_diff(&test, combined_kept.1),
                ),
            }
        })
        .collect()
}

/// Ships the fitness as a spec (positions and labels as one blob) and starts the Ray executor.
fn start_ray(
    cfg: &MentorRunConfig,
    opts: &RayOptions,
    fitness: &MentorFitness,
    train: &[Board],
    labels: &[i32],
) -> Result<RayExecutor, String> {
    let spec = MentorFitnessSpec {
        genome: cfg.genome,
        set: cfg.set,
        coding: cfg.coding,
        sample: cfg.sample,
        data_id: fitness.data_id.clone(),
        train: MentorFitnessSpec::store_train(train, labels, &BlobStore::new(&opts.blob_dir))?,
    };
    RayExecutor::start(opts, spec.tagged())
}

/// Runs the GA with genome `G`, logging every generation and checkpointing to `OUT`.
fn evolve<G: Organism>(
    cfg: &MentorRunConfig,
    space: &G::Space,
    fitness: &MentorFitness,
    executor: &dyn Executor<G>,
    log_path: &std::path::Path,
) -> Result<GaOutcome<G>, String> {
    let run = GaRun {
        settings: cfg.ga.clone(),
        space,
        fitness,
        executor,
        checkpoint: Some(cfg.out_dir.join("checkpoint.json")),
        resume: cfg.resume,
        seed_population: None,
    };
    run_logged(
        &run,
        cfg.progress,
        log_path,
        &|stats| {
            format!(
                "best {:.1} cp, mean {:.1} cp",
                stats.best_objective, stats.mean_objective
            )
        },
        &mut |_| Vec::new(),
    )
}
