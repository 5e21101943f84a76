//! The steady-state MNC loop: play the generation's tournament, log, check the stop rules,
//! breed `offspring` children one at a time (crowding selection, worst-among-most-similar
//! replacement), checkpoint, repeat. Every random draw comes from the core's per-generation
//! streams, so a resumed run equals an uninterrupted one.

use crate::mnc::crowding::{crowding_mate, worst_among_most_similar};
use crate::mnc::niches::{Niche, find_niches};
use crate::mnc::settings::{MncInit, MncSettings};
use crate::mnc::state::{Birth, MncCheckpoint, MncLine, Organism};
use crate::mnc::tables::{VALUE_MAX, VALUE_MIN, distance, kestrel_chromosome, pst_space};
use kestrel_ga::{
    BackgroundWriter, Evaluation, Executor, FitnessFunction, FitnessJob, Genome, Purpose,
    RealGenome, RealSpace, stream_rng,
};
use rand::Rng;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MncStop {
    /// The generation limit was reached.
    Generations,
    /// The best organism stayed the same for `best_unchanged` generations.
    BestUnchanged,
    /// The best chromosome moved less than the small-change threshold for long enough.
    SmallChange,
    /// The caller's observer asked to stop (the checkpoint is written first).
    Interrupted,
}

impl MncStop {
    /// A short name for logs and the database.
    pub fn name(&self) -> &'static str {
        match self {
            MncStop::Generations => "generations",
            MncStop::BestUnchanged => "best unchanged",
            MncStop::SmallChange => "best changed less than the threshold",
            MncStop::Interrupted => "interrupted",
        }
    }
}

/// The final state: population (evaluated), niches, and the whole checkpoint.
#[derive(Clone, Debug)]
pub struct MncOutcome {
    /// The checkpoint as saved at the end (history, births, counters).
    pub state: MncCheckpoint,
    /// The last evaluated population (before breeding).
    pub population: Vec<Organism>,
    /// Niches of the last evaluated population, leaders' niches in order of fitness.
    pub niches: Vec<Niche>,
    /// Why the run ended.
    pub stop: MncStop,
}

/// One MNC run.
pub struct MncRun<'a> {
    /// The MNC settings (population, operators, stop rules, seed).
    pub settings: MncSettings,
    /// Scores each generation's organisms (fitness = mean points per game).
    pub fitness: &'a dyn FitnessFunction<RealGenome>,
    /// Runs the fitness evaluations (in process or on cluster workers).
    pub executor: &'a dyn Executor<RealGenome>,
    /// Where the checkpoint is written after every generation (`None`: no checkpoint).
    pub checkpoint: Option<PathBuf>,
    /// Continue from `checkpoint`; errs when it is missing or was made with other settings.
    pub resume: bool,
}

/// Population indices, fittest first (ties: higher lifetime score, then older).
pub fn fitness_order(population: &[Organism]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..population.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&population[a], &population[b]);
        y.fitness
            .total_cmp(&x.fitness)
            .then(y.lifetime_score().total_cmp(&x.lifetime_score()))
            .then(x.id.cmp(&y.id))
    });
    order
}

