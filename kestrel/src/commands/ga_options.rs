//! The GA options every `kestrel evolve` GA shares (genome, coding, operators, population,
//! termination, seed), with per-GA defaults: each GA passes its own [`GaDefaults`] (the paper it
//! reproduces), and a flag given on the command line always wins.

use crate::commands::checked;
use anyhow::bail;
use clap::{Args, ValueEnum};
use kestrel_evolve::mentor::organism::GenomeKind;
use kestrel_ga::{Crossover, GaSettings, Selection, StepSchedule, Termination};
use kestrel_params::Coding;

/// Chromosome kind on the command line.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GenomeArg {
    /// Bit strings (the papers' chromosome; see --coding).
    Bits,
    /// One real number per value, within its declared range, rounded when decoded.
    Real,
}

/// How a bit field encodes its value.
#[derive(Clone, Copy, ValueEnum)]
pub enum CodingArg {
    Binary,
    Gray,
}

/// Parent selection on the command line.
#[derive(Clone, Copy, ValueEnum)]
pub enum SelectionArg {
    Roulette,
    Tournament,
}

/// Crossover operator on the command line.
#[derive(Clone, Copy, ValueEnum)]
pub enum CrossoverArg {
    Single,
    Uniform,
    /// BLX-alpha (real genomes): children drawn around and between the parents' genes.
    Blend,
}

/// One GA's defaults: what its paper used, for bit strings and for real vectors.
#[derive(Clone, Copy, Debug)]
pub struct GaDefaults {
    /// Organisms per generation.
    pub population: usize,
    /// Generations to evolve.
    pub generations: u64,
    /// Crossover probability for bit strings.
    pub bits_crossover_rate: f64,
    /// Per-bit mutation probability.
    pub bits_mutation_rate: f64,
}

// Real-genome defaults (measured in docs/evolve.md, "Real-vector evolution").
const REAL_CROSSOVER_RATE: f64 = 0.9;
const REAL_ALPHA: f64 = 0.2;
const REAL_MUTATION_RATE: f64 = 0.05;
const REAL_STEP_START: f64 = 0.05;
const REAL_STEP_END: f64 = 0.002;

/// The shared GA flags (flattened into each GA's arguments).
#[derive(Args, Clone)]
pub struct GaArgs {
    /// Chromosome: bit strings (the paper) or real vectors (one gene per value).
    #[arg(long, value_enum, default_value = "bits")]
    pub genome: GenomeArg,
    /// How each field's bits encode its value (bit genomes).
    #[arg(long, value_enum, default_value = "binary")]
    pub coding: CodingArg,
    /// Organisms per generation [default: the GA's paper].
    #[arg(long, value_parser = checked::positive)]
    pub population: Option<usize>,
    /// Generations to evolve [default: the GA's paper].
    #[arg(long, value_parser = checked::positive_u64)]
    pub generations: Option<u64>,
    /// Probability that two selected parents are recombined (otherwise copied)
    /// [default: the paper's for bits, 0.9 real].
    #[arg(long, value_parser = checked::probability)]
    pub crossover_rate: Option<f64>,
    /// Single-point, uniform or blend (BLX-alpha, real genomes) crossover
    /// [default: single for bits, uniform for real].
    #[arg(long, value_enum)]
    pub crossover: Option<CrossoverArg>,
    /// Blend crossover's alpha: how far beyond the parents' interval a child gene may fall.
    #[arg(long, default_value_t = REAL_ALPHA, value_parser = checked::non_negative_f64)]
    pub blend_alpha: f64,
    /// Per-gene mutation probability [default: the paper's for bits, 0.05 real].
    #[arg(long, value_parser = checked::probability)]
    pub mutation_rate: Option<f64>,
    /// Real genomes: Gaussian mutation step in the first generation, as a fraction of each
    /// gene's range; it shrinks geometrically to --step-end in the last generation.
    #[arg(long, default_value_t = REAL_STEP_START, value_parser = checked::positive_f64)]
    pub step: f64,
    /// Real genomes: mutation step in the last generation.
    #[arg(long, default_value_t = REAL_STEP_END, value_parser = checked::positive_f64)]
    pub step_end: f64,
    /// Parent selection: fitness-proportional (roulette) or tournament
    /// [default: roulette for bits, tournament for real].
    #[arg(long, value_enum)]
    pub selection: Option<SelectionArg>,
    /// Organisms per tournament with --selection tournament.
    #[arg(long, default_value_t = 3, value_parser = checked::positive)]
    pub tournament_size: usize,
    /// Best organisms copied unchanged into the next generation.
    #[arg(long, default_value_t = 1)]
    pub elitism: usize,
    /// Stop after this many generations without a better best organism (default: off).
    #[arg(long, value_name = "N", value_parser = checked::positive_u64)]
    pub stall: Option<u64>,
    /// Seed of every random choice (sample, population, breeding).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl GaArgs {
    /// Real vectors or bit strings.
    pub fn genome_kind(&self) -> GenomeKind {
        match self.genome {
            GenomeArg::Bits => GenomeKind::Bits,
            GenomeArg::Real => GenomeKind::Real,
        }
    }

