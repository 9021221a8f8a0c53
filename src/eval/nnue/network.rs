//! A network ready for inference: the file's parameters in aligned rows
//! as wide as the file says,
//! with the instruction set its kernels use, and the network built into
//! the program.

use std::io::Read;
use std::sync::Arc;

use once_cell::sync::Lazy;

use super::features::FeatureSet;
use super::format::{self, MAX_FILE_SIZE, NetworkData, QA, QB, SCALE, check_buckets, check_hidden};
use super::simd::{Chunk, LANES, Simd};
use crate::types::Color;

/// The network built into the program (`nets/default.nnue`).
pub static EMBEDDED_BYTES: &[u8] = include_bytes!("../../../nets/default.nnue");

/// Largest output weight accepted: with |w| ≤ 128, `clamp(v)·w` fits an
/// `i16` (255 · 128 < 2¹⁵), so the kernels, which sum the products without
/// overflow whatever the width ([`super::simd`]), compute the format's
/// formula exactly.
pub const MAX_OUTPUT_WEIGHT: i16 = 128;

/// Largest evaluation the network gives, in centipawns: well clear of the
/// search's mate scores whatever the network file says.
pub const MAX_EVAL: i32 = 20_000;

static EMBEDDED: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(Network::from_bytes(EMBEDDED_BYTES).expect("nets/default.nnue is a valid network file"))
});

/// See the module comment.
pub struct Network {
    /// The inputs it reads.
    features: FeatureSet,
    /// Hidden units per perspective (the width of every row).
    hidden: usize,
    /// Chunks of a row: `hidden / LANES`.
    chunks: usize,
    /// The `hidden` weights of each input, one row after the other.
    ft_weights: Box<[Chunk]>,
    ft_bias: Box<[Chunk]>,
    /// Output buckets ([`format::output_bucket`]).
    buckets: usize,
    /// Per output bucket, the side to move's output weights, then the other side's.
    out_weights: Box<[[Box<[Chunk]>; 2]]>,
    /// Per output bucket, the output bias.
    out_bias: Box<[i32]>,
    name: String,
    simd: Simd,
}

impl Network {
    /// The network built into the program.
    pub fn embedded() -> Arc<Network> {
        Arc::clone(&EMBEDDED)
    }

