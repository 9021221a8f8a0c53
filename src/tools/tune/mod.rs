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
use crate::tools::args::{cores, real, whole};
use crate::tools::learn::is_holdout;
use dataset::Dataset;
use model::{Adam, Prior, Target, Ties};

/// The options of `chariot tune`.
#[derive(Clone, Debug, PartialEq, clap::Args)]
pub struct Options {
    /// Where the new `params.rs` goes.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Data files (`chariot datagen`), read one after the other.
    #[arg(value_name = "DATA", required = true)]
    pub data: Vec<PathBuf>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30, value_parser = whole::<usize>(0..=1_000_000))]
    pub epochs: usize,
    /// Adam's learning rate (about a weight's largest step, in centipawns).
    #[arg(long, default_value_t = 0.5, value_parser = real(0.0..=1000.0))]
    pub lr: f64,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16384, value_parser = whole::<usize>(1..=1 << 30))]
    pub batch: usize,
    /// Weight of the game result in the target (the search score has the rest).
    #[arg(long, default_value_t = 0.5, value_parser = real(0.0..=1.0))]
    pub lambda: f64,
    /// The sigmoid's scale (fitted to the data when not given).
    #[arg(long, value_parser = real(1.0..=100_000.0))]
    pub k: Option<f64>,
    /// Strength of the pull toward the starting values (0: none).
    #[arg(long, default_value_t = 0.0, value_parser = real(0.0..=1e9))]
    pub l2: f64,
    /// Read at most this many records.
    #[arg(long, default_value_t = u64::MAX, hide_default_value = true,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,
    /// Threads for loading and for the gradient (default: the number of cores).
    #[arg(long, default_value_t = cores(), value_parser = whole::<usize>(1..=256))]
    pub threads: usize,
    /// Seed of the mini-batch shuffle.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Fit each square-table entry and its left-right mirror as one
    /// parameter (`--no-mirror`: fit them apart).
    #[arg(long = "no-mirror", action = clap::ArgAction::SetFalse)]
    pub mirror: bool,
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
