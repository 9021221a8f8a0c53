//! Turning search events into the lines each dialect expects.

use super::command::Dialect;
use crate::board::Position;
use crate::notation::{self, Notation};
use crate::search::{SearchEvent, SearchInfo, SearchLimits};
use crate::tt::{Bound, TtEntry};
use crate::types::Color;
use crate::types::Move;
use crate::types::score::{MATE, MATE_BOUND, Reported};

/// UCCI has no mate notation: mates are printed as ±(UCCI_MATE − plies),
/// the scale ElephantEye uses.
const UCCI_MATE: i32 = 10_000;

/// Longest message printed (longer ones are cut).
const MAX_MESSAGE: usize = 300;

/// What decides whether the engine's move carries a draw (UCCI `bestmove …
/// draw`, CECP `offer draw`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawFlags {
    /// The opponent offered a draw (`go draw`, `ponderhit draw`, CECP `draw`).
    pub offered: bool,
    /// The game is drawn already (neither side can ever mate, or the arbiter
    /// rules a draw): the engine offers a draw itself.
    pub game_drawn: bool,
}

/// What the engine says with its move besides the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It resigns.
    Resign,
    /// It offers a draw, or accepts the opponent's offer.
    Draw,
}

impl DrawFlags {
    /// The verdict on a move whose search scored `score`: a proven loss
    /// resigns, a draw offer is accepted unless we are ahead, and a game
    /// drawn already offers a draw by itself. A search stopped before its
    /// first iteration has no score (it is outside ±[`MATE`]): it neither
    /// resigns nor accepts.
    pub fn verdict(self, score: i32) -> Option<Verdict> {
        let known = (-MATE..=MATE).contains(&score);
        if known && score <= -MATE_BOUND {
            Some(Verdict::Resign)
        } else if (known && self.offered && score <= 0) || self.game_drawn {
            Some(Verdict::Draw)
        } else {
            None
        }
    }
}

