//! Storage for the first layer and the accumulators: `i16` values in 64-byte aligned blocks,
//! so every vector load of every kernel stays within one cache line.

/// Values in one block (64 bytes): every row and accumulator is padded to a whole number.
pub const BLOCK_LEN: usize = 32;

/// 32 `i16` aligned to 64 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Block(pub [i16; BLOCK_LEN]);

/// An aligned vector of `i16` whose length is a multiple of [`BLOCK_LEN`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlignedI16 {
    blocks: Vec<Block>,
}

/// `n` rounded up to a whole number of blocks.
pub fn padded_len(n: usize) -> usize {
    n.div_ceil(BLOCK_LEN) * BLOCK_LEN
}

impl AlignedI16 {
    /// `len` zeros (`len` a multiple of [`BLOCK_LEN`]).
    pub fn zeros(len: usize) -> AlignedI16 {
        debug_assert!(len.is_multiple_of(BLOCK_LEN));
        AlignedI16 {
            blocks: vec![Block([0; BLOCK_LEN]); len / BLOCK_LEN],
        }
    }

    /// Grows (zero-filled) or shrinks to `len` values (a multiple of [`BLOCK_LEN`]).
    pub fn resize(&mut self, len: usize) {
        debug_assert!(len.is_multiple_of(BLOCK_LEN));
        self.blocks.resize(len / BLOCK_LEN, Block([0; BLOCK_LEN]));
    }

    /// The values.
    #[inline]
    pub fn as_slice(&self) -> &[i16] {
        // SAFETY: a Block is `repr(C)` around `[i16; 32]` with no padding (64 bytes exactly),
        // so the blocks are one contiguous run of initialised i16.
        unsafe {
            std::slice::from_raw_parts(
                self.blocks.as_ptr().cast::<i16>(),
                self.blocks.len() * BLOCK_LEN,
            )
        }
    }

    /// The values, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [i16] {
        // SAFETY: as in `as_slice`; the borrow is unique.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.blocks.as_mut_ptr().cast::<i16>(),
                self.blocks.len() * BLOCK_LEN,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_is_aligned_and_padded() {
        assert_eq!(std::mem::size_of::<Block>(), 64);
        let mut v = AlignedI16::zeros(64);
        assert_eq!(v.as_slice().as_ptr() as usize % 64, 0);
        v.as_mut_slice()[63] = 7;
        v.resize(128);
        assert_eq!(v.as_slice().len(), 128);
        assert_eq!(v.as_slice()[63], 7);
        assert_eq!(v.as_slice().as_ptr() as usize % 64, 0);
        assert_eq!(padded_len(1), 32);
        assert_eq!(padded_len(256), 256);
        assert_eq!(padded_len(257), 288);
    }
}
