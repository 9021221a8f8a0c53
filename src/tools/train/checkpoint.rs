//! The state of a run after an epoch, so that a killed run resumes where it
//! stopped: the float parameters, the optimizer's moments and step count, the
//! epochs done and their losses.
//!
//! Layout (little-endian): the magic `chariot train\0\0\0`, version u32 (4),
//! hidden units u32 (the width, [`Layout::hidden`]), the feature set u32
//! ([`FeatureSet::id`]), the output buckets u32 ([`Layout::buckets`]), epochs done
//! u32, optimizer steps u64, epochs of history u32 and per epoch its
//! training and holdout loss (f64 each), then the parameters, first moments
//! and second moments (f32 each, [`Layout::params`] of each), and the FNV-1a
//! 64 hash of every byte before it. Version 1 (before the feature sets) had
//! no feature set field: its networks are plain. Versions 1 and 2 (before
//! networks of other widths) hold 128 units; version 3 any width a network
//! file may have. Versions 1 to 3 (before the output buckets) have no
//! bucket field: one output.

use std::path::Path;

use super::network::{Layout, Network};
use super::optim::AdamW;
use crate::eval::nnue::features::FeatureSet;
use crate::eval::nnue::format::{DEFAULT_HIDDEN, check_buckets, check_hidden};
use crate::types::fnv1a;

/// The first 16 bytes of a checkpoint.
const MAGIC: [u8; 16] = *b"chariot train\0\0\0";
/// The checkpoint version.
const VERSION: u32 = 4;

/// A run's state after an epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Epochs done.
    pub epoch: u32,
    /// The float network.
    pub net: Network,
    /// The optimizer.
    pub adam: AdamW,
    /// Training and holdout loss of every epoch done.
    pub history: Vec<(f64, f64)>,
}

