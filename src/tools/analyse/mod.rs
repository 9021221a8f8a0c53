//! `chariot analyse`: game files in, annotated games out. Every position of
//! every game is searched once (the game's history given, so the arbiter and
//! repetitions count as in play); each move gets its scores, the engine's
//! move where it differs, its loss in expected score and a mark; each side
//! its figures; each game its turning points. Several games are reviewed at
//! once over the threads. Output as annotated PGN, JSON lines or one HTML
//! page (see [`pgn`], [`json`], [`html`]); progress on stderr.

pub mod html;
pub mod json;
pub mod marks;
pub mod pgn;
pub mod review;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::eval::nnue::Network;
use crate::gamefile::{self, Game};
use crate::notation::Notation;
use crate::rules::Rules;
use crate::search::SearchLimits;
use crate::tools::analyst::Analyst;
use crate::tools::args::{self, Eval, RuleArgs, whole};
use crate::types::Color;
use review::{GameReview, Settings};

/// The output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Annotated PGN: marks as NAGs, scores and lines as comments.
    Pgn,
    /// JSON lines: one object a move, one a game.
    Json,
    /// One self-contained HTML page with graphs and boards.
    Html,
}

/// The sides `--side` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    /// Red's moves.
    Red,
    /// Black's moves.
    Black,
}

/// The command line of `chariot analyse`.
#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("limit").args(["movetime", "depth", "nodes"]))]
pub struct Args {
    /// Milliseconds of search per position (the default: 500).
    #[arg(long, value_name = "MS", value_parser = whole::<u64>(1..=86_400_000))]
    movetime: Option<u64>,
    /// Depth of search per position.
    #[arg(long, value_parser = whole::<u32>(1..=64))]
    depth: Option<u32>,
    /// Nodes of search per position.
    #[arg(long, value_parser = whole::<u64>(1..=1 << 40))]
    nodes: Option<u64>,
    /// Search threads in all; several games are reviewed at once when there
    /// are several.
    #[arg(long, default_value_t = 1, value_parser = whole::<usize>(1..=256))]
    threads: usize,
    /// Transposition table in MB, shared out among the games reviewed at once.
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = whole::<usize>(1..=65_536))]
    hash: usize,
    #[command(flatten)]
    rules: RuleArgs,
    /// The notation of the moves written: zh (炮二平五), wxf (C2=5), iccs (h2-e2), uci (h2e2).
    #[arg(long, default_value = "zh", value_parser = args::notation)]
    notation: Notation,
    /// The first ply reviewed (0: the first move).
    #[arg(long, value_name = "PLY", default_value_t = 0, value_parser = whole::<usize>(0..=100_000))]
    from: usize,
    /// Mark only this side's moves.
    #[arg(long, value_enum)]
    side: Option<Side>,
    /// The file written (default: standard output).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The output format (default: from --out's extension, else pgn).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// The evaluation.
    #[arg(long, value_enum, default_value_t = Eval::Nnue)]
    eval: Eval,
    /// Only the N-th game of the input (counting over all files from 1);
    /// may be given more than once.
    #[arg(long = "game", value_name = "N", value_parser = whole::<usize>(1..=10_000_000))]
    games: Vec<usize>,
    /// Game files: PGN (moves in coordinates, ICCS, WXF or Chinese), XQF,
    /// or move lists (`startpos moves …`, a FEN with `moves`), UTF-8 or GBK.
    #[arg(value_name = "GAMEFILE", required = true)]
    files: Vec<PathBuf>,
}

/// The search time per position when no limit is given.
pub const DEFAULT_MOVETIME_MS: u64 = 500;

/// Runs `chariot analyse`.
pub fn run(a: Args) -> Result<(), String> {
    let format = a.format.unwrap_or_else(|| format_of(a.out.as_deref()));
    let games = read_games(&a.files, &a.games)?;
    let limits = SearchLimits {
        movetime: a.movetime.or((a.depth.is_none() && a.nodes.is_none()).then_some(DEFAULT_MOVETIME_MS)),
        depth: a.depth,
        nodes: a.nodes,
        ..SearchLimits::default()
    };
    let settings = Settings {
        limits,
        rules: Rules { set: a.rules.rules, ..Rules::DEFAULT },
        notation: a.notation,
        from_ply: a.from,
        side: a.side.map(|s| if s == Side::Red { Color::Red } else { Color::Black }),
    };
    let about = describe(&a, &settings);
    let reviews = review_all(&games, &settings, a.threads, a.hash, a.eval == Eval::Classical)?;
    let text = match format {
        Format::Pgn => pgn::write(&reviews, &about),
        Format::Json => json::write(&reviews),
        Format::Html => html::write(&reviews, &about),
    };
    match &a.out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| format!("cannot write: {e}")),
    }
}

/// The format a file name asks for: `.json`/`.jsonl`, `.html`/`.htm`, else PGN.
fn format_of(out: Option<&Path>) -> Format {
    let ext = out.and_then(|p| p.extension()).and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "json" | "jsonl" | "ndjson" => Format::Json,
        "html" | "htm" => Format::Html,
        _ => Format::Pgn,
    }
}

