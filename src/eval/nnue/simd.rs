//! The network's two kernels — changing an accumulator by rows of feature
//! weights, and the output layer — with a path per instruction set, chosen at
//! run time, over rows of any width a network file may have (whole
//! [`Chunk`]s of 32 lanes). Every path gives the same bits: the accumulator
//! sums wrap like the `i16` lanes of the vector units, and the output follows
//! their order of operations exactly (`(v·w)` truncated to `i16`, times `v`
//! into `i32`, summed in `i32` within a block of 128 units of both halves,
//! where no sum can wrap, and the blocks in `i64`), which for the output
//! weights a network may have ([`super::network::MAX_OUTPUT_WEIGHT`]) is the
//! exact formula of [`super::format`].

use super::format::{HIDDEN_STEP, QA};

/// Values in a [`Chunk`]; a network's width is a multiple of it.
pub const LANES: usize = HIDDEN_STEP;

/// 32 consecutive values of a row (an accumulator half, a feature's
/// weights), aligned for the widest vector loads. A row of a network `H`
/// units wide is `H / 32` chunks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Chunk(pub [i16; LANES]);

impl Chunk {
    /// Every value zero.
    pub const ZERO: Chunk = Chunk([0; LANES]);
}

/// Chunks of a block of the output sum: 128 units of each half. Its 256
/// products, each `(v·w)` truncated to `i16` times `v` ≤ 255, stay within
/// ±2¹⁵ · 255 · 256 < 2³¹, so a block's `i32` sum never wraps; the blocks'
/// sums are added in `i64`.
const BLOCK_CHUNKS: usize = 128 / LANES;

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

    /// `out = old + Σ add − Σ sub` (`old` `None`: `out` itself), lane by
    /// lane, wrapping; every row the same number of chunks. `self` must be
    /// available (callers hold only checked values, see [`super::Network`]).
    #[inline(always)]
    pub(super) fn update(self, out: &mut [Chunk], old: Option<&[Chunk]>, add: &[&[Chunk]], sub: &[&[Chunk]]) {
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
    /// (the side to move's half against `w[0]`, the other against `w[1]`),
    /// before the division by QA; every row the same number of chunks.
    /// `self` must be available.
    #[inline(always)]
    pub(super) fn output(self, us: &[Chunk], them: &[Chunk], w: [&[Chunk]; 2]) -> i64 {
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
/// 128 lanes at a time where the width allows (else 32), summed in a local
/// array stored once, which the compiler keeps in vector registers (summed
/// in `out`, it stored and reloaded `out` between rows).
#[inline(always)]
fn update_lanes(out: &mut [Chunk], old: Option<&[Chunk]>, add: &[&[Chunk]], sub: &[&[Chunk]]) {
    if out.len() == BLOCK_CHUNKS {
        update_block(out, old, add, sub);
    } else {
        update_wide(out, old, add, sub);
    }
}

/// [`update_lanes`] of rows other than one block.
#[inline(always)]
fn update_wide(out: &mut [Chunk], old: Option<&[Chunk]>, add: &[&[Chunk]], sub: &[&[Chunk]]) {
    if out.len().is_multiple_of(BLOCK_CHUNKS) {
        update_blocks::<{ BLOCK_CHUNKS * LANES }>(out, old, add, sub);
    } else {
        update_blocks::<LANES>(out, old, add, sub);
    }
}

// A chunk is its values and nothing else (no padding), for [`values`].
const _: () = assert!(std::mem::size_of::<Chunk>() == 2 * LANES);

/// The values of `row`, one after the other.
#[inline(always)]
fn values(row: &[Chunk]) -> &[i16] {
    // SAFETY: a `Chunk` is `repr(C)` around `[i16; LANES]` and as large
    // (asserted above): `row.len()` chunks are `row.len() · LANES`
    // consecutive initialised `i16`s, aligned for `i16`, borrowed with `row`.
    unsafe { std::slice::from_raw_parts(row.as_ptr().cast::<i16>(), row.len() * LANES) }
}

/// The values of `row`, one after the other, to change.
#[inline(always)]
fn values_mut(row: &mut [Chunk]) -> &mut [i16] {
    // SAFETY: as in `values`, with the one mutable borrow of `row` passed on.
    unsafe { std::slice::from_raw_parts_mut(row.as_mut_ptr().cast::<i16>(), row.len() * LANES) }
}

/// [`update_lanes`] of rows of exactly one block (128 units, the width of
/// every network so far), as fixed-size arrays: one length check a row and
/// the loops the compiler unrolls, as when the width was a constant (the
/// general loop below took twice the instructions a call).
#[inline(always)]
fn update_block(out: &mut [Chunk], old: Option<&[Chunk]>, add: &[&[Chunk]], sub: &[&[Chunk]]) {
    const L: usize = BLOCK_CHUNKS * LANES;
    let lanes =
        |row: &[Chunk]| -> [i16; L] { *<&[i16; L]>::try_from(values(row)).expect("rows of one width") };
    let mut acc = lanes(old.unwrap_or(out));
    for a in add {
        let a: &[i16; L] = values(a).try_into().expect("rows of one width");
        for (o, &x) in acc.iter_mut().zip(a) {
            *o = o.wrapping_add(x);
        }
    }
    for s in sub {
        let s: &[i16; L] = values(s).try_into().expect("rows of one width");
        for (o, &x) in acc.iter_mut().zip(s) {
            *o = o.wrapping_sub(x);
        }
    }
    values_mut(out).copy_from_slice(&acc);
}

/// [`update_lanes`], `L` lanes at a time (`L` divides the row's lanes).
#[inline(always)]
fn update_blocks<const L: usize>(
    out: &mut [Chunk],
    old: Option<&[Chunk]>,
    add: &[&[Chunk]],
    sub: &[&[Chunk]],
) {
    let out = values_mut(out);
    for k in (0..out.len()).step_by(L) {
        let base = match old {
            Some(o) => values(o),
            None => &*out,
        };
        let mut acc: [i16; L] = base[k..k + L].try_into().expect("rows of one width");
        for a in add {
            for (o, &x) in acc.iter_mut().zip(&values(a)[k..k + L]) {
                *o = o.wrapping_add(x);
            }
        }
        for s in sub {
            for (o, &x) in acc.iter_mut().zip(&values(s)[k..k + L]) {
                *o = o.wrapping_sub(x);
            }
        }
        out[k..k + L].copy_from_slice(&acc);
    }
}

/// The output sum, one lane at a time, in the vector units' arithmetic.
fn output_scalar(us: &[Chunk], them: &[Chunk], w: [&[Chunk]; 2]) -> i64 {
    let mut total = 0i64;
    for b in (0..us.len()).step_by(BLOCK_CHUNKS) {
        let end = (b + BLOCK_CHUNKS).min(us.len());
        let mut sum = 0i32;
        for (acc, w) in [us, them].into_iter().zip(w) {
            for (a, w) in acc[b..end].iter().zip(&w[b..end]) {
                for (&a, &w) in a.0.iter().zip(&w.0) {
                    let v = a.clamp(0, QA as i16);
                    let vw = v.wrapping_mul(w);
                    sum = sum.wrapping_add(i32::from(vw) * i32::from(v));
                }
            }
        }
        total += i64::from(sum);
    }
    total
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{BLOCK_CHUNKS, Chunk, QA, update_block, update_wide};

    /// An update kernel: [`super::update_lanes`] compiled for one
    /// instruction set, with the wide rows' loop in a function of its own:
    /// the one-block path, the common one, then needs no saved registers.
    macro_rules! update_kernel {
        ($name:ident, $wide:ident, $features:literal, $what:literal) => {
            #[doc = concat!("[`super::update_lanes`] compiled for ", $what, ".")]
            #[target_feature(enable = $features)]
            pub(super) fn $name(
                out: &mut [Chunk],
                old: Option<&[Chunk]>,
                add: &[&[Chunk]],
                sub: &[&[Chunk]],
            ) {
                if out.len() == BLOCK_CHUNKS {
                    update_block(out, old, add, sub);
                } else {
                    $wide(out, old, add, sub);
                }
            }

            #[doc = concat!("[`update_wide`] compiled for ", $what, ".")]
            #[target_feature(enable = $features)]
            #[inline(never)]
            fn $wide(out: &mut [Chunk], old: Option<&[Chunk]>, add: &[&[Chunk]], sub: &[&[Chunk]]) {
                update_wide(out, old, add, sub);
            }
        };
    }

    update_kernel!(update_avx2, update_wide_avx2, "avx2", "AVX2");
    update_kernel!(
        update_avx512,
        update_wide_avx512,
        "avx512f,avx512bw",
        "AVX-512 (512-bit vectors of `i16`)"
    );

    /// The four rows of the output sum as one block each, if they are
    /// (128 units: every network so far), for the kernels' unrolled path.
    type Blocks<'a> = [&'a [Chunk; BLOCK_CHUNKS]; 4];

    /// `us`, `them` and the two halves of `w` as [`Blocks`], if they are one block long.
    #[inline(always)]
    fn one_block<'a>(us: &'a [Chunk], them: &'a [Chunk], w: [&'a [Chunk]; 2]) -> Option<Blocks<'a>> {
        let block = |row: &'a [Chunk]| <&[Chunk; BLOCK_CHUNKS]>::try_from(row).ok();
        Some([block(us)?, block(them)?, block(w[0])?, block(w[1])?])
    }

    /// An output kernel: the output sum with the vectors of one
    /// instruction set, given their zero, the step that adds a chunk's
    /// products to the sum, and the reduction of the sum's `i32` lanes; an
    /// unrolled path for rows of one block (128 units: every network so
    /// far), else block by block.
    macro_rules! output_kernel {
        ($name:ident, $features:literal, $doc:literal, $zero:expr, $step:ident, $reduce:ident) => {
            #[doc = $doc]
            #[target_feature(enable = $features)]
            pub(super) fn $name(us: &[Chunk], them: &[Chunk], w: [&[Chunk]; 2]) -> i64 {
                if let Some([us, them, w0, w1]) = one_block(us, them, w) {
                    let mut sum = $zero;
                    for k in 0..BLOCK_CHUNKS {
                        sum = $step(sum, &us[k], &w0[k]);
                    }
                    for k in 0..BLOCK_CHUNKS {
                        sum = $step(sum, &them[k], &w1[k]);
                    }
                    return i64::from($reduce(sum));
                }
                let mut total = 0i64;
                for b in (0..us.len()).step_by(BLOCK_CHUNKS) {
                    let end = (b + BLOCK_CHUNKS).min(us.len());
                    let mut sum = $zero;
                    for (acc, w) in [us, them].into_iter().zip(w) {
                        for (a, w) in acc[b..end].iter().zip(&w[b..end]) {
                            sum = $step(sum, a, w);
                        }
                    }
                    total += i64::from($reduce(sum));
                }
                total
            }
        };
    }

    output_kernel!(
        output_avx512,
        "avx512f,avx512bw",
        "The output sum with 512-bit vectors: [`output_avx2`]'s operations, a chunk (32 lanes) at a time.",
        _mm512_setzero_si512(),
        step_avx512,
        reduce_avx512
    );
    output_kernel!(
        output_avx2,
        "avx2",
        "The output sum with 256-bit vectors, half a chunk at a time.",
        _mm256_setzero_si256(),
        step_avx2,
        reduce_avx2
    );
    output_kernel!(
        output_sse2,
        "sse2",
        "The output sum with 128-bit vectors, a quarter of a chunk at a time.",
        _mm_setzero_si128(),
        step_sse2,
        horizontal_sum
    );

    /// `sum` plus the products of a chunk of accumulator values `a`
    /// (clamped) and output weights `w`, with 512-bit vectors.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn step_avx512(sum: __m512i, a: &Chunk, w: &Chunk) -> __m512i {
        // SAFETY: a chunk is 64 bytes, one load each; `loadu` takes any
        // alignment.
        let (a, w) =
            unsafe { (_mm512_loadu_si512(a.0.as_ptr().cast()), _mm512_loadu_si512(w.0.as_ptr().cast())) };
        let v = _mm512_min_epi16(_mm512_max_epi16(a, _mm512_setzero_si512()), _mm512_set1_epi16(QA as i16));
        let vw = _mm512_mullo_epi16(v, w);
        _mm512_add_epi32(sum, _mm512_madd_epi16(vw, v))
    }

    /// The wrapping sum of the 16 `i32` lanes of `sum`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn reduce_avx512(sum: __m512i) -> i32 {
        let quarter = _mm256_add_epi32(_mm512_castsi512_si256(sum), _mm512_extracti64x4_epi64(sum, 1));
        let half = _mm_add_epi32(_mm256_castsi256_si128(quarter), _mm256_extracti128_si256(quarter, 1));
        horizontal_sum(half)
    }

    /// `sum` plus the products of a chunk `a` (clamped) and `w`, with
    /// 256-bit vectors.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn step_avx2(mut sum: __m256i, a: &Chunk, w: &Chunk) -> __m256i {
        for i in [0, 16] {
            // SAFETY: `i + 16 <= 32`, so both 32-byte loads stay inside
            // their chunks; `loadu` takes any alignment.
            let (a, w) = unsafe {
                (
                    _mm256_loadu_si256(a.0.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(w.0.as_ptr().add(i).cast()),
                )
            };
            let v =
                _mm256_min_epi16(_mm256_max_epi16(a, _mm256_setzero_si256()), _mm256_set1_epi16(QA as i16));
            let vw = _mm256_mullo_epi16(v, w);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
        }
        sum
    }

    /// The wrapping sum of the 8 `i32` lanes of `sum`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn reduce_avx2(sum: __m256i) -> i32 {
        horizontal_sum(_mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1)))
    }

    /// `sum` plus the products of a chunk `a` (clamped) and `w`, with
    /// 128-bit vectors.
    #[target_feature(enable = "sse2")]
    #[inline]
    fn step_sse2(mut sum: __m128i, a: &Chunk, w: &Chunk) -> __m128i {
        for i in [0, 8, 16, 24] {
            // SAFETY: `i + 8 <= 32`, so both 16-byte loads stay inside
            // their chunks; `loadu` takes any alignment.
            let (a, w) = unsafe {
                (_mm_loadu_si128(a.0.as_ptr().add(i).cast()), _mm_loadu_si128(w.0.as_ptr().add(i).cast()))
            };
            let v = _mm_min_epi16(_mm_max_epi16(a, _mm_setzero_si128()), _mm_set1_epi16(QA as i16));
            let vw = _mm_mullo_epi16(v, w);
            sum = _mm_add_epi32(sum, _mm_madd_epi16(vw, v));
        }
        sum
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

    fn random_row(rng: &mut SplitMix64, range: i32, width: usize) -> Vec<Chunk> {
        let mut row = vec![Chunk::ZERO; width / LANES];
        for x in row.iter_mut().flat_map(|c| &mut c.0) {
            *x = (rng.below(2 * range as usize + 1) as i32 - range) as i16;
        }
        row
    }

    #[test]
    fn every_path_gives_the_scalar_bits() {
        let paths = Simd::available();
        assert_eq!(paths[0], Simd::Scalar);
        #[cfg(target_arch = "x86_64")]
        assert!(paths.contains(&Simd::Sse2));
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512bw") {
            assert_eq!(paths.last(), Some(&Simd::Avx512));
        }
        // The widths of the networks made so far and wider ones, one in
        // whole blocks of 128 and two not (160, 96: 32 lanes at a time).
        for (width, rounds) in [(128, 2000), (256, 1000), (512, 300), (160, 300), (96, 300)] {
            let mut rng = SplitMix64(0x5EED ^ width as u64);
            for round in 0..rounds {
                // Accumulator values beyond both ends of the clamp, weights over
                // the format's range now and then (where every path must still
                // agree, wrapping alike).
                let range = if round % 4 == 0 { 32_767 } else { 600 };
                let (us, them) = (random_row(&mut rng, range, width), random_row(&mut rng, range, width));
                let wr = if round % 8 == 0 { 300 } else { 127 };
                let w = [random_row(&mut rng, wr, width), random_row(&mut rng, wr, width)];
                let w = [&w[0][..], &w[1][..]];
                let [a, b, c] = [(); 3].map(|()| random_row(&mut rng, 600, width));
                let want_out = Simd::Scalar.output(&us, &them, w);
                let mut want_row = vec![Chunk::ZERO; width / LANES];
                Simd::Scalar.update(&mut want_row, Some(&us), &[&a], &[&b, &c]);
                let mut in_place = us.clone();
                Simd::Scalar.update(&mut in_place, None, &[&a], &[&b, &c]);
                assert_eq!(in_place, want_row);
                for &simd in &paths {
                    assert_eq!(
                        simd.output(&us, &them, w),
                        want_out,
                        "{simd:?} output, width {width}, round {round}"
                    );
                    let mut row = vec![Chunk::ZERO; width / LANES];
                    simd.update(&mut row, Some(&us), &[&a], &[&b, &c]);
                    assert_eq!(row, want_row, "{simd:?} update, width {width}, round {round}");
                    let mut row = us.clone();
                    simd.update(&mut row, None, &[&a], &[&b, &c]);
                    assert_eq!(row, want_row, "{simd:?} update in place, width {width}, round {round}");
                }
            }
        }
    }

    #[test]
    fn the_update_is_the_sum_of_the_rows() {
        let width = 256;
        let mut rng = SplitMix64(17);
        let [old, a, b, c] = [(); 4].map(|()| random_row(&mut rng, 600, width));
        let mut want = old.clone();
        for (i, x) in want.iter_mut().flat_map(|c| &mut c.0).enumerate() {
            let lane = |r: &[Chunk]| r[i / LANES].0[i % LANES];
            *x = x.wrapping_add(lane(&a)).wrapping_add(lane(&b)).wrapping_sub(lane(&c));
        }
        for simd in Simd::available() {
            let mut out = vec![Chunk::ZERO; width / LANES];
            simd.update(&mut out, Some(&old), &[&a, &b], &[&c]);
            assert_eq!(out, want, "{simd:?}");
        }
    }

    #[test]
    fn the_output_sum_is_the_formula_within_range() {
        for width in [128, 256, 1024] {
            let n = width / LANES;
            let (mut us, mut them) = (vec![Chunk::ZERO; n], vec![Chunk::ZERO; n]);
            let mut w = [vec![Chunk::ZERO; n], vec![Chunk::ZERO; n]];
            us[0].0[0] = 300; // clamped to 255
            us[0].0[1] = -5; // clamped to 0
            us[0].0[2] = 10;
            them[n - 1].0[LANES - 1] = 255;
            w[0][0].0[0] = 127;
            w[0][0].0[1] = 100;
            w[0][0].0[2] = -3;
            w[1][n - 1].0[LANES - 1] = -127;
            let want = 255 * 255 * 127 + 10 * 10 * -3 + 255 * 255 * -127;
            for simd in Simd::available() {
                assert_eq!(simd.output(&us, &them, [&w[0], &w[1]]), want, "{simd:?}, width {width}");
            }
            // Every unit saturated against the largest weights: beyond an
            // i32 from 256 units on, and exact on every path.
            let full = vec![Chunk([255; LANES]); n];
            let big = vec![Chunk([127; LANES]); n];
            let want = 2 * width as i64 * 255 * 255 * 127;
            for simd in Simd::available() {
                assert_eq!(simd.output(&full, &full, [&big, &big]), want, "{simd:?}, width {width}");
            }
        }
    }
}
