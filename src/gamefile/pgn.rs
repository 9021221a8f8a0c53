//! PGN: one or many games, each a block of tag lines (`[Name "Value"]`)
//! and its movetext. Moves in any notation the [`notation`](crate::notation)
//! module reads (coordinates, ICCS, WXF, Chinese; ranks 1–10 coordinates as
//! Fairy-Stockfish writes them too); the `FEN` tag gives the start. Move
//! numbers (`1.`, `1...`, `12.炮二平五`), comments (`{…}`, `;` to the end of
//! the line, `%` escape lines), variations (`(…)`, nested) and glyphs (`$n`,
//! `!?`) are skipped; the result (`1-0`, `0-1`, `1/2-1/2`, `*`) ends the
//! movetext, and whatever follows it up to the next tag line is ignored (the
//! notes some sites append), unless it starts again at move `1.` (the next
//! game of a file without tags).

use super::{Game, GameError, normalize_result, play_game, start_position, tag_in};

/// True if `text` looks like PGN: a line that is a tag, or a move number.
pub fn looks_like_pgn(text: &str) -> bool {
    text.lines().take(200).any(|l| {
        let l = l.trim_start();
        tag_line(l).is_some()
            || (l.starts_with(|c: char| c.is_ascii_digit())
                && l.split_whitespace().next().is_some_and(|w| w.ends_with('.')))
    })
}

/// `[Name "Value"]` as (name, value), with `\"` and `\\` unescaped.
fn tag_line(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(|c: char| c.is_whitespace())?;
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(rest.len());
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.extend(chars.next());
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

/// One game's text: tags, then movetext lines.
#[derive(Default)]
struct RawGame {
    tags: Vec<(String, String)>,
    movetext: String,
}

/// Splits `text` into games: a tag line after movetext (outside a comment)
/// starts the next game.
fn split_games(text: &str) -> Vec<RawGame> {
    let mut games = Vec::new();
    let mut cur = RawGame::default();
    let mut in_comment = false;
    for line in text.lines() {
        if !in_comment && let Some(tag) = tag_line(line) {
            if !cur.movetext.trim().is_empty() {
                games.push(std::mem::take(&mut cur));
            }
            cur.tags.push(tag);
            continue;
        }
        for c in line.chars() {
            match c {
                '{' => in_comment = true,
                '}' => in_comment = false,
                ';' if !in_comment => break,
                _ => {}
            }
        }
        cur.movetext.push_str(line);
        cur.movetext.push('\n');
    }
    if !cur.tags.is_empty() || !cur.movetext.trim().is_empty() {
        games.push(cur);
    }
    games
}

/// The main line's move words and the result word of a movetext, and the
/// text after the result.
fn main_line(movetext: &str) -> (Vec<String>, Option<String>, String) {
    let mut moves = Vec::new();
    let mut depth = 0usize;
    let mut chars = movetext.chars().peekable();
    let mut word = String::new();
    let mut at_line_start = true;
    // Each word ends at white space or at one of the punctuation below.
    let flush = |word: &mut String, depth: usize, moves: &mut Vec<String>| -> Option<String> {
        let w = std::mem::take(word);
        if depth > 0 || w.is_empty() {
            return None;
        }
        if matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*") {
            return Some(w);
        }
        if let Some(m) = strip_number(&w) {
            moves.push(m);
        }
        None
    };
    while let Some(c) = chars.next() {
        let line_start = at_line_start;
        at_line_start = c == '\n';
        let ends_word = c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | ';' | '$');
        if !(ends_word || line_start && c == '%') {
            word.push(c);
            continue;
        }
        if let Some(r) = flush(&mut word, depth, &mut moves) {
            return (moves, Some(r), std::iter::once(c).chain(chars).collect());
        }
        match c {
            '{' => {
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
            }
            ';' | '%' => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        at_line_start = true;
                        break;
                    }
                }
            }
            '$' => {
                while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                    chars.next();
                }
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let result = flush(&mut word, depth, &mut moves);
    (moves, result, String::new())
}

/// A word without its move number and glyphs; `None` if nothing is left.
fn strip_number(word: &str) -> Option<String> {
    let w = word.trim_end_matches(['!', '?']);
    // WXF for pawns on two files (`33.4`, `7+.8`) starts with digits: keep it.
    let b = w.as_bytes();
    if b.len() == 4
        && b[0].is_ascii_digit()
        && matches!(b[2], b'.' | b'=' | b'+' | b'-')
        && b[3].is_ascii_digit()
        && b[1] != b'.'
    {
        return Some(w.to_string());
    }
    let digits = w.find(|c: char| !c.is_ascii_digit()).unwrap_or(w.len());
    let rest = &w[digits..];
    let rest = if digits > 0 && rest.starts_with(['.', '。', '、']) {
        rest.trim_start_matches(['.', '。', '、'])
    } else if digits == w.len() {
        ""
    } else {
        w
    };
    (!rest.is_empty()).then(|| rest.to_string())
}

