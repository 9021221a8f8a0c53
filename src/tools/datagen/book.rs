//! Opening books for self-play: one opening per line, either a FEN or
//! `startpos`, optionally followed by `moves` and moves in `h2e2` form
//! (ranks 0–9). Blank lines and lines starting with `#` are skipped, as is
//! anything after a `;` (EPD operations).

use crate::board::{Position, START_FEN};
use crate::engine::play_moves;

/// Parses one book line; `Ok(None)` for a blank or comment line.
pub fn parse_line(line: &str) -> Result<Option<Position>, String> {
    let line = line.split(';').next().unwrap_or("").trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (setup, moves) = match line.split_once(" moves") {
        Some((setup, moves)) if moves.is_empty() || moves.starts_with(char::is_whitespace) => (setup, moves),
        _ => (line, ""),
    };
    let setup = setup.trim();
    let fen = if setup == "startpos" { START_FEN } else { setup };
    let mut pos = Position::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let moves: Vec<&str> = moves.split_ascii_whitespace().collect();
    play_moves(&mut pos, &moves).map_err(|e| e.to_string())?;
    Ok(Some(pos))
}

/// Parses a whole book; an error names the first bad line. A book without
/// any opening is an error too.
pub fn parse(text: &str) -> Result<Vec<Position>, String> {
    let mut book = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(pos) = parse_line(line).map_err(|e| format!("line {}: {e}", i + 1))? {
            book.push(pos);
        }
    }
    if book.is_empty() {
        return Err("no opening in the book".into());
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_every_form() {
        let start = Position::startpos();
        assert_eq!(parse_line("startpos").unwrap().unwrap().fen(), start.fen());
        assert_eq!(parse_line("  # a comment").unwrap(), None);
        assert_eq!(parse_line("").unwrap(), None);
        let after = parse_line("startpos moves h2e2 h9g7").unwrap().unwrap();
        assert_eq!(after.game_ply(), 2);
        assert_eq!(after.fen(), "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
        let fen = parse_line(&format!("{} moves b2b9", after.fen())).unwrap().unwrap();
        assert_eq!(fen.game_ply(), 1);
        let epd =
            parse_line("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1; id \"x\"");
        assert_eq!(epd.unwrap().unwrap().fen(), start.fen());
        assert!(parse_line("startpos moves h2e3").unwrap_err().contains("h2e3"));
        assert!(parse_line("nonsense").unwrap_err().contains("bad FEN"));
        assert!(parse("# only a comment\n\n").unwrap_err().contains("no opening"));
        assert!(parse("startpos\nstartpos moves x\n").unwrap_err().starts_with("line 2:"));
        assert_eq!(parse("startpos\n# c\nstartpos moves h2e2\n").unwrap().len(), 2);
    }
}