/// The games of `files`, in order (only the `chosen` ones, counting from 1
/// over all files, if any are); a game that cannot be read is reported on
/// stderr and left out; no game at all is an error.
fn read_games(files: &[PathBuf], chosen: &[usize]) -> Result<Vec<(usize, Game)>, String> {
    let mut games = Vec::new();
    let (mut skipped, mut index) = (0, 0);
    for path in files {
        let results = gamefile::read_file(path).map_err(|e| e.to_string())?;
        for r in results {
            index += 1;
            if !chosen.is_empty() && !chosen.contains(&index) {
                continue;
            }
            match r {
                Ok(g) => games.push((index, g)),
                Err(e) => {
                    skipped += 1;
                    eprintln!("analyse: skipped {e}");
                }
            }
        }
    }
    if games.is_empty() {
        return Err(format!("no game to analyse ({skipped} skipped)"));
    }
    Ok(games)
}

/// "chariot 0.1.0 (network nn-…), movetime 500 ms per position, asian rules".
fn describe(a: &Args, s: &Settings) -> String {
    let limit = match (s.limits.movetime, s.limits.depth, s.limits.nodes) {
        (Some(ms), ..) => format!("movetime {ms} ms"),
        (_, Some(d), _) => format!("depth {d}"),
        (_, _, Some(n)) => format!("{n} nodes"),
        _ => String::new(),
    };
    let eval = match a.eval {
        Eval::Nnue => format!("network {}", Network::embedded().name()),
        Eval::Classical => "classical evaluation".to_string(),
    };
    format!(
        "chariot {} ({eval}), {limit} per position, {} thread(s), {} rules",
        env!("CARGO_PKG_VERSION"),
        a.threads,
        a.rules.rules
    )
}

/// Reviews `games` (each with its number in the input) over `threads` threads: several games at once, each
/// reviewer with its share of the threads and the table.
pub fn review_all(
    games: &[(usize, Game)],
    settings: &Settings,
    threads: usize,
    hash_mb: usize,
    classical: bool,
) -> Result<Vec<GameReview>, String> {
    let reviewers = threads.min(games.len()).max(1);
    let total: usize = games.iter().map(|(_, g)| review::searches(g, settings)).sum();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let games_done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameReview>>> = Mutex::new(vec![None; games.len()]);
    let mut analysts = Vec::with_capacity(reviewers);
    for r in 0..reviewers {
        let mine = threads / reviewers + usize::from(r < threads % reviewers);
        analysts.push(Analyst::new(mine, (hash_mb / reviewers).max(1), settings.rules, classical)?);
    }
    let start = Instant::now();
    std::thread::scope(|scope| {
        for mut analyst in analysts {
            let (next, done, games_done, results) = (&next, &done, &games_done, &results);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((number, game)) = games.get(i) else { break };
                    // Clearing a table that exists writes over it in place: it cannot fail.
                    let _ = analyst.new_game();
                    let r = review::review(&mut analyst, *number, game, settings, || {
                        done.fetch_add(1, Ordering::Relaxed);
                    });
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                    // Release: the game's searches counted in `done` are seen with it.
                    games_done.fetch_add(1, Ordering::Release);
                }
            });
        }
        scope.spawn(|| progress(start, total, games.len(), &done, &games_done));
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(results.into_iter().flatten().collect())
}

/// Prints the progress on stderr: over one line on a terminal, a line every
/// ten seconds otherwise, and a last line at the end.
fn progress(start: Instant, total: usize, games: usize, done: &AtomicUsize, games_done: &AtomicUsize) {
    let tty = std::io::stderr().is_terminal();
    let every = if tty { Duration::from_millis(500) } else { Duration::from_secs(10) };
    let mut last = Instant::now();
    loop {
        // Every game reviewed: the last line, then the reporter stops.
        let end = games_done.load(Ordering::Acquire) == games;
        if end || last.elapsed() >= every {
            last = Instant::now();
            let (n, g) = (done.load(Ordering::Relaxed), games_done.load(Ordering::Relaxed));
            let secs = start.elapsed().as_secs_f64();
            let rate = n as f64 / secs.max(1e-3);
            let left = if n > 0 { ((total - n.min(total)) as f64 / rate) as u64 } else { 0 };
            let line = format!(
                "analyse: {n}/{total} positions, {rate:.1}/s, {g}/{games} games, {} {}",
                clock(if end { secs as u64 } else { left }),
                if end { "in all" } else { "left" }
            );
            let mut err = std::io::stderr().lock();
            let _ = if tty { write!(err, "\r{line}\x1b[K") } else { writeln!(err, "{line}") };
            if end {
                if tty {
                    let _ = writeln!(err);
                }
                return;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// "1h02m", "3m07s", "42s".
fn clock(secs: u64) -> String {
    match secs {
        s if s >= 3600 => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
        s if s >= 60 => format!("{}m{:02}s", s / 60, s % 60),
        s => format!("{s}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_follow_the_file_name() {
        assert_eq!(format_of(Some(Path::new("a.html"))), Format::Html);
        assert_eq!(format_of(Some(Path::new("a.JSONL"))), Format::Json);
        assert_eq!(format_of(Some(Path::new("a.pgn"))), Format::Pgn);
        assert_eq!(format_of(None), Format::Pgn);
    }

    #[test]
    fn clocks_read_as_people_write_them() {
        assert_eq!(clock(42), "42s");
        assert_eq!(clock(187), "3m07s");
        assert_eq!(clock(3720), "1h02m");
    }
}
