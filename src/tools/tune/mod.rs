//! `chariot tune`: fits every tuned weight of `params.rs` to training data
//! (Texel's method with the exact gradient of the evaluation's features).
//!
//! `chariot tune --out FILE [--epochs N] [--lr X] [--batch N] [--lambda X]
//! [--k X] [--l2 X] [--limit N] [--threads N] [--seed N] [--no-mirror]
//! DATA…` reads the positions of the data files ([`dataset`]), holds the
//! positions of one game in ten out (chosen by a hash of the game's number),
//! fits the sigmoid's scale K to the game results with the current weights
//! (unless `--k` is given), then runs `--epochs` passes of Adam over shuffled
//! mini-batches ([`model`]), printing the training and holdout loss after
//! each, and writes the rounded weights to FILE in the layout of `params.rs`
//! ([`writer`]).
//!
//! The board is symmetric under mirroring the files (a↔i), so each square
//! table entry is fitted together with its mirror as one parameter
//! ([`model::Ties`]) and both are written equal; a pair that differs in
//! `params.rs` is set to its mean before the first step. `--no-mirror` fits
//! every entry on its own. With `--epochs 0` no step is taken and nothing is
//! averaged: `params.rs` is written back unchanged.
//!
//! `--l2 X` (default 0) adds `X · Σ (w − w₀)²` over every weight to the
//! loss (a mean over positions), pulling each weight toward its value in
//! `params.rs`: a weight with little data stays near the hand-set value.
//! The losses printed are the data's, without this penalty.

pub mod dataset;
pub mod model;
pub mod writer;

use std::path::PathBuf;
use std::time::Instant;

use crate::board::zobrist::SplitMix64;
use crate::eval::weights::values;
use crate::tools::learn::{CommandLine, int, is_holdout, real};
use dataset::Dataset;
use model::{Adam, Prior, Target, Ties};

/// The usage line of `chariot tune`.
pub const USAGE: &str = "chariot tune --out FILE [--epochs N] [--lr X] [--batch N] [--lambda X] [--k X] [--l2 X] [--limit N] [--threads N] [--seed N] [--no-mirror] DATA...";

/// The options of `chariot tune`.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Where the new `params.rs` goes.
    pub out: PathBuf,
    /// Data files, read one after the other.
    pub data: Vec<PathBuf>,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Adam's learning rate (about a weight's largest step, in centipawns).
    pub lr: f64,
    /// Positions per gradient step.
    pub batch: usize,
    /// Weight of the game result in the target (the search score has the rest).
    pub lambda: f64,
    /// The sigmoid's scale; fitted when `None`.
    pub k: Option<f64>,
    /// Strength of the pull toward the starting values (0: none).
    pub l2: f64,
    /// Read at most this many records.
    pub limit: u64,
    /// Threads for loading and for the gradient.
    pub threads: usize,
    /// Seed of the mini-batch shuffle.
    pub seed: u64,
    /// Fit each square-table entry and its left-right mirror as one parameter.
    pub mirror: bool,
}

/// Parses the arguments after `tune`.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut o = Options {
        out: PathBuf::new(),
        data: Vec::new(),
        epochs: 30,
        lr: 0.5,
        batch: 16384,
        lambda: 0.5,
        k: None,
        l2: 0.0,
        limit: u64::MAX,
        threads: cores,
        seed: 0,
        mirror: true,
    };
    let line = CommandLine::split(args, &["--no-mirror"], USAGE)?;
    o.mirror = !line.switches.contains(&"--no-mirror");
    let mut out = None;
    for &(flag, value) in &line.options {
        match flag {
            "--out" => out = Some(PathBuf::from(value)),
            "--epochs" => o.epochs = int(flag, value, 0, 1_000_000)? as usize,
            "--batch" => o.batch = int(flag, value, 1, 1 << 30)? as usize,
            "--limit" => o.limit = int(flag, value, 1, u64::MAX)?,
            "--threads" => o.threads = int(flag, value, 1, 256)? as usize,
            "--seed" => o.seed = int(flag, value, 0, u64::MAX)?,
            "--lr" => o.lr = real(flag, value, 0.0, 1000.0)?,
            "--lambda" => o.lambda = real(flag, value, 0.0, 1.0)?,
            "--k" => o.k = Some(real(flag, value, 1.0, 100_000.0)?),
            "--l2" => o.l2 = real(flag, value, 0.0, 1e9)?,
            _ => return Err(format!("unknown tune option '{flag}'\nusage: {USAGE}")),
        }
    }
    (o.out, o.data) = line.out_and_data("tune", out, "FILE", USAGE)?;
    Ok(o)
}

