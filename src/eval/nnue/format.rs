//! The network file: what the trainer writes and the engine reads.
//!
//! Every number is little-endian.
//!
//! | bytes | content |
//! |-------|---------|
//! | 0..16 | the magic `chariot nnue` followed by four zero bytes |
//! | 16..20 | format version, u32 (1) |
//! | 20..22 | inputs per perspective, u16 (`I`: 1,260 plain, 6,228 king buckets) |
//! | 22..24 | hidden units per perspective, u16 (`H`, [`HIDDEN`] in this build) |
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
//! in that order). The trainer clips float weights to ±1.98 so that the
//! i32 sums cannot overflow. Files written before the king buckets (rounds
//! 1–6) have zero in bytes 30..32: plain networks, read as they always were.

pub use super::features::FeatureSet;
use crate::types::fnv1a;

/// Hidden units per perspective in this build.
pub const HIDDEN: usize = 128;
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
/// Size in bytes of a whole file of this build's width and feature set `set`.
pub const fn file_size(set: FeatureSet) -> usize {
    HEADER_SIZE + 2 * (set.inputs() * HIDDEN + HIDDEN + 2 * HIDDEN) + 4 + 8
}

/// Size in bytes of the largest network file this build reads.
pub const MAX_FILE_SIZE: usize = file_size(FeatureSet::KingBuckets);

/// A network's parameters in the engine's integer form (the file's body).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NetworkData {
    /// The inputs it reads.
    pub features: FeatureSet,
    /// `features.inputs() × HIDDEN` feature weights, input-major.
    pub ft_weights: Vec<i16>,
    /// `HIDDEN` feature biases.
    pub ft_bias: Vec<i16>,
    /// `2 × HIDDEN` output weights, the side to move's half first.
    pub out_weights: Vec<i16>,
    /// The output bias, at scale QA × QB.
    pub out_bias: i32,
}

/// The short name of a network file: `nn-` and the first 12 hex digits of its hash.
pub fn name(bytes: &[u8]) -> String {
    format!("nn-{:012x}", fnv1a(bytes) >> 16)
}

impl NetworkData {
    /// A network of feature set `features` with every parameter zero.
    pub fn zeroed(features: FeatureSet) -> NetworkData {
        NetworkData {
            features,
            ft_weights: vec![0; features.inputs() * HIDDEN],
            ft_bias: vec![0; HIDDEN],
            out_weights: vec![0; 2 * HIDDEN],
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
        let shape = [u16_at(20), u16_at(22), u16_at(24), u16_at(26), u16_at(28)];
        let want = [inputs, HIDDEN, QA as usize, QB as usize, SCALE as usize].map(|v| v as u16);
        if shape != want {
            return Err(format!(
                "network shape (inputs, hidden, QA, QB, SCALE) = {shape:?}, this build needs {want:?} for feature set {features:?}"
            ));
        }
        let size = file_size(features);
        if bytes.len() != size {
            return Err(format!(
                "network file is {} bytes, a {HIDDEN}-unit {features:?} network is {size}",
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
        let ft_weights = take(inputs * HIDDEN);
        let ft_bias = take(HIDDEN);
        let out_weights = take(2 * HIDDEN);
        let b = &body[body.len() - 4..];
        let out_bias = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        Ok(NetworkData { features, ft_weights, ft_bias, out_weights, out_bias })
    }

    /// The file's bytes (header, body, hash).
    pub fn to_bytes(&self) -> Vec<u8> {
        let inputs = self.features.inputs();
        assert_eq!(self.ft_weights.len(), inputs * HIDDEN, "feature weights");
        assert_eq!(self.ft_bias.len(), HIDDEN, "feature biases");
        assert_eq!(self.out_weights.len(), 2 * HIDDEN, "output weights");
        let mut out = Vec::with_capacity(file_size(self.features));
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let set = self.features.id() as usize;
        for v in [inputs, HIDDEN, QA as usize, QB as usize, SCALE as usize, set] {
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

    fn sample(features: FeatureSet) -> NetworkData {
        let mut net = NetworkData::zeroed(features);
        for (i, w) in net.ft_weights.iter_mut().enumerate() {
            *w = (i as i32 % 509 - 254) as i16;
        }
        net.ft_bias[3] = -7;
        net.out_weights[2 * HIDDEN - 1] = 126;
        net.out_bias = -123_456;
        net
    }

    #[test]
    fn round_trip() {
        for features in FeatureSet::ALL {
            let net = sample(features);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), file_size(features));
            assert_eq!(NetworkData::from_bytes(&bytes).unwrap(), net);
            assert!(name(&bytes).starts_with("nn-") && name(&bytes).len() == 15);
        }
        assert_eq!(file_size(FeatureSet::Plain), 323_372);
        assert_eq!(file_size(FeatureSet::KingBuckets), 1_595_180);
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = sample(FeatureSet::Plain).to_bytes();
        assert!(NetworkData::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err().contains("bytes"));
        assert!(NetworkData::from_bytes(&bytes[..10]).unwrap_err().contains("no header"));
        let mut flipped = bytes.clone();
        flipped[HEADER_SIZE + 1000] ^= 1;
        assert!(NetworkData::from_bytes(&flipped).unwrap_err().contains("corrupt"));
        let mut other = bytes.clone();
        other[22] = 0;
        other[23] = 1;
        assert!(NetworkData::from_bytes(&other).unwrap_err().contains("shape"));
        // A plain network's body under the king buckets' id: the shape says so.
        let mut relabelled = bytes.clone();
        relabelled[30] = 1;
        assert!(NetworkData::from_bytes(&relabelled).unwrap_err().contains("KingBuckets"));
        relabelled[30] = 7;
        assert!(NetworkData::from_bytes(&relabelled).unwrap_err().contains("unknown feature set 7"));
    }
}
