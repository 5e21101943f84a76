//! The generational loop: evaluate, log, checkpoint, select, recombine, mutate, repeat.

use crate::{
    BackgroundWriter, Checkpoint, Evaluation, Executor, FitnessFunction, FitnessJob, GaSettings,
    GenerationStats, Genome, Purpose, Selector, fittest_first, stream_rng,
};
use rand::Rng;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;
use thiserror::Error;

/// Why a GA run failed.
#[derive(Debug, Error)]
pub enum GaError {
    /// The settings cannot run (fail [`GaSettings::validate`] or the genome's check).
    #[error("invalid GA settings: {0}")]
    Settings(String),
    /// A checkpoint could not be read, matched to this run, or written.
    #[error("{0}")]
    Checkpoint(String),
    /// The executor could not score a generation.
    #[error("fitness evaluation failed: {0}")]
    Fitness(String),
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The configured number of generations was evaluated.
    Generations,
    /// The best fitness reached the configured threshold.
    FitnessThreshold,
    /// The best fitness did not improve for the configured number of generations.
    Stalled,
    /// The observer asked to stop; the checkpoint allows `resume`.
    Interrupted,
}

/// The last evaluated generation.
#[derive(Clone, Debug)]
pub struct GaOutcome<G> {
    /// The last evaluated generation's organisms.
    pub population: Vec<G>,
    /// Their evaluations, in the same order.
    pub evaluations: Vec<Evaluation>,
    /// Statistics of every generation of the run, oldest first.
    pub history: Vec<GenerationStats>,
    /// Which termination rule ended the run.
    pub stop: StopReason,
}

impl<G> GaOutcome<G> {
    /// Index of the fittest organism of the last generation (first one on ties).
    pub fn best_index(&self) -> usize {
        best_index(&self.evaluations)
    }
}

/// What the observer sees after each evaluated generation.
pub struct GenerationView<'a, G> {
    /// This generation's statistics (also the last entry of `history`).
    pub stats: &'a GenerationStats,
    /// Statistics of every generation so far, oldest first.
    pub history: &'a [GenerationStats],
    /// This generation's organisms.
    pub population: &'a [G],
    /// Their evaluations, in the same order.
    pub evaluations: &'a [Evaluation],
}

impl<G> GenerationView<'_, G> {
    /// Index of this generation's fittest organism (the first on a tie).
    pub fn best_index(&self) -> usize {
        best_index(self.evaluations)
    }
}

/// One GA run: settings, genome space, fitness and where to compute it.
pub struct GaRun<'a, G: Genome> {
    /// Population, operators, termination and seed of the run.
    pub settings: GaSettings,
    /// What every genome of the run shares (length, bounds).
    pub space: &'a G::Space,
    /// Scores each generation.
    pub fitness: &'a dyn FitnessFunction<G>,
    /// Where the fitness is computed (in process or on cluster workers).
    pub executor: &'a dyn Executor<G>,
    /// Where the state is saved after every generation.
    pub checkpoint: Option<PathBuf>,
    /// Continue from `checkpoint` when it exists.
    pub resume: bool,
    /// Generation 0 to start from (defaults, parents and their children, ...) instead of
    /// random organisms; not used when the run resumes from a checkpoint.
    pub seed_population: Option<Vec<G>>,
}

fn best_index(evals: &[Evaluation]) -> usize {
    let mut best = 0;
    for (i, e) in evals.iter().enumerate() {
        if e.fitness > evals[best].fitness {
            best = i;
        }
    }
    best
}

