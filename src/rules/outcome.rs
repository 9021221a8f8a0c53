//! How a game ends: [`Outcome`], in absolute terms (which colour wins), with
//! the words `chariot judge` prints and the PGN result forms.

use std::fmt;

use crate::types::Color;

/// How a game ends, in absolute terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// Red wins.
    RedWins,
    /// Black wins.
    BlackWins,
    /// Draw.
    Draw,
}

impl Outcome {
    /// The win of `winner`.
    pub const fn win_for(winner: Color) -> Outcome {
        match winner {
            Color::Red => Outcome::RedWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// The winning side, or `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::RedWins => Some(Color::Red),
            Outcome::BlackWins => Some(Color::Black),
            Outcome::Draw => None,
        }
    }

    /// `red_wins`, `black_wins` or `draw` (the `chariot judge` verdict words).
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::RedWins => "red_wins",
            Outcome::BlackWins => "black_wins",
            Outcome::Draw => "draw",
        }
    }

    /// The PGN result: `1-0` (Red wins), `0-1` or `1/2-1/2`.
    pub const fn pgn(self) -> &'static str {
        match self {
            Outcome::RedWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// Reads a PGN result (`1-0`, `0-1`, `1/2-1/2`; also `½-½`); `None`
    /// for anything else, the unfinished `*` included.
    pub fn from_pgn(text: &str) -> Option<Outcome> {
        match text {
            "1-0" => Some(Outcome::RedWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" | "½-½" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