    /// The network of a file's bytes, named by [`format::name`]; the error
    /// says what is wrong with them.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        Network::from_data(&NetworkData::from_bytes(bytes)?, format::name(bytes))
    }

    /// Reads a network file; the error names the file and says what is wrong.
    pub fn load(path: &str) -> Result<Network, String> {
        let bytes = file_bytes(path)?;
        Network::from_bytes(&bytes).map_err(|e| in_file(path, &e))
    }

    /// The network a user names: the built-in one for an empty name,
    /// `<default>` or `default`, else the file `path` ([`Network::load`]).
    pub fn named(path: &str) -> Result<Arc<Network>, String> {
        let path = path.trim();
        if is_built_in(path) { Ok(Network::embedded()) } else { Network::load(path).map(Arc::new) }
    }

    /// The network of `data`, called `name`, using the best instruction set
    /// of this processor. Refuses a width no network has
    /// ([`format::check_hidden`]), a number of output buckets no network
    /// has ([`format::check_buckets`]), parameters of other sizes than
    /// these say, and output weights beyond ±[`MAX_OUTPUT_WEIGHT`].
    pub fn from_data(data: &NetworkData, name: String) -> Result<Network, String> {
        let (hidden, buckets) = (data.hidden, data.buckets);
        check_hidden(hidden)?;
        check_buckets(buckets)?;
        let sizes = [data.ft_weights.len(), data.ft_bias.len(), data.out_weights.len(), data.out_bias.len()];
        if sizes != [data.features.inputs() * hidden, hidden, buckets * 2 * hidden, buckets] {
            return Err(format!(
                "parameters of sizes {sizes:?} for a {hidden}-unit {:?} network of {buckets} output buckets",
                data.features
            ));
        }
        if let Some(w) = data.out_weights.iter().find(|w| w.abs() > MAX_OUTPUT_WEIGHT) {
            return Err(format!("output weight {w} beyond ±{MAX_OUTPUT_WEIGHT}"));
        }
        let chunks = |values: &[i16]| -> Box<[Chunk]> {
            values.chunks_exact(LANES).map(|c| Chunk(c.try_into().expect("LANES values"))).collect()
        };
        Ok(Network {
            features: data.features,
            hidden,
            chunks: hidden / LANES,
            ft_weights: chunks(&data.ft_weights),
            ft_bias: chunks(&data.ft_bias),
            buckets,
            out_weights: (0..buckets)
                .map(|b| {
                    let w = data.bucket_weights(b);
                    [chunks(&w[..hidden]), chunks(&w[hidden..])]
                })
                .collect(),
            out_bias: data.out_bias.clone().into_boxed_slice(),
            name,
            simd: Simd::detect(),
        })
    }

    /// The same network computed with `simd`; `None` if this processor
    /// does not have it.
    pub fn with_simd(mut self, simd: Simd) -> Option<Network> {
        simd.is_available().then(|| {
            self.simd = simd;
            self
        })
    }

    /// The network's name (see [`format::name`]).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The instruction set the kernels use.
    pub fn simd(&self) -> Simd {
        self.simd
    }

    /// The inputs it reads.
    #[inline(always)]
    pub fn features(&self) -> FeatureSet {
        self.features
    }

    /// Hidden units per perspective: the width of an accumulator.
    #[inline(always)]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets: 1, or the number among which
    /// [`format::output_bucket`] chooses by the pieces on the board.
    #[inline(always)]
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// Chunks of an accumulator (`hidden / LANES`).
    #[inline(always)]
    pub fn chunks(&self) -> usize {
        self.chunks
    }

    /// The weights of input `index`.
    #[inline(always)]
    pub(super) fn weights(&self, index: usize) -> &[Chunk] {
        self.row(index, self.chunks)
    }

    /// The weights of input `index`, given the network's
    /// [`Network::chunks`] `n` (where the caller has it as a constant).
    #[inline(always)]
    pub(super) fn row(&self, index: usize, n: usize) -> &[Chunk] {
        &self.ft_weights[index * n..(index + 1) * n]
    }

    /// The feature biases, the accumulator of an empty board.
    #[inline(always)]
    pub(super) fn bias(&self) -> &[Chunk] {
        &self.ft_bias
    }

    /// `out = old + Σ add − Σ sub` (`old` `None`: `out` itself) with this
    /// network's instruction set; every row [`Network::chunks`] long.
    #[inline(always)]
    pub(super) fn update(
        &self,
        out: &mut [Chunk],
        old: Option<&[Chunk]>,
        add: &[&[Chunk]],
        sub: &[&[Chunk]],
    ) {
        // `self.simd` is available: `from_data` and `with_simd` check.
        self.simd.update(out, old, add, sub);
    }

    /// The output in centipawns from `stm`'s view, given the accumulators
    /// of both sides (indexed by colour, [`Network::chunks`] each) and the
    /// number of pieces on the board (which picks the output bucket,
    /// [`format::output_bucket`]), clamped to ±[`MAX_EVAL`].
    #[inline]
    pub fn output(&self, acc: [&[Chunk]; 2], stm: Color, pieces: usize) -> i32 {
        let (us, them) = (acc[stm.index()], acc[(!stm).index()]);
        let b = format::output_bucket(pieces, self.buckets);
        let [w_us, w_them] = &self.out_weights[b];
        let sum = self.simd.output(us, them, [w_us, w_them]);
        let v = (sum / i64::from(QA) + i64::from(self.out_bias[b])) * i64::from(SCALE) / i64::from(QA * QB);
        v.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
    }
}

/// The parameters and name of the network a user names, as
/// [`Network::named`] reads it (for a trainer that starts from it).
pub fn named_data(path: &str) -> Result<(NetworkData, String), String> {
    let path = path.trim();
    let bytes = if is_built_in(path) { EMBEDDED_BYTES.to_vec() } else { file_bytes(path)? };
    let data = NetworkData::from_bytes(&bytes).map_err(|e| in_file(path, &e))?;
    Ok((data, format::name(&bytes)))
}

/// True if `name` (trimmed) stands for the built-in network.
fn is_built_in(name: &str) -> bool {
    name.is_empty() || name.eq_ignore_ascii_case("<default>") || name.eq_ignore_ascii_case("default")
}

/// The bytes of a network file: at most one byte more than the largest
/// network, enough to tell a longer file.
fn file_bytes(path: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::with_capacity(MAX_FILE_SIZE);
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_SIZE as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read network file '{}': {e}", path.escape_debug()))?;
    Ok(bytes)
}

/// `error` about the network file `path`.
fn in_file(path: &str, error: &str) -> String {
    format!("network file '{}': {error}", path.escape_debug())
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("name", &self.name)
            .field("hidden", &self.hidden)
            .field("buckets", &self.buckets)
            .field("simd", &self.simd)
            .finish_non_exhaustive()
    }
}

