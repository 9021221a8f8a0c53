//! The rule arbiter: how a xiangqi game ends under the Asian rules
//! (`docs/rules.md` in the shared documents).
//!
//! * [`adjudicate`]: the game-level ruling after a move (no legal move loses,
//!   then repetition at the third occurrence, then the no-capture limit),
//!   with the window and a readable reason.
//! * [`search_ruling`]: the cheap in-search version (rules.md §7), called at
//!   every non-root node; it only compares keys unless a position repeats.
//!
//! Both take the position explicitly, hold no state, and leave the position
//! exactly as they found it (chase detection takes moves back and replays
//! them). Modules: `repetition` finds the window, `chase` computes threat
//! sets, `window` classifies the window's moves and applies the decision
//! table, `verdict` holds the answer types.

mod chase;
mod repetition;
mod verdict;
mod window;

pub use chase::threats;
pub use verdict::{MoveClass, Outcome, Rule, Ruling, SideClass, Victim, Window, WindowMove};

use crate::board::Position;

/// The default no-capture limit: 120 plies (60 rounds).
pub const DEFAULT_MOVE_LIMIT: u16 = 120;

/// The game-level ruling at the current position of a game played with
/// [`Position::do_move`] (rules.md §1, §4–6, §8), in this order:
///
/// 1. the side to move has no legal move: it loses (checkmate or stalemate);
/// 2. the position occurs for the third time (or later) since the last
///    capture: the repetition ruling over the window from its third-to-last
///    occurrence;
/// 3. `move_limit` plies without a capture (0 = no limit): draw;
/// 4. otherwise the game goes on (`outcome` is `None`).
///
/// `pos` is left exactly as it was.
pub fn adjudicate(pos: &mut Position, move_limit: u16) -> Ruling {
    let side = pos.side_to_move();
    if !pos.has_legal_move() {
        let rule =
            if pos.in_check() { Rule::Checkmate { loser: side } } else { Rule::Stalemate { loser: side } };
        return Ruling { outcome: Some(Outcome::win_for(!side)), rule, window: None };
    }
    if let Some(len) = repetition::game_window(pos) {
        let mut facts = Vec::with_capacity(len);
        let tally = window::classify(pos, len, Some(&mut facts));
        return Ruling::repetition(pos, &tally, &facts);
    }
    let plies = pos.rule60();
    if limit_reached(pos, move_limit) {
        return Ruling {
            outcome: Some(Outcome::Draw),
            rule: Rule::MoveLimit { plies, limit: move_limit },
            window: None,
        };
    }
    Ruling { outcome: None, rule: Rule::Ongoing { plies }, window: None }
}

/// The in-search ruling at a non-root node `ply_from_root` plies below the
/// root (rules.md §7, the simple version), in absolute terms; `None` means
/// search on.
///
/// * A third occurrence rules over the window from the third-to-last one.
/// * A second occurrence rules over one cycle when the earlier occurrence is
///   strictly inside the tree (`ply_from_root` > its distance back).
/// * Then `move_limit` plies without a capture (0 = no limit): a draw, or a
///   loss for the side to move if it has no legal move.
///
/// The scan never passes the last capture or null move. Without a repeated
/// key this is a short loop over the stored keys; chase sets are computed
/// only when a key repeats, and not at all when a side checked on every move
/// of the window. `pos` is left exactly as it was. The search does its own
/// no-legal-move test elsewhere (a repeated position always has moves).
#[inline]
pub fn search_ruling(pos: &mut Position, ply_from_root: usize, move_limit: u16) -> Option<Outcome> {
    if let Some(len) = repetition::search_window(pos, ply_from_root) {
        let tally = window::classify(pos, len, None);
        return Some(window::decide(&tally).outcome());
    }
    if limit_reached(pos, move_limit) {
        let side = pos.side_to_move();
        return Some(if pos.has_legal_move() { Outcome::Draw } else { Outcome::win_for(!side) });
    }
    None
}

/// True if the no-capture limit (`move_limit` plies, 0 = off) has been reached.
#[inline]
fn limit_reached(pos: &Position, move_limit: u16) -> bool {
    move_limit != 0 && pos.rule60() >= move_limit
}
