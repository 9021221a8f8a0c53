//! `chariot datagen`: self-play games written as training positions.
//!
//! `chariot datagen --out FILE [--games N] [--nodes N] [--depth N]
//! [--threads N] [--seed N] [--first-game N] [--book FILE] [--random-plies N]
//! [--games-out FILE] [--net FILE|default]` plays games ([`game`]) on `--threads` threads,
//! each with its own engine (searching with the classical evaluation, or
//! with a network given by `--net`), and appends their quiet positions to FILE ([`format`](mod@format)), and with
//! `--games-out` the games themselves, one a line ([`Game::line`], what
//! `chariot book build` reads). Game `g` depends only on the
//! seed, `g` and the settings, and games are written in order: the file is
//! the same whatever the number of threads. `--first-game N` plays games
//! N.. of the seed's sequence instead of 0..: shards of one run by game
//! range, on one machine or many, which `chariot datagen --merge --out FILE
//! SHARD…` ([`merge`](mod@merge)) joins into the file one run writes, byte
//! for byte. A run stopped before its last game is resumed by running it
//! again: `FILE.progress` ([`progress`]) says how far it got.
//! `chariot datagen --dump FILE [--limit N]` prints records as
//! `FEN | score | result | best move`.

pub mod book;
pub mod format;
pub mod game;
pub mod merge;
pub mod progress;

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{RecvTimeoutError, unbounded};

use crate::board::Position;
use crate::board::zobrist::SplitMix64;
use crate::eval::nnue::Network;
use crate::rules::Outcome;
use crate::search::SearchLimits;
use crate::tools::args::whole;
use crate::types::fnv1a;
use format::{End, RECORD_SIZE, Reader};
use game::{Game, Player, Settings};
use progress::Progress;

/// Nodes per move when neither `--nodes` nor `--depth` is given.
pub const DEFAULT_NODES: u64 = 5000;
/// Random plies from the start position when there is no book.
pub const DEFAULT_RANDOM_PLIES: usize = 8;
/// Seconds between progress lines.
const PROGRESS_SECS: u64 = 10;

/// What `chariot datagen` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play games and append their positions to a file.
    Generate(Options),
    /// Join shards (data files of one run's game ranges) into one file.
    Merge {
        /// The merged file (must not exist yet).
        out: PathBuf,
        /// The shards' data files, in any order.
        shards: Vec<PathBuf>,
    },
    /// Print the records of a file as text.
    Dump {
        /// The data file.
        file: PathBuf,
        /// Print at most this many records.
        limit: Option<u64>,
    },
}

/// The options of a generating run.
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct Options {
    /// The data file (appended to).
    #[arg(skip)]
    pub out: PathBuf,
    /// Games to play.
    #[arg(long, default_value_t = 100, value_parser = whole::<u64>(1..=u64::MAX))]
    pub games: u64,
    /// Nodes per move, each search's limit drawn within ±25 % of it
    /// (default 5000 when neither --nodes nor --depth is given).
    #[arg(long, value_parser = whole::<u64>(1..=1 << 40))]
    pub nodes: Option<u64>,
    /// Depth per move.
    #[arg(long, value_parser = whole::<u32>(1..=64))]
    pub depth: Option<u32>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = whole::<usize>(1..=256))]
    pub threads: usize,
    /// Seed of the random openings and choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The run plays games N..N+GAMES of the seed's sequence (a shard).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub first_game: u64,
    /// The opening book: one FEN or `startpos`, optionally with `moves`, a line.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Random plies after the opening (default: 8 without a book, 0 with one).
    #[arg(long, value_name = "N", value_parser = whole::<usize>(0..=200))]
    pub random_plies: Option<usize>,
    /// Where the games are appended as text, one a line, if anywhere.
    #[arg(long, value_name = "FILE")]
    pub games_out: Option<PathBuf>,
    /// Search with a network instead of the classical evaluation: a network
    /// file, or `default` for the built-in one.
    #[arg(long, value_name = "FILE|default")]
    pub net: Option<String>,
}

