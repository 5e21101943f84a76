//! The portable kernels: plain Rust on any target, and the reference the SIMD kernels are
//! tested against. Accumulator arithmetic wraps as the vector instructions do (a network the
//! engine accepts never overflows, see `NetEval::new`).

use crate::arch::QA;

/// `dst = src + Σ adds - Σ subs`, element by element.
#[inline]
pub fn update<const A: usize, const S: usize>(
    dst: &mut [i16],
    src: &[i16],
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    for (i, (d, &s)) in dst.iter_mut().zip(src).enumerate() {
        let mut v = s;
        for a in &adds {
            v = v.wrapping_add(a[i]);
        }
        for r in &subs {
            v = v.wrapping_sub(r[i]);
        }
        *d = v;
    }
}

/// `Σ clamp(acc, 0, QA)² · w` over both perspectives, exactly.
#[inline]
pub fn output_sum(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
    let dot = |acc: &[i16], w: &[i16]| -> i64 {
        acc.iter()
            .zip(w)
            .map(|(&a, &w)| {
                let v = (a as i32).clamp(0, QA);
                (v * v) as i64 * w as i64
            })
            .sum()
    };
    dot(us, w_us) + dot(them, w_them)
}
