//! Why a move's text was not read.

use std::fmt;

/// A move that could not be read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// No text at all.
    Empty,
    /// A notation name other than those [`Notation`](super::Notation) knows.
    UnknownNotation(String),
    /// The text is not a move in the notation (wrong length or shape).
    Malformed {
        /// The text read.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// A character stands where a piece is named but names none.
    UnknownPiece {
        /// The text read.
        text: String,
        /// The character.
        piece: char,
    },
    /// The side to move has no piece where the text says (no such piece,
    /// none on that file, none that the front/rear word names).
    NoSuchPiece {
        /// The text read.
        text: String,
        /// Which piece was looked for.
        what: String,
    },
    /// Several legal moves fit the text.
    Ambiguous {
        /// The text read.
        text: String,
        /// The moves that fit, in coordinates, each with the piece's square.
        moves: Vec<String>,
    },
    /// The piece exists but cannot make the move here.
    Illegal {
        /// The text read.
        text: String,
        /// Why not.
        why: String,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => write!(f, "no move given"),
            NotationError::UnknownNotation(s) => {
                write!(f, "unknown notation '{}' (zh, chinese, wxf, iccs, uci, coord)", s.escape_debug())
            }
            NotationError::Malformed { text, why } => {
                write!(f, "'{}' is not a move: {why}", text.escape_debug())
            }
            NotationError::UnknownPiece { text, piece } => {
                write!(f, "'{}': unknown piece '{}'", text.escape_debug(), piece.escape_debug())
            }
            NotationError::NoSuchPiece { text, what } => write!(f, "'{}': no {what}", text.escape_debug()),
            NotationError::Ambiguous { text, moves } => {
                write!(f, "'{}' is ambiguous: it fits {}", text.escape_debug(), moves.join(", "))
            }
            NotationError::Illegal { text, why } => write!(f, "'{}' is illegal: {why}", text.escape_debug()),
        }
    }
}

impl std::error::Error for NotationError {}
