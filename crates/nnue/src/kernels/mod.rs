//! The accumulator update and the output layer, in one implementation per instruction set,
//! chosen once at run time ([`Kernel::detect`]). Every kernel gives the same integers: the
//! accumulators wrap alike, and the output sum is exact (no lane overflows, see `x86.rs`).

mod portable;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod x86;

/// The largest output weight (in size) the vector kernels multiply exactly.
pub const MAX_OUT_WEIGHT: i16 = 128;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Isa {
    Portable,
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Sse2,
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx2,
}

/// One set of kernels. Only [`Kernel::detect`] and [`Kernel::supported`] make one, so a kernel
/// that exists can run on this CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Isa);

impl Kernel {
    /// The plain Rust kernel (every target).
    pub fn portable() -> Kernel {
        Kernel(Isa::Portable)
    }

    /// The fastest kernel this CPU runs: AVX2, then SSE2, then portable.
    pub fn detect() -> Kernel {
        *Kernel::supported()
            .last()
            .expect("portable is always supported")
    }

    /// Every kernel this CPU runs, slowest (portable) first.
    pub fn supported() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut kernels = vec![Kernel(Isa::Portable)];
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        {
            if std::arch::is_x86_feature_detected!("sse2") {
                kernels.push(Kernel(Isa::Sse2));
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                kernels.push(Kernel(Isa::Avx2));
            }
        }
        kernels
    }

    /// `portable`, `sse2` or `avx2`.
    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Portable => "portable",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Isa::Sse2 => "sse2",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Isa::Avx2 => "avx2",
        }
    }

    /// `dst = src + Σ adds - Σ subs` (wrapping), over `dst.len()` values, a multiple of 32.
    ///
    /// # Panics
    /// When a slice is shorter than `dst` or `dst.len()` is not a multiple of 32.
    #[inline]
    pub fn update<const A: usize, const S: usize>(
        self,
        dst: &mut [i16],
        src: &[i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        let n = dst.len();
        assert!(
            n.is_multiple_of(32)
                && src.len() >= n
                && adds.iter().all(|a| a.len() >= n)
                && subs.iter().all(|s| s.len() >= n),
            "accumulator slices of unequal or unpadded length"
        );
        match self.0 {
            Isa::Portable => portable::update(dst, src, adds, subs),
            // SAFETY: the kernel exists only if the CPU has the feature; lengths checked above.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Isa::Sse2 => unsafe { x86::update_sse2(dst, src, adds, subs) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Isa::Avx2 => unsafe { x86::update_avx2(dst, src, adds, subs) },
        }
    }

    /// `Σ clamp(acc, 0, QA)² · w` over both perspectives (side to move first), exactly.
    ///
    /// # Panics
    /// When the lengths differ or are not a multiple of 32, or (in debug builds) when an
    /// output weight lies beyond ±[`MAX_OUT_WEIGHT`] (`NetEval::new` refuses such a network).
    #[inline]
    pub fn output_sum(self, us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
        let n = us.len();
        assert!(
            n.is_multiple_of(32) && them.len() == n && w_us.len() == n && w_them.len() == n,
            "output slices of unequal or unpadded length"
        );
        debug_assert!(
            w_us.iter()
                .chain(w_them)
                .all(|w| w.unsigned_abs() <= MAX_OUT_WEIGHT as u16)
        );
        match self.0 {
            Isa::Portable => portable::output_sum(us, them, w_us, w_them),
            // SAFETY: the kernel exists only if the CPU has the feature; lengths checked above.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Isa::Sse2 => unsafe { x86::dot_sse2(us, w_us) + x86::dot_sse2(them, w_them) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Isa::Avx2 => unsafe { x86::dot_avx2(us, w_us) + x86::dot_avx2(them, w_them) },
        }
    }
}
