//! The engine's own opening book: [`format`](mod@format) (the file), [`games`]
//! (reading games to make one from), [`build`] (counting and filtering
//! their moves), [`probe`] (choosing a move), and here the engine's book
//! settings ([`OwnBook`]: the `OwnBook`, `BookFile` and `BookVariety`
//! options) and the built-in book.
//!
//! The built-in book (`books/default.book`, embedded in the binary) was
//! made from Chariot's own self-play games from the start position by
//! `make book` (see `docs/book.md` for the command and its figures).

pub mod build;
pub mod format;
pub mod games;
pub mod probe;

use std::io::Read;

pub use format::{Book, BookError, Entry};
use probe::Candidate;

use crate::board::Position;
use crate::board::zobrist::SplitMix64;
use crate::rules::Rules;
use crate::types::Move;

/// The built-in book's bytes.
pub static BUILTIN: &[u8] = include_bytes!("../../books/default.book");

/// The default `BookVariety`: chances follow the weights.
pub const DEFAULT_VARIETY: u32 = 50;

/// The built-in book, read and checked.
pub fn builtin() -> Result<Book, BookError> {
    Book::from_bytes(BUILTIN)
}

/// Reads and checks the book file at `path`. The header is checked first,
/// and no more is read than it announces (plus one byte, to tell a file
/// that is too long): a huge or endless file is refused unread.
pub fn load(path: &str) -> Result<Book, String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("cannot open it: {e}"))?;
    let mut bytes = Vec::new();
    let read = |file: &mut std::fs::File, bytes: &mut Vec<u8>, n: u64| {
        file.take(n).read_to_end(bytes).map_err(|e| format!("cannot read it: {e}"))
    };
    read(&mut file, &mut bytes, format::HEADER_SIZE as u64)?;
    if let Some(header) = bytes.first_chunk::<{ format::HEADER_SIZE }>() {
        let entries = format::entry_count(header).map_err(|e| e.to_string())?;
        read(&mut file, &mut bytes, entries as u64 * format::ENTRY_SIZE as u64 + 1)?;
    }
    Book::from_bytes(&bytes).map_err(|e| e.to_string())
}

/// True for the `BookFile` values that mean the built-in book.
pub fn is_builtin_name(name: &str) -> bool {
    matches!(name.trim(), "" | "<default>" | "<empty>" | "default")
}

/// A book move chosen for a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// The chosen move, with its entry and chance.
    pub chosen: Candidate,
    /// How many book moves it was chosen from.
    pub among: usize,
}

impl Choice {
    /// The move.
    pub fn mv(&self) -> Move {
        self.chosen.entry.mv
    }

    /// One line for the user: `book move h2e2 (41% of 3 book moves; 640 games, scored 52%)`.
    pub fn describe(&self) -> String {
        let e = self.chosen.entry;
        format!(
            "book move {} ({:.0}% of {} book move{}; {} game{}, scored {:.0}%)",
            e.mv,
            100.0 * self.chosen.chance,
            self.among,
            if self.among == 1 { "" } else { "s" },
            e.count,
            if e.count == 1 { "" } else { "s" },
            f64::from(e.score) / 10.0
        )
    }
}

/// The engine's book settings and the book in use. Off by default; the
/// built-in book is read when first wanted.
pub struct OwnBook {
    enabled: bool,
    variety: u32,
    /// The book in use and its name (`None`: not read yet).
    book: Option<(Book, String)>,
    rng: SplitMix64,
}

impl Default for OwnBook {
    fn default() -> OwnBook {
        OwnBook::new()
    }
}

impl OwnBook {
    /// Off, variety [`DEFAULT_VARIETY`], the built-in book, a random
    /// generator seeded from the clock (each session chooses differently).
    pub fn new() -> OwnBook {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let seed = nanos ^ (u64::from(std::process::id()) << 32);
        OwnBook { enabled: false, variety: DEFAULT_VARIETY, book: None, rng: SplitMix64(seed) }
    }

    /// `OwnBook`: turns the book on or off.
    pub fn set_enabled(&mut self, on: bool) -> Result<(), String> {
        self.enabled = on;
        if on && self.book.is_none() {
            self.book = Some((builtin().map_err(|e| format!("the built-in book: {e}"))?, "<default>".into()));
        }
        Ok(())
    }

    /// True if the book is on.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// `BookVariety`, 0 to [`probe::MAX_VARIETY`] (clamped).
    pub fn set_variety(&mut self, variety: u32) {
        self.variety = variety.min(probe::MAX_VARIETY);
    }

    /// `BookFile`: reads the book at `path` now (the built-in book for an
    /// empty name or `<default>`). If it cannot be read or is damaged, the
    /// book in use stays and the error says which it is.
    pub fn set_file(&mut self, path: &str) -> Result<(), String> {
        let path = path.trim();
        let loaded = if is_builtin_name(path) {
            builtin().map(|b| (b, "<default>".to_string())).map_err(|e| format!("the built-in book: {e}"))
        } else {
            load(path)
                .map(|b| (b, path.to_string()))
                .map_err(|e| format!("book file '{}': {e}", path.escape_debug()))
        };
        match loaded {
            Ok(book) => {
                self.book = Some(book);
                Ok(())
            }
            Err(e) => {
                let kept = match &self.book {
                    Some((_, name)) if is_builtin_name(name) => "the built-in book".to_string(),
                    Some((_, name)) => format!("'{}'", name.escape_debug()),
                    None => "the built-in book".to_string(),
                };
                Err(format!("{e}; keeping {kept}"))
            }
        }
    }

    /// The book moves that may be played in `pos` (see [`probe::candidates`])
    /// with their chances; empty when the book is off.
    pub fn candidates(&self, pos: &mut Position, rules: Rules, allowed: &[Move]) -> Vec<Candidate> {
        match (&self.book, self.enabled) {
            (Some((book, _)), true) => probe::candidates(book, pos, rules, allowed, self.variety),
            _ => Vec::new(),
        }
    }

    /// A book move for `pos` among `allowed`, at random by the chances;
    /// `None` when the book is off or has no playable move here.
    pub fn choose(&mut self, pos: &mut Position, rules: Rules, allowed: &[Move]) -> Option<Choice> {
        let candidates = self.candidates(pos, rules, allowed);
        let chosen = probe::pick(&candidates, &mut self.rng)?;
        Some(Choice { chosen, among: candidates.len() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_book_reads_and_bad_files_keep_the_book_in_use() {
        let book = builtin().unwrap();
        let mut own = OwnBook::new();
        let mut pos = Position::startpos();
        let all = pos.legal_moves().to_vec();
        assert!(own.choose(&mut pos, Rules::DEFAULT, &all).is_none(), "off by default");
        own.set_enabled(true).unwrap();
        assert!(book.positions() > 100, "{} positions", book.positions());
        let choice = own.choose(&mut pos, Rules::DEFAULT, &all).expect("the start position is in the book");
        assert!(all.contains(&choice.mv()));
        let err = own.set_file("/nonexistent/x.book").unwrap_err();
        assert!(err.starts_with("book file '/nonexistent/x.book': cannot open it: "), "{err}");
        assert!(err.ends_with("; keeping the built-in book"), "{err}");
        assert!(own.set_file("<default>").is_ok());
        assert!(is_builtin_name(" ") && is_builtin_name("<empty>") && !is_builtin_name("a.book"));
    }
}
