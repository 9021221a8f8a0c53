//! The network file: what the trainer writes and the engine reads.
//!
//! Every number is little-endian.
//!
//! | bytes | content |
//! |-------|---------|
//! | 0..16 | the magic `chariot nnue` followed by four zero bytes |
//! | 16..20 | format version, u32: 1 with one output, 2 with [output buckets](output_bucket) |
//! | 20..22 | inputs per perspective, u16 (`I`: 1,260 plain, 6,228 king buckets) |
//! | 22..24 | hidden units per perspective, u16 (`H`: a multiple of 32 from 32 to [`MAX_HIDDEN`]; 128 for every network before round 8) |
//! | 24..26 | QA, u16: the feature transformer's scale (255) |
//! | 26..28 | QB, u16: the output layer's scale (64) |
//! | 28..30 | SCALE, u16: centipawns per unit of network output (400) |
//! | 30..32 | the feature set, u16 (0 plain, 1 king buckets: [`FeatureSet`]) |
//! | 32..36 | version 2 only: the output buckets, u16 (`B`, 2 to [`MAX_OUTPUT_BUCKETS`]), then two zero bytes |
//! | then | feature weights, i16, `I × H`, input-major (the `H` weights of input 0 first) |
//! | then | feature biases, i16, `H` |
//! | then | output weights, i16, `B × 2 × H`: per bucket, the side to move's half first, then the other side's |
//! | then | output biases, i32 (scale QA × QB), `B` |
//! | last 8 | FNV-1a 64 hash of every byte before it |
//!
//! A version 1 file is a network of one bucket (`B` = 1), and a network of
//! one bucket is written as version 1, byte for byte as before the buckets.
//!
//! The network's output for a position, from the side to move's view, in
//! centipawns: with `a_us`, `a_them` the two accumulators (bias plus the
//! weights of the active inputs, [`super::features`]), `screlu(x) =
//! clamp(x, 0, QA)²` and `w`, `bias` those of the position's bucket
//! ([`output_bucket`]),
//! `(Σ screlu(a_us[i])·w[i] + Σ screlu(a_them[i])·w[H + i]) / QA + bias`,
//! times SCALE, divided by QA × QB (integer division, rounding toward zero,
//! in that order). The trainer clips the float output weights to ±1.98
//! (±127 quantised); the engine adds the products in `i32` within each
//! block of 128 units of both halves, which cannot overflow, and the blocks'
//! sums in `i64` ([`super::simd`]). Files written before the king buckets (rounds
//! 1–6) have zero in bytes 30..32: plain networks, read as they always were.

pub use super::features::FeatureSet;
use crate::types::fnv1a;

/// Hidden units per perspective of a network made without saying how many
/// (the width of every network up to round 7).
pub const DEFAULT_HIDDEN: usize = 128;
/// The most hidden units per perspective a network may have.
pub const MAX_HIDDEN: usize = 1024;
/// A network's width is a multiple of this (the widest vector kernel's step).
pub const HIDDEN_STEP: usize = 32;
/// The feature transformer's quantisation scale.
pub const QA: i32 = 255;
/// The output layer's quantisation scale.
pub const QB: i32 = 64;
/// Centipawns per unit of network output.
pub const SCALE: i32 = 400;
/// The first 16 bytes of a network file.
pub const MAGIC: [u8; 16] = *b"chariot nnue\0\0\0\0";
/// The format version of a network with one output.
pub const VERSION: u32 = 1;
/// The format version of a network with several output buckets.
pub const VERSION_BUCKETS: u32 = 2;
/// Header size in bytes (version 1).
pub const HEADER_SIZE: usize = 32;
/// The most output buckets a network may have.
pub const MAX_OUTPUT_BUCKETS: usize = 16;

/// Header size in bytes of a network of `buckets` output buckets.
pub const fn header_size(buckets: usize) -> usize {
    if buckets == 1 { HEADER_SIZE } else { HEADER_SIZE + 4 }
}

/// Size in bytes of a whole file of feature set `set`, `hidden` units per
/// perspective and `buckets` output buckets.
pub const fn file_size(set: FeatureSet, hidden: usize, buckets: usize) -> usize {
    header_size(buckets) + 2 * (set.inputs() * hidden + hidden + buckets * 2 * hidden) + 4 * buckets + 8
}

/// Size in bytes of the largest network file this build reads.
pub const MAX_FILE_SIZE: usize = file_size(FeatureSet::KingBuckets, MAX_HIDDEN, MAX_OUTPUT_BUCKETS);