/// The command line of `chariot datagen`: a generating run (`--out`), a
/// merge of shards (`--merge --out`) or a dump of a data file (`--dump`).
#[derive(Clone, Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("mode").args(["out", "dump"]).required(true))]
pub struct Args {
    /// The data file the positions are appended to.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Join the shards SHARD… (runs of one seed and settings with
    /// --first-game) into the new file --out, as one run writes it.
    #[arg(long, requires = "out")]
    merge: bool,
    /// With --merge: the shards' data files.
    #[arg(value_name = "SHARD", requires = "merge")]
    shards: Vec<PathBuf>,
    /// Print the records of a data file as text, one a line.
    #[arg(long, value_name = "FILE")]
    dump: Option<PathBuf>,
    /// With --dump: print at most this many records.
    #[arg(long, requires = "dump")]
    limit: Option<u64>,
    /// The run's options (with --out).
    #[command(flatten)]
    options: Options,
}

impl Args {
    /// What the command line asks for.
    pub fn command(self) -> Command {
        match (self.dump, self.out) {
            (Some(file), _) => Command::Dump { file, limit: self.limit },
            (None, Some(out)) if self.merge => Command::Merge { out, shards: self.shards },
            (None, out) => {
                let mut o = self.options;
                o.out = out.unwrap_or_default();
                if o.nodes.is_none() && o.depth.is_none() {
                    o.nodes = Some(DEFAULT_NODES);
                }
                Command::Generate(o)
            }
        }
    }
}

/// Runs a parsed command.
pub fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Generate(o) => generate(&o),
        Command::Merge { out, shards } => merge::merge(&out, &shards),
        Command::Dump { file, limit } => dump(&file, limit),
    }
}

/// Opens `path` for appending records: writes the header if the file is new
/// or empty, checks it otherwise, and cuts off an incomplete last record
/// (left by a run that was killed). Returns the file and its record count.
fn open_for_append(path: &std::path::Path) -> Result<(File, u64), String> {
    let shown = path.display();
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("cannot open {shown} for writing: {e}"))?;
    let len = file.metadata().map_err(|e| format!("{shown}: {e}"))?.len();
    if len == 0 {
        file.write_all(&format::header()).map_err(|e| format!("cannot write {shown}: {e}"))?;
        return Ok((file, 0));
    }
    let mut head = [0u8; RECORD_SIZE];
    file.seek(SeekFrom::Start(0))
        .and_then(|_| file.read_exact(&mut head))
        .map_err(|_| format!("{shown} is not a chariot datagen file (too short for a header)"))?;
    format::check_header(&head).map_err(|e| format!("{shown}: {e}"))?;
    let size = RECORD_SIZE as u64;
    let tail = len % size;
    if tail != 0 {
        file.set_len(len - tail).map_err(|e| format!("cannot cut {shown}: {e}"))?;
        eprintln!("datagen: {shown}: dropped an incomplete last record ({tail} bytes)");
    }
    Ok((file, len / size - 1))
}

/// Counts of what the games so far produced.
#[derive(Default)]
struct Tally {
    games: u64,
    records: u64,
    searched: u64,
    results: [u64; 3],
    ends: [u64; End::ALL.len()],
}

impl Tally {
    fn add(&mut self, g: &Game) {
        self.games += 1;
        self.records += g.records.len() as u64;
        self.searched += g.searched as u64;
        self.results[match g.result {
            Outcome::RedWins => 0,
            Outcome::Draw => 1,
            Outcome::BlackWins => 2,
        }] += 1;
        self.ends[g.end as usize] += 1;
    }

    /// The progress line; `before` games of the run were played by earlier runs.
    fn line(&self, before: u64, total: u64, secs: f64) -> String {
        let secs = secs.max(1e-3);
        let pct = |n: u64| 100.0 * n as f64 / self.games.max(1) as f64;
        let ends: Vec<String> = End::ALL
            .iter()
            .filter(|e| self.ends[**e as usize] > 0)
            .map(|e| format!("{} {}", e.name(), self.ends[*e as usize]))
            .collect();
        format!(
            "datagen: {}/{total} games, {} positions, {:.0} pos/s, {:.0} moves/s, {:.0} s | red {:.0}% draw {:.0}% black {:.0}% | {}",
            before + self.games,
            self.records,
            self.records as f64 / secs,
            self.searched as f64 / secs,
            secs,
            pct(self.results[0]),
            pct(self.results[1]),
            pct(self.results[2]),
            ends.join(", ")
        )
    }
}

