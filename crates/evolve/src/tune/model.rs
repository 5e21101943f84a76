//! The model: every position's trace packed once (compressed rows), its evaluation as the
//! linear form in float parameters, and the mean squared error of σ(eval) to the targets with
//! its exact gradient.
//!
//! Sums run over fixed chunks of positions whose results are added in chunk order, so a run
//! gives the same bits whatever the number of threads.

use kestrel_chess::Board;
use kestrel_eval::{PHASE_MAX, scale_trace_sum, trace};
use rayon::prelude::*;

/// Positions per parallel work item (fixed, so the reduction order never changes).
const CHUNK: usize = 2048;

/// Traces of many positions in compressed-row form: position `j` owns entries
/// `starts[j]..starts[j + 1]` of `index` (flat parameter) and `coef` (integer coefficient).
#[derive(Clone, Debug, Default)]
pub struct TraceSet {
    starts: Vec<u32>,
    index: Vec<u16>,
    coef: Vec<i32>,
}

impl TraceSet {
    /// Traces `boards` in parallel.
    pub fn build(boards: &[Board]) -> TraceSet {
        assert!(kestrel_eval::EVAL_TABLE.len() <= u16::MAX as usize);
        let parts: Vec<(Vec<u32>, Vec<u16>, Vec<i32>)> = boards
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut lens = Vec::with_capacity(chunk.len());
                let (mut index, mut coef) = (Vec::new(), Vec::new());
                for b in chunk {
                    let t = trace(b);
                    lens.push(t.entries.len() as u32);
                    for (i, c) in t.entries {
                        index.push(i as u16);
                        coef.push(c);
                    }
                }
                (lens, index, coef)
            })
            .collect();
        let total: usize = parts.iter().map(|p| p.1.len()).sum();
        assert!(total < u32::MAX as usize, "too many trace entries");
        let mut set = TraceSet {
            starts: Vec::with_capacity(boards.len() + 1),
            index: Vec::with_capacity(total),
            coef: Vec::with_capacity(total),
        };
        set.starts.push(0);
        for (lens, index, coef) in parts {
            for l in lens {
                let last = *set.starts.last().expect("starts with 0");
                set.starts.push(last + l);
            }
            set.index.extend(index);
            set.coef.extend(coef);
        }
        set
    }

    /// Number of positions traced.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// Whether no position is traced.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Trace entries held (for memory estimates).
    pub fn entries(&self) -> usize {
        self.index.len()
    }

    #[inline]
    fn row(&self, j: usize) -> (&[u16], &[i32]) {
        let (a, b) = (self.starts[j] as usize, self.starts[j + 1] as usize);
        (&self.index[a..b], &self.coef[a..b])
    }

    /// The linear form Σ v_i·c_i / PHASE_MAX: the evaluation without its integer rounding.
    #[inline]
    pub fn eval_float(&self, j: usize, values: &[f64]) -> f64 {
        let (idx, coef) = self.row(j);
        let s: f64 = idx
            .iter()
            .zip(coef)
            .map(|(&i, &c)| values[i as usize] * c as f64)
            .sum();
        s / PHASE_MAX as f64
    }

    /// The exact integer evaluation (white-relative cp), as `kestrel_eval::trace_score`.
    pub fn eval_exact(&self, j: usize, values: &[i32]) -> i32 {
        let (idx, coef) = self.row(j);
        let s: i64 = idx
            .iter()
            .zip(coef)
            .map(|(&i, &c)| values[i as usize] as i64 * c as i64)
            .sum();
        scale_trace_sum(s)
    }
}

/// σ(x) = 1 / (1 + 10^(−K·x/400)): centipawns to an expected score.
#[inline]
pub fn sigmoid(k: f64, cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * cp / 400.0))
}

/// Traced positions with their targets (expected scores in [0, 1]).
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Every position's trace (the coefficients of its linear evaluation).
    pub traces: TraceSet,
    /// Target expected score of each position, in [0, 1], in trace order (empty until set).
    pub targets: Vec<f64>,
}

impl Dataset {
    /// Number of positions (the number of targets).
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there are no targets.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    fn chunks(&self) -> impl IndexedParallelIterator<Item = std::ops::Range<usize>> + '_ {
        let n = self.len();
        (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(move |c| c * CHUNK..((c + 1) * CHUNK).min(n))
    }

    /// Mean squared error of σ(eval_float) to the targets (NaN when empty).
    pub fn loss(&self, values: &[f64], k: f64) -> f64 {
        let parts: Vec<f64> = self
            .chunks()
            .map(|r| {
                r.map(|j| (sigmoid(k, self.traces.eval_float(j, values)) - self.targets[j]).powi(2))
                    .sum()
            })
            .collect();
        parts.iter().sum::<f64>() / self.len() as f64
    }

    /// The loss and its gradient with respect to every value.
    pub fn loss_and_gradient(&self, values: &[f64], k: f64) -> (f64, Vec<f64>) {
        // dσ/dx = σ(1−σ)·ln10·K/400, and d eval/d v_i = c_i / PHASE_MAX.
        let scale = std::f64::consts::LN_10 * k / 400.0 / PHASE_MAX as f64;
        let parts: Vec<(f64, Vec<f64>)> = self
            .chunks()
            .map(|r| {
                let mut grad = vec![0.0; values.len()];
                let mut loss = 0.0;
                for j in r {
                    let p = sigmoid(k, self.traces.eval_float(j, values));
                    let err = p - self.targets[j];
                    loss += err * err;
                    let d = 2.0 * err * p * (1.0 - p) * scale;
                    let (idx, coef) = self.traces.row(j);
                    for (&i, &c) in idx.iter().zip(coef) {
                        grad[i as usize] += d * c as f64;
                    }
                }
                (loss, grad)
            })
            .collect();
        let n = self.len() as f64;
        let mut grad = vec![0.0; values.len()];
        let mut loss = 0.0;
        for (l, g) in parts {
            loss += l;
            for (a, b) in grad.iter_mut().zip(&g) {
                *a += b;
            }
        }
        grad.iter_mut().for_each(|g| *g /= n);
        (loss / n, grad)
    }

    /// Exact integer evaluations of every position.
    pub fn exact_evals(&self, values: &[i32]) -> Vec<i32> {
        (0..self.len())
            .into_par_iter()
            .map(|j| self.traces.eval_exact(j, values))
            .collect()
    }
}