/// The output bucket of a position with `pieces` pieces on the board
/// (kings included, 2 to 32) in a network of `buckets` output buckets:
/// the piece counts cut into `buckets` equal ranges, so that with 8 a
/// bucket is 4 counts wide (2–4 pieces bucket 0, 29–32 bucket 7). The
/// layer that turns the hidden units into a score then differs from the
/// opening to the endgame, where the same features weigh differently
/// (an attacker near the king, a pawn across the river), at no cost to the
/// search: the bucket only picks which weights the output reads.
#[inline(always)]
pub const fn output_bucket(pieces: usize, buckets: usize) -> usize {
    let b = pieces.saturating_sub(1) * buckets / 32;
    if b < buckets { b } else { buckets - 1 }
}

/// `Ok` if a network may have `buckets` output buckets (1 to
/// [`MAX_OUTPUT_BUCKETS`]); else the error says why.
pub fn check_buckets(buckets: usize) -> Result<(), String> {
    if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
        return Err(format!("{buckets} output buckets: a network has 1 to {MAX_OUTPUT_BUCKETS}"));
    }
    Ok(())
}

/// `Ok` if a network may have `hidden` units per perspective (a multiple of
/// [`HIDDEN_STEP`] from 32 to [`MAX_HIDDEN`]); else the error says why.
pub fn check_hidden(hidden: usize) -> Result<(), String> {
    if hidden == 0 || !hidden.is_multiple_of(HIDDEN_STEP) || hidden > MAX_HIDDEN {
        return Err(format!(
            "{hidden} hidden units: a network has a multiple of {HIDDEN_STEP} from {HIDDEN_STEP} to {MAX_HIDDEN}"
        ));
    }
    Ok(())
}

/// A network's parameters in the engine's integer form (the file's body).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NetworkData {
    /// The inputs it reads.
    pub features: FeatureSet,
    /// Hidden units per perspective (`H`, see [`check_hidden`]).
    pub hidden: usize,
    /// Output buckets (`B`, see [`output_bucket`] and [`check_buckets`]).
    pub buckets: usize,
    /// `features.inputs() × H` feature weights, input-major.
    pub ft_weights: Vec<i16>,
    /// `H` feature biases.
    pub ft_bias: Vec<i16>,
    /// `B × 2 × H` output weights: per bucket, the side to move's half first.
    pub out_weights: Vec<i16>,
    /// `B` output biases, at scale QA × QB.
    pub out_bias: Vec<i32>,
}

/// The short name of a network file: `nn-` and the first 12 hex digits of its hash.
pub fn name(bytes: &[u8]) -> String {
    format!("nn-{:012x}", fnv1a(bytes) >> 16)
}

impl NetworkData {
    /// A network of feature set `features`, `hidden` units per
    /// perspective (valid by [`check_hidden`]) and one output, with every
    /// parameter zero.
    pub fn zeroed(features: FeatureSet, hidden: usize) -> NetworkData {
        NetworkData::zeroed_buckets(features, hidden, 1)
    }

    /// [`NetworkData::zeroed`] with `buckets` output buckets (valid by
    /// [`check_buckets`]).
    pub fn zeroed_buckets(features: FeatureSet, hidden: usize, buckets: usize) -> NetworkData {
        NetworkData {
            features,
            hidden,
            buckets,
            ft_weights: vec![0; features.inputs() * hidden],
            ft_bias: vec![0; hidden],
            out_weights: vec![0; buckets * 2 * hidden],
            out_bias: vec![0; buckets],
        }
    }

    /// The output weights of bucket `b` (`2 × H`, the side to move's half first).
    pub fn bucket_weights(&self, b: usize) -> &[i16] {
        &self.out_weights[b * 2 * self.hidden..(b + 1) * 2 * self.hidden]
    }

