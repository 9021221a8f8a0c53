//! Finding the ruling window (rules.md §4 and §7): where the current position
//! occurred before, looking only at positions with the same side to move
//! since the last capture and the last null move.
//!
//! This is the part that runs at every search node, so it only compares the
//! keys already kept in the position's state records.

use crate::board::Position;

/// Distances back, in plies, to the two most recent earlier occurrences of
/// the current position (the nearer one first), within the reversible part
/// of the history.
#[inline]
fn earlier_occurrences(pos: &Position) -> (Option<usize>, Option<usize>) {
    if !pos.may_repeat() {
        return (None, None);
    }
    let history = pos.history();
    // Positions after the last capture and the last null move, and never
    // before the position the history starts from.
    let end = usize::from(pos.rule60().min(pos.plies_from_null())).min(history.len());
    if end < 4 {
        return (None, None);
    }
    let key = pos.key();
    let n = history.len();
    // history[n - i] is the position i plies ago; i = 4, 6, …, end (same side to move).
    let mut found =
        history[n - end..=n - 4].iter().rev().step_by(2).enumerate().filter(|(_, st)| st.key == key);
    let mut distance = || found.next().map(|(j, _)| 4 + 2 * j);
    let first = distance();
    let second = if first.is_some() { distance() } else { None };
    (first, second)
}

/// The game-level window (§4): if the current position occurs for the third
/// time (or later), the number of plies back to its third-to-last occurrence.
pub(super) fn game_window(pos: &Position) -> Option<usize> {
    earlier_occurrences(pos).1
}

/// The in-search window (§7, simple version): the third occurrence rules over
/// the window from the third-to-last occurrence; a second occurrence rules
/// over one cycle, but only when the earlier occurrence lies strictly inside
/// the search tree (`ply_from_root` > its distance).
#[inline]
pub(super) fn search_window(pos: &Position, ply_from_root: usize) -> Option<usize> {
    match earlier_occurrences(pos) {
        (_, Some(second)) => Some(second),
        (Some(first), None) if ply_from_root > first => Some(first),
        _ => None,
    }
}
