//! `chariot train`: fits the NNUE network ([`crate::eval::nnue`]) to
//! training data and writes it in the engine's file format.
//!
//! `chariot train --out NET [--features plain|king-buckets] [--epochs N]
//! [--lr X] [--batch N] [--lambda X] [--wd X] [--threads N] [--seed N]
//! [--holdout F] [--limit N] [--resume CHECKPOINT | --init NET] [--hidden N]
//! [--mirror] DATA…` reads the positions of the data files
//! ([`data`]; with `--mirror` each position also left-right mirrored),
//! holds out the positions of a fraction `--holdout` of the games (whole
//! games, chosen by a hash of the game's number), and runs `--epochs` passes
//! of AdamW over the other positions, shuffled every epoch, in batches of
//! `--batch`, with a learning rate falling from `--lr` along a cosine
//! ([`optim`]) and the parameters clipped to their quantised range after
//! every step ([`network`]). After every epoch it prints the training and
//! holdout loss and writes `NET.ckpt` (a checkpoint, [`checkpoint`]) and
//! `NET.svg` (the loss curves, [`plot`]); `--resume NET.ckpt` continues a
//! killed run up to `--epochs`, with the same data and options. `--init
//! NET` starts from a network file (`default`: the built-in network)
//! instead of random weights, to go on from a network with new data; a
//! plain network goes on as a king-bucketed one with `--features
//! king-buckets` ([`Network::rebucket`]). `--hidden N` is the width of a
//! new network (hidden units per perspective, a multiple of 32 up to 1,024;
//! default 128); with `--init`, a larger `N` than the network's widens it
//! ([`Network::widen`]: its units kept, new ones that start with no say in
//! the output). `--output-buckets N` gives the output layer one copy per
//! range of piece counts ([`crate::eval::nnue::format::output_bucket`];
//! from a network of `k` buckets, a multiple of `k`, each new bucket
//! starting as the old one whose piece counts hold its own,
//! [`Network::with_buckets`]). At the end
//! the network is rounded to integers ([`quantise`], [`refine`]), read back from its
//! bytes, compared with the float network on the holdout positions, and
//! written to NET if they agree within [`quantise::TOLERANCE_CP`] on average.
//!
//! The loss is the mean squared error between `sigmoid(eval / 400)` and
//! `λ · result + (1 − λ) · sigmoid(score / 400)`; positions with a mate
//! score are left out. The default `λ` = 0.3: the search score says more
//! about one position than the result of its game, which is shared by
//! about a hundred positions and decided by later mistakes, but the result
//! corrects what the low-node scores of self-play get systematically wrong.

pub mod checkpoint;
pub mod data;
pub mod network;
pub mod optim;
pub mod parallel;
pub mod plot;
pub mod quantise;
pub mod refine;

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::board::zobrist::SplitMix64;
use crate::eval::nnue::features::FeatureSet;
use crate::eval::nnue::format::{DEFAULT_HIDDEN, check_buckets, check_hidden};
use crate::tools::args::{cores, real, whole};
use crate::tools::learn::is_holdout;
use checkpoint::Checkpoint;
use data::Dataset;
use network::Network;
use optim::AdamW;

/// Seconds between progress lines within an epoch.
const PROGRESS_SECONDS: f64 = 10.0;

