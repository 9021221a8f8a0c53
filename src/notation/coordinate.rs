//! The engine's coordinates (UCI and UCCI): from-square and to-square,
//! files `a`–`i` from Red's left and ranks 0–9 from Red's side (`h2e2`),
//! as [`Move`]'s `Display` prints them.

use crate::board::Position;
use crate::types::Move;

use super::NotationError;
use super::spec;

/// The move `m` in coordinates.
pub(super) fn write(m: Move) -> String {
    m.to_string()
}

/// The legal move of `pos` that the coordinates `text` name (either case;
/// a trailing check mark is allowed).
pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let core = text.trim_end_matches(['+', '#', '!', '?']).to_ascii_lowercase();
    let m = Move::parse(&core).ok_or_else(|| NotationError::Malformed {
        text: text.to_string(),
        why: "coordinates are two squares a0-i9 (h2e2)".to_string(),
    })?;
    spec::check_legal(pos, m, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_refuses() {
        let pos = Position::startpos();
        assert_eq!(parse(&pos, "h2e2"), Ok(Move::parse("h2e2").unwrap()));
        assert_eq!(parse(&pos, "H2E2"), Ok(Move::parse("h2e2").unwrap()));
        assert!(matches!(parse(&pos, "h2e"), Err(NotationError::Malformed { .. })));
        assert!(matches!(parse(&pos, "h9h8"), Err(NotationError::Illegal { .. })));
    }
}