impl NetworkData {
    /// A network of feature set `features`, `hidden` units per perspective,
    /// with pseudo-random weights from `seed`: feature weights and
    /// biases in `±ft_range`, output weights in ±127, output bias in
    /// ±100 centipawns. For tests, and for the placeholder network shipped
    /// until a trained one replaces it (see `make_placeholder_network`).
    pub fn random(features: FeatureSet, hidden: usize, seed: u64, ft_range: i16) -> NetworkData {
        let mut rng = crate::board::zobrist::SplitMix64(seed);
        let mut draw = |range: i32| rng.below(2 * range as usize + 1) as i32 - range;
        let mut net = NetworkData::zeroed(features, hidden);
        for w in net.ft_weights.iter_mut().chain(&mut net.ft_bias) {
            *w = draw(i32::from(ft_range)) as i16;
        }
        for w in &mut net.out_weights {
            *w = draw(127) as i16;
        }
        net.out_bias = vec![draw(100) * QA * QB / SCALE];
        net
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes the placeholder `nets/default.nnue` (run with `cargo test
    /// --release make_placeholder_network -- --ignored`): pseudo-random
    /// weights from a fixed seed, feature weights small enough that few
    /// accumulator values reach the clamp. It plays no better than chance;
    /// `chariot train` makes real networks to replace it.
    #[test]
    #[ignore]
    fn make_placeholder_network() {
        let bytes = NetworkData::random(FeatureSet::Plain, 128, 0xC4A7_1070_0000_0001, 24).to_bytes();
        std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue"), &bytes).unwrap();
        println!("nets/default.nnue: {}", format::name(&bytes));
    }

    #[test]
    fn the_embedded_network_loads_with_its_name() {
        let net = Network::embedded();
        assert_eq!(net.name(), format::name(EMBEDDED_BYTES));
        assert_eq!(net.simd(), Simd::detect());
    }

    #[test]
    fn out_of_range_output_weights_are_refused() {
        let mut data = NetworkData::random(FeatureSet::Plain, 128, 1, 10);
        data.out_weights[5] = -129;
        let e = Network::from_data(&data, "x".into()).err().unwrap();
        assert!(e.contains("-129"), "{e}");
        data.out_weights[5] = -128;
        assert!(Network::from_data(&data, "x".into()).is_ok());
    }

    #[test]
    fn unreadable_files_are_named_in_the_error() {
        let e = Network::load("/no/such/file.nnue").err().unwrap();
        assert!(e.contains("cannot read network file '/no/such/file.nnue'"), "{e}");
        let e = Network::load("/dev/null").err().unwrap();
        assert!(e.contains("network file '/dev/null': not a chariot network file"), "{e}");
    }

    #[test]
    fn the_output_is_the_formula() {
        for hidden in [128, 256, 96] {
            let mut data = NetworkData::zeroed(FeatureSet::Plain, hidden);
            data.out_bias = vec![3 * QA * QB];
            let mut acc = [vec![Chunk::ZERO; hidden / LANES], vec![Chunk::ZERO; hidden / LANES]];
            acc[0][0].0[0] = 255;
            acc[1][0].0[1] = 100;
            data.out_weights[0] = 64;
            data.out_weights[hidden + 1] = -32;
            let net = Network::from_data(&data, "t".into()).unwrap();
            assert_eq!((net.hidden(), net.chunks()), (hidden, hidden / 32));
            // (255²·64 − 100²·32) / 255 = 15,065; (15,065 + 3·QA·QB)·400 / (QA·QB) = 1,569.
            assert_eq!(net.output([&acc[0], &acc[1]], Color::Red, 32), 1569);
            // From Black's view the halves swap: both values meet zero weights.
            assert_eq!(net.output([&acc[0], &acc[1]], Color::Black, 32), 1200);
        }
    }

    #[test]
    fn the_output_reads_the_bucket_of_the_piece_count() {
        let hidden = 64;
        let mut data = NetworkData::zeroed_buckets(FeatureSet::Plain, hidden, 8);
        let mut acc = [vec![Chunk::ZERO; hidden / LANES], vec![Chunk::ZERO; hidden / LANES]];
        acc[0][0].0[0] = 255;
        for b in 0..8 {
            // Bucket b: weight 8·b on unit 0 of the side to move, bias b.
            data.out_weights[b * 2 * hidden] = 8 * b as i16;
            data.out_bias[b] = b as i32 * QA * QB;
        }
        let net = Network::from_data(&data, "b".into()).unwrap();
        assert_eq!(net.buckets(), 8);
        for pieces in 2..=32 {
            let b = (pieces - 1) / 4;
            // (255² · 8b / 255 + b · QA · QB) · 400 / (QA · QB)
            // = (2,040b + 16,320b) · 400 / 16,320 = 450b.
            assert_eq!(net.output([&acc[0], &acc[1]], Color::Red, pieces), 450 * b as i32, "{pieces} pieces");
        }
    }

    #[test]
    fn malformed_parameters_are_refused() {
        let mut data = NetworkData::zeroed(FeatureSet::Plain, 256);
        data.ft_bias.pop();
        let e = Network::from_data(&data, "x".into()).err().unwrap();
        assert!(
            e.contains(
                "parameters of sizes [322560, 255, 512, 1] for a 256-unit Plain network of 1 output buckets"
            ),
            "{e}"
        );
        let mut data = NetworkData::zeroed_buckets(FeatureSet::Plain, 64, 4);
        data.out_bias.pop();
        assert!(Network::from_data(&data, "x".into()).err().unwrap().contains("of 4 output buckets"));
        data.buckets = 0;
        assert!(Network::from_data(&data, "x".into()).err().unwrap().contains("0 output buckets"));
        data.hidden = 100;
        let e = Network::from_data(&data, "x".into()).err().unwrap();
        assert!(e.contains("100 hidden units"), "{e}");
    }
}
