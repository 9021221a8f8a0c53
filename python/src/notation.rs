//! Reading a move typed as text. Every text move the package accepts
//! (`Board.push`, `Board.parse_move`, `Move.from_uci`, …) goes through
//! [`parse_move`], so a new notation (Chinese, WXF) needs a change here only.

use chariot::board::Position;
use chariot::types::Move;

/// Why a text is not a move of the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveTextError {
    /// The text is in no notation the package reads.
    Invalid(String),
    /// The text names a move that is not legal in the position.
    Illegal(String),
}

/// At most this many characters of a bad move are quoted in an error.
const QUOTED: usize = 24;

/// `text` shortened and escaped for an error message.
pub fn quote(text: &str) -> String {
    let mut shown: String = text.chars().take(QUOTED).flat_map(char::escape_debug).collect();
    if text.chars().count() > QUOTED {
        shown.push('…');
    }
    shown
}

/// Reads `text` as a move without looking at a position: today the
/// coordinate form `h2e2` (files a–i, ranks 0–9 from Red's side).
pub fn parse_coordinates(text: &str) -> Result<Move, MoveTextError> {
    Move::parse(text.trim()).ok_or_else(|| {
        MoveTextError::Invalid(format!(
            "invalid move '{}': moves are written from-square to-square, like h2e2 (files a-i, ranks 0-9)",
            quote(text)
        ))
    })
}

/// Reads `text` as a legal move of `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let m = parse_coordinates(text)?;
    if pos.is_pseudo_legal(m) && pos.is_legal(m) {
        Ok(m)
    } else {
        Err(MoveTextError::Illegal(format!("illegal move '{m}' in {}", pos.fen())))
    }
}
