//! The x86-64 kernels, AVX2 (16 lanes of `i16`) and SSE2 (8 lanes). Callers guarantee the CPU
//! has the feature and that every slice holds at least `dst.len()` (or `acc.len()`) values.
//!
//! The output uses the "madd" form: with `v = clamp(acc, 0, QA)` and `|w| <= 128`, `v·w`
//! fits an `i16` (`255·128 = 32640`), and `madd(v·w, v)` adds two products `v²·w` into each
//! `i32` lane. One product is at most `255²·128 = 8,323,200` in size, so a lane holds 128
//! madds (256 products, at most 2,130,739,200 < 2^31) without overflow: the lanes are moved to
//! an `i64` after every [`FLUSH`] vectors, and separately per perspective. With AVX2 a hidden
//! size up to 2048 (SSE2: 1024) never flushes inside a perspective; larger ones stay exact.

use crate::arch::QA;
#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Vectors a lane accumulates before it is moved to the `i64` total.
pub const FLUSH: usize = 128;

/// `dst = src + Σ adds - Σ subs` with AVX2.
///
/// # Safety
/// The CPU supports AVX2; `src`, `adds` and `subs` hold at least `dst.len()` values, a
/// multiple of 16.
#[target_feature(enable = "avx2")]
pub unsafe fn update_avx2<const A: usize, const S: usize>(
    dst: &mut [i16],
    src: &[i16],
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    let n = dst.len();
    let mut i = 0;
    while i < n {
        // SAFETY: i + 16 <= n and every slice holds n values (the caller's contract).
        unsafe {
            let mut v = _mm256_loadu_si256(src.as_ptr().add(i).cast());
            for a in &adds {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(a.as_ptr().add(i).cast()));
            }
            for r in &subs {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(r.as_ptr().add(i).cast()));
            }
            _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), v);
        }
        i += 16;
    }
}

/// The output sum (see the module doc) with AVX2.
///
/// # Safety
/// The CPU supports AVX2; `w` holds at least `acc.len()` values, a multiple of 16, each
/// within ±128.
#[target_feature(enable = "avx2")]
pub unsafe fn dot_avx2(acc: &[i16], w: &[i16]) -> i64 {
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let n = acc.len();
    let mut total = 0i64;
    let mut i = 0;
    while i < n {
        let end = n.min(i + 16 * FLUSH);
        let mut lanes = _mm256_setzero_si256();
        while i < end {
            // SAFETY: i + 16 <= n and both slices hold n values.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
                let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                let vw = _mm256_mullo_epi16(v, _mm256_loadu_si256(w.as_ptr().add(i).cast()));
                lanes = _mm256_add_epi32(lanes, _mm256_madd_epi16(vw, v));
            }
            i += 16;
        }
        let mut out = [0i32; 8];
        // SAFETY: `out` holds 8 i32, 32 bytes.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), lanes) };
        total += out.iter().map(|&x| x as i64).sum::<i64>();
    }
    total
}

/// `dst = src + Σ adds - Σ subs` with SSE2.
///
/// # Safety
/// The CPU supports SSE2; `src`, `adds` and `subs` hold at least `dst.len()` values, a
/// multiple of 8.
#[target_feature(enable = "sse2")]
pub unsafe fn update_sse2<const A: usize, const S: usize>(
    dst: &mut [i16],
    src: &[i16],
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    let n = dst.len();
    let mut i = 0;
    while i < n {
        // SAFETY: i + 8 <= n and every slice holds n values (the caller's contract).
        unsafe {
            let mut v = _mm_loadu_si128(src.as_ptr().add(i).cast());
            for a in &adds {
                v = _mm_add_epi16(v, _mm_loadu_si128(a.as_ptr().add(i).cast()));
            }
            for r in &subs {
                v = _mm_sub_epi16(v, _mm_loadu_si128(r.as_ptr().add(i).cast()));
            }
            _mm_storeu_si128(dst.as_mut_ptr().add(i).cast(), v);
        }
        i += 8;
    }
}

/// The output sum (see the module doc) with SSE2.
///
/// # Safety
/// The CPU supports SSE2; `w` holds at least `acc.len()` values, a multiple of 8, each
/// within ±128.
#[target_feature(enable = "sse2")]
pub unsafe fn dot_sse2(acc: &[i16], w: &[i16]) -> i64 {
    let zero = _mm_setzero_si128();
    let qa = _mm_set1_epi16(QA as i16);
    let n = acc.len();
    let mut total = 0i64;
    let mut i = 0;
    while i < n {
        let end = n.min(i + 8 * FLUSH);
        let mut lanes = _mm_setzero_si128();
        while i < end {
            // SAFETY: i + 8 <= n and both slices hold n values.
            unsafe {
                let a = _mm_loadu_si128(acc.as_ptr().add(i).cast());
                let v = _mm_min_epi16(_mm_max_epi16(a, zero), qa);
                let vw = _mm_mullo_epi16(v, _mm_loadu_si128(w.as_ptr().add(i).cast()));
                lanes = _mm_add_epi32(lanes, _mm_madd_epi16(vw, v));
            }
            i += 8;
        }
        let mut out = [0i32; 4];
        // SAFETY: `out` holds 4 i32, 16 bytes.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), lanes) };
        total += out.iter().map(|&x| x as i64).sum::<i64>();
    }
    total
}
