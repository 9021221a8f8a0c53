//! The review as annotated PGN: the game's tags (and `Annotator`), each move
//! in the review's notation with its mark as a NAG, and comments holding
//! the score after it (`[%eval …]`, pawns from Red's side, as PGN tools
//! read it), the engine's move and line where they differ, and rulings.
//! Readers that skip comments and NAGs (every PGN reader) get the game back.

use std::fmt::Write;

use super::review::{GameReview, MoveReview};
use crate::board::START_FEN;
use crate::types::Color;
use crate::types::score::Reported;

/// A score as PGN's `[%eval]` writes it: pawns (`0.35`), or `#N` / `#-N`
/// for a mate.
pub fn eval_text(score: Reported) -> String {
    match score {
        Reported::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        Reported::Mate(n) => format!("#{n}"),
    }
}

/// The games reviewed, as PGN; `annotator` names the engine and its limits.
pub fn write(games: &[GameReview], annotator: &str) -> String {
    let mut out = String::new();
    for g in games {
        game(&mut out, g, annotator);
    }
    out
}

fn game(out: &mut String, g: &GameReview, annotator: &str) {
    let result = g.result.clone().unwrap_or_else(|| "*".to_string());
    let skip = |k: &str| ["Annotator", "Result", "FEN", "SetUp"].iter().any(|t| t.eq_ignore_ascii_case(k));
    for (k, v) in g.tags.iter().filter(|(k, _)| !skip(k)) {
        let _ = writeln!(out, "[{} \"{}\"]", tag_name(k), escape(v));
    }
    let _ = writeln!(out, "[Result \"{result}\"]");
    let fen = g.start.fen();
    if fen != START_FEN {
        let _ = writeln!(out, "[SetUp \"1\"]");
        let _ = writeln!(out, "[FEN \"{fen}\"]");
    }
    let _ = writeln!(out, "[Annotator \"{}\"]", escape(annotator));
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    for (i, m) in g.moves.iter().enumerate() {
        if m.side == Color::Red {
            words.push(format!("{}.", m.number));
        } else if i == 0 {
            words.push(format!("{}...", m.number));
        }
        words.push(m.text.clone());
        if let Some(mark) = m.mark {
            words.push(mark.nag().to_string());
        }
        if let Some(c) = comment(m) {
            words.push(format!("{{{c}}}"));
        }
    }
    words.push(result);
    wrap(out, &words);
    out.push('\n');
}

/// The comment after a move, if it has anything to say.
fn comment(m: &MoveReview) -> Option<String> {
    if !m.reviewed && m.score_after.is_none() && m.ruling.is_none() {
        return None;
    }
    let mut parts = Vec::new();
    if let Some(s) = m.score_after {
        parts.push(format!("[%eval {}]", eval_text(s)));
    }
    if let Some(mark) = m.mark {
        let best = m.line.first().map_or(String::new(), |b| format!("; best {b}"));
        parts.push(format!("{} (−{:.1} %){best}", mark.word(), 100.0 * m.loss));
        if m.line.len() > 1 {
            parts.push(format!("line {}", m.line.join(" ")));
        }
    }
    if let Some(r) = &m.ruling {
        parts.push(r.clone());
    }
    (!parts.is_empty()).then(|| escape_comment(&parts.join(" ")))
}

/// Lines of at most 80 characters (PGN's export form), breaking between
/// words (comments too, which may span lines).
fn wrap(out: &mut String, words: &[String]) {
    let mut width = 0;
    for w in words.iter().flat_map(|w| w.split(' ')) {
        let len = w.chars().count();
        if width > 0 && width + 1 + len > 80 {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(w);
        width += len;
    }
    out.push('\n');
}

/// A tag name as PGN allows it (letters, digits, `_`).
fn tag_name(k: &str) -> String {
    let name: String = k.chars().filter(|c| c.is_alphanumeric() || *c == '_').collect();
    if name.is_empty() { "Tag".into() } else { name }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"").replace(['\n', '\r'], " ")
}

/// A comment cannot hold `}`.
fn escape_comment(c: &str) -> String {
    c.replace('}', ")")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::score::mate_in;

    #[test]
    fn evals_are_pawns_or_mates() {
        assert_eq!(eval_text(Reported::Cp(35)), "0.35");
        assert_eq!(eval_text(Reported::Cp(-120)), "-1.20");
        assert_eq!(eval_text(Reported::from_score(mate_in(3))), "#2");
        assert_eq!(eval_text(Reported::Mate(-1)), "#-1");
    }

    #[test]
    fn long_lines_wrap_at_80() {
        let words: Vec<String> = (0..40).map(|i| format!("w{i:03}")).collect();
        let mut out = String::new();
        wrap(&mut out, &words);
        assert!(out.lines().all(|l| l.chars().count() <= 80));
        assert_eq!(out.split_whitespace().count(), 40);
    }
}
