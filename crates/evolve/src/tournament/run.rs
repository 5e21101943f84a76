//! The tournament GA loop: score the population by a round robin, keep the best half, breed
//! the rest from pairings of the survivors. Built on the core's genomes, random streams,
//! executor, checkpoint, log and chart; a checkpoint after every iteration makes a killed
//! run resume to the same result.

use crate::tournament::{
    GENE_NAMES, Organism, OrganismSpace, RoundRobinFitness, teaching_params_file,
};
use kestrel_ga::{
    Checkpoint, Crossover, Evaluation, Executor, FitnessFunction, FitnessJob, GaSettings,
    GenerationStats, Genome, Purpose, Selection, Termination, fittest_first, render_log_csv,
    stream_rng, write_chart,
};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Instant;

/// How survivors pass to the next iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Variant {
    /// The best half kept as it is.
    Preservation,
    /// The best organism kept; the other survivors mutated.
    Mutation,
}

/// One run's settings.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// How the survivors pass to the next iteration (kept as they are, or mutated).
    pub variant: Variant,
    /// Organisms per round robin (the page: 10); the best half survives.
    pub population: usize,
    /// Iterations (round robins); the page's default: 10.
    pub iterations: u64,
    /// Genes are integers in `0..=gene_max` (the page: 5).
    pub gene_max: i32,
    /// Per-gene probability of a ±1 step when mutating.
    pub mutation_rate: f64,
    /// Seed of every random stream (initial population, breeding, game sampling).
    pub seed: u64,
    /// Output folder: checkpoint.json, log.csv, evolution.svg, best.toml, random.toml.
    pub out: PathBuf,
    /// Continue from `out/checkpoint.json`.
    pub resume: bool,
}

/// What a finished run produced.
#[derive(Clone, Debug)]
pub struct TournamentOutcome {
    /// The winner of the last round robin.
    pub best: Organism,
    /// The last population, ranked best first, with its evaluations.
    pub ranked: Vec<(Organism, Evaluation)>,
    /// Log line of every iteration, including those restored from a checkpoint.
    pub history: Vec<GenerationStats>,
    /// Games played by this process (not counting iterations restored from a checkpoint).
    pub games_played: u64,
    /// Wall-clock time of this process's iterations, in seconds.
    pub seconds: f64,
}

impl TournamentConfig {
    fn settings(&self) -> GaSettings {
        GaSettings {
            population: self.population,
            crossover_rate: 1.0,
            crossover: Crossover::Uniform,
            mutation_rate: self.mutation_rate,
            selection: Selection::Tournament { size: 1 },
            elitism: self.survivors(),
            termination: Termination {
                generations: self.iterations,
                fitness_threshold: None,
                stall_generations: None,
            },
            seed: self.seed,
            mutation_step: None,
        }
    }

    fn survivors(&self) -> usize {
        self.population / 2
    }

    fn fingerprint(&self, fitness: &RoundRobinFitness) -> String {
        format!(
            "tournament {:?} max {} {}",
            self.variant,
            self.gene_max,
            FitnessFunction::<Organism>::fingerprint(fitness)
        )
    }

    fn space(&self) -> OrganismSpace {
        OrganismSpace { max: self.gene_max }
    }
}

/// Runs (or resumes) the tournament GA; `on_iteration` sees each iteration's log line.
pub fn run_tournament(
    config: &TournamentConfig,
    fitness: &RoundRobinFitness,
    executor: &dyn Executor<Organism>,
    on_iteration: &mut dyn FnMut(&GenerationStats, &Organism),
) -> Result<TournamentOutcome, String> {
    if config.population < 4 {
        return Err(format!("population {} is below 4", config.population));
    }
    if !(0.0..=1.0).contains(&config.mutation_rate) {
        return Err("mutation rate must be in 0..=1".into());
    }
    Organism::check(&config.space(), &config.settings())?;
    std::fs::create_dir_all(&config.out)
        .map_err(|e| format!("cannot create {}: {e}", config.out.display()))?;
    let mut state = initial_state(config, fitness)?;
    let started = Instant::now();
    let mut games_played = 0;
    let mut ranked = Vec::new();
    while state.next_generation < config.iterations {
        let generation = state.next_generation;
        let mark = Instant::now();
        let job = FitnessJob {
            generation,
            sample_seed: stream_rng(config.seed, generation, Purpose::Sample).random(),
            genomes: state.population.clone(),
        };
        let evals = executor.run(fitness, &job)?;
        let n = state.population.len() as u64;
        games_played += n * (n - 1);
        ranked = rank(&state.population, &evals);
        let stats = stats_of(generation, &ranked, config, mark.elapsed().as_secs_f64());
        on_iteration(&stats, &ranked[0].0);
        state.history.push(stats);
        state.best_fitness = Some(ranked[0].1.fitness);
        state.best_generation = generation;
        state.population = next_population(config, &ranked, generation);
        state.next_generation = generation + 1;
        save_outputs(config, &state, &ranked[0].0)?;
    }
    if ranked.is_empty() {
        return Err(format!(
            "{}/checkpoint.json is already complete ({} iterations); nothing to run",
            config.out.display(),
            config.iterations
        ));
    }
    Ok(TournamentOutcome {
        best: ranked[0].0.clone(),
        ranked,
        history: state.history,
        games_played,
        seconds: started.elapsed().as_secs_f64(),
    })
}

