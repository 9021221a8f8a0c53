//! What a `go` command asks for, independent of the protocol that asked.

use crate::types::Move;

/// Limits and options of one search. Every protocol maps its `go` keywords
/// onto these fields (UCI `wtime`/`btime`, UCCI `time`/`opptime`, …).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Remaining clock time in milliseconds, indexed by colour (Red, Black).
    pub time: [Option<u64>; 2],
    /// Increment per move in milliseconds, indexed by colour.
    pub inc: [u64; 2],
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Exact time for this move, in milliseconds.
    pub movetime: Option<u64>,
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (summed over threads).
    pub nodes: Option<u64>,
    /// Stop when a mate in this many moves (or shorter) is found.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder: the clock does not run until `ponderhit`.
    pub ponder: bool,
    /// The clocks are the engine's own estimate (CECP pondering, begun
    /// before the GUI sends its `time`), not the GUI's: nothing to learn
    /// the GUI's latency from.
    pub clock_estimated: bool,
    /// Only these root moves (empty = all).
    pub search_moves: Vec<Move>,
    /// Never these root moves (UCCI `banmoves`).
    pub ban_moves: Vec<Move>,
}

impl SearchLimits {
    /// True if the search budgets its own time from a game clock (not a
    /// fixed `movetime`, which is used in full, nor depth/nodes/infinite).
    pub fn manages_time(&self) -> bool {
        self.movetime.is_none() && self.time.iter().any(Option::is_some)
    }
}
