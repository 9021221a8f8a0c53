//! Moves as people and programs write them, both ways: the Chinese
//! four-character notation (炮二平五), WXF (`C2=5`), ICCS (`h2-e2`) and the
//! engine's coordinates (`h2e2`). The rules followed, and the cases where
//! sources differ, are in `docs/notation.md`.
//!
//! [`write()`] prints a legal move of a position; [`parse`] reads any of
//! the four (told apart by their shape) and [`parse_as`] one named notation.
//! The Chinese notation and WXF describe a move by the piece, its file and
//! its direction; both go through `spec.rs`, which computes that
//! description of a move and matches a parsed one against the legal moves.

mod chinese;
mod coordinate;
mod error;
mod iccs;
mod spec;
mod wxf;

use std::fmt;
use std::str::FromStr;

use crate::board::Position;
use crate::types::Move;

pub use error::NotationError;

/// The notations a move can be written in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Notation {
    /// The Chinese four-character notation: `炮二平五`, `马８进７`.
    Chinese,
    /// The World Xiangqi Federation's letters and digits: `C2=5`, `H8+7`.
    Wxf,
    /// ICCS, from-square and to-square with a dash, ranks 0–9: `h2-e2`.
    Iccs,
    /// The engine's (UCI/UCCI) coordinates, ranks 0–9: `h2e2`.
    Coordinate,
}

impl Notation {
    /// All four, in the order of the enum.
    pub const ALL: [Notation; 4] = [Notation::Chinese, Notation::Wxf, Notation::Iccs, Notation::Coordinate];
}

impl FromStr for Notation {
    type Err = NotationError;

    /// `zh`/`chinese`, `wxf`, `iccs`, `uci`/`coord`/`coordinate` (any case).
    fn from_str(s: &str) -> Result<Notation, NotationError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "zh" | "chinese" | "cn" => Ok(Notation::Chinese),
            "wxf" => Ok(Notation::Wxf),
            "iccs" => Ok(Notation::Iccs),
            "uci" | "ucci" | "coord" | "coordinate" | "coordinates" => Ok(Notation::Coordinate),
            _ => Err(NotationError::UnknownNotation(s.to_string())),
        }
    }
}

impl fmt::Display for Notation {
    /// The name [`FromStr`] reads back: `zh`, `wxf`, `iccs`, `uci`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Notation::Chinese => "zh",
            Notation::Wxf => "wxf",
            Notation::Iccs => "iccs",
            Notation::Coordinate => "uci",
        })
    }
}

/// The move `m` of `pos` (the position before it; `m` legal there) in
/// `notation`. A move whose from-square is empty (not legal anywhere) comes
/// out in coordinates whatever the notation, so that this never panics.
pub fn write(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Chinese => chinese::write(pos, m),
        Notation::Wxf => wxf::write(pos, m),
        Notation::Iccs => iccs::write(m),
        Notation::Coordinate => coordinate::write(m),
    }
}

/// The moves of `line`, played in turn from `pos`, each written in
/// `notation` in the position before it; the texts stop before the first
/// move that is not legal where it stands.
pub fn write_line(pos: &Position, line: &[Move], notation: Notation) -> Vec<String> {
    let mut pos = pos.clone();
    let mut texts = Vec::with_capacity(line.len());
    for &m in line {
        if !(pos.is_pseudo_legal(m) && pos.is_legal(m)) {
            break;
        }
        texts.push(write(&pos, m, notation));
        pos.do_move(m);
    }
    texts
}

/// The legal move of `pos` that `text` describes, in whichever of the four
/// notations it is written (see [`detect`]).
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    parse_as(pos, text, detect(text))
}

/// The legal move of `pos` that `text` describes in `notation`.
pub fn parse_as(pos: &Position, text: &str, notation: Notation) -> Result<Move, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    match notation {
        Notation::Chinese => chinese::parse(pos, text),
        Notation::Wxf => wxf::parse(pos, text),
        Notation::Iccs => iccs::parse(pos, text),
        Notation::Coordinate => coordinate::parse(pos, text),
    }
}

/// The notation `text` looks written in: Chinese if it holds any non-ASCII
/// character; ICCS for `h2-e2`; coordinates for `h2e2`; WXF otherwise.
/// A trailing check or annotation mark (`+ # ! ?`) after a coordinate move
/// does not change the answer.
pub fn detect(text: &str) -> Notation {
    let t = text.trim();
    if !t.is_ascii() {
        return Notation::Chinese;
    }
    let core = t.trim_end_matches(['!', '?']);
    let core = if core.len() > 4 { core.trim_end_matches(['+', '#']) } else { core };
    let b = core.as_bytes();
    let square = |i: usize| b[i].to_ascii_lowercase().wrapping_sub(b'a') < 9 && b[i + 1].is_ascii_digit();
    if b.len() == 5 && b[2] == b'-' && square(0) && square(3) {
        Notation::Iccs
    } else if b.len() == 4 && square(0) && square(2) {
        Notation::Coordinate
    } else {
        Notation::Wxf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_detection() {
        for n in Notation::ALL {
            assert_eq!(n.to_string().parse::<Notation>().unwrap(), n);
        }
        assert_eq!("Chinese".parse::<Notation>().unwrap(), Notation::Chinese);
        assert_eq!("coord".parse::<Notation>().unwrap(), Notation::Coordinate);
        assert!("san".parse::<Notation>().is_err());
        assert_eq!(detect("炮二平五"), Notation::Chinese);
        assert_eq!(detect("h2-e2"), Notation::Iccs);
        assert_eq!(detect("H2-E2"), Notation::Iccs);
        assert_eq!(detect("h2e2"), Notation::Coordinate);
        assert_eq!(detect("h2e2+"), Notation::Coordinate);
        assert_eq!(detect("C2=5"), Notation::Wxf);
        assert_eq!(detect("c2.5"), Notation::Wxf);
        assert_eq!(detect("+C-1"), Notation::Wxf);
    }

    #[test]
    fn the_opening_moves_in_every_notation() {
        let pos = Position::startpos();
        let m = Move::parse("h2e2").unwrap();
        assert_eq!(write(&pos, m, Notation::Chinese), "炮二平五");
        assert_eq!(write(&pos, m, Notation::Wxf), "C2=5");
        assert_eq!(write(&pos, m, Notation::Iccs), "h2-e2");
        assert_eq!(write(&pos, m, Notation::Coordinate), "h2e2");
        for text in ["炮二平五", "砲二平五", "包2平5", "C2=5", "c2.5", "C2.5", "h2-e2", "H2-E2", "h2e2"]
        {
            assert_eq!(parse(&pos, text), Ok(m), "{text}");
        }
    }
}
