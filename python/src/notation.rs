//! Moves as text. Every move the package reads from text on a board
//! (`Board.push`, `Board.parse_move`, `Board.is_legal`, …) goes through
//! [`parse_move`], and every move it writes in a notation through
//! [`write_move`]: both hand the work to the engine's notation module.
//! [`parse_coordinates`] reads the coordinate form without a position
//! (`Move.from_uci`).

use chariot::board::Position;
use chariot::notation::{self, Notation, NotationError};
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

/// Reads `text` as a legal move of `pos`, in whichever notation it is
/// written: Chinese (`炮二平五`), WXF (`C2=5`), ICCS (`h2-e2`) or coordinates
/// (`h2e2`), as the engine's notation module reads them.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    notation::parse(pos, text).map_err(|e| match e {
        NotationError::Illegal { .. } | NotationError::NoSuchPiece { .. } => {
            MoveTextError::Illegal(format!("illegal move: {e} in {}", pos.fen()))
        }
        _ => MoveTextError::Invalid(format!("invalid move: {e}")),
    })
}

/// The legal move `m` of `pos` written in the notation named `name`
/// (`zh`/`chinese`, `wxf`, `iccs`, `uci`/`coordinate`).
pub fn write_move(pos: &Position, m: Move, name: &str) -> Result<String, String> {
    let notation: Notation = name.parse().map_err(|e: NotationError| e.to_string())?;
    Ok(notation::write(pos, m, notation))
}
