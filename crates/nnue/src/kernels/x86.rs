//! The x86-64 kernels, AVX2 (16 lanes of `i16`) and SSE2 (8 lanes). Callers guarantee the CPU
//! has the feature and that every slice holds at least `dst.len()` (or `acc.len()`) values.
//!
//! Both widths share one body per kernel, generic over [`Lanes`]; each public function is a
//! `#[target_feature]` wrapper that instantiates it, so each path is compiled with its own
//! instruction set and the generic body is inlined into it.
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

/// The vector operations the kernels use, at one register width.
///
/// # Safety
/// Every method needs the CPU feature of its implementation; the pointer methods read or
/// write [`Lanes::I16S`] `i16` values (unaligned).
trait Lanes {
    /// A register of `I16S` lanes of `i16` (or `I16S / 2` lanes of `i32`).
    type Reg: Copy;
    /// The `i16` lanes in one register.
    const I16S: usize;
    unsafe fn load(p: *const i16) -> Self::Reg;
    unsafe fn store(p: *mut i16, v: Self::Reg);
    unsafe fn zero() -> Self::Reg;
    unsafe fn splat16(x: i16) -> Self::Reg;
    unsafe fn add16(a: Self::Reg, b: Self::Reg) -> Self::Reg;
    unsafe fn sub16(a: Self::Reg, b: Self::Reg) -> Self::Reg;
    unsafe fn min16(a: Self::Reg, b: Self::Reg) -> Self::Reg;
    unsafe fn max16(a: Self::Reg, b: Self::Reg) -> Self::Reg;
    unsafe fn mullo16(a: Self::Reg, b: Self::Reg) -> Self::Reg;
    /// Pairwise `i16` products summed into `i32` lanes.
    unsafe fn madd16(a: Self::Reg, b: Self::Reg) -> Self::Reg;
    unsafe fn add32(a: Self::Reg, b: Self::Reg) -> Self::Reg;
    /// The sum of the `i32` lanes, in an `i64`.
    unsafe fn sum32(v: Self::Reg) -> i64;
}

/// Implements [`Lanes`] for `$isa` with the intrinsics of one width, each compiled with
/// `$feature`; the two-register operations are listed as `method intrinsic` pairs.
macro_rules! lanes {
    ($isa:ident: $feature:literal, $reg:ty, $i16s:literal lanes;
     load $load:ident, store $store:ident, zero $zero:ident, splat16 $splat:ident;
     $($op:ident $intrinsic:ident),+) => {
        struct $isa;

        impl Lanes for $isa {
            type Reg = $reg;
            const I16S: usize = $i16s;
            #[inline]
            #[target_feature(enable = $feature)]
            unsafe fn load(p: *const i16) -> $reg {
                // SAFETY: the caller's contract (I16S readable values).
                unsafe { $load(p.cast()) }
            }
            #[inline]
            #[target_feature(enable = $feature)]
            unsafe fn store(p: *mut i16, v: $reg) {
                // SAFETY: the caller's contract (I16S writable values).
                unsafe { $store(p.cast(), v) }
            }
            #[inline]
            #[target_feature(enable = $feature)]
            unsafe fn zero() -> $reg {
                $zero()
            }
            #[inline]
            #[target_feature(enable = $feature)]
            unsafe fn splat16(x: i16) -> $reg {
                $splat(x)
            }
            $(
                #[inline]
                #[target_feature(enable = $feature)]
                unsafe fn $op(a: $reg, b: $reg) -> $reg {
                    $intrinsic(a, b)
                }
            )+
            #[inline]
            #[target_feature(enable = $feature)]
            unsafe fn sum32(v: $reg) -> i64 {
                let mut out = [0i32; $i16s / 2];
                // SAFETY: `out` holds I16S / 2 i32, one register.
                unsafe { $store(out.as_mut_ptr().cast(), v) };
                out.iter().map(|&x| x as i64).sum()
            }
        }
    };
}