/// The options of `chariot train`.
#[derive(Clone, Debug, PartialEq, clap::Args)]
#[command(group = clap::ArgGroup::new("start").args(["resume", "init"]))]
pub struct Options {
    /// Where the network goes (`NET.ckpt` and `NET.svg` beside it).
    #[arg(long, value_name = "NET")]
    pub out: PathBuf,
    /// Data files (`chariot datagen`), read one after the other.
    #[arg(value_name = "DATA", required = true)]
    pub data: Vec<PathBuf>,
    /// Passes over the training positions (in all, counting a resumed run's).
    #[arg(long, default_value_t = 20, value_parser = whole::<u32>(0..=100_000))]
    pub epochs: u32,
    /// AdamW's learning rate at the start.
    #[arg(long, default_value_t = 0.001, value_parser = real(0.0..=1.0))]
    pub lr: f64,
    /// Positions per step.
    #[arg(long, default_value_t = 16384, value_parser = whole::<usize>(1..=1 << 24))]
    pub batch: usize,
    /// Weight of the game result in the target (the search score has the rest).
    #[arg(long, default_value_t = 0.3, value_parser = real(0.0..=1.0))]
    pub lambda: f64,
    /// AdamW's decoupled weight decay.
    #[arg(long, default_value_t = 0.01, value_parser = real(0.0..=1.0))]
    pub wd: f64,
    /// Threads for the gradient (default: the number of cores).
    #[arg(long, default_value_t = cores(), value_parser = whole::<usize>(1..=256))]
    pub threads: usize,
    /// Seed of the initial weights and of the shuffles.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Fraction of the games held out.
    #[arg(long, default_value_t = 0.1, value_parser = real(0.0..=0.9))]
    pub holdout: f64,
    /// Read at most this many records.
    #[arg(long, default_value_t = u64::MAX, hide_default_value = true,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,
    /// A checkpoint to continue from (a killed run, up to `--epochs`).
    #[arg(long, value_name = "CHECKPOINT")]
    pub resume: Option<PathBuf>,
    /// A network file to start from (`default`: the built-in one) instead
    /// of random weights.
    #[arg(long, value_name = "NET")]
    pub init: Option<String>,
    /// Also train on every position mirrored left to right (files a..i
    /// read as i..a): the rules are symmetric, so the mirror is as true.
    #[arg(long)]
    pub mirror: bool,
    /// The learning rate of the king buckets' own rows, as a fraction of
    /// `--lr` (the shared factor and the other layers take `--lr`): each
    /// bucket sees a share of the positions, and Adam moves a rarely seen
    /// row as far per step as a common one.
    #[arg(long, default_value_t = 0.1, value_parser = real(0.0..=1.0))]
    pub bucket_lr: f64,
    /// The inputs (default: those of the `--init` network or checkpoint,
    /// else king buckets).
    #[arg(long, value_enum)]
    pub features: Option<Features>,
    /// Hidden units per perspective, a multiple of 32 from 32 to 1024
    /// (default: those of the `--init` network or checkpoint, else 128).
    /// With `--init`, more than the network has widens it: its units kept,
    /// new ones with small random input weights and zero output weights, so
    /// that it starts from the same evaluations.
    #[arg(long, value_name = "N", value_parser = width)]
    pub hidden: Option<usize>,
    /// Output buckets, 1 to 16: the output layer chosen by the number of
    /// pieces on the board (default: those of the `--init` network or
    /// checkpoint, else 1). With `--init` of a network of `k` buckets (one
    /// output or more), a multiple of `k`: each bucket starts as the one
    /// whose piece counts hold its own, so that it starts from the same
    /// evaluations.
    #[arg(long, value_name = "N", value_parser = bucket_count)]
    pub output_buckets: Option<usize>,
}

/// A number of output buckets on the command line ([`check_buckets`]).
fn bucket_count(s: &str) -> Result<usize, String> {
    checked_number(s, check_buckets)
}

/// A network width on the command line ([`check_hidden`]).
fn width(s: &str) -> Result<usize, String> {
    checked_number(s, check_hidden)
}

/// The whole number `s`, if `check` accepts it.
fn checked_number(s: &str, check: fn(usize) -> Result<(), String>) -> Result<usize, String> {
    let n: usize = s.trim().parse().map_err(|_| format!("'{s}' is not a whole number"))?;
    check(n)?;
    Ok(n)
}

/// The feature sets on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Features {
    /// 14 planes × 90 squares (the networks of rounds 1–6).
    Plain,
    /// Nine king buckets × 692 points, with a shared factor while training.
    KingBuckets,
}

impl Features {
    /// The feature set.
    pub fn set(self) -> FeatureSet {
        match self {
            Features::Plain => FeatureSet::Plain,
            Features::KingBuckets => FeatureSet::KingBuckets,
        }
    }
}

