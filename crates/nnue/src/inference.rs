//! The network laid out for the search ([`NetEval`]): the quantised weights padded to whole
//! blocks and aligned, the kernel chosen for this CPU, and the checks that make the fast
//! integer paths exact.

use crate::aligned::{AlignedI16, padded_len};
use crate::buckets::board_bucket;
use crate::builtin;
use crate::file::{self, NetFileError};
use crate::inputs::{InputLayout, Orientation};
use crate::kernels::{Kernel, MAX_OUT_WEIGHT};
use crate::quantised::{Network, scale_output};
use kestrel_chess::{Board, Color, Piece, Square};
use std::path::Path;

/// Most pieces a perspective can see: the accumulator bound counts this many rows.
const MAX_PIECES: i64 = 32;

/// Names of the compiled-in network in [`NetEval::load`], `EvalFile` and `--net`.
pub const BUILTIN_NAMES: [&str; 3] = ["", "<builtin>", "builtin"];

/// The quantised network a `--net`/`EvalFile` value names: a `.knet` path, or one of
/// [`BUILTIN_NAMES`] for the compiled-in network (an error in a build without one).
pub fn read_network(spec: &str) -> Result<Network, NetFileError> {
    let spec = spec.trim();
    if BUILTIN_NAMES.contains(&spec) {
        return builtin::builtin_network();
    }
    file::read(Path::new(spec))
}

/// A quantised network ready for the search. Neurons beyond `hidden` (padding to a multiple
/// of 32) have zero weights, biases and output weights, so they add nothing.
pub struct NetEval {
    hidden: usize,
    padded: usize,
    buckets: usize,
    inputs: InputLayout,
    ft_weights: AlignedI16,
    ft_bias: AlignedI16,
    /// The side to move's output weights, `padded` per bucket (so each bucket is aligned).
    out_us: AlignedI16,
    /// The other side's output weights, laid out alike.
    out_them: AlignedI16,
    out_bias: Vec<i32>,
    kernel: Kernel,
    source: String,
}

impl std::fmt::Debug for NetEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetEval")
            .field("source", &self.source)
            .field("hidden", &self.hidden)
            .field("buckets", &self.buckets)
            .field("kernel", &self.kernel.name())
            .finish()
    }
}

impl NetEval {
    /// Lays out `net` for `kernel`; `source` names it in messages (a path, or `builtin`).
    /// Refuses a network whose output weights lie beyond ±128 or whose first layer could
    /// overflow an `i16` accumulator with 32 pieces on the board (a trained network, clipped
    /// to [`crate::WEIGHT_CLIP`] and [`crate::OUT_WEIGHT_CLIP`], has neither).
    pub fn new(net: &Network, kernel: Kernel, source: &str) -> Result<NetEval, NetFileError> {
        if !net.shape_is_consistent() {
            return Err(NetFileError::Invalid(format!(
                "{source}: weights do not match hidden size {} and {} output buckets",
                net.hidden, net.buckets
            )));
        }
        check_bounds(net).map_err(|why| NetFileError::Invalid(format!("{source}: {why}")))?;
        let (hidden, padded) = (net.hidden, padded_len(net.hidden));
        let copy_padded = |rows: usize, src: &[i16]| {
            let mut out = AlignedI16::zeros(rows * padded);
            let dst = out.as_mut_slice();
            for r in 0..rows {
                dst[r * padded..r * padded + hidden]
                    .copy_from_slice(&src[r * hidden..(r + 1) * hidden]);
            }
            out
        };
        // Bucket b's weights are rows 2b (side to move) and 2b + 1 (the other side).
        let side_rows = |side: usize| -> Vec<i16> {
            net.out_weights
                .chunks_exact(hidden)
                .skip(side)
                .step_by(2)
                .flatten()
                .copied()
                .collect()
        };
        Ok(NetEval {
            hidden,
            padded,
            buckets: net.buckets,
            inputs: net.inputs,
            ft_weights: copy_padded(net.inputs.inputs(), &net.ft_weights),
            ft_bias: copy_padded(1, &net.ft_bias),
            out_us: copy_padded(net.buckets, &side_rows(0)),
            out_them: copy_padded(net.buckets, &side_rows(1)),
            out_bias: net.out_bias.clone(),
            kernel,
            source: source.to_string(),
        })
    }

    /// `net` with the fastest kernel of this CPU.
    pub fn with_detected_kernel(net: &Network, source: &str) -> Result<NetEval, NetFileError> {
        NetEval::new(net, Kernel::detect(), source)
    }

