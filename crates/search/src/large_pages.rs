//! A zeroed, fixed-size array for large tables (the hash table), aligned to 2 MB and, on Linux,
//! marked for transparent huge pages before it is first touched, as Stockfish does: a random
//! probe into 16+ MB then rarely misses the TLB, which the profiler showed as the largest single
//! cost of a hash probe.

use std::alloc::{Layout, alloc, dealloc};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Alignment of a huge page on x86-64 and arm64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// `len` values of `T`, all bits zero.
pub(crate) struct LargeArray<T> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: `LargeArray` owns its values like a `Box<[T]>`.
unsafe impl<T: Send> Send for LargeArray<T> {}
// SAFETY: shared access only hands out `&[T]`.
unsafe impl<T: Sync> Sync for LargeArray<T> {}

impl<T> LargeArray<T> {
    /// `len` zeroed values, or `None` when the memory is not available.
    ///
    /// # Safety
    /// All bits zero must be a valid `T` (atomics, integers and arrays of them are).
    pub(crate) unsafe fn zeroed(len: usize) -> Option<LargeArray<T>> {
        let bytes = len.checked_mul(size_of::<T>())?.max(1);
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            align_of::<T>()
        };
        let layout = Layout::from_size_align(bytes, align.max(align_of::<T>())).ok()?;
        // SAFETY: the layout has a nonzero size.
        let raw = unsafe { alloc(layout) };
        let ptr = NonNull::new(raw.cast::<T>())?;
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            // SAFETY: the range is this allocation; advice failing only means small pages.
            unsafe { libc::madvise(raw.cast(), bytes, libc::MADV_HUGEPAGE) };
        }
        // Zeroed after the advice, so that the first touch faults in huge pages.
        // SAFETY: `raw` is valid for `bytes` bytes, and zero bits are a valid `T`.
        unsafe { std::ptr::write_bytes(raw, 0, bytes) };
        Some(LargeArray { ptr, len, layout })
    }
}

impl<T> Deref for LargeArray<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised values for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for LargeArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for LargeArray<T> {
    fn drop(&mut self) {
        // SAFETY: the values need no drop glue beyond what the caller's `T` allows (only types
        // without `Drop` are stored: zeroed atomics), and `layout` is the allocation's.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ));
            dealloc(self.ptr.as_ptr().cast(), self.layout);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn arrays_are_zeroed_aligned_and_writable() {
        for len in [1, 1000, (4 << 20) / 8] {
            // SAFETY: zero is a valid AtomicU64.
            let mut a = unsafe { LargeArray::<AtomicU64>::zeroed(len) }.unwrap();
            assert_eq!(a.len(), len);
            assert!(a.iter().all(|x| x.load(Ordering::Relaxed) == 0));
            a[len - 1] = AtomicU64::new(7);
            assert_eq!(a[len - 1].load(Ordering::Relaxed), 7);
            if len * 8 >= HUGE_PAGE {
                assert_eq!(a.as_ptr() as usize % HUGE_PAGE, 0);
            }
        }
    }
}
