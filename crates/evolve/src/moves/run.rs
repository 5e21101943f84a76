//! The whole move-learning experiment: PGN → positions with the played moves → child leaves
//! traced → GA from random → best organism, with its agreement on train and test beside
//! references (Kestrel's hand-tuned evaluation, a random organism, a random move).

use crate::mentor::fitness::organism_matrix;
use crate::mentor::organism::{GenomeKind, Organism, real_space, with_fields};
use crate::mentor::paper_match::random_organism;
use crate::mentor::run::ParamSet;
use crate::moves::data::{MoveExtract, MoveExtractStats, MoveSet, extract_moves};
use crate::moves::fitness::{ChildSet, MovesFitness};
use crate::moves::remote::{MovesRemoteSpec, store_positions};
use crate::moves::search_fitness::{SearchMovesFitness, searched_agreement};
use crate::progress::run_logged;
use kestrel_eval::{EVAL_TABLE, Evaluator};
use kestrel_ga::cluster::{FitnessExecutor, FitnessSpec, RayOptions};
use kestrel_ga::{
    BitGenome, BitSpace, FitnessFunction, GaOutcome, GaRun, GaSettings, RealGenome, StopReason,
    write_chart,
};
use kestrel_params::{BitSchema, Coding, ParamValues, ParamsFile};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Everything a move-learning run needs.
#[derive(Clone, Debug)]
pub struct MovesRunConfig {
    /// The PGN file the positions and played moves come from.
    pub pgn: PathBuf,
    /// How many games and positions to take, and whose moves.
    pub extract: MoveExtract,
    /// 1: one ply plus quiescence, scored by matrix products; more: real alpha-beta searches
    /// of every organism (slow).
    pub depth: i32,
    /// Longest capture line followed to a leaf (0: the children themselves).
    pub max_captures: i32,
    /// Which evaluation values evolve.
    pub set: ParamSet,
    /// Bit or real genomes.
    pub genome: GenomeKind,
    /// Bit coding of the schema (bit genomes only).
    pub coding: Coding,
    /// Training positions per generation (0: all).
    pub sample: usize,
    /// The GA's settings (population, operators, stop rules, seed).
    pub ga: GaSettings,
    /// Output folder for `best.toml`, `log.csv`, `evolution.svg` and `checkpoint.json`.
    pub out_dir: PathBuf,
    /// Continue the GA from the checkpoint in `out_dir`.
    pub resume: bool,
    /// Show a progress bar of the generations.
    pub progress: bool,
    /// Seed of the random reference organism.
    pub random_seed: u64,
    /// Run the fitness on Ray with these options (`None`: in process).
    pub ray: Option<RayOptions>,
}

/// Agreement (%) on train and test.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Agreement on the training positions (%).
    pub train: f64,
    /// Agreement on the test positions (%).
    pub test: f64,
}

/// What a run found.
#[derive(Clone, Debug)]
pub struct MovesRunReport {
    /// What the PGN extraction read.
    pub extract: MoveExtractStats,
    /// Positions in the training half.
    pub train_positions: usize,
    /// Positions in the test half.
    pub test_positions: usize,
    /// Legal moves over all positions (leaf rows).
    pub leaves: usize,
    /// Seconds spent extracting positions and tracing their leaves.
    pub prepare_seconds: f64,
    /// Seconds the GA ran.
    pub ga_seconds: f64,
    /// Where the fitness ran, e.g. `in process` or `Ray, 2 workers`.
    pub executor: String,
    /// Generations evaluated (the length of the GA's history).
    pub generations: usize,
    /// Why the GA stopped.
    pub stop: StopReason,
    /// The last generation's best organism on the whole training set, as a full parameter set.
    pub best: ParamValues,
    /// The evolved organism's agreement on the 1-ply leaves.
    pub evolved: Agreement,
    /// Kestrel's full hand-tuned evaluation on the same leaves.
    pub expert: Agreement,
    /// The hand-tuned values of the evolved set alone.
    pub expert_set: Agreement,
    /// A random organism of the evolved set (`random_seed`).
    pub random: Agreement,
    /// A uniformly random legal move.
    pub chance: Agreement,
    /// With `depth` > 1: the evolved organism's and Kestrel's full evaluation's agreement when
    /// they really search at that depth (the rows above score 1-ply leaves).
    pub searched: Option<(Agreement, Agreement)>,
    /// The written `best.toml` (the best organism's values).
    pub params_path: PathBuf,
    /// The written per-generation log, `log.csv`.
    pub log_path: PathBuf,
    /// The written evolution chart, `evolution.svg`.
    pub chart_path: PathBuf,
}

