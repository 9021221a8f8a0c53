//! Games to build a book from, read from text in either of two forms,
//! told apart line by line:
//!
//! * Move lists, one game a line: an optional start (`startpos`, or a FEN,
//!   with or without the word `fen`; `position` in front is allowed), an
//!   optional `moves`, the moves, and the result last (`1-0` Red wins,
//!   `0-1`, `1/2-1/2`). What `chariot datagen --games-out` writes.
//! * PGN: tag lines (`[FEN "…"]`, `[Result "…"]`) and movetext, with move
//!   numbers, `{…}` and `;` comments, `(…)` variations and `$n` glyphs
//!   skipped. What `tools/match.py --pgn` writes.
//!
//! Moves are coordinates: `h2e2` (ranks 0–9, as Chariot and UCCI write
//! them), `H2-E2` (ICCS), or ranks 1–10 (`h3e3`, as Fairy-Stockfish and
//! the move lists of `tools/match.py` write them). Each game is read with
//! ranks 0–9 first and with ranks 1–10 if that fails; only the plies a
//! book needs are checked. Blank lines and lines starting with `#` or `;`
//! are skipped. A game without a result (`*`, or none) or with a move
//! illegal in both readings is skipped with the reason.

use std::io::BufRead;

use crate::board::{Position, START_FEN};
use crate::rules::Outcome;
use crate::types::Move;

/// One game: where it started, its first moves, its result.
#[derive(Clone, Debug)]
pub struct Game {
    /// The start position.
    pub start: Position,
    /// The moves from it (at most the plies asked for).
    pub moves: Vec<Move>,
    /// The result.
    pub result: Outcome,
}

/// What one game of the input gave.
#[derive(Clone, Debug)]
pub enum Item {
    /// A game, read up to the plies asked for (boxed: a position is large).
    Game(Box<Game>),
    /// A game that was skipped, and why.
    Skipped {
        /// The line where the game starts (1-based).
        line: usize,
        /// Why it was skipped.
        reason: String,
    },
}

/// Reads the games of a text stream one at a time (see the module comment).
pub struct GameReader<R: BufRead> {
    input: R,
    max_ply: usize,
    line_no: usize,
    /// The PGN game being read: its first line, tags and movetext.
    pgn: Option<PgnGame>,
    buf: String,
}

#[derive(Default)]
struct PgnGame {
    line: usize,
    fen: Option<String>,
    result: Option<String>,
    movetext: String,
}

impl<R: BufRead> GameReader<R> {
    /// Reads from `input`, keeping the first `max_ply` plies of each game.
    pub fn new(input: R, max_ply: usize) -> GameReader<R> {
        GameReader { input, max_ply, line_no: 0, pgn: None, buf: String::new() }
    }

    /// The next game, `Ok(None)` at the end; an error only if the input
    /// cannot be read (bytes that are not UTF-8 are replaced, not refused).
    pub fn next_item(&mut self) -> std::io::Result<Option<Item>> {
        loop {
            let mut bytes = Vec::new();
            if self.input.read_until(b'\n', &mut bytes)? == 0 {
                return Ok(self.pgn.take().map(|g| g.finish(self.max_ply)));
            }
            self.line_no += 1;
            self.buf = String::from_utf8_lossy(&bytes).into_owned();
            let line = self.buf.trim();
            if line.starts_with('[') {
                // A tag after movetext starts the next game.
                let done = self.pgn.take_if(|g| !g.movetext.trim().is_empty());
                let game =
                    self.pgn.get_or_insert_with(|| PgnGame { line: self.line_no, ..PgnGame::default() });
                game.tag(line);
                if let Some(done) = done {
                    return Ok(Some(done.finish(self.max_ply)));
                }
            } else if line.starts_with(';') || line.starts_with('%') || line.starts_with('#') {
                continue;
            } else if let Some(game) = self.pgn.as_mut() {
                game.movetext.push_str(line);
                game.movetext.push('\n');
                if tokens(&game.movetext).last().is_some_and(|t| is_result(t)) {
                    let game = self.pgn.take().expect("a PGN game");
                    return Ok(Some(game.finish(self.max_ply)));
                }
            } else if !line.is_empty() {
                return Ok(Some(move_list(line, self.line_no, self.max_ply)));
            }
        }
    }
}

impl PgnGame {
    fn tag(&mut self, line: &str) {
        let inner = line.trim_start_matches('[').trim_end_matches(']');
        let Some((name, value)) = inner.split_once(char::is_whitespace) else { return };
        let value = value.trim().trim_matches('"').to_string();
        match name {
            "FEN" => self.fen = Some(value),
            "Result" => self.result = Some(value),
            _ => {}
        }
    }

    fn finish(self, max_ply: usize) -> Item {
        let mut words = tokens(&self.movetext);
        let result = match words.last() {
            Some(t) if is_result(t) => words.pop(),
            _ => None,
        };
        let result = result.or(self.result.as_deref());
        let start = self.fen.as_deref().unwrap_or(START_FEN);
        game(start, &words, result, max_ply)
            .unwrap_or_else(|reason| Item::Skipped { line: self.line, reason })
    }
}

