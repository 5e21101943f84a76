//! The network in integers, as the search runs it: first layer times [`QA`] in `i16`, output
//! weights times [`QB`] in `i16`, output biases times `QA * QB` in `i32`, one output layer
//! per output bucket.

use crate::arch::{EVAL_SCALE, QA, QB};
use crate::buckets::{MAX_OUTPUT_BUCKETS, board_bucket};
use crate::file::NetFileError;
use crate::float::{FloatNetwork, OUT_WEIGHT_CLIP, WEIGHT_CLIP};
use crate::inputs::InputLayout;
use kestrel_chess::Board;

/// The quantised network (see the module doc for the scales).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// Neurons in the first layer (per perspective).
    pub hidden: usize,
    /// Output buckets (1 to [`MAX_OUTPUT_BUCKETS`]; see [`crate::output_bucket`]).
    pub buckets: usize,
    /// The inputs: plain, or mirrored with king buckets.
    pub inputs: InputLayout,
    /// First-layer weights, feature-major (`f * hidden + i`), times `QA`.
    pub ft_weights: Vec<i16>,
    /// First-layer biases, times `QA`.
    pub ft_bias: Vec<i16>,
    /// Output weights, bucket by bucket (`2 * hidden` each: the side to move's `hidden`,
    /// then the other side's), times `QB`.
    pub out_weights: Vec<i16>,
    /// Output biases, one per bucket, times `QA * QB`.
    pub out_bias: Vec<i32>,
}

/// SCReLU in the integer domain: `clamp(x, 0, QA)^2` (units of `QA^2`).
#[inline]
pub fn screlu_q(x: i16) -> i32 {
    let c = (x as i32).clamp(0, QA);
    c * c
}

/// Centipawns from the output layer's sum `Σ screlu_q(acc)·w` (units of `QA²·QB`) and the
/// bias (units of `QA·QB`): the one rounding every output path shares.
#[inline]
pub(crate) fn scale_output(sum: i64, out_bias: i32) -> i32 {
    let raw = sum / QA as i64 + out_bias as i64;
    (raw * EVAL_SCALE as i64 / (QA * QB) as i64) as i32
}

impl Network {
    /// Rounds a float network to integers. Every value must lie within the clip the trainer
    /// keeps ([`WEIGHT_CLIP`]): larger ones would overflow the integer layers.
    pub fn quantise(float: &FloatNetwork) -> Result<Network, NetFileError> {
        if !float.shape_is_consistent() {
            return Err(NetFileError::Invalid(format!(
                "weights do not match hidden size {} and {} output buckets",
                float.hidden, float.buckets
            )));
        }
        if !float.within_clip() {
            return Err(NetFileError::Invalid(format!(
                "a weight lies outside its clip (±{WEIGHT_CLIP}, output ±{OUT_WEIGHT_CLIP}) or is not finite"
            )));
        }
        let q = |w: f32, scale: i32| (w * scale as f32).round() as i16;
        Ok(Network {
            hidden: float.hidden,
            buckets: float.buckets,
            inputs: float.inputs,
            ft_weights: float.ft_weights.iter().map(|&w| q(w, QA)).collect(),
            ft_bias: float.ft_bias.iter().map(|&w| q(w, QA)).collect(),
            out_weights: float.out_weights.iter().map(|&w| q(w, QB)).collect(),
            out_bias: float
                .out_bias
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        })
    }

    /// The float network this one rounds: every integer divided by its scale. Quantising the
    /// result gives this network back, so a trainer can start from a shipped network.
    pub fn dequantise(&self) -> FloatNetwork {
        // A weight trained to its clip rounds one step past it (1.98 * 255 = 504.9 -> 505), so
        // it comes back clamped to the clip, which rounds to the same integer again.
        let unscale = |w: i16, scale: i32, clip: f32| (w as f32 / scale as f32).clamp(-clip, clip);
        FloatNetwork {
            hidden: self.hidden,
            buckets: self.buckets,
            inputs: self.inputs,
            ft_weights: self
                .ft_weights
                .iter()
                .map(|&w| unscale(w, QA, WEIGHT_CLIP))
                .collect(),
            ft_bias: self
                .ft_bias
                .iter()
                .map(|&w| unscale(w, QA, WEIGHT_CLIP))
                .collect(),
            out_weights: self
                .out_weights
                .iter()
                .map(|&w| unscale(w, QB, OUT_WEIGHT_CLIP))
                .collect(),
            out_bias: self
                .out_bias
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
        }
    }

    /// The first layer's output for a set of active features (a full refresh).
    pub fn accumulate(&self, features: &[usize]) -> Vec<i16> {
        let mut acc = self.ft_bias.clone();
        for &f in features {
            let row = &self.ft_weights[f * self.hidden..(f + 1) * self.hidden];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The score in centipawns, side to move's view, from the two accumulators (side to move
    /// first) through output bucket `bucket`: the reference every faster path must equal
    /// exactly.
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let weights = &self.out_weights[2 * h * bucket..2 * h * (bucket + 1)];
        let (w_us, w_them) = weights.split_at(h);
        let dot = |acc: &[i16], w: &[i16]| -> i64 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| screlu_q(a) as i64 * w as i64)
                .sum()
        };
        scale_output(dot(us, w_us) + dot(them, w_them), self.out_bias[bucket])
    }

    /// The evaluation of `board` in centipawns, side to move's view, by a full refresh.
    pub fn evaluate(&self, board: &Board) -> i32 {
        let stm = board.side_to_move();
        let us = self.accumulate(&self.inputs.active_features(board, stm));
        let them = self.accumulate(&self.inputs.active_features(board, stm.flip()));
        self.output(&us, &them, board_bucket(board, self.buckets))
    }

    /// Whether the vectors have the lengths `hidden` and `buckets` ask for (and there is at
    /// least one neuron and one bucket, at most [`MAX_OUTPUT_BUCKETS`]).
    pub(crate) fn shape_is_consistent(&self) -> bool {
        let (h, b) = (self.hidden, self.buckets);
        h > 0
            && (1..=MAX_OUTPUT_BUCKETS).contains(&b)
            && self.ft_weights.len() == self.inputs.inputs() * h
            && self.ft_bias.len() == h
            && self.out_weights.len() == 2 * h * b
            && self.out_bias.len() == b
    }
}
