//! The network's parameters as one flat vector (what Adam updates), the sparse forward pass
//! over a record's active features, and the gradient of the loss.
//!
//! Layout of the vector: first-layer weights feature-major (`f * hidden + i`, as
//! [`FloatNetwork`]), first-layer biases, output weights bucket by bucket (side to move's,
//! then the other side's), output biases (one per bucket). With one output bucket this is the
//! layout of the network without buckets, value for value.

use crate::format::PackedPosition;
use kestrel_chess::{PieceKind, Square};
use kestrel_nnue::{EVAL_SCALE, FloatNetwork, InputLayout, output_bucket};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The active features of a record from both perspectives (side to move's first).
#[derive(Clone, Copy, Debug)]
pub struct Features {
    /// Active features seen by the side to move.
    pub us: [u16; 32],
    /// Active features seen by the other side.
    pub them: [u16; 32],
    /// How many of each array are used (the pieces on the board).
    pub len: usize,
}

impl Features {
    /// The features of a (valid: one king a side) record in the `inputs` layout, in square
    /// order as `InputLayout::active_features` lists them.
    pub fn of(record: &PackedPosition, inputs: InputLayout) -> Features {
        let stm = record.side_to_move();
        let mut kings = [Square(0); 2];
        for (sq, piece) in record.pieces() {
            if piece.kind == PieceKind::King {
                kings[piece.color.index()] = sq;
            }
        }
        let ours = inputs.orientation(stm, kings[stm.index()]);
        let theirs = inputs.orientation(stm.flip(), kings[stm.flip().index()]);
        let mut f = Features {
            us: [0; 32],
            them: [0; 32],
            len: 0,
        };
        for (sq, piece) in record.pieces() {
            f.us[f.len] = ours.feature(stm, piece, sq) as u16;
            f.them[f.len] = theirs.feature(stm.flip(), piece, sq) as u16;
            f.len += 1;
        }
        f
    }

    /// The output bucket of the position in a network of `buckets` buckets (by its pieces;
    /// a mirrored position has the same).
    #[inline]
    pub fn bucket(&self, buckets: usize) -> usize {
        output_bucket(self.len as u32, buckets)
    }
}

/// Squared clipped ReLU and its derivative.
#[inline]
fn screlu(x: f32) -> (f32, f32) {
    if x <= 0.0 {
        (0.0, 0.0)
    } else if x >= 1.0 {
        (1.0, 0.0)
    } else {
        (x * x, 2.0 * x)
    }
}

/// Index ranges of the flat parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Neurons per perspective.
    pub hidden: usize,
    /// Output buckets (1: the network without buckets).
    pub buckets: usize,
    /// The inputs: plain, or mirrored with king buckets.
    pub inputs: InputLayout,
}

impl Layout {
    /// Start of the first-layer biases.
    pub fn ft_bias(self) -> usize {
        self.inputs.inputs() * self.hidden
    }
    /// Start of the output weights.
    pub fn out_weights(self) -> usize {
        (self.inputs.inputs() + 1) * self.hidden
    }
    /// Start of output bucket `bucket`'s weights (`2 * hidden` of them).
    pub fn bucket_weights(self, bucket: usize) -> usize {
        self.out_weights() + 2 * self.hidden * bucket
    }
    /// Start of the output biases (the bias of bucket `b` is at `out_bias() + b`).
    pub fn out_bias(self) -> usize {
        self.bucket_weights(self.buckets)
    }
    /// Parameters in all.
    pub fn len(self) -> usize {
        self.out_bias() + self.buckets
    }
    /// Never empty (a network has at least its output bias).
    pub fn is_empty(self) -> bool {
        false
    }
}

/// Random starting parameters: first layer uniform in ±0.1 (about 30 rows add up to an
/// accumulator of spread ~0.3 around the SCReLU's active range), biases 0, output weights uniform
/// in ±1/√(2·hidden), every bucket's drawn in turn (one bucket draws as the network without
/// buckets always did).
pub fn init_params(layout: Layout, seed: u64) -> Vec<f32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = vec![0.0f32; layout.len()];
    for w in &mut p[..layout.ft_bias()] {
        *w = rng.random_range(-0.1..0.1);
    }
    let out = 1.0 / (2.0 * layout.hidden as f32).sqrt();
    for w in &mut p[layout.out_weights()..layout.out_bias()] {
        *w = rng.random_range(-out..out);
    }
    p
}