impl<G: Genome> GaRun<'_, G> {
    /// Runs to termination; `observe` may return `Break` to stop after the checkpoint is saved.
    pub fn run(
        &self,
        observe: &mut dyn FnMut(&GenerationView<G>) -> ControlFlow<()>,
    ) -> Result<GaOutcome<G>, GaError> {
        let s = &self.settings;
        s.validate().map_err(GaError::Settings)?;
        G::check(self.space, s).map_err(GaError::Settings)?;
        let mut state = self.initial_state()?;
        // Checkpoints are written in order on another thread while the next generation runs;
        // a kill leaves the last completed one (at most one generation behind).
        let writer = BackgroundWriter::new();
        let mut mark = Instant::now();
        loop {
            let generation = state.next_generation;
            let sample_seed: u64 = stream_rng(s.seed, generation, Purpose::Sample).random();
            let job = FitnessJob {
                generation,
                sample_seed,
                genomes: std::mem::take(&mut state.population),
            };
            let evals = self
                .executor
                .run(self.fitness, &job)
                .map_err(GaError::Fitness)?;
            let population = job.genomes;
            let best = best_index(&evals);
            let n = evals.len() as f64;
            let stats = GenerationStats {
                generation,
                best_objective: evals[best].objective,
                mean_objective: evals.iter().map(|e| e.objective).sum::<f64>() / n,
                best_fitness: evals[best].fitness,
                mean_fitness: evals.iter().map(|e| e.fitness).sum::<f64>() / n,
                diversity: G::diversity(&population, self.space),
                seconds: mark.elapsed().as_secs_f64(),
            };
            mark = Instant::now();
            if state.best_fitness.is_none_or(|b| stats.best_fitness > b) {
                state.best_fitness = Some(stats.best_fitness);
                state.best_generation = generation;
            }
            state.history.push(stats.clone());
            let flow = observe(&GenerationView {
                stats: &stats,
                history: &state.history,
                population: &population,
                evaluations: &evals,
            });
            let t = &s.termination;
            let stop = if generation + 1 >= t.generations {
                Some(StopReason::Generations)
            } else if t.fitness_threshold.is_some_and(|f| stats.best_fitness >= f) {
                Some(StopReason::FitnessThreshold)
            } else if t
                .stall_generations
                .is_some_and(|k| generation - state.best_generation >= k)
            {
                Some(StopReason::Stalled)
            } else {
                None
            };
            if let Some(stop) = stop {
                writer.finish().map_err(GaError::Checkpoint)?;
                return Ok(GaOutcome {
                    population,
                    evaluations: evals,
                    history: state.history,
                    stop,
                });
            }
            state.population = self.breed(&population, &evals, generation);
            state.next_generation = generation + 1;
            if let Some(path) = &self.checkpoint {
                writer
                    .write(path.clone(), state.to_json())
                    .map_err(GaError::Checkpoint)?;
            }
            if flow.is_break() {
                writer.finish().map_err(GaError::Checkpoint)?;
                return Ok(GaOutcome {
                    population,
                    evaluations: evals,
                    history: state.history,
                    stop: StopReason::Interrupted,
                });
            }
        }
    }

    fn initial_state(&self) -> Result<Checkpoint<G>, GaError> {
        let s = &self.settings;
        if self.resume
            && let Some(path) = self.checkpoint.as_ref().filter(|p| !p.exists())
        {
            // Starting afresh silently would look like a resumed run.
            return Err(GaError::Checkpoint(format!(
                "--resume: there is no checkpoint {}; run without --resume to start afresh",
                path.display()
            )));
        }
        if self.resume
            && let Some(path) = self.checkpoint.as_ref().filter(|p| p.exists())
        {
            let cp = Checkpoint::<G>::load(path).map_err(GaError::Checkpoint)?;
            clean_temps_beside(path);
            if cp.settings != *s {
                return Err(GaError::Checkpoint(format!(
                    "checkpoint {} was made with other GA settings; resume with the same \
                     options or start afresh without --resume",
                    path.display()
                )));
            }
            if cp.fitness != self.fitness.fingerprint() {
                return Err(GaError::Checkpoint(format!(
                    "checkpoint {} was made with other fitness data ({}); resume with the \
                     same data or start afresh without --resume",
                    path.display(),
                    cp.fitness
                )));
            }
            if cp.population.len() != s.population {
                return Err(GaError::Checkpoint(
                    "checkpoint population size differs".into(),
                ));
            }
            return Ok(cp);
        }
        if let Some(population) = &self.seed_population {
            if population.len() != s.population {
                return Err(GaError::Checkpoint(format!(
                    "the seed population holds {} organisms, the settings {}",
                    population.len(),
                    s.population
                )));
            }
            let fingerprint = self.fitness.fingerprint();
            return Ok(Checkpoint::initial(
                s.clone(),
                fingerprint,
                population.clone(),
            ));
        }
        let mut rng = stream_rng(s.seed, 0, Purpose::Init);
        Ok(Checkpoint::initial(
            s.clone(),
            self.fitness.fingerprint(),
            (0..s.population)
                .map(|_| G::random(self.space, &mut rng))
                .collect(),
        ))
    }

    /// The next generation: the elite unchanged, then offspring of selected parents.
    fn breed(&self, population: &[G], evals: &[Evaluation], generation: u64) -> Vec<G> {
        let s = &self.settings;
        let mut rng = stream_rng(s.seed, generation, Purpose::Breed);
        let fitness: Vec<f64> = evals.iter().map(|e| e.fitness).collect();
        let ranked = fittest_first(|i| fitness[i], population.len());
        let mut next: Vec<G> = ranked[..s.elitism]
            .iter()
            .map(|&i| population[i].clone())
            .collect();
        let selector = Selector::new(s.selection, &fitness);
        let step = s
            .mutation_step
            .map(|st| st.at(generation, s.termination.generations));
        while next.len() < s.population {
            let a = &population[selector.pick(&mut rng)];
            let b = &population[selector.pick(&mut rng)];
            let (mut c, mut d) = if rng.random_bool(s.crossover_rate) {
                a.crossover(b, self.space, s.crossover, &mut rng)
            } else {
                (a.clone(), b.clone())
            };
            c.mutate(self.space, s.mutation_rate, step, &mut rng);
            d.mutate(self.space, s.mutation_rate, step, &mut rng);
            next.push(c);
            if next.len() < s.population {
                next.push(d);
            }
        }
        next
    }
}

/// Removes the temporary files a killed run left beside its checkpoint (and says so).
fn clean_temps_beside(checkpoint: &std::path::Path) {
    let dir = checkpoint
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    kestrel_params::atomic::clean_stale_temps(dir);
}