    /// Binary or Gray coding of bit fields.
    pub fn coding(&self) -> Coding {
        match self.coding {
            CodingArg::Binary => Coding::Binary,
            CodingArg::Gray => Coding::Gray,
        }
    }

    /// The GA settings: flags over `defaults`; `fitness_threshold` stops a run early. Validated.
    pub fn settings(
        &self,
        defaults: GaDefaults,
        fitness_threshold: Option<f64>,
    ) -> anyhow::Result<GaSettings> {
        let real = self.genome == GenomeArg::Real;
        let settings = GaSettings {
            population: self.population.unwrap_or(defaults.population),
            crossover_rate: self.crossover_rate.unwrap_or(if real {
                REAL_CROSSOVER_RATE
            } else {
                defaults.bits_crossover_rate
            }),
            crossover: self.crossover(real)?,
            mutation_rate: self.mutation_rate.unwrap_or(if real {
                REAL_MUTATION_RATE
            } else {
                defaults.bits_mutation_rate
            }),
            selection: self.selection(real),
            elitism: self.elitism,
            termination: Termination {
                generations: self.generations.unwrap_or(defaults.generations),
                fitness_threshold,
                stall_generations: self.stall,
            },
            seed: self.seed,
            mutation_step: real.then_some(StepSchedule {
                start: self.step,
                end: self.step_end,
            }),
        };
        settings.validate().map_err(anyhow::Error::msg)?;
        Ok(settings)
    }

    fn crossover(&self, real: bool) -> anyhow::Result<Crossover> {
        Ok(match self.crossover {
            Some(CrossoverArg::Single) => Crossover::SinglePoint,
            Some(CrossoverArg::Uniform) => Crossover::Uniform,
            Some(CrossoverArg::Blend) if !real => bail!("--crossover blend needs --genome real"),
            Some(CrossoverArg::Blend) => Crossover::Blend {
                alpha: self.blend_alpha,
            },
            None if real => Crossover::Uniform,
            None => Crossover::SinglePoint,
        })
    }

    fn selection(&self, real: bool) -> Selection {
        let tournament = Selection::Tournament {
            size: self.tournament_size,
        };
        match self.selection {
            Some(SelectionArg::Roulette) => Selection::Roulette,
            Some(SelectionArg::Tournament) => tournament,
            None if real => tournament,
            None => Selection::Roulette,
        }
    }
}

/// The closing lines of a GA command: where its params file, log and chart are.
pub fn print_output_paths(
    params: &std::path::Path,
    log: &std::path::Path,
    chart: &std::path::Path,
) {
    println!("params            {}", params.display());
    println!("log, chart        {}, {}", log.display(), chart.display());
}
