//! Plain move lists, one game a line: an optional start (`startpos`, or a
//! FEN, with or without the word `fen`; `position` in front is allowed),
//! an optional `moves`, the moves in any notation, and optionally a result
//! last (`1-0`, `0-1`, `1/2-1/2`, `*`). What `chariot datagen --games-out`
//! writes and what a UCI `position` command holds; commas may separate the
//! parts (`FEN, h2e2 h9g7, 1-0`). Blank lines and lines starting with `#`
//! or `;` are skipped.

use super::{Game, GameError, normalize_result, play_game, start_position};

/// The number of FEN fields after the placement that a line may hold.
const FEN_FIELDS: usize = 5;

/// True if `word` can be a FEN field after the placement (side, `-`, a counter).
fn fen_field(word: &str) -> bool {
    matches!(word, "w" | "b" | "r" | "W" | "B" | "R" | "-") || word.chars().all(|c| c.is_ascii_digit())
}

/// The games of a move-list text (`file` names it in errors). A text whose
/// lines after the first each hold one move (as `cchess` writes them: a FEN
/// line, then a move a line, perhaps a result such as 红胜 last) is one game.
pub fn read(text: &str, file: &str) -> Vec<Result<Game, GameError>> {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with(';'))
        .collect();
    if lines.len() > 2 && lines[1..].iter().all(|l| l.split_whitespace().count() == 1 && !l.contains('/')) {
        return vec![read_line(&lines.join(" "), 1, file)];
    }
    lines.iter().enumerate().map(|(i, line)| read_line(line, i + 1, file)).collect()
}

fn read_line(line: &str, index: usize, file: &str) -> Result<Game, GameError> {
    let spaced = line.replace(',', " ");
    let mut words: Vec<&str> = spaced.split_whitespace().collect();
    if words.first() == Some(&"position") {
        words.remove(0);
    }
    let mut fen = None;
    match words.first().copied() {
        Some("startpos") => {
            words.remove(0);
        }
        Some("fen") => {
            words.remove(0);
            fen = Some(take_fen(&mut words));
        }
        Some(w) if w.matches('/').count() == 9 => fen = Some(take_fen(&mut words)),
        _ => {}
    }
    if words.first() == Some(&"moves") {
        words.remove(0);
    }
    let mut result = None;
    if let Some(&last) = words.last()
        && (normalize_result(last).is_some() || last == "*")
    {
        result = normalize_result(last);
        words.pop();
    }
    let mut tags = Vec::new();
    if let Some(f) = &fen {
        tags.push(("FEN".to_string(), f.clone()));
    }
    if let Some(r) = &result {
        tags.push(("Result".to_string(), r.clone()));
    }
    let start =
        start_position(fen.as_deref()).map_err(|reason| GameError::game(file, index, &tags, reason))?;
    let texts: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    let moves = play_game(file, (index, &tags), &start, &texts, false)?;
    Ok(Game { tags, start, moves, result })
}

/// Removes the FEN (placement and its fields) from the front of `words`.
fn take_fen(words: &mut Vec<&str>) -> String {
    let mut n = 1.min(words.len());
    while n < words.len() && n <= FEN_FIELDS && fen_field(words[n]) {
        n += 1;
    }
    words.drain(..n).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;

    #[test]
    fn every_form_of_line() {
        let text = "# a comment\n\
            startpos moves h2e2 h9g7 1-0\n\
            position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2\n\
            9/3k5/4c4/4N4/9/6R2/9/5p3/4r4/5K3 w, g4g8 d8d9 e6c7 d9e9 g8g9, 1-0\n\
            炮二平五 马８进７ *\n\
            startpos moves h2e2 e2e2\n\
            fen bad moves h2e2\n";
        let games = read(text, "t.txt");
        assert_eq!(games.len(), 6);
        let coords = |i: usize| games[i].as_ref().unwrap().move_texts(Notation::Coordinate);
        assert_eq!(coords(0), ["h2e2", "h9g7"]);
        assert_eq!(games[0].as_ref().unwrap().result.as_deref(), Some("1-0"));
        assert_eq!(coords(1), ["h2e2"]);
        assert_eq!(coords(2).len(), 5);
        assert_eq!(coords(3), ["h2e2", "h9g7"]);
        assert_eq!(games[3].as_ref().unwrap().result, None);
        let e = games[4].as_ref().unwrap_err().to_string();
        assert!(e.contains("game 5") && e.contains("move 1... 'e2e2'"), "{e}");
        assert!(games[5].as_ref().unwrap_err().to_string().contains("bad FEN"));
    }
}
