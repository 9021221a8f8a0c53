//! Game files in: PGN ([`pgn`]), XQStudio's XQF ([`xqf`]) and plain move
//! lists ([`movelist`]), told apart by their content (and the file name's
//! extension where the content does not say); text in UTF-8 (with or
//! without a byte-order mark), UTF-16 with a mark, or GBK/GB18030, detected
//! ([`text`]).
//!
//! [`read_file`] and [`read_bytes`] give one result per game: a game that
//! cannot be read (a bad FEN, an illegal or unreadable move) is an error
//! naming the game and the move, and the file's other games are still read.
//! Only a file that cannot be read at all, or is no game file, fails whole.

pub mod movelist;
pub mod pgn;
pub mod text;
pub mod xqf;

use std::fmt;
use std::path::Path;

use crate::board::Position;
use crate::notation::{self, Notation};
use crate::types::{Color, Move};

/// One game read from a file: its tags, start position, main line and result.
#[derive(Clone, Debug)]
pub struct Game {
    /// The tags in file order (PGN's `[Name "Value"]`; for XQF and move
    /// lists the same names: `Event`, `Red`, `Black`, `Date`, `Site`,
    /// `Result`, `FEN`, …).
    pub tags: Vec<(String, String)>,
    /// The position the moves start from (no history).
    pub start: Position,
    /// The main line's moves, each legal in turn.
    pub moves: Vec<Move>,
    /// `1-0`, `0-1` or `1/2-1/2`; `None` when unknown or unfinished (`*`).
    pub result: Option<String>,
}

impl Game {
    /// The value of the first tag called `name` (any case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_in(&self.tags, name)
    }

    /// The moves in `notation`, each written in the position before it.
    pub fn move_texts(&self, notation: Notation) -> Vec<String> {
        notation::write_line(&self.start, &self.moves, notation)
    }
}

fn tag_in<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

/// Why a file, or one game of it, could not be read.
#[derive(Clone, Debug)]
pub struct GameError {
    /// The file (the name given to [`read_bytes`], or the path).
    pub file: String,
    /// Which game (1-based) when the error is one game's, with the tags
    /// that name it (`Red`, `Black`, `Event`, where present).
    pub game: Option<(usize, Vec<(String, String)>)>,
    /// The move that failed: its ply (1-based from the start position), the
    /// move number and side as a person counts them, and its text.
    pub at_move: Option<Box<MoveAt>>,
    /// What went wrong.
    pub reason: String,
    /// The game up to the move that failed, when the start position was read.
    pub partial: Option<Box<Game>>,
}

/// Where in a game a move failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAt {
    /// The ply, 1-based, from the start position.
    pub ply: usize,
    /// The move number (full moves, as the FEN counts them).
    pub number: u32,
    /// The side that was to make the move.
    pub side: Color,
    /// The move's text as it stands in the file.
    pub text: String,
}

impl GameError {
    /// An error of the whole file.
    pub fn file(file: &str, reason: impl Into<String>) -> GameError {
        GameError { file: file.to_string(), game: None, at_move: None, reason: reason.into(), partial: None }
    }