/// `text` cut to `max` characters and kept to printable ASCII (anything
/// else is escaped), so that quoting input never prints control bytes or
/// megabytes.
pub fn clip(text: &str, max: usize) -> String {
    let mut out = String::new();
    for c in text.chars().take(max) {
        if c == ' ' || c.is_ascii_graphic() {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
    }
    if text.chars().nth(max).is_some() {
        out.push_str("...");
    }
    out
}

/// Most characters of one input token quoted in an error message.
const SHOWN_CHARS: usize = 32;

/// Shortens and escapes user input for an error message (see [`clip`]).
pub fn shown(s: &str) -> String {
    clip(s, SHOWN_CHARS)
}

/// A line the GUI shows to its user: `info string` (UCI) or `info message`
/// (UCCI), [`clip`]ped to [`MAX_MESSAGE`] characters.
pub fn message(dialect: Dialect, text: &str) -> String {
    let text = clip(text, MAX_MESSAGE);
    match dialect {
        Dialect::Uci => format!("info string {text}"),
        Dialect::Ucci => format!("info message {text}"),
    }
}

/// The moves of the game that led to `pos`, numbered, in `notation`
/// (`1. 炮二平五 马８进７ 2. …`).
pub fn game_moves(pos: &Position, notation: Notation) -> String {
    let mut start = pos.clone();
    let mut moves = Vec::with_capacity(pos.game_ply());
    while start.game_ply() > 0 {
        moves.push(start.last_move());
        start.undo_move();
    }
    let mut words = Vec::with_capacity(2 * moves.len());
    for &m in moves.iter().rev() {
        if start.side_to_move() == Color::Red {
            words.push(format!("{}.", start.fullmove()));
        } else if words.is_empty() {
            words.push(format!("{}...", start.fullmove()));
        }
        words.push(notation::write(&start, m, notation));
        start.do_move(m);
    }
    words.join(" ")
}

/// The legal moves of `pos` in `notation`, space-separated.
pub fn legal_moves(pos: &Position, notation: Notation) -> String {
    let texts: Vec<String> = pos.legal_moves().iter().map(|&m| notation::write(pos, m, notation)).collect();
    texts.join(" ")
}

/// The moves, separated by spaces.
pub fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// An `info` line of a search. With `show_wdl` (UCI `UCI_ShowWDL`) the UCI
/// score is followed by ` wdl W D L` (permille).
fn info(dialect: Dialect, i: &SearchInfo, show_wdl: bool) -> Vec<String> {
    let pv = if i.pv.is_empty() { String::new() } else { format!(" pv {}", pv_text(&i.pv)) };
    match dialect {
        Dialect::Uci => {
            let mut score = match Reported::from_score(i.score) {
                Reported::Cp(cp) => format!("cp {cp}"),
                Reported::Mate(n) => format!("mate {n}"),
            };
            if show_wdl {
                score.push_str(&format!(" wdl {} {} {}", i.wdl.win, i.wdl.draw, i.wdl.loss));
            }
            let bound = match i.bound {
                Some(Bound::Lower) => " lowerbound",
                Some(Bound::Upper) => " upperbound",
                _ => "",
            };
            vec![format!(
                "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {} time {}{pv}",
                i.depth, i.seldepth, i.multipv, i.nodes, i.nps, i.hashfull, i.time_ms
            )]
        }
        // UCCI shows one line only, and has no bound notation.
        Dialect::Ucci if i.multipv > 1 || i.bound.is_some() => Vec::new(),
        Dialect::Ucci => vec![
            format!("info depth {} score {}{pv}", i.depth, ucci_score(i.score)),
            format!("info time {} nodes {}", i.time_ms, i.nodes),
        ],
    }
}

/// A search score on UCCI's scale (bare integer, mates near ±10000).
pub fn ucci_score(score: i32) -> i32 {
    if score >= MATE_BOUND {
        UCCI_MATE - (MATE - score)
    } else if score <= -MATE_BOUND {
        -UCCI_MATE + (MATE + score)
    } else {
        score
    }
}

/// The `bestmove` line (or `bestmove (none)` / `nobestmove` without a move).
/// In UCCI it carries the [`DrawFlags::verdict`].
fn bestmove(dialect: Dialect, best: Move, ponder: Option<Move>, score: i32, draw: DrawFlags) -> String {
    if !best.is_some() {
        return match dialect {
            Dialect::Uci => "bestmove (none)".to_string(),
            Dialect::Ucci => "nobestmove".to_string(),
        };
    }
    let mut line = format!("bestmove {best}");
    if let Some(p) = ponder {
        line.push_str(&format!(" ponder {p}"));
    }
    if dialect == Dialect::Ucci {
        match draw.verdict(score) {
            Some(Verdict::Resign) => line.push_str(" resign"),
            Some(Verdict::Draw) => line.push_str(" draw"),
            None => {}
        }
    }
    line
}

/// The lines for one search event (`show_wdl`: see [`info`]).
pub fn event(dialect: Dialect, ev: &SearchEvent, draw: DrawFlags, show_wdl: bool) -> Vec<String> {
    match ev {
        SearchEvent::Info(i) => info(dialect, i, show_wdl),
        SearchEvent::Message(text) => vec![message(dialect, text)],
        SearchEvent::BestMove { best, ponder, score } => {
            vec![bestmove(dialect, *best, *ponder, *score, draw)]
        }
    }
}

/// The UCCI `pophash` reply for a table entry.
pub fn pophash(entry: Option<TtEntry>) -> String {
    let mut line = "pophash".to_string();
    let Some(e) = entry else { return line };
    if e.mv.is_some() {
        line.push_str(&format!(" bestmove {}", e.mv));
    }
    let score = ucci_score(e.score);
    let depth = e.depth.max(0);
    if matches!(e.bound, Bound::Lower | Bound::Exact) {
        line.push_str(&format!(" lowerbound {score} depth {depth}"));
    }
    if matches!(e.bound, Bound::Upper | Bound::Exact) {
        line.push_str(&format!(" upperbound {score} depth {depth}"));
    }
    line
}

/// A one-line summary of what a search will do (for `debug on`).
pub fn limits(l: &SearchLimits) -> String {
    let ms = |t: Option<u64>| t.map_or("-".to_string(), |t| format!("{t}ms"));
    let mut s = format!(
        "search limits: clock red {} +{}ms black {} +{}ms",
        ms(l.time[0]),
        l.inc[0],
        ms(l.time[1]),
        l.inc[1]
    );
    let mut field = |name: &str, v: Option<String>| {
        if let Some(v) = v {
            s.push_str(&format!(", {name} {v}"));
        }
    };
    field("movestogo", l.movestogo.map(|v| v.to_string()));
    field("movetime", l.movetime.map(|v| format!("{v}ms")));
    field("depth", l.depth.map(|v| v.to_string()));
    field("nodes", l.nodes.map(|v| v.to_string()));
    field("mate", l.mate.map(|v| v.to_string()));
    field("infinite", l.infinite.then(String::new));
    field("ponder", l.ponder.then(String::new));
    field("searchmoves", (!l.search_moves.is_empty()).then(|| pv_text(&l.search_moves)));
    field("banmoves", (!l.ban_moves.is_empty()).then(|| pv_text(&l.ban_moves)));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::score::{mate_in, mated_in};

    #[test]
    fn bestmove_flags() {
        let m = Move::parse("h2e2").unwrap();
        let p = Move::parse("h9g7");
        let none = DrawFlags::default();
        let offered = DrawFlags { offered: true, game_drawn: false };
        assert_eq!(bestmove(Dialect::Uci, m, p, mated_in(3), offered), "bestmove h2e2 ponder h9g7");
        assert_eq!(bestmove(Dialect::Ucci, m, p, mated_in(3), none), "bestmove h2e2 ponder h9g7 resign");
        assert_eq!(bestmove(Dialect::Ucci, m, None, -20, offered), "bestmove h2e2 draw");
        assert_eq!(bestmove(Dialect::Ucci, m, None, 50, offered), "bestmove h2e2");
        assert_eq!(bestmove(Dialect::Ucci, m, None, -MATE - 1, offered), "bestmove h2e2");
        let dead = DrawFlags { offered: false, game_drawn: true };
        assert_eq!(bestmove(Dialect::Ucci, m, None, -MATE - 1, dead), "bestmove h2e2 draw");
        assert_eq!(bestmove(Dialect::Ucci, Move::NONE, None, 0, none), "nobestmove");
        assert_eq!(bestmove(Dialect::Uci, Move::NONE, None, 0, none), "bestmove (none)");
    }

    #[test]
    fn wdl_after_the_score() {
        let i = SearchInfo {
            depth: 7,
            seldepth: 9,
            multipv: 1,
            score: 35,
            bound: Some(Bound::Lower),
            nodes: 1000,
            nps: 2000,
            hashfull: 1,
            time_ms: 500,
            pv: vec![Move::parse("h2e2").unwrap()],
            wdl: crate::eval::wdl::Wdl { win: 120, draw: 850, loss: 30 },
        };
        let plain = "info depth 7 seldepth 9 multipv 1 score cp 35 lowerbound nodes 1000 nps 2000 hashfull 1 time 500 pv h2e2";
        assert_eq!(info(Dialect::Uci, &i, false), vec![plain.to_string()]);
        assert_eq!(
            info(Dialect::Uci, &i, true),
            vec![plain.replace("cp 35 lowerbound", "cp 35 wdl 120 850 30 lowerbound")]
        );
        // UCCI prints no chances.
        let ucci = SearchInfo { bound: None, ..i.clone() };
        assert_eq!(info(Dialect::Ucci, &ucci, true), info(Dialect::Ucci, &ucci, false));
    }

    #[test]
    fn scores_and_messages() {
        assert_eq!(ucci_score(mate_in(3)), 9997);
        assert_eq!(ucci_score(mated_in(2)), -9998);
        assert_eq!(ucci_score(-42), -42);
        assert_eq!(message(Dialect::Ucci, "hi"), "info message hi");
        assert!(message(Dialect::Uci, &"x".repeat(5000)).len() < 400);
        assert_eq!(message(Dialect::Uci, "a\u{fffd}\tb"), "info string a\\u{fffd}\\tb");
    }
}