fn initial_state(
    config: &TournamentConfig,
    fitness: &RoundRobinFitness,
) -> Result<Checkpoint<Organism>, String> {
    let path = config.out.join("checkpoint.json");
    let fingerprint = config.fingerprint(fitness);
    if config.resume {
        let cp: Checkpoint<Organism> = Checkpoint::load(&path)?;
        kestrel_params::atomic::clean_stale_temps(&config.out);
        // The iteration count may grow on resume (continue a finished run); nothing else.
        let mut saved = cp.settings.clone();
        saved.termination.generations = config.iterations;
        if saved != config.settings() || cp.fitness != fingerprint {
            return Err(format!(
                "{} was written with other settings; resume with the same options",
                path.display()
            ));
        }
        let space = config.space();
        let valid = |o: &Organism| {
            o.0.len() == GENE_NAMES.len() && o.0.iter().all(|g| (0..=space.max).contains(g))
        };
        if cp.population.len() != config.population || !cp.population.iter().all(valid) {
            return Err(format!(
                "{} holds organisms that do not fit",
                path.display()
            ));
        }
        return Ok(Checkpoint {
            settings: config.settings(),
            ..cp
        });
    }
    let mut rng = stream_rng(config.seed, 0, Purpose::Init);
    let population = (0..config.population)
        .map(|_| Organism::random(&config.space(), &mut rng))
        .collect();
    // The reference "random organism" for matches: the next draw of the same stream.
    let random = Organism::random(&config.space(), &mut rng);
    let text = teaching_params_file(&random, &format!("random organism (seed {})", config.seed));
    kestrel_params::atomic::write_atomic(&config.out.join("random.toml"), text.as_bytes())
        .map_err(|e| format!("cannot write random.toml: {e}"))?;
    Ok(Checkpoint::initial(
        config.settings(),
        fingerprint,
        population,
    ))
}

/// Best first; equal points keep population order (so ranking is deterministic).
fn rank(population: &[Organism], evals: &[Evaluation]) -> Vec<(Organism, Evaluation)> {
    fittest_first(|i| evals[i].fitness, population.len())
        .into_iter()
        .map(|i| (population[i].clone(), evals[i]))
        .collect()
}

fn stats_of(
    generation: u64,
    ranked: &[(Organism, Evaluation)],
    config: &TournamentConfig,
    seconds: f64,
) -> GenerationStats {
    let n = ranked.len() as f64;
    let genomes: Vec<Organism> = ranked.iter().map(|(o, _)| o.clone()).collect();
    GenerationStats {
        generation,
        best_objective: ranked[0].1.objective,
        mean_objective: ranked.iter().map(|(_, e)| e.objective).sum::<f64>() / n,
        best_fitness: ranked[0].1.fitness,
        mean_fitness: ranked.iter().map(|(_, e)| e.fitness).sum::<f64>() / n,
        diversity: Organism::diversity(&genomes, &config.space()),
        seconds,
    }
}

/// The survivors (kept or mutated by variant) followed by children of random survivor pairs.
fn next_population(
    config: &TournamentConfig,
    ranked: &[(Organism, Evaluation)],
    generation: u64,
) -> Vec<Organism> {
    let mut rng = stream_rng(config.seed, generation, Purpose::Breed);
    let space = config.space();
    let survivors: Vec<Organism> = ranked[..config.survivors()]
        .iter()
        .map(|(o, _)| o.clone())
        .collect();
    let mut next = survivors.clone();
    if config.variant == Variant::Mutation {
        for organism in next.iter_mut().skip(1) {
            mutate_at_least_once(organism, &space, config.mutation_rate, &mut rng);
        }
    }
    while next.len() < config.population {
        let a = rng.random_range(0..survivors.len());
        let mut b = rng.random_range(0..survivors.len() - 1);
        if b >= a {
            b += 1;
        }
        let (mut child, _) =
            survivors[a].crossover(&survivors[b], &space, Crossover::Uniform, &mut rng);
        child.mutate(&space, config.mutation_rate, None, &mut rng);
        next.push(child);
    }
    next
}

/// A mutated survivor must differ from its parent, or the variant would be preservation.
fn mutate_at_least_once(o: &mut Organism, space: &OrganismSpace, rate: f64, rng: &mut ChaCha8Rng) {
    let before = o.clone();
    o.mutate(space, rate, None, rng);
    if *o == before {
        let gene = rng.random_range(0..o.0.len());
        o.0[gene] += if o.0[gene] < space.max { 1 } else { -1 };
    }
}

fn save_outputs(
    config: &TournamentConfig,
    state: &Checkpoint<Organism>,
    best: &Organism,
) -> Result<(), String> {
    let write = |name: &str, bytes: &[u8]| {
        kestrel_params::atomic::write_atomic(&config.out.join(name), bytes)
            .map_err(|e| format!("cannot write {}/{name}: {e}", config.out.display()))
    };
    let last = state.next_generation - 1;
    let title = format!(
        "tournament GA ({:?}) winner of iteration {last}",
        config.variant
    );
    write("best.toml", teaching_params_file(best, &title).as_bytes())?;
    write("log.csv", render_log_csv(&state.history).as_bytes())?;
    write_chart(
        &config.out.join("evolution.svg"),
        &state.history,
        "share of round-robin points",
    )?;
    // The checkpoint goes last: a run killed before it repeats this iteration identically.
    write("checkpoint.json", &state.to_json())
}
