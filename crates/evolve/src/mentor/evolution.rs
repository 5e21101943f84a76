//! The mentor run's GA: bit strings or real vectors, in process or on Ray, logged and
//! checkpointed in the output folder.

use crate::mentor::fitness::{MentorFitness, organism_matrix};
use crate::mentor::organism::{GenomeKind, Organism, real_space};
use crate::mentor::remote::MentorFitnessSpec;
use crate::mentor::settings::MentorRunConfig;
use crate::progress::run_logged;
use kestrel_chess::Board;
use kestrel_ga::cluster::{BlobStore, FitnessSpec, RayExecutor, RayOptions};
use kestrel_ga::{
    BitGenome, BitSpace, Executor, GaOutcome, GaRun, GenerationStats, InProcessExecutor,
    RealGenome, StopReason,
};
use kestrel_params::BitSchema;

/// Runs the GA in the genome `cfg` names, on Ray when `ray` is given: the generations' figures,
/// why it stopped and the last population's field values (organism-major).
pub(super) fn evolve_organisms(
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

/// Ships the fitness as a spec (positions and labels as one blob) and starts the Ray executor.
pub(super) fn start_ray(
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