lanes! {
    Avx2: "avx2", __m256i, 16 lanes;
    load _mm256_loadu_si256, store _mm256_storeu_si256, zero _mm256_setzero_si256,
    splat16 _mm256_set1_epi16;
    add16 _mm256_add_epi16, sub16 _mm256_sub_epi16, min16 _mm256_min_epi16,
    max16 _mm256_max_epi16, mullo16 _mm256_mullo_epi16, madd16 _mm256_madd_epi16,
    add32 _mm256_add_epi32
}

lanes! {
    Sse2: "sse2", __m128i, 8 lanes;
    load _mm_loadu_si128, store _mm_storeu_si128, zero _mm_setzero_si128,
    splat16 _mm_set1_epi16;
    add16 _mm_add_epi16, sub16 _mm_sub_epi16, min16 _mm_min_epi16, max16 _mm_max_epi16,
    mullo16 _mm_mullo_epi16, madd16 _mm_madd_epi16, add32 _mm_add_epi32
}

/// `dst = src + Σ adds - Σ subs`, `V::I16S` values at a time.
///
/// # Safety
/// The CPU supports `V`'s feature; `src`, `adds` and `subs` hold at least `dst.len()` values,
/// a multiple of `V::I16S`.
#[inline(always)]
unsafe fn update<V: Lanes, const A: usize, const S: usize>(
    dst: &mut [i16],
    src: &[i16],
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    let n = dst.len();
    let mut i = 0;
    while i < n {
        // SAFETY: i + I16S <= n and every slice holds n values (the caller's contract).
        unsafe {
            let mut v = V::load(src.as_ptr().add(i));
            for a in &adds {
                v = V::add16(v, V::load(a.as_ptr().add(i)));
            }
            for r in &subs {
                v = V::sub16(v, V::load(r.as_ptr().add(i)));
            }
            V::store(dst.as_mut_ptr().add(i), v);
        }
        i += V::I16S;
    }
}

/// The output sum (see the module doc), `V::I16S` values at a time.
///
/// # Safety
/// The CPU supports `V`'s feature; `w` holds at least `acc.len()` values, a multiple of
/// `V::I16S`, each within ±128.
#[inline(always)]
unsafe fn dot<V: Lanes>(acc: &[i16], w: &[i16]) -> i64 {
    // SAFETY (every block below): the CPU supports V's feature (the caller's contract).
    let (zero, qa) = unsafe { (V::zero(), V::splat16(QA as i16)) };
    let n = acc.len();
    let mut total = 0i64;
    let mut i = 0;
    while i < n {
        let end = n.min(i + V::I16S * FLUSH);
        let mut lanes = unsafe { V::zero() };
        while i < end {
            // SAFETY: i + I16S <= n and both slices hold n values.
            unsafe {
                let a = V::load(acc.as_ptr().add(i));
                let v = V::min16(V::max16(a, zero), qa);
                let vw = V::mullo16(v, V::load(w.as_ptr().add(i)));
                lanes = V::add32(lanes, V::madd16(vw, v));
            }
            i += V::I16S;
        }
        total += unsafe { V::sum32(lanes) };
    }
    total
}

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
    // SAFETY: the caller's contract is `update`'s, for 16 lanes.
    unsafe { update::<Avx2, A, S>(dst, src, adds, subs) }
}

/// The output sum (see the module doc) with AVX2.
///
/// # Safety
/// The CPU supports AVX2; `w` holds at least `acc.len()` values, a multiple of 16, each
/// within ±128.
#[target_feature(enable = "avx2")]
pub unsafe fn dot_avx2(acc: &[i16], w: &[i16]) -> i64 {
    // SAFETY: the caller's contract is `dot`'s, for 16 lanes.
    unsafe { dot::<Avx2>(acc, w) }
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
    // SAFETY: the caller's contract is `update`'s, for 8 lanes.
    unsafe { update::<Sse2, A, S>(dst, src, adds, subs) }
}

/// The output sum (see the module doc) with SSE2.
///
/// # Safety
/// The CPU supports SSE2; `w` holds at least `acc.len()` values, a multiple of 8, each
/// within ±128.
#[target_feature(enable = "sse2")]
pub unsafe fn dot_sse2(acc: &[i16], w: &[i16]) -> i64 {
    // SAFETY: the caller's contract is `dot`'s, for 8 lanes.
    unsafe { dot::<Sse2>(acc, w) }
}