/// Runs the tuner.
pub fn run(o: &Options) -> Result<(), String> {
    let start = Instant::now();
    let mut data = Dataset::default();
    for path in &o.data {
        let file = std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        data.load(std::io::BufReader::new(file), o.limit, o.threads)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if data.is_empty() {
        return Err("no usable position in the data".into());
    }
    let (holdout, mut train): (Vec<u32>, Vec<u32>) =
        (0..data.len() as u32).partition(|&i| is_holdout(data.games[i as usize], 0.1));
    if train.is_empty() {
        return Err("too few positions to train on".into());
    }
    eprintln!(
        "tune: {} positions of {} games ({} train, {} holdout: the positions of one game in ten; {} records read, {} left out: mate scores, dead draws), {:.1} s",
        data.len(),
        data.game_count(),
        train.len(),
        holdout.len(),
        data.read,
        data.skipped,
        start.elapsed().as_secs_f64()
    );
    let initial = values();
    let mut w: Vec<f64> = initial.iter().map(|&v| v as f64).collect();
    let k = match o.k {
        Some(k) => k,
        None => model::fit_k(&data, &train, &w, o.threads),
    };
    let target = Target { k, lambda: o.lambda };
    let holdout_loss = |w: &[f64]| {
        if holdout.is_empty() { f64::NAN } else { model::loss(&data, &holdout, w, target, o.threads) }
    };
    eprintln!(
        "tune: K = {k:.1}, lambda = {}; loss before: train {:.6}, holdout {:.6}",
        o.lambda,
        model::loss(&data, &train, &w, target, o.threads),
        holdout_loss(&w)
    );
    let ties = if o.mirror { Ties::mirrors() } else { Ties::default() };
    if o.epochs > 0 {
        let averaged = ties.average(&mut w);
        if averaged > 0 {
            eprintln!(
                "tune: {averaged} mirrored pairs of square-table entries differed and start at their mean: loss train {:.6}, holdout {:.6}",
                model::loss(&data, &train, &w, target, o.threads),
                holdout_loss(&w)
            );
        }
    }
    let prior = Prior { l2: o.l2, start: initial.iter().map(|&v| v as f64).collect() };
    let mut adam = Adam::new(w.len(), o.lr);
    let mut rng = SplitMix64(o.seed);
    let (lo, hi) = (writer::RANGE.0 as f64, writer::RANGE.1 as f64);
    for epoch in 1..=o.epochs {
        let t = Instant::now();
        for i in (1..train.len()).rev() {
            train.swap(i, rng.below(i + 1));
        }
        let mut total = 0.0;
        for batch in train.chunks(o.batch) {
            let (loss, mut grad) = model::gradient(&data, batch, &w, target, o.threads);
            total += loss * batch.len() as f64;
            prior.add_gradient(&w, &mut grad);
            ties.tie(&mut grad);
            adam.step(&mut w, &grad);
            for x in &mut w {
                *x = x.clamp(lo, hi);
            }
        }
        let penalty =
            if o.l2 > 0.0 { format!(", l2 penalty {:.6}", prior.penalty(&w)) } else { String::new() };
        eprintln!(
            "tune: epoch {epoch}/{}: train {:.6}, holdout {:.6}{penalty} ({:.1} s)",
            o.epochs,
            total / train.len() as f64,
            holdout_loss(&w),
            t.elapsed().as_secs_f64()
        );
    }
    let tuned: Vec<i32> = w.iter().map(|x| x.round() as i32).collect();
    let rounded: Vec<f64> = tuned.iter().map(|&v| v as f64).collect();
    let changed = tuned.iter().zip(&initial).filter(|(a, b)| a != b).count();
    let (text, warnings) = writer::write_params(writer::TEMPLATE, &tuned)?;
    for warning in warnings {
        eprintln!("tune: warning: {warning}");
    }
    std::fs::write(&o.out, text).map_err(|e| format!("cannot write {}: {e}", o.out.display()))?;
    eprintln!(
        "tune: wrote {} ({changed} of {} weights changed); loss after: train {:.6}, holdout {:.6}; {:.1} s in all",
        o.out.display(),
        tuned.len(),
        model::loss(&data, &train, &rounded, target, o.threads),
        holdout_loss(&rounded),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
