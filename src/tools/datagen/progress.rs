//! The progress file beside a data file (`FILE.progress`): which run last
//! wrote FILE, how many of its games FILE holds, and where FILE (and the
//! games file) ended after the last of them. A run with the same seed and
//! settings goes on from there instead of playing its games again, so a
//! generator stopped by Ctrl-C, a kill or the end of a session is resumed by
//! running the same command, and the file is then byte for byte the one an
//! uninterrupted run writes.
//!
//! The file is text, one `key value` line each:
//!
//! ```text
//! run seed 9001, 5000 nodes ±25%, book 1200 openings (fnv 5d1c…), 0 random plies, network nn-980b40a4d412
//! games 1234
//! bytes 7342040
//! games-out-bytes 0
//! ```
//!
//! `games-out-bytes` is absent when the run wrote no games file. A run
//! started with `--first-game N` (N > 0) has `, first game N` at the end of
//! its `run` line, and its `games` count is where it ends in the seed's
//! sequence: the file holds games N..`games`.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::format::{MAGIC, RECORD_SIZE};

/// What the last run wrote to a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The run: its seed and every setting that decides its games.
    pub run: String,
    /// Games `first`..`games` of the run are in the file, `first` being its
    /// first game ([`split_first_game`]).
    pub games: u64,
    /// The data file's length after the last of them.
    pub bytes: u64,
    /// The games file's length after the last of them, if there was one.
    pub games_out_bytes: Option<u64>,
}

/// The progress file of the data file `out`.
pub fn path_for(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

impl Progress {
    /// Reads a progress file: `Ok(None)` if there is none.
    pub fn read(path: &Path) -> Result<Option<Progress>, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let bad = || format!("{} is not a datagen progress file (remove it to start over)", path.display());
        let mut run = None;
        let (mut games, mut bytes, mut games_out_bytes) = (None, None, None);
        for line in text.lines() {
            let (key, value) = line.split_once(' ').ok_or_else(bad)?;
            let number = || value.parse::<u64>().map_err(|_| bad());
            match key {
                "run" => run = Some(value.to_string()),
                "games" => games = Some(number()?),
                "bytes" => bytes = Some(number()?),
                "games-out-bytes" => games_out_bytes = Some(number()?),
                _ => return Err(bad()),
            }
        }
        match (run, games, bytes) {
            (Some(run), Some(games), Some(bytes)) => {
                Ok(Some(Progress { run, games, bytes, games_out_bytes }))
            }
            _ => Err(bad()),
        }
    }

    /// Writes the progress file whole or not at all (a new file renamed over the old).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let mut text = format!("run {}\ngames {}\nbytes {}\n", self.run, self.games, self.bytes);
        if let Some(n) = self.games_out_bytes {
            text.push_str(&format!("games-out-bytes {n}\n"));
        }
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        std::fs::write(&tmp, text)
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

const FIRST_GAME: &str = ", first game ";

/// The `run` line of a run whose settings are `settings` starting at game
/// `first`: `settings` itself when `first` is 0.
pub fn with_first_game(settings: &str, first: u64) -> String {
    match first {
        0 => settings.to_string(),
        n => format!("{settings}{FIRST_GAME}{n}"),
    }
}

/// A `run` line split into its settings and its first game (the inverse of
/// [`with_first_game`]).
pub fn split_first_game(run: &str) -> (&str, u64) {
    match run.rsplit_once(FIRST_GAME) {
        Some((settings, n)) => match n.parse::<u64>() {
            Ok(n) if n > 0 => (settings, n),
            _ => (run, 0),
        },
        None => (run, 0),
    }
}

/// The game a run resumes at: the count of the progress file at `path` if
/// it was written by the same `run` (the data file and the games file, each
/// with the name to show, are then cut back to where its last game ended),
/// else `first`, the run's first game (a new run appends from there).
pub fn resume(
    path: &Path,
    run: &str,
    first: u64,
    data: (&mut File, &str),
    games: Option<(&mut File, String)>,
) -> Result<u64, String> {
    match Progress::read(path)? {
        Some(p) if p.run == run => {
            let cut = cut_back(data.0, p.bytes, data.1, foreign_records)?;
            if let (Some((file, shown)), Some(keep)) = (games, p.games_out_bytes) {
                cut_back(file, keep, &shown, foreign_lines)?;
            }
            let unfinished = match cut {
                0 => String::new(),
                n => format!(" (cut off {} records of the game it was writing)", n / RECORD_SIZE as u64),
            };
            eprintln!(
                "datagen: resuming: {} holds games {first}..{} of this run{unfinished}",
                data.1, p.games
            );
            Ok(p.games)
        }
        Some(p) => {
            eprintln!(
                "datagen: {} was for another run ({}); this one starts at game {first}",
                path.display(),
                p.run
            );
            Ok(first)
        }
        None => Ok(first),
    }
}

/// What follows the last counted game in a data file is foreign (not the
/// game a stopped run was writing) if it holds a header: another data file
/// was appended.
fn foreign_records(beyond: &[u8]) -> bool {
    beyond.chunks(RECORD_SIZE).any(|r| r.starts_with(&MAGIC))
}

/// What follows the last counted game in a games file is foreign if it is
/// more than the one line a stopped run can have written.
fn foreign_lines(beyond: &[u8]) -> bool {
    beyond.iter().filter(|&&b| b == b'\n').count() > 1
}

/// Cuts `file` back to `keep` bytes, the end of the last game a progress
/// file counts: what lies beyond is the game the run was writing when it
/// stopped. Refuses when the file is shorter (cut or replaced since) or when
/// what lies beyond is `foreign` (something appended to it since): resuming
/// would then lose or repeat data. Returns how many bytes it cut.
fn cut_back(file: &mut File, keep: u64, shown: &str, foreign: fn(&[u8]) -> bool) -> Result<u64, String> {
    let len = file.metadata().map_err(|e| format!("{shown}: {e}"))?.len();
    let start_over = "move its .progress file away to start this seed from game 0, or use another --out";
    if len < keep {
        return Err(format!(
            "{shown} is shorter ({len} bytes) than its progress file says ({keep} bytes): {start_over}"
        ));
    }
    if len == keep {
        return Ok(0);
    }
    // One game is a few kilobytes (a record per ply at most, a line of moves):
    // more than this is foreign without reading it.
    const MAX_UNFINISHED: u64 = 1 << 20;
    let not_ours = len - keep > MAX_UNFINISHED || {
        let mut beyond = Vec::new();
        read_from(file, keep, &mut beyond).map_err(|e| format!("cannot read {shown}: {e}"))?;
        foreign(&beyond)
    };
    if not_ours {
        return Err(format!(
            "{shown} has more after this run's last game than one unfinished game: {start_over}"
        ));
    }
    file.set_len(keep).map_err(|e| format!("cannot cut {shown}: {e}"))?;
    Ok(len - keep)
}

fn read_from(file: &mut File, offset: u64, out: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::{Seek, SeekFrom};
    file.seek(SeekFrom::Start(offset))?;
    file.read_to_end(out).map(|_| ())
}