/// The flat parameters as a [`FloatNetwork`].
pub fn to_network(layout: Layout, p: &[f32]) -> FloatNetwork {
    FloatNetwork {
        hidden: layout.hidden,
        buckets: layout.buckets,
        inputs: layout.inputs,
        ft_weights: p[..layout.ft_bias()].to_vec(),
        ft_bias: p[layout.ft_bias()..layout.out_weights()].to_vec(),
        out_weights: p[layout.out_weights()..layout.out_bias()].to_vec(),
        out_bias: p[layout.out_bias()..layout.len()].to_vec(),
    }
}

/// A [`FloatNetwork`] as flat parameters.
pub fn from_network(net: &FloatNetwork) -> Vec<f32> {
    let mut p = net.ft_weights.clone();
    p.extend_from_slice(&net.ft_bias);
    p.extend_from_slice(&net.out_weights);
    p.extend_from_slice(&net.out_bias);
    p
}

/// Per-thread buffers of the forward and backward passes.
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
    d_acc: Vec<f32>,
}

impl Scratch {
    /// Buffers for `hidden` neurons.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
            d_acc: vec![0.0; hidden],
        }
    }
}

fn accumulate(layout: Layout, p: &[f32], features: &[u16], acc: &mut [f32]) {
    let h = layout.hidden;
    acc.copy_from_slice(&p[layout.ft_bias()..layout.out_weights()]);
    for &f in features {
        let row = &p[f as usize * h..(f as usize + 1) * h];
        for (a, w) in acc.iter_mut().zip(row) {
            *a += w;
        }
    }
}

/// The raw output (centipawns / [`EVAL_SCALE`]) of the network for `features`, through the
/// output bucket of their material; the accumulators stay in `scratch` for [`backward`].
pub fn forward(layout: Layout, p: &[f32], features: &Features, scratch: &mut Scratch) -> f32 {
    let n = features.len;
    accumulate(layout, p, &features.us[..n], &mut scratch.us);
    accumulate(layout, p, &features.them[..n], &mut scratch.them);
    let bucket = features.bucket(layout.buckets);
    let start = layout.bucket_weights(bucket);
    let w = &p[start..start + 2 * layout.hidden];
    let (w_us, w_them) = w.split_at(layout.hidden);
    let sum_us: f32 = scratch
        .us
        .iter()
        .zip(w_us)
        .map(|(&a, &w)| screlu(a).0 * w)
        .sum();
    let sum_them: f32 = scratch
        .them
        .iter()
        .zip(w_them)
        .map(|(&a, &w)| screlu(a).0 * w)
        .sum();
    sum_us + sum_them + p[layout.out_bias() + bucket]
}

/// Adds `d_out` × the gradient of the output after [`forward`] of the same features to
/// `grad` (only the active rows of the first layer and the position's output bucket are
/// touched).
pub fn backward(
    layout: Layout,
    p: &[f32],
    features: &Features,
    scratch: &mut Scratch,
    d_out: f32,
    grad: &mut [f32],
) {
    let h = layout.hidden;
    let Scratch { us, them, d_acc } = scratch;
    let bucket = features.bucket(layout.buckets);
    let (wo, fb) = (layout.bucket_weights(bucket), layout.ft_bias());
    grad[layout.out_bias() + bucket] += d_out;
    for (side, acc, feats) in [
        (0, &*us, &features.us[..features.len]),
        (1, &*them, &features.them[..features.len]),
    ] {
        for i in 0..h {
            let (act, slope) = screlu(acc[i]);
            let w = p[wo + side * h + i];
            grad[wo + side * h + i] += d_out * act;
            d_acc[i] = d_out * w * slope;
        }
        for (g, d) in grad[fb..fb + h].iter_mut().zip(d_acc.iter()) {
            *g += d;
        }
        for &f in feats {
            let row = &mut grad[f as usize * h..(f as usize + 1) * h];
            for (g, d) in row.iter_mut().zip(d_acc.iter()) {
                *g += d;
            }
        }
    }
}

/// The network's evaluation in centipawns (side to move's view) from a raw output.
pub fn centipawns(raw: f32) -> f32 {
    raw * EVAL_SCALE as f32
}
