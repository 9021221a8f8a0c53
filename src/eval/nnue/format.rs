//! The network file: what the trainer writes and the engine reads.
//!
//! Every number is little-endian.
//!
//! | bytes | content |
//! |-------|---------|
//! | 0..16 | the magic `chariot nnue` followed by four zero bytes |
//! | 16..20 | format version, u32 (1) |
//! | 20..22 | inputs per perspective, u16 (`I`: 1,260 plain, 6,228 king buckets) |
//! | 22..24 | hidden units per perspective, u16 (`H`: a multiple of 32 from 32 to [`MAX_HIDDEN`]; 128 for every network before round 8) |
//! | 24..26 | QA, u16: the feature transformer's scale (255) |
//! | 26..28 | QB, u16: the output layer's scale (64) |
//! | 28..30 | SCALE, u16: centipawns per unit of network output (400) |
//! | 30..32 | the feature set, u16 (0 plain, 1 king buckets: [`FeatureSet`]) |
//! | then | feature weights, i16, `I × H`, input-major (the `H` weights of input 0 first) |
//! | then | feature biases, i16, `H` |
//! | then | output weights, i16, `2 × H`: the side to move's half first, then the other side's |
//! | then | output bias, i32 (scale QA × QB) |
//! | last 8 | FNV-1a 64 hash of every byte before it |
//!
//! The network's output for a position, from the side to move's view, in
//! centipawns: with `a_us`, `a_them` the two accumulators (bias plus the
//! weights of the active inputs, [`super::features`]) and `screlu(x) =
//! clamp(x, 0, QA)²`,
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
/// The format version written in the header.
pub const VERSION: u32 = 1;
/// Header size in bytes.
pub const HEADER_SIZE: usize = 32;
/// Size in bytes of a whole file of feature set `set` and `hidden` units per perspective.
pub const fn file_size(set: FeatureSet, hidden: usize) -> usize {
    HEADER_SIZE + 2 * (set.inputs() * hidden + hidden + 2 * hidden) + 4 + 8
}

/// Size in bytes of the largest network file this build reads.
pub const MAX_FILE_SIZE: usize = file_size(FeatureSet::KingBuckets, MAX_HIDDEN);

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
    /// `features.inputs() × H` feature weights, input-major.
    pub ft_weights: Vec<i16>,
    /// `H` feature biases.
    pub ft_bias: Vec<i16>,
    /// `2 × H` output weights, the side to move's half first.
    pub out_weights: Vec<i16>,
    /// The output bias, at scale QA × QB.
    pub out_bias: i32,
}

/// The short name of a network file: `nn-` and the first 12 hex digits of its hash.
pub fn name(bytes: &[u8]) -> String {
    format!("nn-{:012x}", fnv1a(bytes) >> 16)
}

impl NetworkData {
    /// A network of feature set `features` and `hidden` units per
    /// perspective (valid by [`check_hidden`]) with every parameter zero.
    pub fn zeroed(features: FeatureSet, hidden: usize) -> NetworkData {
        NetworkData {
            features,
            hidden,
            ft_weights: vec![0; features.inputs() * hidden],
            ft_bias: vec![0; hidden],
            out_weights: vec![0; 2 * hidden],
            out_bias: 0,
        }
    }

    /// Reads a network file; the error says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<NetworkData, String> {
        if bytes.len() < HEADER_SIZE || bytes[..16] != MAGIC {
            return Err("not a chariot network file (no header)".into());
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
        if version != VERSION {
            return Err(format!("network format version {version}, this build reads {VERSION}"));
        }
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
        let size = file_size(features, hidden);
        if bytes.len() != size {
            return Err(format!(
                "network file is {} bytes, a {hidden}-unit {features:?} network is {size}",
                bytes.len()
            ));
        }
        let (body, tail) = bytes.split_at(size - 8);
        let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        if stored != fnv1a(body) {
            return Err("network file is corrupt (its hash does not match its contents)".into());
        }
        let mut words = body[HEADER_SIZE..].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| words.by_ref().take(n).collect::<Vec<i16>>();
        let ft_weights = take(inputs * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(2 * hidden);
        let b = &body[body.len() - 4..];
        let out_bias = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        Ok(NetworkData { features, hidden, ft_weights, ft_bias, out_weights, out_bias })
    }

    /// The file's bytes (header, body, hash). The network must have a valid
    /// width ([`check_hidden`]) and parameters of the sizes it says.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (inputs, hidden) = (self.features.inputs(), self.hidden);
        assert!(check_hidden(hidden).is_ok(), "{hidden} hidden units");
        assert_eq!(self.ft_weights.len(), inputs * hidden, "feature weights");
        assert_eq!(self.ft_bias.len(), hidden, "feature biases");
        assert_eq!(self.out_weights.len(), 2 * hidden, "output weights");
        let mut out = Vec::with_capacity(file_size(self.features, hidden));
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let set = self.features.id() as usize;
        for v in [inputs, hidden, QA as usize, QB as usize, SCALE as usize, set] {
            out.extend_from_slice(&(v as u16).to_le_bytes());
        }
        for w in self.ft_weights.iter().chain(&self.ft_bias).chain(&self.out_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(features: FeatureSet, hidden: usize) -> NetworkData {
        let mut net = NetworkData::zeroed(features, hidden);
        for (i, w) in net.ft_weights.iter_mut().enumerate() {
            *w = (i as i32 % 509 - 254) as i16;
        }
        net.ft_bias[3] = -7;
        net.out_weights[2 * hidden - 1] = 126;
        net.out_bias = -123_456;
        net
    }

    #[test]
    fn round_trip() {
        for features in FeatureSet::ALL {
            for hidden in [32, 128, 256, 512] {
                let net = sample(features, hidden);
                let bytes = net.to_bytes();
                assert_eq!(bytes.len(), file_size(features, hidden));
                assert_eq!(u16::from_le_bytes([bytes[22], bytes[23]]), hidden as u16);
                let read = NetworkData::from_bytes(&bytes).unwrap();
                assert_eq!(read.hidden, hidden);
                assert_eq!(read, net);
                assert!(name(&bytes).starts_with("nn-") && name(&bytes).len() == 15);
            }
        }
        assert_eq!(file_size(FeatureSet::Plain, 128), 323_372);
        assert_eq!(file_size(FeatureSet::KingBuckets, 128), 1_595_180);
        assert_eq!(file_size(FeatureSet::KingBuckets, 256), 3_190_316);
        assert_eq!(MAX_FILE_SIZE, file_size(FeatureSet::KingBuckets, 1024));
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = sample(FeatureSet::Plain, 128).to_bytes();
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
    }
}