/// The games of a PGN text (`file` names it in errors). Games without tags
/// follow one another too: after a result, movetext starting again at move
/// `1.` is the next game.
pub fn read(text: &str, file: &str) -> Vec<Result<Game, GameError>> {
    let mut games = Vec::new();
    for raw in split_games(text) {
        let mut tags = raw.tags;
        let mut movetext = raw.movetext;
        loop {
            let (words, result_word, rest) = main_line(&movetext);
            games.push(game(file, games.len() + 1, tags, &words, result_word.as_deref()));
            if !rest.trim_start().starts_with("1.") {
                break;
            }
            (tags, movetext) = (Vec::new(), rest);
        }
    }
    games
}

/// Game number `index` from its tags, move words and result word.
fn game(
    file: &str,
    index: usize,
    tags: Vec<(String, String)>,
    words: &[String],
    result_word: Option<&str>,
) -> Result<Game, GameError> {
    let start =
        start_position(tag_in(&tags, "FEN")).map_err(|reason| GameError::game(file, index, &tags, reason))?;
    let fsf = tag_in(&tags, "Variant").is_some_and(|v| v.eq_ignore_ascii_case("xiangqi"));
    let moves = play_game(file, (index, &tags), &start, words, fsf)?;
    let result =
        result_word.and_then(normalize_result).or_else(|| tag_in(&tags, "Result").and_then(normalize_result));
    Ok(Game { tags, start, moves, result })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;

    #[test]
    fn tags_numbers_comments_variations() {
        let text = "[Event \"Test \\\"cup\\\"\"]\n[Red \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
            1. h2e2 {a comment (with a paren)} h9g7 $1 2. h0g2 (2. b0c2 b9c7) ; line comment\n\
            2... i9h9!? 3.i0h0 1-0\n======\n欢迎\n\
            [Red \"C\"]\n1. 炮二平五 马８进７ 2. H2+3 i9-h9 *\n\
            [FEN \"bad\"]\n1. h2e2\n\
            [Red \"D\"]\n1. h2e2 h2e2\n";
        let games = read(text, "t.pgn");
        assert_eq!(games.len(), 4);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.tag("event"), Some("Test \"cup\""));
        assert_eq!(g.move_texts(Notation::Coordinate), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]);
        assert_eq!(g.result.as_deref(), Some("1-0"));
        let g = games[1].as_ref().unwrap();
        assert_eq!(g.move_texts(Notation::Coordinate), ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(g.result, None);
        let e = games[2].as_ref().unwrap_err().to_string();
        assert!(e.contains("game 3") && e.contains("bad FEN"), "{e}");
        let e = games[3].as_ref().unwrap_err();
        assert_eq!(e.at_move.as_ref().map(|m| m.ply), Some(2));
        assert!(e.to_string().contains("game 4 (Red: D), move 1... 'h2e2'"), "{e}");
    }

    #[test]
    fn games_without_tags_one_after_another() {
        let games = read("1. h2e2 h9g7 1-0\n\n1. c3c4 {x} 0-1 1. g3g4 *\nnotes after the result\n", "t.pgn");
        assert_eq!(games.len(), 3);
        let g: Vec<(Vec<String>, Option<String>)> = games
            .into_iter()
            .map(|g| g.unwrap())
            .map(|g| (g.move_texts(Notation::Coordinate), g.result))
            .collect();
        assert_eq!(g[0], (vec!["h2e2".to_string(), "h9g7".to_string()], Some("1-0".to_string())));
        assert_eq!(g[1], (vec!["c3c4".to_string()], Some("0-1".to_string())));
        assert_eq!(g[2], (vec!["g3g4".to_string()], None));
    }

    #[test]
    fn numbers_and_wxf_pawns() {
        assert_eq!(strip_number("12."), None);
        assert_eq!(strip_number("12..."), None);
        assert_eq!(strip_number("12.炮二平五"), Some("炮二平五".to_string()));
        assert_eq!(strip_number("33.4"), Some("33.4".to_string()));
        assert_eq!(strip_number("7+.8"), Some("7+.8".to_string()));
        assert_eq!(strip_number("C2.5!"), Some("C2.5".to_string()));
        assert_eq!(strip_number("7"), None);
    }
}
