//! The network's two kernels — changing an accumulator by rows of feature
//! weights, and the output layer — with a path per instruction set, chosen at
//! run time. Every path gives the same bits: the accumulator sums wrap like
//! the `i16` lanes of the vector units, and the output follows their order of
//! operations exactly (`(v·w)` truncated to `i16`, times `v` into `i32`, the
//! `i32` sums wrapping), which for the output weights a network may have
//! ([`super::network::MAX_OUTPUT_WEIGHT`]) is the exact formula of
//! [`super::format`].

use super::format::{HIDDEN, QA};

/// A row of `HIDDEN` values (an accumulator half, a feature's weights),
/// aligned for the widest vector loads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

impl Row {
    /// Every value zero.
    pub const ZERO: Row = Row([0; HIDDEN]);
}

/// An instruction set the kernels can use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Simd {
    /// Plain Rust, any machine.
    Scalar,
    /// SSE2 (every x86-64 has it).
    Sse2,
    /// AVX2, where the processor has it.
    Avx2,
    /// AVX-512 (its foundation and byte/word instructions, AVX512F and
    /// AVX512BW), where the processor has them.
    Avx512,
}

impl Simd {
    /// The best instruction set of this processor.
    pub fn detect() -> Simd {
        *Simd::available().last().expect("scalar is always available")
    }

    /// Every instruction set this processor runs, scalar first, best last.
    pub fn available() -> Vec<Simd> {
        [Simd::Scalar, Simd::Sse2, Simd::Avx2, Simd::Avx512]
            .into_iter()
            .filter(|s| s.is_available())
            .collect()
    }