impl Checkpoint {
    /// The checkpoint's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let l = self.net.layout;
        for v in [VERSION, l.hidden as u32, u32::from(l.features.id()), l.buckets as u32, self.epoch] {
            out.extend(v.to_le_bytes());
        }
        out.extend(self.adam.steps.to_le_bytes());
        out.extend((self.history.len() as u32).to_le_bytes());
        for &(train, holdout) in &self.history {
            out.extend(train.to_le_bytes());
            out.extend(holdout.to_le_bytes());
        }
        for x in self.net.params.iter().chain(&self.adam.m).chain(&self.adam.v) {
            out.extend(x.to_le_bytes());
        }
        let hash = fnv1a(&out);
        out.extend(hash.to_le_bytes());
        out
    }

    /// Reads a checkpoint; the error says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < 48 || bytes[..16] != MAGIC {
            return Err("not a chariot train checkpoint".into());
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        if u64::from_le_bytes(tail.try_into().expect("8 bytes")) != fnv1a(body) {
            return Err("checkpoint is corrupt (its hash does not match its contents)".into());
        }
        let mut c = Cursor { bytes: body, at: 16 };
        let (version, hidden) = (c.u32()?, c.u32()? as usize);
        if !(1..=VERSION).contains(&version) {
            return Err(format!("checkpoint version {version}; this build reads versions 1 to {VERSION}"));
        }
        if version < 3 && hidden != DEFAULT_HIDDEN {
            return Err(format!(
                "a version {version} checkpoint with {hidden} hidden units (those have {DEFAULT_HIDDEN})"
            ));
        }
        check_hidden(hidden).map_err(|e| format!("checkpoint of {e}"))?;
        let id = if version == 1 { 0 } else { c.u32()? };
        let features = u16::try_from(id)
            .ok()
            .and_then(FeatureSet::from_id)
            .ok_or_else(|| format!("checkpoint of unknown feature set {id}"))?;
        let buckets = if version < 4 { 1 } else { c.u32()? as usize };
        check_buckets(buckets).map_err(|e| format!("checkpoint of {e}"))?;
        let layout = Layout::with_buckets(features, hidden, buckets);
        let epoch = c.u32()?;
        let steps = u64::from_le_bytes(c.take(8)?.try_into().expect("8 bytes"));
        let epochs = c.u32()?;
        let history = (0..epochs).map(|_| Ok((c.f64()?, c.f64()?))).collect::<Result<_, String>>()?;
        let n = layout.params;
        let (params, m, v) = (c.f32s(n)?, c.f32s(n)?, c.f32s(n)?);
        if c.at != body.len() {
            return Err("checkpoint has bytes after its end".into());
        }
        Ok(Checkpoint { epoch, net: Network { layout, params }, adam: AdamW { m, v, steps }, history })
    }

    /// Writes the checkpoint to `path` (through a temporary file renamed, so
    /// that a run killed while writing leaves the previous one whole).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        std::fs::write(&tmp, self.to_bytes())
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Reads the checkpoint at `path`.
    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Reads a checkpoint's fields in order.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let part = self.bytes.get(self.at..self.at + n).ok_or("checkpoint is cut short")?;
        self.at += n;
        Ok(part)
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }

    fn f32s(&mut self, n: usize) -> Result<Vec<f32>, String> {
        let bytes = self.take(4 * n)?;
        Ok(bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_round_trips_and_damage_is_refused() {
        for (features, hidden, buckets) in [
            (FeatureSet::Plain, 128, 1),
            (FeatureSet::KingBuckets, 128, 1),
            (FeatureSet::Plain, 256, 1),
            (FeatureSet::Plain, 128, 8),
        ] {
            let n = Layout::with_buckets(features, hidden, buckets).params;
            let mut adam = AdamW::new(n);
            adam.m[5] = 0.25;
            adam.v[n - 1] = 3.5;
            adam.steps = 77;
            let net = Network::random(features, hidden, 1).with_buckets(buckets);
            let c = Checkpoint { epoch: 2, net, adam, history: vec![(0.1, 0.2), (0.05, 0.15)] };
            assert_eq!(Checkpoint::from_bytes(&c.to_bytes()), Ok(c));
        }
        let n = Layout::of(FeatureSet::Plain, 128).params;
        let c = Checkpoint {
            epoch: 1,
            net: Network::random(FeatureSet::Plain, 128, 2),
            adam: AdamW::new(n),
            history: vec![],
        };
        let bytes = c.to_bytes();
        // Version 3 (no bucket field) holds one output.
        let mut v3 = bytes[..bytes.len() - 8].to_vec();
        v3[16..20].copy_from_slice(&3u32.to_le_bytes());
        v3.drain(28..32);
        let v3_body = v3.clone();
        let hash = fnv1a(&v3);
        v3.extend(hash.to_le_bytes());
        assert_eq!(Checkpoint::from_bytes(&v3), Ok(c.clone()));
        // A version 1 checkpoint (no feature set field) holds a plain network.
        let mut v1 = v3_body.clone();
        v1[16..20].copy_from_slice(&1u32.to_le_bytes());
        v1.drain(24..28);
        let hash = fnv1a(&v1);
        v1.extend(hash.to_le_bytes());
        assert_eq!(Checkpoint::from_bytes(&v1), Ok(c.clone()));
        // Version 2 (no width but 128) reads as it was written.
        let mut v2 = v3_body.clone();
        v2[16..20].copy_from_slice(&2u32.to_le_bytes());
        let hash = fnv1a(&v2);
        v2.extend(hash.to_le_bytes());
        assert_eq!(Checkpoint::from_bytes(&v2), Ok(c.clone()));
        // Widths no network has, with the hash made right.
        for (version, hidden, says) in [
            (3, 100, "checkpoint of 100 hidden units"),
            (3, 0, "of 0 hidden"),
            (2, 256, "version 2 checkpoint with 256"),
        ] {
            let mut bad = v3_body.clone();
            bad[16..20].copy_from_slice(&(version as u32).to_le_bytes());
            bad[20..24].copy_from_slice(&(hidden as u32).to_le_bytes());
            let hash = fnv1a(&bad);
            bad.extend(hash.to_le_bytes());
            let e = Checkpoint::from_bytes(&bad).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
        // Output buckets no network has.
        for (buckets, says) in [(0u32, "checkpoint of 0 output buckets"), (17, "checkpoint of 17 output")] {
            let mut bad = bytes[..bytes.len() - 8].to_vec();
            bad[28..32].copy_from_slice(&buckets.to_le_bytes());
            let hash = fnv1a(&bad);
            bad.extend(hash.to_le_bytes());
            let e = Checkpoint::from_bytes(&bad).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 4]).unwrap_err().contains("corrupt"));
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        assert!(Checkpoint::from_bytes(&flipped).unwrap_err().contains("corrupt"));
        assert!(Checkpoint::from_bytes(b"hello").unwrap_err().contains("not a"));
    }
}
