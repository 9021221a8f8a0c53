//! Turning search events into the lines each dialect expects.

use super::command::Dialect;
use crate::board::Position;
use crate::eval;
use crate::search::score::{MATE, MATE_BOUND, Reported};
use crate::search::{SearchEvent, SearchInfo};
use crate::tt::{Bound, TtEntry};
use crate::types::Move;

/// UCCI has no mate notation: mates are printed as ±(UCCI_MATE − plies),
/// the scale ElephantEye uses.
const UCCI_MATE: i32 = 10_000;

/// A line the GUI shows to its user: `info string` (UCI) or `info message` (UCCI).
pub fn message(dialect: Dialect, text: &str) -> String {
    match dialect {
        Dialect::Uci => format!("info string {text}"),
        Dialect::Ucci => format!("info message {text}"),
    }
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

fn info(dialect: Dialect, i: &SearchInfo) -> Vec<String> {
    match dialect {
        Dialect::Uci => {
            let score = match Reported::from_score(i.score) {
                Reported::Cp(cp) => format!("cp {cp}"),
                Reported::Mate(n) => format!("mate {n}"),
            };
            let bound = match i.bound {
                Some(Bound::Lower) => " lowerbound",
                Some(Bound::Upper) => " upperbound",
                _ => "",
            };
            let mut line = format!(
                "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {} time {}",
                i.depth, i.seldepth, i.multipv, i.nodes, i.nps, i.hashfull, i.time_ms
            );
            if !i.pv.is_empty() {
                line.push_str(" pv ");
                line.push_str(&pv_text(&i.pv));
            }
            vec![line]
        }
        Dialect::Ucci => {
            if i.multipv > 1 {
                return Vec::new();
            }
            let score = ucci_score(i.score);
            let mut line = format!("info depth {} score {score}", i.depth);
            if !i.pv.is_empty() {
                line.push_str(" pv ");
                line.push_str(&pv_text(&i.pv));
            }
            vec![line, format!("info time {} nodes {}", i.time_ms, i.nodes)]
        }
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

/// The lines for one search event. `draw_offered`: the opponent offered a
/// draw (UCCI `go draw` / `ponderhit draw`); `pos` is the searched position.
pub fn event(dialect: Dialect, ev: &SearchEvent, draw_offered: bool, pos: &Position) -> Vec<String> {
    match ev {
        SearchEvent::Info(i) => info(dialect, i),
        SearchEvent::Message(text) => vec![message(dialect, text)],
        SearchEvent::BestMove { best, ponder, score } => {
            if !best.is_some() {
                return vec![match dialect {
                    Dialect::Uci => "bestmove (none)".to_string(),
                    Dialect::Ucci => "nobestmove".to_string(),
                }];
            }
            let mut line = format!("bestmove {best}");
            if let Some(p) = ponder {
                line.push_str(&format!(" ponder {p}"));
            }
            if dialect == Dialect::Ucci {
                if *score <= -MATE_BOUND {
                    line.push_str(" resign");
                } else if (draw_offered && *score <= 0) || eval::is_dead_draw(pos) {
                    line.push_str(" draw");
                }
            }
            vec![line]
        }
    }
}

/// The UCCI `pophash` reply for a table entry.
pub fn pophash(entry: Option<TtEntry>) -> String {
    let Some(e) = entry else { return "pophash".to_string() };
    let mut line = "pophash".to_string();
    if e.mv.is_some() {
        line.push_str(&format!(" bestmove {}", e.mv));
    }
    let score = ucci_score(e.score);
    if matches!(e.bound, Bound::Lower | Bound::Exact) {
        line.push_str(&format!(" lowerbound {score} depth {}", e.depth.max(0)));
    }
    if matches!(e.bound, Bound::Upper | Bound::Exact) {
        line.push_str(&format!(" upperbound {score} depth {}", e.depth.max(0)));
    }
    line
}
