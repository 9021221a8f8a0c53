//! ICCS: the from-square and the to-square joined by a dash, files `a`–`i`
//! from Red's left and ranks 0–9 from Red's side (`h2-e2`). Printed in lower
//! case, read in either.

use crate::board::Position;
use crate::types::Move;

use super::NotationError;
use super::spec;

/// The move `m` in ICCS.
pub(super) fn write(m: Move) -> String {
    format!("{}-{}", m.from(), m.to())
}

/// The legal move of `pos` that the ICCS `text` names.
pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let core = text.trim_end_matches(['+', '#', '!', '?']).to_ascii_lowercase();
    let m = match core.split_once('-') {
        Some((from, to)) => Move::parse(&format!("{from}{to}")).filter(|_| from.len() == 2),
        None => None,
    };
    let m = m.ok_or_else(|| NotationError::Malformed {
        text: text.to_string(),
        why: "an ICCS move is two squares a0-i9 joined by a dash (h2-e2)".to_string(),
    })?;
    spec::check_legal(pos, m, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_cases_and_errors() {
        let pos = Position::startpos();
        let m = Move::parse("h2e2").unwrap();
        assert_eq!(write(m), "h2-e2");
        assert_eq!(parse(&pos, "H2-E2"), Ok(m));
        assert_eq!(parse(&pos, "h2-e2"), Ok(m));
        assert!(matches!(parse(&pos, "h2e2"), Err(NotationError::Malformed { .. })));
        assert!(matches!(parse(&pos, "h-2e2"), Err(NotationError::Malformed { .. })));
        assert!(matches!(parse(&pos, "e5-e6"), Err(NotationError::NoSuchPiece { .. })));
        assert!(matches!(parse(&pos, "h7-e7"), Err(NotationError::Illegal { .. })));
        assert!(matches!(parse(&pos, "h2-h7"), Err(NotationError::Illegal { .. })));
    }
}
