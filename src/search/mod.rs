//! The search: iterative deepening over a principal-variation alpha-beta
//! search with a transposition table, quiescence search, pruning and
//! reductions, run by one or more threads ([`crate::threads`]).

mod gate;
pub mod history;
pub mod latency;
pub mod limits;
pub mod movepick;
mod pvs;
mod shared;
pub mod skill;
pub mod timeman;
pub mod tunables;
mod worker;

use std::sync::Arc;

use crate::eval::nnue::Network;
use crate::eval::wdl::Wdl;
use crate::rules::Rules;
use crate::tt::Bound;
use crate::types::Move;
pub use limits::SearchLimits;
pub use shared::SearchShared;
pub use skill::Strength;
pub use timeman::GuiTiming;
pub use worker::Worker;

/// `Move Overhead`'s default, in milliseconds (see docs/clock.md).
const DEFAULT_OVERHEAD_MS: u64 = 30;

/// Engine settings that shape a search (set through protocol options).
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Number of principal variations to report (MultiPV).
    pub multipv: usize,
    /// Milliseconds kept back per move for communication delays.
    pub move_overhead_ms: u64,
    /// How games are judged: the rule set, the no-capture limit, the kill depth.
    pub rules: Rules,
    /// The strength options (full strength by default).
    pub strength: Strength,
    /// The network to evaluate with (`None`: the classical evaluation).
    pub network: Option<Arc<Network>>,
    /// What the engine has seen of the GUI and the game, for the time
    /// plan (set by the engine before each search from `move_overhead_ms`
    /// and the clocks of earlier searches; not an option).
    pub gui: GuiTiming,
}

impl SearchConfig {
    /// The settings a fresh engine starts with.
    pub const DEFAULT: SearchConfig = SearchConfig {
        multipv: 1,
        move_overhead_ms: DEFAULT_OVERHEAD_MS,
        rules: Rules::DEFAULT,
        strength: Strength::DEFAULT,
        network: None,
        gui: GuiTiming::overhead(DEFAULT_OVERHEAD_MS),
    };
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig::DEFAULT
    }
}

/// One principal variation as reported after an iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which line (1 = best) of a multi-PV search.
    pub multipv: usize,
    /// Score from the side to move's point of view.
    pub score: i32,
    /// `Some` if the score is only a bound (an aspiration window failed).
    pub bound: Option<Bound>,
    /// Nodes searched so far by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The principal variation (a legal line from the root).
    pub pv: Vec<Move>,
    /// Win/draw/loss chances of the score (printed with `UCI_ShowWDL`).
    pub wdl: Wdl,
}

/// What a running search tells the protocol layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEvent {
    /// A finished iteration (or a bound from a failed aspiration window).
    Info(SearchInfo),
    /// The search is over. `best` is [`Move::NONE`] when there is no legal move.
    BestMove {
        /// The move to play.
        best: Move,
        /// The expected reply, if known.
        ponder: Option<Move>,
        /// Score of `best` from the side to move's point of view.
        score: i32,
    },
    /// A message for the user (`info string`).
    Message(String),
}
