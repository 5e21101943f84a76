//! Left-right mirror augmentation (`--mirror`): without castling rights chess is symmetric
//! under the file mirror a↔h (en passant included), so such a position mirrored is another
//! training position with the same target. Mirroring works on the feature indices: a feature
//! is `side + 64·kind + square` (the square possibly flipped vertically), and the file mirror
//! of a square is `square ^ 7`, so the mirrored feature is `feature ^ 7`.
//!
//! Each epoch presents every such position in one orientation drawn from (seed, epoch,
//! position index): an epoch costs the same as without mirroring and keeps its number of
//! steps (so the learning-rate schedule is unchanged), and over the epochs each position is
//! seen both ways about equally often. The draw is a hash, not a thread's generator, so the
//! network stays the same on any thread count.
//!
//! King-relative inputs (`--king-buckets`) mirror every position to its king's side already:
//! a position and its mirror have the same features there, so the trainer draws no mirrors.

use super::model::Features;
use crate::format::PackedPosition;
use crate::selfplay::game_seed;
use kestrel_nnue::InputLayout;

/// Salt separating the mirror draws from the shuffles' seeds.
const MIRROR_SALT: u64 = 0x6d69_7272_6f72_2121;

impl Features {
    /// The features of the position mirrored left-right (a↔h).
    pub fn mirrored(mut self) -> Features {
        for f in self.us[..self.len]
            .iter_mut()
            .chain(&mut self.them[..self.len])
        {
            *f ^= 7;
        }
        self
    }
}

/// Whether `record` may be mirrored: neither side has castling rights.
pub fn can_mirror(record: &PackedPosition) -> bool {
    !record.has_castling_rights()
}

/// Whether training position `index` is presented mirrored in `epoch` (when it may be).
pub fn mirrored_in_epoch(seed: u64, epoch: u64, index: u64) -> bool {
    game_seed(game_seed(seed ^ MIRROR_SALT, epoch), index) & 1 == 1
}

/// A training position as one step sees it: the record, and whether it is mirrored.
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    /// The stored position.
    pub record: &'a PackedPosition,
    /// Whether its features are mirrored.
    pub mirrored: bool,
}

impl<'a> Sample<'a> {
    /// `record` as stored.
    pub fn plain(record: &'a PackedPosition) -> Sample<'a> {
        Sample {
            record,
            mirrored: false,
        }
    }

    /// Training position `index` of `epoch`: mirrored when `mirror` is on, the position has
    /// no castling rights and the draw says so.
    pub fn for_epoch(
        record: &'a PackedPosition,
        mirror: bool,
        seed: u64,
        epoch: u64,
        index: u64,
    ) -> Sample<'a> {
        let mirrored = mirror && can_mirror(record) && mirrored_in_epoch(seed, epoch, index);
        Sample { record, mirrored }
    }

    /// The active features in the `inputs` layout, mirrored when the sample is.
    pub fn features(&self, inputs: InputLayout) -> Features {
        let f = Features::of(self.record, inputs);
        if self.mirrored { f.mirrored() } else { f }
    }
}