    /// The network a `--net`/`EvalFile` value names: a `.knet` path, or one of
    /// [`BUILTIN_NAMES`] for the compiled-in network (an error in a build without one).
    pub fn load(spec: &str) -> Result<NetEval, NetFileError> {
        let spec = spec.trim();
        let source = if BUILTIN_NAMES.contains(&spec) {
            "builtin"
        } else {
            spec
        };
        NetEval::with_detected_kernel(&read_network(spec)?, source)
    }

    /// Neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Accumulator length: `hidden` padded to a multiple of 32.
    pub fn padded(&self) -> usize {
        self.padded
    }

    /// Output buckets (1 for a network without them).
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The inputs: plain, or mirrored with king buckets.
    #[inline]
    pub fn inputs(&self) -> InputLayout {
        self.inputs
    }

    /// `hidden N`, with `, B output buckets` when there are several and `, K king buckets`
    /// for king-relative inputs: the network's shape as the messages that name a loaded
    /// network give it.
    pub fn shape(&self) -> String {
        let mut shape = format!("hidden {}", self.hidden);
        if self.buckets > 1 {
            shape.push_str(&format!(", {} output buckets", self.buckets));
        }
        if !self.inputs.is_plain() {
            shape.push_str(&format!(", {} king buckets", self.inputs.setting()));
        }
        shape
    }

    /// The output bucket `board` is scored with.
    #[inline]
    pub fn bucket(&self, board: &Board) -> usize {
        board_bucket(board, self.buckets)
    }

    /// The kernel in use.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Where the network came from (a path, or `builtin`).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The first-layer weights of one feature (`padded` values).
    #[inline]
    pub(crate) fn row(&self, feature: usize) -> &[i16] {
        &self.ft_weights.as_slice()[feature * self.padded..(feature + 1) * self.padded]
    }

    /// The row of `piece` on `square` as `perspective` sees it in `orientation`.
    #[inline]
    pub(crate) fn piece_row(
        &self,
        orientation: Orientation,
        perspective: Color,
        piece: Piece,
        square: Square,
    ) -> &[i16] {
        self.row(orientation.feature(perspective, piece, square))
    }

    /// Fills `acc` (`padded` values) with `perspective`'s accumulator of `board` from scratch.
    pub fn refresh(&self, board: &Board, perspective: Color, acc: &mut [i16]) {
        acc.copy_from_slice(self.ft_bias.as_slice());
        for f in self.inputs.active_features(board, perspective) {
            for (a, &w) in acc.iter_mut().zip(self.row(f)) {
                *a = a.wrapping_add(w);
            }
        }
    }

    /// The score in centipawns (side to move's view) from the two accumulators, side to move
    /// first, through output bucket `bucket` (below [`NetEval::buckets`]): equal to
    /// [`Network::output`] on the same values.
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let weights = bucket * self.padded..(bucket + 1) * self.padded;
        let sum = self.kernel.output_sum(
            us,
            them,
            &self.out_us.as_slice()[weights.clone()],
            &self.out_them.as_slice()[weights],
        );
        scale_output(sum, self.out_bias[bucket])
    }

    /// The evaluation of `board` by a full refresh (side to move's view, centipawns).
    pub fn evaluate(&self, board: &Board) -> i32 {
        let mut us = AlignedI16::zeros(self.padded);
        let mut them = AlignedI16::zeros(self.padded);
        let stm = board.side_to_move();
        self.refresh(board, stm, us.as_mut_slice());
        self.refresh(board, stm.flip(), them.as_mut_slice());
        self.output(us.as_slice(), them.as_slice(), self.bucket(board))
    }
}

/// Why `net` cannot run exactly on the integer kernels, if it cannot.
fn check_bounds(net: &Network) -> Result<(), String> {
    if let Some(w) = net
        .out_weights
        .iter()
        .find(|w| w.unsigned_abs() > MAX_OUT_WEIGHT as u16)
    {
        return Err(format!(
            "output weight {w} lies beyond ±{MAX_OUT_WEIGHT} (the trainer clips to ±{})",
            crate::OUT_WEIGHT_CLIP
        ));
    }
    for i in 0..net.hidden {
        let largest = (0..net.inputs.inputs())
            .map(|f| net.ft_weights[f * net.hidden + i].unsigned_abs() as i64)
            .max()
            .unwrap_or(0);
        let bound = net.ft_bias[i].unsigned_abs() as i64 + MAX_PIECES * largest;
        if bound > i16::MAX as i64 {
            return Err(format!(
                "neuron {i} can reach {bound} with 32 pieces, beyond an i16 accumulator"
            ));
        }
    }
    Ok(())
}
