//! The loss and its gradient over a batch, computed in fixed chunks on the rayon pool and
//! added in chunk order, so the result is bit-identical whatever the thread count.

use super::data::{Target, sigmoid};
use super::mirror::Sample;
use super::model::{Features, Layout, Scratch, backward, forward};
use crate::format::PackedPosition;
use rayon::prelude::*;

/// Positions per chunk (the unit of parallel work).
pub const CHUNK: usize = 256;

/// How outputs become predictions: `σ(output·EVAL_SCALE/K)`.
#[derive(Clone, Copy, Debug)]
pub struct Loss {
    /// The targets.
    pub target: Target,
    /// `EVAL_SCALE / K`: the output's factor inside the sigmoid.
    pub out_factor: f32,
}

impl Loss {
    /// The squared error of one position and its derivative by the raw output.
    #[inline]
    fn error(&self, raw: f32, record: &PackedPosition) -> (f32, f32) {
        let p = sigmoid(raw * self.out_factor);
        let t = self.target.of(record);
        let e = p - t;
        (e * e, 2.0 * e * p * (1.0 - p) * self.out_factor)
    }
}

/// Buffers reused from batch to batch: one gradient per chunk, and the sum.
pub struct Workspace {
    chunk_grads: Vec<Vec<f32>>,
    /// The batch's gradient after [`batch_gradient`].
    pub grad: Vec<f32>,
}

impl Workspace {
    /// Buffers for batches of up to `batch` positions.
    pub fn new(layout: Layout, batch: usize) -> Workspace {
        Workspace {
            chunk_grads: vec![vec![0.0; layout.len()]; batch.div_ceil(CHUNK)],
            grad: vec![0.0; layout.len()],
        }
    }
}

/// Fills `ws.grad` with the gradient of the mean loss over `batch` and returns the loss sum.
pub fn batch_gradient(
    layout: Layout,
    params: &[f32],
    batch: &[Sample],
    loss: &Loss,
    ws: &mut Workspace,
) -> f64 {
    let scale = 1.0 / batch.len() as f32;
    let chunks = batch.chunks(CHUNK);
    let n = chunks.len();
    let sums: Vec<f64> = ws.chunk_grads[..n]
        .par_iter_mut()
        .zip(batch.par_chunks(CHUNK))
        .map(|(grad, chunk)| {
            grad.iter_mut().for_each(|g| *g = 0.0);
            let mut scratch = Scratch::new(layout.hidden);
            let mut sum = 0.0f64;
            for sample in chunk {
                let features = sample.features(layout.inputs);
                let raw = forward(layout, params, &features, &mut scratch);
                let (e, d) = loss.error(raw, sample.record);
                sum += e as f64;
                backward(layout, params, &features, &mut scratch, d * scale, grad);
            }
            sum
        })
        .collect();
    let chunk_grads = &ws.chunk_grads[..n];
    const PIECE: usize = 4096;
    ws.grad
        .par_chunks_mut(PIECE)
        .enumerate()
        .for_each(|(k, out)| {
            let (start, len) = (k * PIECE, out.len());
            out.iter_mut().for_each(|g| *g = 0.0);
            for cg in chunk_grads {
                for (o, g) in out.iter_mut().zip(&cg[start..start + len]) {
                    *o += g;
                }
            }
        });
    sums.iter().sum()
}

/// The mean loss over `records` (no gradient).
pub fn mean_loss(layout: Layout, params: &[f32], records: &[PackedPosition], loss: &Loss) -> f64 {
    if records.is_empty() {
        return f64::NAN;
    }
    let sums: Vec<f64> = records
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut scratch = Scratch::new(layout.hidden);
            chunk
                .iter()
                .map(|r| {
                    let raw = forward(
                        layout,
                        params,
                        &Features::of(r, layout.inputs),
                        &mut scratch,
                    );
                    loss.error(raw, r).0 as f64
                })
                .sum::<f64>()
        })
        .collect();
    sums.iter().sum::<f64>() / records.len() as f64
}