    /// An error of game `index` as a whole (not of one of its moves).
    pub fn game(file: &str, index: usize, tags: &[(String, String)], reason: impl Into<String>) -> GameError {
        GameError { game: Some((index, tags.to_vec())), ..GameError::file(file, reason) }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some((index, tags)) = &self.game {
            write!(f, ", game {index}")?;
            let names: Vec<String> = ["Red", "Black", "Event"]
                .iter()
                .filter_map(|&k| {
                    tag_in(tags, k).filter(|v| !v.trim().is_empty()).map(|v| format!("{k}: {v}"))
                })
                .collect();
            if !names.is_empty() {
                write!(f, " ({})", names.join(", "))?;
            }
        }
        if let Some(m) = &self.at_move {
            let dots = if m.side == Color::Red { "." } else { "..." };
            write!(f, ", move {}{dots} '{}' (ply {})", m.number, m.text.escape_debug(), m.ply)?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for GameError {}

/// The games of the file at `path` (see the module comment).
pub fn read_file(path: &Path) -> Result<Vec<Result<Game, GameError>>, GameError> {
    let name = path.display().to_string();
    let bytes =
        std::fs::read(path).map_err(|e| GameError::file(&name, format!("cannot read the file: {e}")))?;
    read_bytes(&bytes, &name)
}

/// The games in `bytes`; `name_hint` (a file name) names the file in errors
/// and, by its extension, chooses the format when the content does not.
pub fn read_bytes(bytes: &[u8], name_hint: &str) -> Result<Vec<Result<Game, GameError>>, GameError> {
    let ext = Path::new(name_hint).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    if bytes.starts_with(b"XQ") || ext == "xqf" {
        return xqf::read(bytes, name_hint).map(|g| vec![g]);
    }
    if matches!(ext.as_str(), "cbl" | "cbr" | "cbf") {
        return Err(GameError::file(name_hint, "CBL/CBR/CBF files (ChessBase xiangqi, 象棋桥) are not read"));
    }
    let text = text::decode(bytes);
    if text.chars().take(4096).filter(|&c| c == '\u{FFFD}' || (c < ' ' && !c.is_whitespace())).count() > 16 {
        return Err(GameError::file(name_hint, "binary data, not a game file (PGN, XQF or a move list)"));
    }
    if ext == "pgn" || pgn::looks_like_pgn(&text) {
        Ok(pgn::read(&text, name_hint))
    } else {
        Ok(movelist::read(&text, name_hint))
    }
}

/// Plays `texts` (moves in any notation) from `start`: the moves, or the
/// error naming the move that failed (with the game up to it). Coordinates
/// with ranks 1–10 (`h3e3`, as Fairy-Stockfish writes them) are read when
/// `ranks_from_one`.
pub(crate) fn play(
    file: &str,
    game: (usize, &[(String, String)]),
    start: &Position,
    texts: &[String],
    ranks_from_one: bool,
) -> Result<Vec<Move>, GameError> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let parsed = if ranks_from_one {
            match shift_ranks(text) {
                Some(t) => notation::parse_as(&pos, &t, Notation::Coordinate),
                None => notation::parse(&pos, text),
            }
        } else {
            notation::parse(&pos, text)
        };
        match parsed {
            Ok(m) => {
                moves.push(m);
                pos.do_move(m);
            }
            Err(e) => {
                return Err(GameError {
                    at_move: Some(Box::new(MoveAt {
                        ply: i + 1,
                        number: pos.fullmove(),
                        side: pos.side_to_move(),
                        text: text.clone(),
                    })),
                    partial: Some(Box::new(Game {
                        tags: game.1.to_vec(),
                        start: start.clone(),
                        moves,
                        result: None,
                    })),
                    ..GameError::game(file, game.0, game.1, e.to_string())
                });
            }
        }
    }
    Ok(moves)
}

/// A coordinate move with ranks 1–10 (`h3e3`, `e10e9`) in ranks 0–9, or `None`.
fn shift_ranks(text: &str) -> Option<String> {
    let t = text.trim_end_matches(['+', '#', '!', '?']).to_ascii_lowercase();
    let b = t.as_bytes();
    let square = |i: usize| -> Option<(char, u8, usize)> {
        let f = *b.get(i)?;
        if !(b'a'..=b'i').contains(&f) {
            return None;
        }
        match (b.get(i + 1), b.get(i + 2)) {
            (Some(b'1'), Some(b'0')) => Some((char::from(f), 9, i + 3)),
            (Some(&d), _) if (b'1'..=b'9').contains(&d) => Some((char::from(f), d - b'1', i + 2)),
            _ => None,
        }
    };
    let (f1, r1, next) = square(0)?;
    let next = if b.get(next) == Some(&b'-') { next + 1 } else { next };
    let (f2, r2, end) = square(next)?;
    (end == b.len()).then(|| format!("{f1}{r1}{f2}{r2}"))
}

/// Plays `texts` from `start` (see [`play`]). A game written wholly in
/// coordinates is read with ranks 0–9 and, if that fails, with ranks 1–10
/// (the other way round when `prefer_ranks_from_one`, as for PGN tagged
/// `[Variant "xiangqi"]`); the error is the first reading's.
pub(crate) fn play_game(
    file: &str,
    game: (usize, &[(String, String)]),
    start: &Position,
    texts: &[String],
    prefer_ranks_from_one: bool,
) -> Result<Vec<Move>, GameError> {
    let coords = !texts.is_empty() && texts.iter().all(|t| shift_ranks(t).is_some());
    let first = prefer_ranks_from_one && coords;
    match play(file, game, start, texts, first) {
        Ok(moves) => Ok(moves),
        Err(e) if coords => play(file, game, start, texts, !first).map_err(|_| e),
        Err(e) => Err(e),
    }
}

/// The start position of a game from its FEN tag (or the standard one).
pub(crate) fn start_position(fen: Option<&str>) -> Result<Position, String> {
    match fen.map(str::trim).filter(|f| !f.is_empty()) {
        None => Ok(Position::startpos()),
        Some(f) => Position::from_fen(f).map_err(|e| format!("bad FEN '{f}': {e}")),
    }
}

/// `1-0`, `0-1`, `1/2-1/2` for the result words files use (also 红胜, 黑胜,
/// 和棋); `None` for `*` and others.
pub(crate) fn normalize_result(word: &str) -> Option<String> {
    match word.trim() {
        "1-0" | "红胜" | "紅勝" | "红方胜" => Some("1-0".to_string()),
        "0-1" | "黑胜" | "黑勝" | "黑方胜" => Some("0-1".to_string()),
        "1/2-1/2" | "½-½" | "0.5-0.5" | "和棋" | "和局" => Some("1/2-1/2".to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_from_one_are_recognised() {
        assert_eq!(shift_ranks("h3e3"), Some("h2e2".to_string()));
        assert_eq!(shift_ranks("e10e9"), Some("e9e8".to_string()));
        assert_eq!(shift_ranks("H3-E3"), Some("h2e2".to_string()));
        assert_eq!(shift_ranks("h0e0"), None);
        let start = Position::startpos();
        let read = |moves: &[&str], prefer| {
            let texts: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
            play_game("t", (1, &[]), &start, &texts, prefer)
                .map(|m| m.iter().map(|m| m.to_string()).collect::<Vec<_>>())
                .map_err(|e| e.to_string())
        };
        let want = Ok(vec!["h2e2".to_string(), "h9g7".to_string()]);
        assert_eq!(read(&["h3e3", "h10g8"], false), want);
        assert_eq!(read(&["h2e2", "h9g7"], false), want);
        assert_eq!(read(&["h2e2", "h9g7"], true), want);
        let texts = vec!["h2e2".to_string(), "马二平三".to_string()];
        let e = play_game("t", (1, &[]), &start, &texts, false).unwrap_err();
        assert_eq!(e.at_move.map(|m| (m.ply, m.number, m.side)), Some((2, 1, Color::Black)));
    }
}