impl MncRun<'_> {
    /// Runs to a stop rule; `observe` sees each generation's line and may stop the run (the
    /// checkpoint then allows `resume`).
    pub fn run(
        &self,
        observe: &mut dyn FnMut(&MncLine, &[Organism]) -> ControlFlow<()>,
    ) -> Result<MncOutcome, String> {
        let s = &self.settings;
        s.validate()?;
        let space = pst_space(s.mutation_sigma);
        let kestrel = kestrel_chromosome();
        let mut state = self.initial_state(&space)?;
        let writer = BackgroundWriter::new();
        loop {
            let started = Instant::now();
            let generation = state.next_generation;
            let sample_seed: u64 = stream_rng(s.seed, generation, Purpose::Sample).random();
            let job = FitnessJob {
                generation,
                sample_seed,
                genomes: state.population.iter().map(|o| o.genome.clone()).collect(),
            };
            let evals = self.executor.run(self.fitness, &job)?;
            score(&mut state.population, &evals);
            let order = fitness_order(&state.population);
            let niches = self.niches(&state.population, &order);
            let line = self.log_line(&mut state, &order, &niches, &evals, &kestrel, &space);
            let line = MncLine {
                seconds: started.elapsed().as_secs_f64(),
                ..line
            };
            state.history.push(line.clone());
            let flow = observe(&line, &state.population);
            if let Some(stop) = self.stop_rule(&state, generation) {
                writer.finish()?;
                let population = state.population.clone();
                return Ok(MncOutcome {
                    state,
                    population,
                    niches,
                    stop,
                });
            }
            let evaluated = state.population.clone();
            self.breed(&mut state, generation, &space);
            state.next_generation = generation + 1;
            if let Some(path) = &self.checkpoint {
                writer.write(path.clone(), state.to_json())?;
            }
            if flow.is_break() {
                writer.finish()?;
                return Ok(MncOutcome {
                    state,
                    population: evaluated,
                    niches,
                    stop: MncStop::Interrupted,
                });
            }
        }
    }

    fn niches(&self, population: &[Organism], order: &[usize]) -> Vec<Niche> {
        let dist = |a: usize, b: usize| distance(&population[a].genome, &population[b].genome);
        find_niches(order, self.settings.niche_radius, &dist)
    }

    /// The generation's log line; updates the stop-rule counters and the last best.
    fn log_line(
        &self,
        state: &mut MncCheckpoint,
        order: &[usize],
        niches: &[Niche],
        evals: &[Evaluation],
        kestrel: &RealGenome,
        space: &RealSpace,
    ) -> MncLine {
        let best = state.population[order[0]].clone();
        let change = state
            .last_best
            .as_ref()
            .map_or(f64::INFINITY, |prev| distance(&prev.genome, &best.genome));
        let same = state.last_best.as_ref().is_some_and(|p| p.id == best.id);
        state.unchanged_run = if same { state.unchanged_run + 1 } else { 0 };
        let threshold = self
            .settings
            .termination
            .small_change
            .map_or(0.0, |r| r.percent / 100.0 * (VALUE_MAX - VALUE_MIN));
        state.small_change_run = if change < threshold {
            state.small_change_run + 1
        } else {
            0
        };
        let genomes: Vec<RealGenome> = state.population.iter().map(|o| o.genome.clone()).collect();
        let games = evals.iter().map(|e| e.objective).sum::<f64>().round() as u64;
        state.games += games;
        let n = genomes.len() as f64;
        let line = MncLine {
            generation: state.next_generation,
            best_id: best.id,
            best_score: best.fitness,
            best_lifetime: best.lifetime_score(),
            best_change_cp: if change.is_finite() { change } else { 0.0 },
            niches: niches.len(),
            diversity: RealGenome::diversity(&genomes, space),
            best_to_kestrel_cp: distance(&best.genome, kestrel),
            mean_to_kestrel_cp: genomes.iter().map(|g| distance(g, kestrel)).sum::<f64>() / n,
            games,
            seconds: 0.0,
        };
        state.last_best = Some(best);
        line
    }

    fn stop_rule(&self, state: &MncCheckpoint, generation: u64) -> Option<MncStop> {
        let t = &self.settings.termination;
        if generation + 1 >= t.generations {
            Some(MncStop::Generations)
        } else if t.best_unchanged.is_some_and(|k| state.unchanged_run >= k) {
            Some(MncStop::BestUnchanged)
        } else if t
            .small_change
            .is_some_and(|r| state.small_change_run >= r.generations)
        {
            Some(MncStop::SmallChange)
        } else {
            None
        }
    }

    /// Steady-state breeding: each child is inserted before the next mating is chosen.
    fn breed(&self, state: &mut MncCheckpoint, generation: u64, space: &RealSpace) {
        let s = &self.settings;
        let mut rng = stream_rng(s.seed, generation, Purpose::Breed);
        let n = state.population.len();
        for k in 0..s.offspring {
            // Sequential selection: every organism gets the same chance to mate.
            let a = (generation as usize * s.offspring + k) % n;
            let pop = &state.population;
            let dist = |i: usize, j: usize| distance(&pop[i].genome, &pop[j].genome);
            let m = crowding_mate(a, n, s.selection_crowd, &dist, &mut rng);
            let mut child = if rng.random_bool(s.crossover_rate) {
                pop[a]
                    .genome
                    .crossover(&pop[m].genome, space, s.crossover, &mut rng)
                    .0
            } else {
                pop[a].genome.clone()
            };
            child.mutate(space, s.mutation_rate, None, &mut rng);
            let fitness: Vec<f64> = pop.iter().map(|o| o.fitness).collect();
            let to_child = |i: usize| distance(&pop[i].genome, &child);
            let victim = worst_among_most_similar(
                &fitness,
                s.replacement_groups,
                s.group_size,
                &to_child,
                &mut rng,
            );
            let organism = Organism {
                id: state.next_id,
                parents: vec![pop[a].id, pop[m].id],
                born: generation + 1,
                fitness: (pop[a].fitness + pop[m].fitness) / 2.0,
                score_sum: 0.0,
                tournaments: 0,
                genome: child,
            };
            state.births.push(Birth {
                id: organism.id,
                born: organism.born,
                parents: organism.parents.clone(),
            });
            state.next_id += 1;
            state.population[victim] = organism;
        }
    }

    fn initial_state(&self, space: &RealSpace) -> Result<MncCheckpoint, String> {
        let s = &self.settings;
        if self.resume
            && let Some(path) = self.checkpoint.as_ref().filter(|p| !p.exists())
        {
            // Starting afresh silently would look like a resumed run.
            return Err(format!(
                "--resume: there is no checkpoint {}; run without --resume to start afresh",
                path.display()
            ));
        }
        if self.resume
            && let Some(path) = self.checkpoint.as_ref().filter(|p| p.exists())
        {
            let cp = MncCheckpoint::load(path)?;
            if let Some(dir) = path.parent() {
                kestrel_params::atomic::clean_stale_temps(dir);
            }
            if cp.settings != *s {
                return Err(format!(
                    "checkpoint {} was made with other MNC settings; resume with the same \
                     options or start afresh without --resume",
                    path.display()
                ));
            }
            if cp.fitness != self.fitness.fingerprint() {
                return Err(format!(
                    "checkpoint {} was made with other game settings or openings ({}); resume \
                     with the same ones or start afresh without --resume",
                    path.display(),
                    cp.fitness
                ));
            }
            return Ok(cp);
        }
        let mut rng = stream_rng(s.seed, 0, Purpose::Init);
        let init_space = initial_space(space, s.init_range);
        let parent = kestrel_chromosome();
        let population: Vec<Organism> = (0..s.population as u64)
            .map(|id| Organism {
                id,
                genome: match s.init {
                    MncInit::Random => RealGenome::random(&init_space, &mut rng),
                    MncInit::Defaults if id == 0 => parent.clone(),
                    MncInit::Defaults => {
                        let mut child = parent.clone();
                        child.mutate(space, s.mutation_rate, None, &mut rng);
                        child
                    }
                },
                parents: Vec::new(),
                born: 0,
                fitness: 0.0,
                score_sum: 0.0,
                tournaments: 0,
            })
            .collect();
        Ok(MncCheckpoint {
            settings: s.clone(),
            fitness: self.fitness.fingerprint(),
            next_generation: 0,
            births: population
                .iter()
                .map(|o| Birth {
                    id: o.id,
                    born: 0,
                    parents: Vec::new(),
                })
                .collect(),
            next_id: s.population as u64,
            population,
            history: Vec::new(),
            unchanged_run: 0,
            small_change_run: 0,
            last_best: None,
            games: 0,
        })
    }
}

/// Where the initial genes are drawn: the table range, or `[-r, r]` within it (a start nearer
/// to plain material; mutation may still reach the whole range).
pub fn initial_space(space: &RealSpace, range: Option<f64>) -> RealSpace {
    let Some(r) = range else {
        return space.clone();
    };
    RealSpace {
        min: space.min.iter().map(|&lo| lo.max(-r)).collect(),
        max: space.max.iter().map(|&hi| hi.min(r)).collect(),
        sigma: space.sigma,
    }
}

/// Records a tournament's scores.
fn score(population: &mut [Organism], evals: &[Evaluation]) {
    for (o, e) in population.iter_mut().zip(evals) {
        o.fitness = e.fitness;
        o.score_sum += e.fitness;
        o.tournaments += 1;
    }
}