/// The random generator of game `g` of a run seeded with `seed`.
pub fn game_rng(seed: u64, g: u64) -> SplitMix64 {
    let mut mix = SplitMix64(seed ^ g.wrapping_mul(0xD1B5_4A32_D192_ED03));
    SplitMix64(mix.next_u64())
}

fn generate(o: &Options) -> Result<(), String> {
    let (book, book_text): (Vec<Position>, String) = match &o.book {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the book {}: {e}", path.display()))?;
            (book::parse(&text).map_err(|e| format!("book {}: {e}", path.display()))?, text)
        }
        None => (vec![Position::startpos()], String::new()),
    };
    let settings = Settings {
        limits: SearchLimits { nodes: o.nodes, depth: o.depth, ..Default::default() },
        random_plies: o.random_plies.unwrap_or(if o.book.is_some() { 0 } else { DEFAULT_RANDOM_PLIES }),
    };
    let network = match o.net.as_deref() {
        None => None,
        Some(path) => Some(Network::named(path).map_err(|e| format!("--net {path}: {e}"))?),
    };
    let end = o.first_game.checked_add(o.games).ok_or("--first-game plus --games is too large")?;
    let (mut file, existing) = open_for_append(&o.out)?;
    let mut games_file = match &o.games_out {
        Some(path) => Some(
            OpenOptions::new()
                .read(true)
                .append(true)
                .create(true)
                .open(path)
                .map_err(|e| format!("cannot open {} for writing: {e}", path.display()))?,
        ),
        None => None,
    };
    let limits = [
        o.nodes.map(|n| format!("{n} nodes ±{}%", game::NODE_JITTER_PERCENT)),
        o.depth.map(|d| format!("depth {d}")),
    ];
    let limits = limits.into_iter().flatten().collect::<Vec<_>>().join(" and ");
    let evaluation =
        network.as_ref().map_or("classical evaluation".to_string(), |n| format!("network {}", n.name()));
    // Every setting that decides game g besides g itself (and the engine's
    // code), and where the run starts.
    let run = progress::with_first_game(
        &format!(
            "seed {}, {limits}, {}, {} random plies, {evaluation}",
            o.seed,
            match &o.book {
                Some(_) =>
                    format!("book of {} openings (fnv {:016x})", book.len(), fnv1a(book_text.as_bytes())),
                None => "start position".to_string(),
            },
            settings.random_plies,
        ),
        o.first_game,
    );
    let progress_path = progress::path_for(&o.out);
    let shown = o.out.display().to_string();
    let games_out = games_file.as_mut().zip(o.games_out.as_ref().map(|p| p.display().to_string()));
    let first = progress::resume(&progress_path, &run, o.first_game, (&mut file, &shown), games_out)?;
    eprintln!(
        "datagen: {} games{}, {limits} a move, {} thread(s), seed {}, {}, {} random plies, {evaluation}; {}",
        o.games,
        match o.first_game {
            0 => String::new(),
            n => format!(" (games {n}..{end} of the seed)"),
        },
        o.threads,
        o.seed,
        match &o.book {
            Some(path) => format!("book {} ({} openings)", path.display(), book.len()),
            None => "start position".to_string(),
        },
        settings.random_plies,
        match existing {
            0 => format!("writing {shown}"),
            n => format!("appending to {shown} ({n} records)"),
        }
    );
    if first >= end {
        eprintln!(
            "datagen: nothing to do: {shown} holds all {} games of this run (a larger --games plays more)",
            first - o.first_game
        );
        return Ok(());
    }
    let length = |f: &File| f.metadata().map(|m| m.len()).map_err(|e| format!("{shown}: {e}"));
    let mut progress = Progress {
        run,
        games: first,
        bytes: length(&file)?,
        games_out_bytes: games_file.as_ref().map(length).transpose()?,
    };
    let book = Arc::new(book);
    // Book lines are taken in turn, from a place that depends on the seed.
    let book_offset = SplitMix64(o.seed).next_u64() % book.len() as u64;
    let next = Arc::new(AtomicU64::new(first));
    let abort = Arc::new(AtomicBool::new(false));
    let (tx, rx) = unbounded::<Result<(u64, Game), String>>();
    let mut handles = Vec::new();
    for t in 0..o.threads {
        let (book, next, abort, tx, settings, network) = (
            Arc::clone(&book),
            Arc::clone(&next),
            Arc::clone(&abort),
            tx.clone(),
            settings.clone(),
            network.clone(),
        );
        let seed = o.seed;
        let spawned = std::thread::Builder::new().name(format!("datagen-{t}")).spawn(move || {
            let mut player = match Player::new(network) {
                Ok(p) => p,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            while !abort.load(Ordering::Relaxed) {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= end {
                    break;
                }
                let opening = &book[((g + book_offset) % book.len() as u64) as usize];
                let game = player.play(opening, &settings, &mut game_rng(seed, g));
                if tx.send(Ok((g, game))).is_err() {
                    break;
                }
            }
        });
        handles.push(spawned.map_err(|e| format!("cannot start a datagen thread: {e}"))?);
    }
    drop(tx);

    let start = Instant::now();
    let mut last_report = start;
    let mut tally = Tally::default();
    let mut pending: BTreeMap<u64, Game> = BTreeMap::new();
    let mut next_to_write = first;
    let mut failure = None;
    loop {
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok(Ok((g, game))) => {
                pending.insert(g, game);
                while let Some(game) = pending.remove(&next_to_write) {
                    let mut bytes = Vec::with_capacity(game.records.len() * RECORD_SIZE);
                    for r in &game.records {
                        bytes.extend_from_slice(&r.to_bytes());
                    }
                    if let Err(e) = file.write_all(&bytes) {
                        failure = Some(format!("cannot write {}: {e}", o.out.display()));
                        break;
                    }
                    progress.bytes += bytes.len() as u64;
                    if let (Some(f), Some(path)) = (games_file.as_mut(), &o.games_out) {
                        let line = format!("{}\n", game.line());
                        if let Err(e) = f.write_all(line.as_bytes()) {
                            failure = Some(format!("cannot write {}: {e}", path.display()));
                            break;
                        }
                        progress.games_out_bytes = progress.games_out_bytes.map(|n| n + line.len() as u64);
                    }
                    tally.add(&game);
                    next_to_write += 1;
                    progress.games = next_to_write;
                    if let Err(e) = progress.write(&progress_path) {
                        failure = Some(e);
                        break;
                    }
                }
            }
            Ok(Err(e)) => failure = Some(e),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        if failure.is_some() {
            abort.store(true, Ordering::Relaxed);
            break;
        }
        if last_report.elapsed() >= Duration::from_secs(PROGRESS_SECS) {
            last_report = Instant::now();
            eprintln!("{}", tally.line(first - o.first_game, o.games, start.elapsed().as_secs_f64()));
        }
    }
    drop(rx);
    for h in handles {
        let _ = h.join();
    }
    eprintln!("{}", tally.line(first - o.first_game, o.games, start.elapsed().as_secs_f64()));
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn dump(path: &std::path::Path, limit: Option<u64>) -> Result<(), String> {
    let shown = path.display();
    let file = File::open(path).map_err(|e| format!("cannot open {shown}: {e}"))?;
    let mut reader = Reader::new(BufReader::new(file));
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    while limit.is_none_or(|n| reader.records_read() < n) {
        let Some(r) = reader.next_record().map_err(|e| format!("{shown}: {e}"))? else {
            if reader.partial_tail() > 0 {
                eprintln!("{shown}: an incomplete last record ({} bytes) ignored", reader.partial_tail());
            }
            break;
        };
        let n = reader.records_read();
        let fen = r.position().map_err(|e| format!("{shown}: record {n}: impossible position: {e}"))?.fen();
        let written = writeln!(out, "{fen} | {} | {} | {}", r.score, r.result, r.best);
        if written.is_err() {
            // The reader went away (a pipe into `head`): nothing more to say.
            return Ok(());
        }
    }
    let _ = out.flush();
    Ok(())
}
