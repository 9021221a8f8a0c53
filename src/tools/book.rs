//! `chariot book build` and `chariot book dump`: making an opening book
//! from games ([`crate::book::games`], [`crate::book::build`]) and printing
//! one as text.

use std::collections::{HashSet, VecDeque};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::board::Position;
use crate::book::build::{Builder, Filter};
use crate::book::games::{GameReader, Item};
use crate::book::{self, Book};
use crate::tools::args::{real, whole};

/// Seconds between progress lines.
const PROGRESS_SECS: u64 = 10;
/// Skipped games reported one by one; the rest are counted.
const REPORTED_SKIPS: usize = 5;

/// What `chariot book` was asked to do.
#[derive(Clone, Debug, PartialEq, clap::Subcommand)]
pub enum Command {
    /// Make a book from game files (lines of `startpos`/FEN `moves …`, each
    /// with its result; `-` reads the standard input).
    Build {
        /// The book file written.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Games a move must have been played in.
        #[arg(long, default_value_t = Filter::default().min_count, value_parser = whole::<u32>(1..=u32::MAX as u64))]
        min_count: u32,
        /// Score the move must have made for its side, 0 to 1 (win 1, draw ½).
        #[arg(long, default_value_t = Filter::default().min_score, value_parser = real(0.0..=1.0))]
        min_score: f64,
        /// Plies of each game that are read (from its start).
        #[arg(long, default_value_t = Filter::default().max_ply, value_parser = whole::<usize>(1..=10_000))]
        max_ply: usize,
        /// The game files.
        #[arg(value_name = "INPUT", required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Print a book as text (the built-in one without a file).
    Dump {
        /// The book file.
        file: Option<PathBuf>,
    },
}

/// Runs a parsed command.
pub fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Build { out, min_count, min_score, max_ply, inputs } => {
            build(&out, Filter { max_ply, min_count, min_score }, &inputs)
        }
        Command::Dump { file } => dump(file.as_ref()),
    }
}

fn build(out: &std::path::Path, filter: Filter, inputs: &[PathBuf]) -> Result<(), String> {
    let start = Instant::now();
    let mut last_report = start;
    let mut builder = Builder::new(filter);
    let mut skipped = 0usize;
    for path in inputs {
        let shown = path.display();
        let input: Box<dyn BufRead> = if path.as_os_str() == "-" {
            Box::new(BufReader::new(io::stdin()))
        } else {
            Box::new(BufReader::new(File::open(path).map_err(|e| format!("cannot open {shown}: {e}"))?))
        };
        let mut reader = GameReader::new(input, filter.max_ply);
        while let Some(item) = reader.next_item().map_err(|e| format!("cannot read {shown}: {e}"))? {
            match item {
                Item::Game(g) => builder.add(&g),
                Item::Skipped { line, reason } => {
                    skipped += 1;
                    if skipped <= REPORTED_SKIPS {
                        eprintln!("book: {shown}:{line}: game skipped: {reason}");
                    }
                }
            }
            if last_report.elapsed() >= Duration::from_secs(PROGRESS_SECS) {
                last_report = Instant::now();
                eprintln!(
                    "book: {shown}: {} games so far, {:.0} s",
                    builder.games(),
                    start.elapsed().as_secs_f64()
                );
            }
        }
    }
    if builder.games() == 0 {
        return Err(format!("no game to build a book from ({skipped} skipped)"));
    }
    let (book, s) = builder.finish();
    let bytes = book.to_bytes();
    std::fs::write(out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    eprintln!(
        "book: {} games ({skipped} skipped), {} position-move pairs in their first {} plies; kept {} positions, {} moves \
         (at least {} games, score at least {}); wrote {} ({} bytes) in {:.1} s",
        s.games,
        s.pairs_seen,
        filter.max_ply,
        s.positions,
        s.moves,
        filter.min_count,
        filter.min_score,
        out.display(),
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The positions of `book` reached from the start position, in the order
/// met (breadth first), with the first two fields of their FEN: from each
/// book position by any legal move (the opponent's move need not be in the
/// book), and where that leaves the book, by any reply (the book may pick
/// up a move later: a move left out for scoring too little can still be
/// played by the opponent).
fn reached_from_start(book: &Book) -> Vec<(u64, String)> {
    let in_book = |pos: &Position| !book.moves(pos.key()).is_empty();
    let mut order = Vec::new();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([Position::startpos()]);
    while let Some(pos) = queue.pop_front() {
        if !in_book(&pos) || !seen.insert(pos.key()) {
            continue;
        }
        let fen = pos.fen();
        order.push((pos.key(), fen.split(' ').take(2).collect::<Vec<_>>().join(" ")));
        let mut child = pos.clone();
        for m in pos.legal_moves() {
            child.do_move(m);
            if in_book(&child) {
                queue.push_back(child.clone());
            } else {
                for reply in child.legal_moves() {
                    child.do_move(reply);
                    if in_book(&child) && !seen.contains(&child.key()) {
                        queue.push_back(child.clone());
                    }
                    child.undo_move();
                }
            }
            child.undo_move();
        }
    }
    order
}

fn dump(file: Option<&PathBuf>) -> Result<(), String> {
    let (book, name) = match file {
        None => (book::builtin().map_err(|e| format!("the built-in book: {e}"))?, "the built-in book".into()),
        Some(path) => {
            let shown = path.display().to_string();
            (book::load(&shown).map_err(|e| format!("{shown}: {e}"))?, shown)
        }
    };
    let mut order = reached_from_start(&book);
    let reached = order.len();
    let known: HashSet<u64> = order.iter().map(|(k, _)| *k).collect();
    let mut others: Vec<u64> = book.entries().iter().map(|e| e.key).filter(|k| !known.contains(k)).collect();
    others.dedup();
    order.extend(others.into_iter().map(|k| (k, "?".to_string())));
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let head = "# key | position (placement and side; ? if not reached from the start) | move | weight | share | games | score";
    let mut written = writeln!(out, "{head}");
    for (key, fen) in &order {
        let mut moves = book.moves(*key).to_vec();
        moves.sort_by_key(|e| std::cmp::Reverse(e.weight));
        let total: u64 = moves.iter().map(|e| u64::from(e.weight)).sum();
        for e in moves {
            written = written.and_then(|()| {
                writeln!(
                    out,
                    "{key:016x} | {fen} | {} | {} | {:.1}% | {} | {:.3}",
                    e.mv,
                    e.weight,
                    100.0 * f64::from(e.weight) / total as f64,
                    e.count,
                    f64::from(e.score) / 1000.0
                )
            });
        }
    }
    // A reader that went away (a pipe into `head`) is no error.
    if written.and_then(|()| out.flush()).is_ok() {
        eprintln!(
            "book: {name}: {} bytes, {} positions ({reached} reached from the start position), {} moves",
            book.to_bytes().len(),
            book.positions(),
            book.entries().len()
        );
    }
    Ok(())
}