/// The movetext's words: moves and the result, without move numbers,
/// comments, variations and glyphs.
fn tokens(movetext: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut in_comment = false;
    for line in movetext.lines() {
        let line = if in_comment { line } else { line.split(';').next().unwrap_or("") };
        let mut rest = line;
        while !rest.is_empty() {
            if in_comment {
                match rest.find('}') {
                    Some(i) => {
                        in_comment = false;
                        rest = &rest[i + 1..];
                    }
                    None => rest = "",
                }
                continue;
            }
            let start = rest.find(|c: char| !c.is_whitespace()).unwrap_or(rest.len());
            rest = &rest[start..];
            let Some(c) = rest.chars().next() else { break };
            match c {
                '{' => {
                    in_comment = true;
                    rest = &rest[1..];
                }
                '(' => {
                    depth += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    depth = depth.saturating_sub(1);
                    rest = &rest[1..];
                }
                // A stray end of comment.
                '}' => rest = &rest[1..],
                _ => {
                    let end =
                        rest.find(|c: char| c.is_whitespace() || "{}()".contains(c)).unwrap_or(rest.len());
                    let word = &rest[..end];
                    rest = &rest[end..];
                    // Move numbers (`12.`, `12...`, `12.h2e2`) and glyphs (`$1`) go.
                    let word = if is_result(word) {
                        word
                    } else {
                        word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
                    };
                    if depth == 0 && !word.is_empty() && !word.starts_with('$') {
                        out.push(word);
                    }
                }
            }
        }
    }
    out
}

/// True for a PGN game terminator.
fn is_result(word: &str) -> bool {
    matches!(word, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*")
}

/// A move list line (see the module comment).
fn move_list(line: &str, line_no: usize, max_ply: usize) -> Item {
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if words.first() == Some(&"position") {
        words.remove(0);
    }
    let result = match words.last() {
        Some(t) if is_result(t) => words.pop(),
        _ => None,
    };
    let (fen, rest) = match words.first() {
        Some(&"startpos") => (START_FEN.to_string(), &words[1..]),
        Some(&"fen") => fen_words(&words[1..]),
        Some(w) if w.contains('/') => fen_words(&words),
        _ => (START_FEN.to_string(), &words[..]),
    };
    let rest = rest.strip_prefix(&["moves"]).unwrap_or(rest);
    game(&fen, rest, result, max_ply).unwrap_or_else(|reason| Item::Skipped { line: line_no, reason })
}

/// The FEN at the start of `words` (its fields up to the first move or
/// `moves`), and the words after it.
fn fen_words<'a, 'b>(words: &'b [&'a str]) -> (String, &'b [&'a str]) {
    let n = words.iter().position(|w| *w == "moves" || square_pair(w).is_some()).unwrap_or(words.len());
    (words[..n].join(" "), &words[n..])
}

/// Builds the game: the start, the first `max_ply` moves read with ranks
/// 0–9 or else 1–10, the result.
fn game(fen: &str, words: &[&str], result: Option<&str>, max_ply: usize) -> Result<Item, String> {
    let result = match result {
        None => return Err("no result".into()),
        Some("*") => return Err("no result (*)".into()),
        Some(r) => Outcome::from_pgn(r).ok_or_else(|| format!("unknown result '{r}'"))?,
    };
    let start = Position::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let words = &words[..words.len().min(max_ply)];
    let moves = match play(&start, words, 0) {
        Ok(moves) => moves,
        Err(zero_based) => match play(&start, words, 1) {
            Ok(moves) => moves,
            Err(one_based) => {
                // Name the failure of the reading that went further.
                let i = zero_based.max(one_based);
                let word: String = words[i].chars().take(16).collect();
                return Err(format!("illegal move '{}' (move {})", word.escape_debug(), i + 1));
            }
        },
    };
    Ok(Item::Game(Box::new(Game { start, moves, result })))
}

/// Plays `words` from `start` with ranks counted from `base` (0 or 1);
/// the moves, or the index of the first word that is not a legal move.
fn play(start: &Position, words: &[&str], base: u8) -> Result<Vec<Move>, usize> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let m = square_pair(w)
            .and_then(|(f1, r1, f2, r2)| {
                let (r1, r2) = (r1.checked_sub(base)?, r2.checked_sub(base)?);
                pos.parse_legal_move(&format!("{f1}{r1}{f2}{r2}"))
            })
            .ok_or(i)?;
        pos.do_move(m);
        moves.push(m);
    }
    Ok(moves)
}