    /// Reads a network file; the error says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<NetworkData, String> {
        if bytes.len() < HEADER_SIZE || bytes[..16] != MAGIC {
            return Err("not a chariot network file (no header)".into());
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
        let buckets = match version {
            VERSION => 1,
            VERSION_BUCKETS if bytes.len() >= header_size(2) => {
                let b = usize::from(u16_at(32));
                if b < 2 || u16_at(34) != 0 {
                    return Err(format!(
                        "network header: {b} output buckets in a version {VERSION_BUCKETS} file (2 to {MAX_OUTPUT_BUCKETS}, then two zero bytes)"
                    ));
                }
                check_buckets(b).map_err(|e| format!("network header: {e}"))?;
                b
            }
            VERSION_BUCKETS => return Err("network file is cut short in its header".into()),
            _ => {
                return Err(format!(
                    "network format version {version}, this build reads {VERSION} and {VERSION_BUCKETS}"
                ));
            }
        };
        let features = FeatureSet::from_id(u16_at(30))
            .ok_or_else(|| format!("unknown feature set {} (this build reads 0 and 1)", u16_at(30)))?;
        let inputs = features.inputs();
        let hidden = usize::from(u16_at(22));
        check_hidden(hidden).map_err(|e| format!("network header: {e}"))?;
        let shape = [u16_at(20), u16_at(22), u16_at(24), u16_at(26), u16_at(28)];
        let want = [inputs, hidden, QA as usize, QB as usize, SCALE as usize].map(|v| v as u16);
        if shape != want {
            return Err(format!(
                "network shape (inputs, hidden, QA, QB, SCALE) = {shape:?}, this build needs {want:?} for feature set {features:?}"
            ));
        }
        let size = file_size(features, hidden, buckets);
        if bytes.len() != size {
            let kind = if buckets == 1 { String::new() } else { format!(" {buckets}-bucket") };
            return Err(format!(
                "network file is {} bytes, a {hidden}-unit {features:?}{kind} network is {size}",
                bytes.len()
            ));
        }
        let (body, tail) = bytes.split_at(size - 8);
        let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        if stored != fnv1a(body) {
            return Err("network file is corrupt (its hash does not match its contents)".into());
        }
        let (words, biases) =
            body[header_size(buckets)..].split_at(body.len() - header_size(buckets) - 4 * buckets);
        let mut words = words.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| words.by_ref().take(n).collect::<Vec<i16>>();
        let ft_weights = take(inputs * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(buckets * 2 * hidden);
        let out_bias = biases.chunks_exact(4).map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        Ok(NetworkData { features, hidden, buckets, ft_weights, ft_bias, out_weights, out_bias })
    }

    /// The file's bytes (header, body, hash). The network must have a valid
    /// width ([`check_hidden`]), a valid number of buckets
    /// ([`check_buckets`]) and parameters of the sizes they say.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (inputs, hidden, buckets) = (self.features.inputs(), self.hidden, self.buckets);
        assert!(check_hidden(hidden).is_ok(), "{hidden} hidden units");
        assert!(check_buckets(buckets).is_ok(), "{buckets} output buckets");
        assert_eq!(self.ft_weights.len(), inputs * hidden, "feature weights");
        assert_eq!(self.ft_bias.len(), hidden, "feature biases");
        assert_eq!(self.out_weights.len(), buckets * 2 * hidden, "output weights");
        assert_eq!(self.out_bias.len(), buckets, "output biases");
        let mut out = Vec::with_capacity(file_size(self.features, hidden, buckets));
        out.extend_from_slice(&MAGIC);
        let version = if buckets == 1 { VERSION } else { VERSION_BUCKETS };
        out.extend_from_slice(&version.to_le_bytes());
        let set = self.features.id() as usize;
        for v in [inputs, hidden, QA as usize, QB as usize, SCALE as usize, set] {
            out.extend_from_slice(&(v as u16).to_le_bytes());
        }
        if buckets > 1 {
            out.extend_from_slice(&(buckets as u16).to_le_bytes());
            out.extend_from_slice(&[0, 0]);
        }
        for w in self.ft_weights.iter().chain(&self.ft_bias).chain(&self.out_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(features: FeatureSet, hidden: usize, buckets: usize) -> NetworkData {
        let mut net = NetworkData::zeroed_buckets(features, hidden, buckets);
        for (i, w) in net.ft_weights.iter_mut().enumerate() {
            *w = (i as i32 % 509 - 254) as i16;
        }
        net.ft_bias[3] = -7;
        net.out_weights[2 * hidden - 1] = 126;
        net.out_weights[buckets * 2 * hidden - 1] = -125;
        net.out_bias[0] = -123_456;
        net.out_bias[buckets - 1] += 777;
        net
    }

    #[test]
    fn round_trip() {
        for features in FeatureSet::ALL {
            for hidden in [32, 128, 256, 512] {
                for buckets in [1, 2, 8, 16] {
                    let net = sample(features, hidden, buckets);
                    let bytes = net.to_bytes();
                    assert_eq!(bytes.len(), file_size(features, hidden, buckets));
                    assert_eq!(u16::from_le_bytes([bytes[22], bytes[23]]), hidden as u16);
                    let version = if buckets == 1 { 1 } else { 2 };
                    assert_eq!(bytes[16..20], [version, 0, 0, 0]);
                    let read = NetworkData::from_bytes(&bytes).unwrap();
                    assert_eq!((read.hidden, read.buckets), (hidden, buckets));
                    assert_eq!(read, net);
                    assert!(name(&bytes).starts_with("nn-") && name(&bytes).len() == 15);
                }
            }
        }
        assert_eq!(file_size(FeatureSet::Plain, 128, 1), 323_372);
        assert_eq!(file_size(FeatureSet::KingBuckets, 128, 1), 1_595_180);
        assert_eq!(file_size(FeatureSet::KingBuckets, 256, 1), 3_190_316);
        // Seven more heads of 256 weights and a bias each, and 4 header bytes.
        assert_eq!(file_size(FeatureSet::Plain, 128, 8), 323_372 + 7 * (2 * 256 + 4) + 4);
        assert_eq!(MAX_FILE_SIZE, file_size(FeatureSet::KingBuckets, 1024, 16));
    }

    #[test]
    fn the_output_buckets_cut_the_piece_counts_evenly() {
        let eight: Vec<usize> = (2..=32).map(|n| output_bucket(n, 8)).collect();
        let want: Vec<usize> = (2..=32).map(|n| (n - 1) / 4).collect();
        assert_eq!(eight, want);
        assert_eq!((output_bucket(2, 8), output_bucket(4, 8), output_bucket(5, 8)), (0, 0, 1));
        assert_eq!((output_bucket(28, 8), output_bucket(29, 8), output_bucket(32, 8)), (6, 7, 7));
        for n in 0..=40 {
            assert_eq!(output_bucket(n, 1), 0);
            assert!(output_bucket(n, 16) < 16 && output_bucket(n, 3) < 3);
        }
        assert_eq!(output_bucket(32, 16), 15);
        assert!(check_buckets(0).is_err() && check_buckets(17).is_err() && check_buckets(16).is_ok());
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = sample(FeatureSet::Plain, 128, 1).to_bytes();
        assert!(NetworkData::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err().contains("bytes"));
        assert!(NetworkData::from_bytes(&bytes[..10]).unwrap_err().contains("no header"));
        let mut flipped = bytes.clone();
        flipped[HEADER_SIZE + 1000] ^= 1;
        assert!(NetworkData::from_bytes(&flipped).unwrap_err().contains("corrupt"));
        // Another valid width than the body has: the size says so.
        let mut other = bytes.clone();
        other[22] = 0;
        other[23] = 1;
        assert!(NetworkData::from_bytes(&other).unwrap_err().contains("a 256-unit Plain network is"));
        // Widths no network has: a clear error (with the hash made right,
        // so that only the width is wrong).
        for hidden in [0u16, 1, 31, 100, 129, 1056, 2048, u16::MAX] {
            let mut bad = bytes[..bytes.len() - 8].to_vec();
            bad[22..24].copy_from_slice(&hidden.to_le_bytes());
            let hash = fnv1a(&bad);
            bad.extend(hash.to_le_bytes());
            let e = NetworkData::from_bytes(&bad).unwrap_err();
            assert_eq!(
                e,
                format!(
                    "network header: {hidden} hidden units: a network has a multiple of 32 from 32 to 1024"
                )
            );
        }
        // A plain network's body under the king buckets' id: the shape says so.
        let mut relabelled = bytes.clone();
        relabelled[30] = 1;
        assert!(NetworkData::from_bytes(&relabelled).unwrap_err().contains("KingBuckets"));
        relabelled[30] = 7;
        assert!(NetworkData::from_bytes(&relabelled).unwrap_err().contains("unknown feature set 7"));
        // Output buckets: a file cut short, a count out of range, a version
        // no build wrote (each with the hash made right).
        let with_hash = |mut b: Vec<u8>| {
            let hash = fnv1a(&b);
            b.extend(hash.to_le_bytes());
            b
        };
        let eight = sample(FeatureSet::Plain, 64, 8).to_bytes();
        let e = NetworkData::from_bytes(&eight[..eight.len() - 2]).unwrap_err();
        assert!(e.contains("a 64-unit Plain 8-bucket network is"), "{e}");
        for (count, says) in
            [(1u16, "1 output buckets in a version 2"), (17, "17 output buckets: a network has 1 to 16")]
        {
            let mut bad = eight[..eight.len() - 8].to_vec();
            bad[32..34].copy_from_slice(&count.to_le_bytes());
            let e = NetworkData::from_bytes(&with_hash(bad)).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
        let mut bad = eight[..eight.len() - 8].to_vec();
        bad[34] = 1;
        assert!(NetworkData::from_bytes(&with_hash(bad)).unwrap_err().contains("two zero bytes"));
        let mut bad = eight[..eight.len() - 8].to_vec();
        bad[16] = 3;
        let e = NetworkData::from_bytes(&with_hash(bad)).unwrap_err();
        assert!(e.contains("version 3, this build reads 1 and 2"), "{e}");
        assert!(NetworkData::from_bytes(&eight[..34]).unwrap_err().contains("cut short in its header"));
    }
}
