//! The network in floating point: what the trainer updates, and the reference the integer
//! network is checked against.

use crate::arch::EVAL_SCALE;
use crate::buckets::board_bucket;
use crate::inputs::InputLayout;
use kestrel_chess::Board;

/// The largest magnitude a first-layer weight or bias may have, so that an accumulator of 32
/// pieces fits in `i16` once quantised (the trainer clips to it after every step).
pub const WEIGHT_CLIP: f32 = 1.98;

/// The largest magnitude an output weight may have: times [`crate::QB`] it stays within ±127,
/// so `clamp(acc, 0, QA) * weight` fits in `i16` (the output kernels' multiply-add). Trained
/// output weights sit far inside it (below 0.5), and the finer `QB` it allows halves the
/// rounding of the output layer.
pub const OUT_WEIGHT_CLIP: f32 = 0.99;

/// A perspective network `768 -> hidden (x2) -> 1` in `f32`, with one output layer per
/// output bucket ([`crate::output_bucket`]; one bucket is the plain network).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// Neurons in the first layer (per perspective).
    pub hidden: usize,
    /// Output buckets (1 to [`crate::MAX_OUTPUT_BUCKETS`]).
    pub buckets: usize,
    /// The inputs: plain, or mirrored with king buckets.
    pub inputs: InputLayout,
    /// First-layer weights, feature-major: the weight of feature `f` into neuron `i` is at
    /// `f * hidden + i` (`inputs.inputs() * hidden` values).
    pub ft_weights: Vec<f32>,
    /// First-layer biases (`hidden`).
    pub ft_bias: Vec<f32>,
    /// Output weights, bucket by bucket (`2 * hidden` each): the side to move's `hidden`
    /// activations first, then the other side's.
    pub out_weights: Vec<f32>,
    /// Output biases, one per bucket.
    pub out_bias: Vec<f32>,
}

/// Squared clipped ReLU: `clamp(x, 0, 1)^2`.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNetwork {
    /// A network of `hidden` neurons and one output bucket with every weight zero.
    pub fn zeros(hidden: usize) -> FloatNetwork {
        FloatNetwork::zeros_with_buckets(hidden, 1)
    }

    /// A network of `hidden` neurons and `buckets` output buckets with every weight zero.
    pub fn zeros_with_buckets(hidden: usize, buckets: usize) -> FloatNetwork {
        FloatNetwork::zeros_with_layout(hidden, buckets, InputLayout::PLAIN)
    }

    /// A network of `hidden` neurons, `buckets` output buckets and the `inputs` layout with
    /// every weight zero.
    pub fn zeros_with_layout(hidden: usize, buckets: usize, inputs: InputLayout) -> FloatNetwork {
        FloatNetwork {
            hidden,
            buckets,
            inputs,
            ft_weights: vec![0.0; inputs.inputs() * hidden],
            ft_bias: vec![0.0; hidden],
            out_weights: vec![0.0; 2 * hidden * buckets],
            out_bias: vec![0.0; buckets],
        }
    }

    /// The first layer's output for a set of active features.
    pub fn accumulate(&self, features: &[usize]) -> Vec<f32> {
        let mut acc = self.ft_bias.clone();
        for &f in features {
            let row = &self.ft_weights[f * self.hidden..(f + 1) * self.hidden];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The raw output (before [`EVAL_SCALE`]) of output bucket `bucket` for two
    /// accumulators, the side to move's first.
    pub fn output(&self, us: &[f32], them: &[f32], bucket: usize) -> f32 {
        let h = self.hidden;
        let weights = &self.out_weights[2 * h * bucket..2 * h * (bucket + 1)];
        let (w_us, w_them) = weights.split_at(h);
        let sum_us: f32 = us.iter().zip(w_us).map(|(&a, &w)| screlu(a) * w).sum();
        let sum_them: f32 = them.iter().zip(w_them).map(|(&a, &w)| screlu(a) * w).sum();
        sum_us + sum_them + self.out_bias[bucket]
    }

    /// The evaluation of `board` in centipawns from the side to move's view (not rounded).
    pub fn evaluate(&self, board: &Board) -> f32 {
        let stm = board.side_to_move();
        let us = self.accumulate(&self.inputs.active_features(board, stm));
        let them = self.accumulate(&self.inputs.active_features(board, stm.flip()));
        self.output(&us, &them, board_bucket(board, self.buckets)) * EVAL_SCALE as f32
    }

    /// Whether the vectors have the lengths `hidden` and `buckets` ask for, and both lie in
    /// the file format's range.
    pub fn shape_is_consistent(&self) -> bool {
        let (h, b) = (self.hidden, self.buckets);
        (1..=crate::file::MAX_HIDDEN).contains(&h)
            && (1..=crate::MAX_OUTPUT_BUCKETS).contains(&b)
            && self.ft_weights.len() == self.inputs.inputs() * h
            && self.ft_bias.len() == h
            && self.out_weights.len() == 2 * h * b
            && self.out_bias.len() == b
    }

    /// Whether every weight and bias lies within its clip ([`WEIGHT_CLIP`] for the first
    /// layer, [`OUT_WEIGHT_CLIP`] for the output layer) and is finite.
    pub fn within_clip(&self) -> bool {
        let within = |clip: f32| move |w: &f32| w.is_finite() && w.abs() <= clip;
        self.ft_weights
            .iter()
            .chain(&self.ft_bias)
            .all(within(WEIGHT_CLIP))
            && self.out_weights.iter().all(within(OUT_WEIGHT_CLIP))
            && self.out_bias.iter().all(|b| b.is_finite())
    }
}
