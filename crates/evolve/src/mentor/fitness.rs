//! Fitness = 1 / mean |organism − mentor| over a random sample of training positions that
//! changes every generation (seeded), computed for a chunk of organisms with one GEMM.

use crate::mentor::organism::Organism;
use crate::mentor::trace_matrix::TraceMatrix;
use kestrel_chess::Board;
use kestrel_ga::{Evaluation, FitnessFunction};
use kestrel_params::{BitSchema, ParamValues};

/// Positions with their mentor scores, traced for the evolved columns.
pub struct LabelledSet {
    /// Coefficients of the evolved columns, one row per position.
    pub matrix: TraceMatrix,
    /// The mentor's white-relative score of each position, in centipawns.
    pub labels: Vec<i32>,
}

impl LabelledSet {
    /// Traces `boards` for the schema's fields (the other values fixed at `base`); panics if
    /// `labels` is not one per board.
    pub fn new(boards: &[Board], labels: Vec<i32>, schema: &BitSchema, base: &ParamValues) -> Self {
        assert_eq!(boards.len(), labels.len());
        let columns: Vec<usize> = schema.fields.iter().map(|f| f.flat_index).collect();
        let max_abs: Vec<i32> = schema
            .fields
            .iter()
            .map(|f| f.min.abs().max(f.max.abs()))
            .collect();
        LabelledSet {
            matrix: TraceMatrix::build(boards, &columns, &max_abs, &base.values),
            labels,
        }
    }

    /// Number of labelled positions.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether the set has no position.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Mean |score − label| per organism (`organisms`: row-major m × k evolved values) on
    /// `rows` (all when `None`).
    pub fn mean_errors(&self, organisms: &[f64], rows: Option<&[usize]>) -> Vec<f64> {
        let labels: Vec<i64> = match rows {
            None => self.labels.iter().map(|&l| l as i64).collect(),
            Some(rows) => rows.iter().map(|&r| self.labels[r] as i64).collect(),
        };
        let mut errors = Vec::with_capacity(organisms.len() / self.matrix.k.max(1));
        self.matrix.for_each_score(organisms, rows, |_, scores| {
            let total: i64 = scores
                .iter()
                .zip(&labels)
                .map(|(&s, &l)| (s as i64 - l).abs())
                .sum();
            errors.push(total as f64 / labels.len().max(1) as f64);
        });
        errors
    }
}

/// Evolved values of genomes as the m × k matrix the GEMM wants.
pub fn organism_matrix<G: Organism>(schema: &BitSchema, genomes: &[G]) -> Vec<f64> {
    let mut out = Vec::with_capacity(genomes.len() * schema.fields.len());
    for g in genomes {
        out.extend(g.field_values(schema).into_iter().map(f64::from));
    }
    out
}

/// The expert-driven fitness on a training set.
pub struct MentorFitness {
    /// Which evaluation values evolve and how genomes decode to them.
    pub schema: BitSchema,
    /// The training positions with their mentor labels.
    pub train: LabelledSet,
    /// Training positions drawn per generation.
    pub sample: usize,
    /// Names the data (positions, mentor, parameter set) for checkpoints.
    pub data_id: String,
}

impl MentorFitness {
    /// The generation's training rows: `sample` distinct indices chosen by `seed`.
    pub fn sample_rows(&self, seed: u64) -> Vec<usize> {
        kestrel_ga::sample_rows(self.train.len(), self.sample, seed)
    }
}

/// Fitness of a mean error (capped so a perfect organism does not divide by zero).
pub fn fitness_of_error(error: f64) -> f64 {
    1.0 / error.max(1e-6)
}

impl<G: Organism> FitnessFunction<G> for MentorFitness {
    fn evaluate(&self, sample_seed: u64, genomes: &[G]) -> Vec<Evaluation> {
        let rows = self.sample_rows(sample_seed);
        let organisms = organism_matrix(&self.schema, genomes);
        self.train
            .mean_errors(&organisms, Some(&rows))
            .into_iter()
            .map(|e| Evaluation {
                fitness: fitness_of_error(e),
                objective: e,
            })
            .collect()
    }

    fn chunk_size(&self) -> usize {
        // Large enough for an efficient GEMM, small enough to keep both cores busy.
        64
    }

    fn fingerprint(&self) -> String {
        format!(
            "{} | {} | sample {}",
            self.data_id,
            G::describe(&self.schema),
            self.sample
        )
    }
}