    /// True if this processor runs `self`.
    pub fn is_available(self) -> bool {
        match self {
            Simd::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Simd::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// `out = old + Σ add − Σ sub`, lane by lane, wrapping. `self` must be
    /// available (callers hold only checked values, see [`super::Network`]).
    #[inline]
    pub(super) fn update(self, out: &mut Row, old: &Row, add: &[&Row], sub: &[&Row]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `self` is `Avx2` only where the processor has AVX2 (the
            // caller's promise, see above).
            Simd::Avx2 => unsafe { x86::update_avx2(out, old, add, sub) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `self` is `Avx512` only where the processor has AVX512F
            // and AVX512BW (the caller's promise, see above).
            Simd::Avx512 => unsafe { x86::update_avx512(out, old, add, sub) },
            // Without AVX2 the plain loop is vectorised with the SSE2 of the
            // x86-64 baseline.
            _ => update_lanes(out, old, add, sub),
        }
    }

    /// `Σ v·w` over both halves, with `v` the clamped accumulator values
    /// (the side to move's half against `w[..HIDDEN]`, the other against
    /// `w[HIDDEN..]`), before the division by QA. `self` must be available.
    #[inline]
    pub(super) fn output(self, us: &Row, them: &Row, w: &[Row; 2]) -> i32 {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `self` is `Avx2` only where the processor has AVX2.
            Simd::Avx2 => unsafe { x86::output_avx2(us, them, w) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `self` is `Avx512` only where the processor has AVX512F
            // and AVX512BW.
            Simd::Avx512 => unsafe { x86::output_avx512(us, them, w) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: every x86-64 processor has SSE2.
            Simd::Sse2 => unsafe { x86::output_sse2(us, them, w) },
            _ => output_scalar(us, them, w),
        }
    }
}

/// The update as a plain loop over the lanes (vectorised by the compiler
/// for whatever instruction set the function it is inlined into allows),
/// summed in a local row stored once, which the compiler keeps in vector
/// registers (summed in `out`, it stored and reloaded `out` between rows).
#[inline(always)]
fn update_lanes(out: &mut Row, old: &Row, add: &[&Row], sub: &[&Row]) {
    let mut acc = old.0;
    for a in add {
        for (o, &x) in acc.iter_mut().zip(&a.0) {
            *o = o.wrapping_add(x);
        }
    }
    for s in sub {
        for (o, &x) in acc.iter_mut().zip(&s.0) {
            *o = o.wrapping_sub(x);
        }
    }
    out.0 = acc;
}

/// The output sum, one lane at a time, in the vector units' arithmetic.
fn output_scalar(us: &Row, them: &Row, w: &[Row; 2]) -> i32 {
    let mut sum = 0i32;
    for (acc, w) in [us, them].into_iter().zip(w) {
        for (&a, &w) in acc.0.iter().zip(&w.0) {
            let v = a.clamp(0, QA as i16);
            let vw = v.wrapping_mul(w);
            sum = sum.wrapping_add(i32::from(vw) * i32::from(v));
        }
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{HIDDEN, QA, Row, update_lanes};

    // The output kernels step through a row 8, 16 or 32 lanes at a time.
    const _: () = assert!(HIDDEN.is_multiple_of(32));

    /// [`update_lanes`] compiled for AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) fn update_avx2(out: &mut Row, old: &Row, add: &[&Row], sub: &[&Row]) {
        update_lanes(out, old, add, sub);
    }

    /// [`update_lanes`] compiled for AVX-512 (512-bit vectors of `i16`).
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn update_avx512(out: &mut Row, old: &Row, add: &[&Row], sub: &[&Row]) {
        update_lanes(out, old, add, sub);
    }

    /// The output sum with 512-bit vectors: [`output_avx2`]'s operations,
    /// 32 lanes at a time.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn output_avx512(us: &Row, them: &Row, w: &[Row; 2]) -> i32 {
        let zero = _mm512_setzero_si512();
        let qa = _mm512_set1_epi16(QA as i16);
        let mut sum = _mm512_setzero_si512();
        for (acc, w) in [us, them].into_iter().zip(w) {
            for i in (0..HIDDEN).step_by(32) {
                // SAFETY: `i + 32 <= HIDDEN`, so both 64-byte loads stay
                // inside their rows; `loadu` takes any alignment.
                let (a, w) = unsafe {
                    (
                        _mm512_loadu_si512(acc.0.as_ptr().add(i).cast()),
                        _mm512_loadu_si512(w.0.as_ptr().add(i).cast()),
                    )
                };
                let v = _mm512_min_epi16(_mm512_max_epi16(a, zero), qa);
                let vw = _mm512_mullo_epi16(v, w);
                sum = _mm512_add_epi32(sum, _mm512_madd_epi16(vw, v));
            }
        }
        let quarter = _mm256_add_epi32(_mm512_castsi512_si256(sum), _mm512_extracti64x4_epi64(sum, 1));
        let half = _mm_add_epi32(_mm256_castsi256_si128(quarter), _mm256_extracti128_si256(quarter, 1));
        horizontal_sum(half)
    }

    /// The output sum with 256-bit vectors.
    #[target_feature(enable = "avx2")]
    pub(super) fn output_avx2(us: &Row, them: &Row, w: &[Row; 2]) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (acc, w) in [us, them].into_iter().zip(w) {
            for i in (0..HIDDEN).step_by(16) {
                // SAFETY: `i + 16 <= HIDDEN`, so both 32-byte loads stay
                // inside their rows; `loadu` takes any alignment.
                let (a, w) = unsafe {
                    (
                        _mm256_loadu_si256(acc.0.as_ptr().add(i).cast()),
                        _mm256_loadu_si256(w.0.as_ptr().add(i).cast()),
                    )
                };
                let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                let vw = _mm256_mullo_epi16(v, w);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
            }
        }
        let half = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        horizontal_sum(half)
    }

    /// The output sum with 128-bit vectors.
    #[target_feature(enable = "sse2")]
    pub(super) fn output_sse2(us: &Row, them: &Row, w: &[Row; 2]) -> i32 {
        let zero = _mm_setzero_si128();
        let qa = _mm_set1_epi16(QA as i16);
        let mut sum = _mm_setzero_si128();
        for (acc, w) in [us, them].into_iter().zip(w) {
            for i in (0..HIDDEN).step_by(8) {
                // SAFETY: `i + 8 <= HIDDEN`, so both 16-byte loads stay inside
                // their rows; `loadu` takes any alignment.
                let (a, w) = unsafe {
                    (
                        _mm_loadu_si128(acc.0.as_ptr().add(i).cast()),
                        _mm_loadu_si128(w.0.as_ptr().add(i).cast()),
                    )
                };
                let v = _mm_min_epi16(_mm_max_epi16(a, zero), qa);
                let vw = _mm_mullo_epi16(v, w);
                sum = _mm_add_epi32(sum, _mm_madd_epi16(vw, v));
            }
        }
        horizontal_sum(sum)
    }

    /// The wrapping sum of four `i32` lanes.
    #[target_feature(enable = "sse2")]
    fn horizontal_sum(v: __m128i) -> i32 {
        let v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0b01_00_11_10));
        let v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0b10_11_00_01));
        _mm_cvtsi128_si32(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::zobrist::SplitMix64;

    fn random_row(rng: &mut SplitMix64, range: i32) -> Row {
        let mut row = Row::ZERO;
        for x in &mut row.0 {
            *x = (rng.below(2 * range as usize + 1) as i32 - range) as i16;
        }
        row
    }

    #[test]
    fn every_path_gives_the_scalar_bits() {
        let mut rng = SplitMix64(0x5EED);
        let paths = Simd::available();
        assert_eq!(paths[0], Simd::Scalar);
        #[cfg(target_arch = "x86_64")]
        assert!(paths.contains(&Simd::Sse2));
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512bw") {
            assert_eq!(paths.last(), Some(&Simd::Avx512));
        }
        for round in 0..2000 {
            // Accumulator values beyond both ends of the clamp, weights over
            // the format's range now and then (where every path must still
            // agree, wrapping alike).
            let range = if round % 4 == 0 { 32_767 } else { 600 };
            let (us, them) = (random_row(&mut rng, range), random_row(&mut rng, range));
            let wr = if round % 8 == 0 { 300 } else { 127 };
            let w = [random_row(&mut rng, wr), random_row(&mut rng, wr)];
            let (a, b, c) = (random_row(&mut rng, 600), random_row(&mut rng, 600), random_row(&mut rng, 600));
            let want_out = Simd::Scalar.output(&us, &them, &w);
            let mut want_row = Row::ZERO;
            Simd::Scalar.update(&mut want_row, &us, &[&a], &[&b, &c]);
            for &simd in &paths {
                assert_eq!(simd.output(&us, &them, &w), want_out, "{simd:?} output, round {round}");
                let mut row = Row::ZERO;
                simd.update(&mut row, &us, &[&a], &[&b, &c]);
                assert_eq!(row, want_row, "{simd:?} update, round {round}");
            }
        }
    }

    #[test]
    fn the_output_sum_is_the_formula_within_range() {
        let mut us = Row::ZERO;
        let mut them = Row::ZERO;
        let mut w = [Row::ZERO; 2];
        us.0[0] = 300; // clamped to 255
        us.0[1] = -5; // clamped to 0
        us.0[2] = 10;
        them.0[HIDDEN - 1] = 255;
        w[0].0[0] = 127;
        w[0].0[1] = 100;
        w[0].0[2] = -3;
        w[1].0[HIDDEN - 1] = -127;
        let want = 255 * 255 * 127 + 10 * 10 * -3 + 255 * 255 * -127;
        for simd in Simd::available() {
            assert_eq!(simd.output(&us, &them, &w), want, "{simd:?}");
        }
    }
}
