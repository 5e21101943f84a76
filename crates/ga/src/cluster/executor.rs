//! The executor a GA command runs its fitness on, chosen by `--executor`: in process or Ray.

use crate::cluster::blobs::BlobStore;
use crate::cluster::protocol::TaggedSpec;
use crate::cluster::ray::{RayExecutor, RayOptions};
use crate::{
    Evaluation, Executor, FitnessFunction, FitnessJob, Genome, InProcessExecutor, TaskResult,
};

/// In process or on Ray, for any genome type.
pub enum FitnessExecutor {
    /// On this process's rayon pool.
    InProcess,
    /// On Ray workers, through the `kestrel_ray` driver.
    Ray(RayExecutor),
}

impl FitnessExecutor {
    /// In process when `ray` is `None`; else starts Ray with the spec that `spec` builds
    /// (storing its large inputs in the leader's blob folder).
    pub fn start(
        ray: Option<&RayOptions>,
        spec: impl FnOnce(&BlobStore) -> Result<TaggedSpec, String>,
    ) -> Result<Self, String> {
        match ray {
            None => Ok(FitnessExecutor::InProcess),
            Some(opts) => {
                let spec = spec(&BlobStore::new(&opts.blob_dir))?;
                Ok(FitnessExecutor::Ray(RayExecutor::start(opts, spec)?))
            }
        }
    }

    /// Where the fitness runs, e.g. `in process` or `Ray, 2 workers`.
    pub fn describe(&self) -> String {
        match self {
            FitnessExecutor::InProcess => "in process".into(),
            FitnessExecutor::Ray(r) => format!("Ray, {} workers", r.workers()),
        }
    }
}

impl<G: Genome> Executor<G> for FitnessExecutor {
    fn run(
        &self,
        fitness: &dyn FitnessFunction<G>,
        job: &FitnessJob<G>,
    ) -> Result<Vec<Evaluation>, String> {
        match self {
            FitnessExecutor::InProcess => InProcessExecutor.run(fitness, job),
            FitnessExecutor::Ray(r) => r.run(fitness, job),
        }
    }

    fn run_tasks(
        &self,
        fitness: &dyn FitnessFunction<G>,
        job: &FitnessJob<G>,
    ) -> Result<Vec<TaskResult>, String> {
        match self {
            FitnessExecutor::InProcess => InProcessExecutor.run_tasks(fitness, job),
            FitnessExecutor::Ray(r) => r.run_tasks(fitness, job),
        }
    }
}