/// A move word's two squares, file letter and rank number each: `h2e2`,
/// `H2-E2`, `h10g8`; trailing `+`, `#`, `!`, `?` are ignored.
fn square_pair(word: &str) -> Option<(char, u8, char, u8)> {
    let w: String = word
        .trim_end_matches(['+', '#', '!', '?'])
        .chars()
        .filter(|&c| c != '-')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let square = |s: &str| -> Option<(char, u8, usize)> {
        let f = s.chars().next().filter(|c| ('a'..='i').contains(c))?;
        let digits: String = s[1..].chars().take_while(char::is_ascii_digit).take(2).collect();
        let r: u8 = digits.parse().ok().filter(|r| *r <= 10)?;
        Some((f, r, 1 + digits.len()))
    };
    let (f1, r1, n1) = square(&w)?;
    let (f2, r2, n2) = square(w.get(n1..)?)?;
    (n1 + n2 == w.len()).then_some((f1, r1, f2, r2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, max_ply: usize) -> Vec<Item> {
        let mut r = GameReader::new(text.as_bytes(), max_ply);
        let mut out = Vec::new();
        while let Some(item) = r.next_item().unwrap() {
            out.push(item);
        }
        out
    }

    fn moves(item: &Item) -> String {
        match item {
            Item::Game(g) => g.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "),
            Item::Skipped { line, reason } => format!("skipped at {line}: {reason}"),
        }
    }

    #[test]
    fn move_lists_in_every_form() {
        let text = "\
# a comment
startpos moves h2e2 h9g7 1-0
h2e2 h9g7 h0g2 0-1

position startpos moves h2e2 1/2-1/2
fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b2e2 1-0
rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w b2e2 b9c7 0-1
H2-E2 H9-G7 1-0
h3e3 h10g8 1-0
startpos moves h2e2 h9g7 *
startpos moves h2e2 h9g7
startpos moves h2e2 h2e2 1-0
";
        let items = read(text, 100);
        let got: Vec<String> = items.iter().map(moves).collect();
        assert_eq!(
            got,
            [
                "h2e2 h9g7",
                "h2e2 h9g7 h0g2",
                "h2e2",
                "b2e2",
                "b2e2 b9c7",
                "h2e2 h9g7",
                "h2e2 h9g7",
                "skipped at 10: no result (*)",
                "skipped at 11: no result",
                "skipped at 12: illegal move 'h2e2' (move 2)",
            ]
        );
        let results: Vec<Option<Outcome>> = items
            .iter()
            .map(|i| match i {
                Item::Game(g) => Some(g.result),
                _ => None,
            })
            .collect();
        assert_eq!(results[..3], [Some(Outcome::RedWins), Some(Outcome::BlackWins), Some(Outcome::Draw)]);
        // Only the plies asked for are read (and checked).
        assert_eq!(moves(&read("startpos moves h2e2 h9g7 zzzz 1-0", 2)[0]), "h2e2 h9g7");
    }

    #[test]
    fn pgn_as_match_py_writes_it_and_with_numbers_and_comments() {
        let text = r#"[Red "a"]
[Black "b"]
[Result "1-0"]
[Termination "no legal move"]
[Variant "xiangqi"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]

h3e3 h10g8 h1g3 i10h10 1-0

[Red "b"]
[Black "a"]
[Result "0-1"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]

h3e3 h10g8 0-1
; engine log tail:
; a > go

[Event "numbers"]
[Result "1/2-1/2"]

1. h2e2 {central cannon} h9g7 2. h0g2 (2. b0c2 b9c7) i9h9 $1 3...
  1/2-1/2
[Event "no result"]

1. h2e2 h9g7 *
[Event "result in the tag only"]
[Result "0-1"]
1. b2e2
[Event "last"]
1. h2e2 1-0
"#;
        let items = read(text, 100);
        let got: Vec<String> = items.iter().map(moves).collect();
        assert_eq!(
            got,
            [
                "h2e2 h9g7 h0g2 i9h9",
                "h2e2 h9g7",
                "h2e2 h9g7 h0g2 i9h9",
                "skipped at 24: no result (*)",
                "b2e2",
                "h2e2",
            ]
        );
        match &items[4] {
            Item::Game(g) => assert_eq!(g.result, Outcome::BlackWins),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn any_text_reads_without_panic_or_hang() {
        assert_eq!(tokens("1.h2e2 } h9g7 ) 2. (b0c2) h0g2 $3 1-0"), ["h2e2", "h9g7", "h0g2", "1-0"]);
        let alphabet: Vec<char> = "[]{}();$.-/\"\n \t01239abhiFENResult*½炮".chars().collect();
        let mut rng = crate::board::zobrist::SplitMix64(7);
        for _ in 0..2000 {
            let len = rng.below(120);
            let text: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
            let mut reader = GameReader::new(text.as_bytes(), 50);
            let mut items = 0;
            while let Some(_item) = reader.next_item().unwrap() {
                items += 1;
                assert!(items <= len + 1, "{text:?}");
            }
        }
    }

    #[test]
    fn move_words() {
        assert_eq!(square_pair("h2e2"), Some(('h', 2, 'e', 2)));
        assert_eq!(square_pair("H2-E2"), Some(('h', 2, 'e', 2)));
        assert_eq!(square_pair("h10g8+"), Some(('h', 10, 'g', 8)));
        assert_eq!(square_pair("h11g8"), None);
        assert_eq!(square_pair("j2e2"), None);
        assert_eq!(square_pair("h2e"), None);
        assert_eq!(square_pair("h2e2x"), None);
        assert_eq!(square_pair("炮二平五"), None);
    }
}