/// A short hash of the positions and played moves, so a checkpoint never resumes on other data.
fn data_hash(set: &MoveSet) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in &set.train {
        let mv = p.played.to_string();
        for byte in p.board.hash().to_le_bytes().iter().chain(mv.as_bytes()) {
            h = (h ^ *byte as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The evolved set's schema with every other term zero (the organisms' evaluation).
pub fn base_values() -> ParamValues {
    ParamValues::zeros(&EVAL_TABLE)
}

/// Runs the experiment and writes `best.toml`, `log.csv`, `evolution.svg` to the out folder.
pub fn run_moves(cfg: &MovesRunConfig) -> Result<MovesRunReport, String> {
    if cfg.depth < 1 {
        return Err("the search depth must be at least 1".into());
    }
    std::fs::create_dir_all(&cfg.out_dir)
        .map_err(|e| format!("cannot create {}: {e}", cfg.out_dir.display()))?;
    let start = Instant::now();
    let (data, extract) = extract_moves(&cfg.pgn, &cfg.extract)?;
    let schema = cfg.set.schema(cfg.coding);
    let base = base_values();
    let expert = Evaluator::new(ParamValues::defaults(&EVAL_TABLE));
    let train = ChildSet::build(&data.train, &schema, &base, &expert, cfg.max_captures);
    let test = ChildSet::build(&data.test, &schema, &base, &expert, cfg.max_captures);
    let prepare_seconds = start.elapsed().as_secs_f64();
    let data_id = format!(
        "{:?} | d{} q{} | data {:016x}",
        cfg.set,
        cfg.depth,
        cfg.max_captures,
        data_hash(&data)
    );
    let leaves = train.leaf_count() + test.leaf_count();
    let handtuned = ParamValues::defaults(&EVAL_TABLE);
    let expert_agreement = agreement_of(&train, &test, &handtuned);
    let expert_set = agreement_of(
        &train,
        &test,
        &schema.decode(&schema.encode(&handtuned), &base),
    );
    let random = agreement_of(&train, &test, &random_in(&schema, cfg.random_seed));
    let chance = Agreement {
        train: 100.0 * train.chance(),
        test: 100.0 * test.chance(),
    };

    let log_path = cfg.out_dir.join("log.csv");
    let chart_path = cfg.out_dir.join("evolution.svg");
    let executor = FitnessExecutor::start(cfg.ray.as_ref(), |store| {
        let spec = MovesRemoteSpec {
            genome: cfg.genome,
            set: cfg.set,
            coding: cfg.coding,
            depth: cfg.depth,
            max_captures: cfg.max_captures,
            sample: cfg.sample,
            data_id: data_id.clone(),
            train: store_positions(&data.train, store)?,
        };
        Ok(spec.tagged())
    })?;
    let ga_start = Instant::now();
    let ((history, stop, organisms), train) = if cfg.depth == 1 {
        let fitness = MovesFitness {
            schema: schema.clone(),
            train,
            sample: cfg.sample,
            data_id,
        };
        (
            evolve_kind(cfg, &schema, &fitness, &executor, &log_path)?,
            fitness.train,
        )
    } else {
        let fitness = SearchMovesFitness {
            schema: schema.clone(),
            positions: data.train.clone(),
            depth: cfg.depth,
            sample: cfg.sample,
            data_id,
        };
        (
            evolve_kind(cfg, &schema, &fitness, &executor, &log_path)?,
            train,
        )
    };
    let ga_seconds = ga_start.elapsed().as_secs_f64();
    let executor_name = executor.describe();
    drop(executor); // shuts Ray down before the final, in-process scoring
    write_chart(&chart_path, &history, "move agreement (%)")?;

    let best_values = best_on_train(&train, &organisms, &schema, &base);
    let evolved = agreement_of(&train, &test, &best_values);
    let searched = (cfg.depth > 1).then(|| {
        (
            searched_agreements(&data, &best_values, cfg.depth),
            searched_agreements(&data, &ParamValues::defaults(&EVAL_TABLE), cfg.depth),
        )
    });
    let params_path = cfg.out_dir.join("best.toml");
    ParamsFile::save(&params_path, &[&best_values])
        .map_err(|e| format!("cannot write {}: {e}", params_path.display()))?;
    Ok(MovesRunReport {
        extract,
        train_positions: data.train.len(),
        test_positions: data.test.len(),
        leaves,
        prepare_seconds,
        ga_seconds,
        executor: executor_name,
        generations: history.len(),
        stop,
        best: best_values,
        evolved,
        expert: expert_agreement,
        expert_set,
        random,
        chance,
        searched,
        params_path,
        log_path,
        chart_path,
    })
}

/// The last generation's best organism on the whole training set (1-ply leaves; the first on
/// ties), as a full parameter set. `organisms` holds the field values organism by organism.
fn best_on_train(
    train: &ChildSet,
    organisms: &[f64],
    schema: &BitSchema,
    base: &ParamValues,
) -> ParamValues {
    let train_matches = train.matches(organisms, None);
    let best = (0..train_matches.len())
        .max_by(|&a, &b| {
            train_matches[a]
                .total_cmp(&train_matches[b])
                .then(b.cmp(&a))
        })
        .expect("non-empty population");
    let k = schema.fields.len();
    let best_fields: Vec<i32> = organisms[best * k..(best + 1) * k]
        .iter()
        .map(|&v| v as i32)
        .collect();
    with_fields(schema, base, &best_fields)
}

/// How often `values` searched to `depth` plays the grandmaster's move, on both sets.
fn searched_agreements(data: &MoveSet, values: &ParamValues, depth: i32) -> Agreement {
    Agreement {
        train: searched_agreement(values, &data.train, depth),
        test: searched_agreement(values, &data.test, depth),
    }
}

/// Agreement (%) of fixed parameters on the train and test leaves.
fn agreement_of(train: &ChildSet, test: &ChildSet, params: &ParamValues) -> Agreement {
    let eval = Evaluator::new(params.clone());
    let percent = |set: &ChildSet| 100.0 * set.matches_of(&eval) / set.len().max(1) as f64;
    Agreement {
        train: percent(train),
        test: percent(test),
    }
}

/// A random organism of `schema` (bit genome drawn as generation 0 would), other terms zero.
fn random_in(schema: &BitSchema, seed: u64) -> ParamValues {
    if schema.fields.len() == ParamSet::Compact.schema(Coding::Binary).fields.len() {
        return random_organism(seed);
    }
    use kestrel_ga::Genome;
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let g = BitGenome::random(
        &BitSpace {
            len: schema.bit_len(),
        },
        &mut rng,
    );
    schema.decode(&g.0, &base_values())
}

type Evolved = (Vec<kestrel_ga::GenerationStats>, StopReason, Vec<f64>);

/// Runs the GA with the configured genome kind; returns history, stop reason and the final
/// population's evolved values (m × k).
fn evolve_kind<F>(
    cfg: &MovesRunConfig,
    schema: &BitSchema,
    fitness: &F,
    executor: &FitnessExecutor,
    log_path: &Path,
) -> Result<Evolved, String>
where
    F: FitnessFunction<BitGenome> + FitnessFunction<RealGenome>,
{
    Ok(match cfg.genome {
        GenomeKind::Bits => {
            let space = BitSpace {
                len: schema.bit_len(),
            };
            let out: GaOutcome<BitGenome> = evolve(cfg, &space, fitness, executor, log_path)?;
            (
                out.history,
                out.stop,
                organism_matrix(schema, &out.population),
            )
        }
        GenomeKind::Real => {
            let out: GaOutcome<RealGenome> =
                evolve(cfg, &real_space(schema), fitness, executor, log_path)?;
            (
                out.history,
                out.stop,
                organism_matrix(schema, &out.population),
            )
        }
    })
}

/// Runs the GA with genome `G`, logging every generation and checkpointing to the out folder.
fn evolve<G: Organism>(
    cfg: &MovesRunConfig,
    space: &G::Space,
    fitness: &dyn FitnessFunction<G>,
    executor: &FitnessExecutor,
    log_path: &Path,
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
                "best {:.1}%, mean {:.1}%",
                stats.best_objective, stats.mean_objective
            )
        },
        &mut |_| Vec::new(),
    )
}