/// `path` with `suffix` added to its name.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The training positions of epoch `epoch` (from 1) in their shuffled
/// order: a function of the seed and the epoch only, so that a resumed run
/// sees what an uninterrupted one would.
fn shuffled(train: &[u32], seed: u64, epoch: u32) -> Vec<u32> {
    let mut order = train.to_vec();
    let mut rng = SplitMix64(seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
}

/// The optimizer's parameter groups of `net` at learning rate `lr`: the
/// king buckets' own rows at `lr · bucket_lr`, the rest at `lr`.
fn groups(net: &Network, lr: f32, bucket_lr: f32, wd: f32) -> Vec<(std::ops::Range<usize>, f32, f32)> {
    let l = net.layout;
    if l.factor_rows == 0 {
        vec![(0..l.params, lr, wd)]
    } else {
        vec![(0..l.factor, lr * bucket_lr, wd), (l.factor..l.params, lr, wd)]
    }
}

/// Runs the trainer.
pub fn run(o: &Options) -> Result<(), String> {
    let start = Instant::now();
    // The starting point first: a bad file is reported before the data is read.
    let chosen = o.features.map(Features::set);
    let mut state = match (&o.resume, &o.init) {
        (Some(path), _) => {
            let c = Checkpoint::load(path)?;
            if chosen.is_some_and(|f| f != c.net.layout.features) {
                return Err(format!("{} holds a {:?} network", path.display(), c.net.layout.features));
            }
            if o.hidden.is_some_and(|h| h != c.net.layout.hidden) {
                return Err(format!(
                    "{} holds a network of {} hidden units",
                    path.display(),
                    c.net.layout.hidden
                ));
            }
            if o.output_buckets.is_some_and(|b| b != c.net.layout.buckets) {
                return Err(format!(
                    "{} holds a network of {} output buckets",
                    path.display(),
                    c.net.layout.buckets
                ));
            }
            eprintln!("train: resuming from {} after epoch {}", path.display(), c.epoch);
            c
        }
        (None, init) => {
            let net = match init {
                Some(path) => {
                    let (data, name) = crate::eval::nnue::network::named_data(path)?;
                    let net = quantise::dequantise(&data);
                    let features = chosen.unwrap_or(net.layout.features);
                    eprintln!("train: starting from network {name} ({:?}) as {features:?}", data.features);
                    if net.layout.features != features && net.layout.features != FeatureSet::Plain {
                        return Err(format!(
                            "a {:?} network cannot become a {features:?} one",
                            data.features
                        ));
                    }
                    let hidden = o.hidden.unwrap_or(data.hidden);
                    if hidden < data.hidden {
                        return Err(format!(
                            "a network of {} hidden units cannot become one of {hidden}",
                            data.hidden
                        ));
                    }
                    if hidden > data.hidden {
                        eprintln!("train: widening it from {} to {hidden} hidden units", data.hidden);
                    }
                    let (buckets, k) = (o.output_buckets.unwrap_or(data.buckets), data.buckets);
                    if !buckets.is_multiple_of(k) {
                        return Err(format!(
                            "a network of {k} output buckets cannot become one of {buckets} (a multiple of {k} only)"
                        ));
                    }
                    if buckets != k {
                        eprintln!(
                            "train: giving it {buckets} output buckets, each a copy of the one of {k} whose piece counts hold its own"
                        );
                    }
                    net.rebucket(features).widen(hidden, o.seed).with_buckets(buckets)
                }
                None => Network::random(
                    chosen.unwrap_or(FeatureSet::KingBuckets),
                    o.hidden.unwrap_or(DEFAULT_HIDDEN),
                    o.seed,
                )
                .with_buckets(o.output_buckets.unwrap_or(1)),
            };
            let adam = AdamW::new(net.layout.params);
            Checkpoint { epoch: 0, net, adam, history: Vec::new() }
        }
    };
    let mut data = Dataset::new(state.net.layout.features);
    data.mirror = o.mirror;
    for path in &o.data {
        let file = std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        data.load(std::io::BufReader::new(file), o.limit).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if data.is_empty() {
        return Err("no usable position in the data".into());
    }
    let (holdout, train): (Vec<u32>, Vec<u32>) =
        (0..data.len() as u32).partition(|&i| is_holdout(data.games[i as usize], o.holdout));
    if train.is_empty() {
        return Err("too few positions to train on (every game is held out)".into());
    }
    eprintln!(
        "train: {} positions of {} games ({} train, {} holdout; {} records read, {} with mate scores and {} impossible boards left out), {:?} inputs, {} hidden units, {} output buckets, {:.1} MB in memory ({:.0} bytes a position), {:.1} s",
        data.len(),
        data.game_count(),
        train.len(),
        holdout.len(),
        data.read,
        data.skipped,
        data.impossible,
        data.features,
        state.net.layout.hidden,
        state.net.layout.buckets,
        data.bytes() as f64 / 1e6,
        data.bytes() as f64 / data.len() as f64,
        start.elapsed().as_secs_f64()
    );
    let lambda = o.lambda as f32;
    let ckpt_path = beside(&o.out, ".ckpt");
    let svg_path = beside(&o.out, ".svg");
    eprintln!(
        "train: lambda {}, lr {} (cosine to x{}; bucket rows x{}), wd {}, batch {}, {} threads; loss now: train {:.6}, holdout {:.6}",
        o.lambda,
        o.lr,
        optim::FINAL_LR_FRACTION,
        o.bucket_lr,
        o.wd,
        o.batch,
        o.threads,
        parallel::loss(&state.net, &data, &train, lambda, o.threads),
        parallel::loss(&state.net, &data, &holdout, lambda, o.threads)
    );
    let steps_per_epoch = train.len().div_ceil(o.batch) as u64;
    let total_steps = steps_per_epoch * o.epochs as u64;
    let mut grads = vec![vec![0.0f32; state.net.layout.params]; o.threads];
    for epoch in state.epoch + 1..=o.epochs {
        let t = Instant::now();
        let mut last_note = Instant::now();
        let order = shuffled(&train, o.seed, epoch);
        let mut total = 0.0;
        for (b, batch) in order.chunks(o.batch).enumerate() {
            total += parallel::gradient(&state.net, &data, batch, lambda, &mut grads);
            let step = (epoch as u64 - 1) * steps_per_epoch + b as u64;
            let lr = optim::cosine(o.lr, step, total_steps) as f32;
            let groups = groups(&state.net, lr, o.bucket_lr as f32, o.wd as f32);
            state.adam.step(&mut state.net.params, &grads[0], 1.0 / batch.len() as f32, &groups);
            state.net.clip();
            if last_note.elapsed().as_secs_f64() >= PROGRESS_SECONDS {
                last_note = Instant::now();
                let done = ((b + 1) * o.batch).min(train.len());
                eprintln!(
                    "train: epoch {epoch}/{}: {done}/{} positions, train loss so far {:.6}, {:.0} positions/s",
                    o.epochs,
                    train.len(),
                    total / done as f64,
                    done as f64 / t.elapsed().as_secs_f64()
                );
            }
        }
        let train_secs = t.elapsed().as_secs_f64();
        let train_loss = total / train.len() as f64;
        let holdout_loss = parallel::loss(&state.net, &data, &holdout, lambda, o.threads);
        state.epoch = epoch;
        state.history.push((train_loss, holdout_loss));
        state.save(&ckpt_path)?;
        std::fs::write(&svg_path, plot::loss_svg(&state.history))
            .map_err(|e| format!("cannot write {}: {e}", svg_path.display()))?;
        eprintln!(
            "train: epoch {epoch}/{}: train {train_loss:.6}, holdout {holdout_loss:.6}, {:.0} positions/s, {:.1} s (elapsed {:.1} s)",
            o.epochs,
            train.len() as f64 / train_secs,
            t.elapsed().as_secs_f64(),
            start.elapsed().as_secs_f64()
        );
    }
    export(&state.net, &data, &train, if holdout.is_empty() { &train } else { &holdout }, &o.out)?;
    eprintln!(
        "train: wrote {}, {} and {}; {:.1} s in all",
        o.out.display(),
        ckpt_path.display(),
        svg_path.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Positions of the training set on which the output layer's rounding is
/// corrected (per output bucket).
const REFINE_SAMPLE: usize = 20_000;

/// Rounds `net` to integers, corrects the output layer's rounding on a
/// sample of the training positions `train` (per output bucket, up to
/// [`REFINE_SAMPLE`] of its positions, evenly spread), checks the network read back
/// from its bytes against the float one on positions `check` (the holdout,
/// or the training positions if none is held out), and writes it to `out`
/// if they agree.
fn export(net: &Network, data: &Dataset, train: &[u32], check: &[u32], out: &Path) -> Result<(), String> {
    use crate::eval::nnue::format::{NetworkData, name, output_bucket};
    let mut q = quantise::quantise(net);
    let rounded = quantise::check(net, &q, data, check);
    let buckets = net.layout.buckets;
    let bucket = |i: u32| output_bucket(data.inputs(i as usize).len(), buckets);
    let mut counts = vec![0usize; buckets];
    for &i in train {
        counts[bucket(i)] += 1;
    }
    let strides: Vec<usize> = counts.iter().map(|c| c.div_ceil(REFINE_SAMPLE).max(1)).collect();
    let mut samples = vec![Vec::new(); buckets];
    let mut seen = vec![0usize; buckets];
    for &i in train {
        let b = bucket(i);
        if seen[b].is_multiple_of(strides[b]) {
            samples[b].push(i);
        }
        seen[b] += 1;
    }
    for (b, sample) in samples.iter().enumerate() {
        refine::refine_output(net, &mut q, data, sample, b);
    }
    let bytes = q.to_bytes();
    let read_back =
        NetworkData::from_bytes(&bytes).map_err(|e| format!("the network does not read back: {e}"))?;
    let c = quantise::check(net, &read_back, data, check);
    eprintln!(
        "train: quantised against float on {} positions: mean |difference| {:.2} cp, max {:.1} cp (rounded only: mean {:.2}, max {:.1}); largest accumulator {} ({})",
        c.positions,
        c.mean_cp,
        c.max_cp,
        rounded.mean_cp,
        rounded.max_cp,
        c.max_accumulator,
        if c.max_accumulator <= i16::MAX as i32 { "fits i16" } else { "DOES NOT FIT i16" }
    );
    if c.mean_cp > quantise::TOLERANCE_CP {
        return Err(format!(
            "the quantised network is {:.2} cp from the float one on average (tolerance {} cp): not written",
            c.mean_cp,
            quantise::TOLERANCE_CP
        ));
    }
    std::fs::write(out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    eprintln!("train: network {} ({} bytes)", name(&bytes), bytes.len());
    Ok(())
}
