//! The review as JSON lines for programs: one object a move (`"type":
//! "move"`), then one for the game (`"type": "game"`) with the sides'
//! figures and the turning points.
//!
//! A move's object: `game`, `ply`, `side`, `move` (coordinates, `h2e2`),
//! `text` (the chosen notation), `score` (after the move, centipawns from
//! Red's side; `null` for a mate or where the game is over), `mate` (moves
//! to mate after the move, from Red's side: positive when Red mates),
//! `wdl` (after the move, ‰ from Red's side), `before` (the score before,
//! as `score`), `best` (the engine's move before it, coordinates), `line`
//! (the engine's line in the notation), `depth`, `loss` (expected score
//! given away, 0–1), `mark` (`?!`, `?`, `??` or `null`), `ruling` (the
//! arbiter's words when the game ends after the move, else `null`).

use std::fmt::Write;

use super::review::{GameReview, MoveReview, SideSummary};
use crate::types::score::Reported;

/// The reviews as JSON lines.
pub fn write(games: &[GameReview]) -> String {
    let mut out = String::new();
    for g in games {
        for m in &g.moves {
            move_line(&mut out, g.index, m);
        }
        game_line(&mut out, g);
    }
    out
}

fn move_line(out: &mut String, game: usize, m: &MoveReview) {
    let (score, mate) = split(m.score_after);
    let (before, before_mate) = split(m.score_before);
    let best = if m.best.is_some() { string(&m.best.to_string()) } else { "null".into() };
    let line: Vec<String> = m.line.iter().map(|t| string(t)).collect();
    let _ = writeln!(
        out,
        r#"{{"type":"move","game":{game},"ply":{},"side":"{}","move":"{}","text":{},"reviewed":{},"score":{score},"mate":{mate},"wdl":{},"before":{before},"before_mate":{before_mate},"best":{best},"line":[{}],"depth":{},"loss":{:.4},"mark":{},"ruling":{}}}"#,
        m.ply,
        m.side.name(),
        m.mv,
        string(&m.text),
        m.reviewed,
        m.wdl_after.map_or("null".into(), |w| format!("[{},{},{}]", w[0], w[1], w[2])),
        line.join(","),
        m.depth,
        m.loss,
        m.mark.map_or("null".into(), |k| string(k.symbol())),
        m.ruling.as_deref().map_or("null".into(), string),
    );
}

fn game_line(out: &mut String, g: &GameReview) {
    let side = |s: &SideSummary| {
        format!(
            r#"{{"moves":{},"average_loss":{:.4},"inaccuracies":{},"mistakes":{},"blunders":{},"accuracy":{:.1}}}"#,
            s.moves, s.average_loss, s.marks[0], s.marks[1], s.marks[2], s.accuracy
        )
    };
    let tags: Vec<String> = g.tags.iter().map(|(k, v)| format!("{}:{}", string(k), string(v))).collect();
    let turning: Vec<String> = g.turning_points.iter().map(|&i| g.moves[i].ply.to_string()).collect();
    let _ = writeln!(
        out,
        r#"{{"type":"game","game":{},"tags":{{{}}},"fen":{},"moves":{},"result":{},"red":{},"black":{},"turning_points":[{}]}}"#,
        g.index,
        tags.join(","),
        string(&g.start.fen()),
        g.moves.len(),
        g.result.as_deref().map_or("null".into(), string),
        side(&g.summary[0]),
        side(&g.summary[1]),
        turning.join(","),
    );
}

/// A score as (`score`, `mate`): centipawns or a mate distance, the other `null`.
fn split(score: Option<Reported>) -> (String, String) {
    match score {
        Some(Reported::Cp(cp)) => (cp.to_string(), "null".into()),
        Some(Reported::Mate(n)) => ("null".into(), n.to_string()),
        None => ("null".into(), "null".into()),
    }
}

/// `text` as a JSON string.
pub fn string(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push('"');
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("炮二平五"), "\"炮二平五\"");
        assert_eq!(string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
    }
}
