//! Time management: how long to think about one move.
//!
//! Two limits come out of the clock: a soft one (do not start another
//! iteration after it) and a hard one (stop the search at once). The hard
//! limit always leaves the move overhead and a safety margin on the clock.

use std::time::Duration;

use super::limits::SearchLimits;
use crate::types::Color;

/// The reserve's floor: milliseconds the time manager keeps on the clock
/// however short the time control, large against the latency of a GUI on a
/// busy machine (see docs/clock.md for the measurements).
pub const RESERVE_MS: u64 = 400;

/// The reserve in increments: at longer controls it is this many.
pub const RESERVE_INCS: u64 = 4;

/// The reserve in move overheads: with a GUI seen to be slow (see
/// [`super::latency`]) it is this many of its latencies.
pub const RESERVE_OVERHEADS: u64 = 4;

/// When the overhead is more than the increment (a slow GUI, a fast
/// control), every move drains the clock by the difference however fast
/// the engine answers: the reserve holds that drain for this many moves
/// (or up to the end of a `movestogo` period, when the clock is refilled).
pub const RESERVE_DRAIN_MOVES: u64 = 80;

/// The reserve in base time: at sudden-death controls (with or without
/// increment) at least the base time over this (see docs/clock.md for the
/// game that chose it), ...
pub const RESERVE_BASE_SHARE: u64 = 8;

/// ... but the base time's share no more than this (milliseconds): 100
/// moves of the largest drain seen in a GUI (XBoard charging 30 ms a move
/// more than the increment, see docs/clock.md).
pub const RESERVE_BASE_MAX_MS: u64 = 3_000;

/// Below the reserve a move still gets the clock over this much.
const LEAST_SHARE: u64 = 32;

/// What the engine knows of the GUI and of the game beyond one `go`: the
/// inputs of the time plan besides the clock itself (see
/// [`super::latency`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GuiTiming {
    /// Milliseconds kept per move: `Move Overhead`, or the GUI's mean
    /// latency when that is more.
    pub overhead_ms: u64,
    /// The largest latency the GUI has added to a move of late (but
    /// one: see [`super::latency::Latency::peak_ms`]; 0 when none has
    /// been seen). The plan takes at least the overhead for it.
    pub peak_ms: u64,
    /// The largest clock the side to move has had in this game: its base
    /// time (0 when not known).
    pub base_ms: u64,
}

impl GuiTiming {
    /// Only an overhead of `ms` a move: nothing seen of the GUI or the game.
    pub const fn overhead(ms: u64) -> GuiTiming {
        GuiTiming { overhead_ms: ms, peak_ms: 0, base_ms: 0 }
    }
}

/// Soft and hard thinking-time limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    /// Do not start a new iteration after this much time.
    pub soft: Option<Duration>,
    /// Stop the search after this much time.
    pub hard: Option<Duration>,
}

impl TimeManager {
    /// Limits for `side` to move at `ply` under `limits`, with the GUI and
    /// the game as `gui` says.
    pub fn new(limits: &SearchLimits, side: Color, ply: u32, gui: GuiTiming) -> TimeManager {
        let overhead_ms = gui.overhead_ms;
        let ms = Duration::from_millis;
        if limits.infinite {
            // Until `stop`, whatever else `go` said.
            return TimeManager { soft: None, hard: None };
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead_ms).max(1);
            return TimeManager { soft: Some(ms(t)), hard: Some(ms(t)) };
        }
        let Some(remaining) = limits.time[side.index()] else {
            return TimeManager { soft: None, hard: None };
        };
        let inc = limits.inc[side.index()];
        // Keep the overhead, plus a little more when the clock is nearly empty.
        let usable = remaining.saturating_sub(overhead_ms + remaining.min(1000) / 20).max(1);
        // The reserve: plan as if the clock held only what is above it. The
        // drain of the moves to come (at the GUI's peak latency: a mean
        // near the increment hides moves that cost more) counts up to the
        // end of the period; at sudden death a share of the base time
        // stands for the length of the game.
        let drain_moves =
            limits.movestogo.map_or(RESERVE_DRAIN_MOVES, |m| u64::from(m).min(RESERVE_DRAIN_MOVES));
        let base_share = match limits.movestogo {
            None => (gui.base_ms / RESERVE_BASE_SHARE).min(RESERVE_BASE_MAX_MS),
            Some(_) => 0,
        };
        let reserve = RESERVE_MS
            .max(inc * RESERVE_INCS)
            .max(overhead_ms * RESERVE_OVERHEADS)
            .max(gui.peak_ms.max(overhead_ms).saturating_sub(inc) * drain_moves)
            .max(base_share);
        let spare = usable.saturating_sub(reserve);
        // The least a move gets: what the increment leaves after the
        // overhead, and a small share of what is left, both shrinking with
        // the clock's fill below the reserve (the rest of the increment
        // rebuilds it; when the GUI takes all of the increment, only
        // answering at once slows the drain).
        let fill = usable.min(reserve) as f64 / reserve as f64;
        let least = (inc.saturating_sub(overhead_ms) as f64 * fill * fill
            + (usable.min(reserve) / LEAST_SHARE) as f64 * fill) as u64;
        let (ideal, hard) = match limits.movestogo.map(|m| m.clamp(1, 40) as u64) {
            Some(1) => (spare * 7 / 10, spare * 9 / 10),
            Some(mtg) => {
                let ideal = spare / mtg + inc * 3 / 4;
                (ideal.min(spare * 4 / 10), (ideal * 4).min(spare * 7 / 10))
            }
            None => {
                // Sudden death, with or without increment: the clock above
                // the reserve and the increments of the next 49 moves less
                // their overheads (which may be more than the increments:
                // a slow GUI drains the clock), of which a move takes a share that grows
                // with the game's ply (the middlegame, where games are
                // decided, gets more than the opening), never more than a
                // fifth of the clock above the reserve.
                let horizon = (spare + inc * 49).saturating_sub(overhead_ms * 49);
                let share = 0.012 + f64::from(ply + 3).powf(0.45) * 0.0039;
                let ideal = (horizon as f64 * share).min(spare as f64 / 5.0) as u64;
                let hard_scale = (3.4 + f64::from(ply) / 12.0).min(6.6);
                (ideal, ((ideal as f64 * hard_scale) as u64).min(spare * 7 / 10))
            }
        };
        // Never below the least (then the hard limit is the ideal time:
        // near the reserve no iteration may run on), never more than 7/10
        // of the usable clock.
        let ideal = ideal.max(least).min(usable * 7 / 10);
        let hard = hard.max(ideal).min(usable * 7 / 10);
        let soft = ideal * 8 / 10;
        TimeManager { soft: Some(ms(soft.max(1))), hard: Some(ms(hard.max(1))) }
    }
}

/// What the iterations so far say about the position: the inputs of the
/// decision to start another iteration.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Iterations in a row that kept the same best move (0: it just changed).
    pub stability: u32,
    /// Share of the search's nodes spent below the best move, per cent.
    pub best_share: u64,
    /// How far the score has fallen, in centipawns (negative when it rose):
    /// the mean of the fall since the last search and since a few
    /// iterations ago.
    pub drop: i32,
}

impl Progress {
    /// Per cent of the soft limit the search may use before it starts no
    /// new iteration: more while the best move keeps changing or the score
    /// falls, less when one move takes nearly all the nodes or the score rises.
    pub fn soft_percent(&self) -> u64 {
        let stability: u64 = match self.stability {
            0 => 160,
            1 => 120,
            2..=3 => 100,
            _ => 75,
        };
        let share = (170 - self.best_share.min(100) as i64).clamp(70, 130) as u64;
        let drop = (100 + i64::from(self.drop)).clamp(85, 150) as u64;
        stability * share * drop / 10_000
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_leave_time_on_the_clock() {
        let l = SearchLimits { time: [Some(1000), Some(1000)], ..Default::default() };
        let tm = TimeManager::new(&l, Color::Red, 0, GuiTiming::overhead(30));
        assert!(tm.hard.unwrap() < Duration::from_millis(700));
        assert!(tm.soft.unwrap() <= tm.hard.unwrap());
        let l = SearchLimits { time: [Some(5), None], ..Default::default() };
        let tm = TimeManager::new(&l, Color::Red, 0, GuiTiming::overhead(30));
        assert!(tm.hard.unwrap() <= Duration::from_millis(1));
        let l = SearchLimits { movetime: Some(300), ..Default::default() };
        assert_eq!(
            TimeManager::new(&l, Color::Black, 0, GuiTiming::overhead(10)).hard,
            Some(Duration::from_millis(290))
        );
        let l = SearchLimits { depth: Some(5), ..Default::default() };
        assert!(TimeManager::new(&l, Color::Black, 0, GuiTiming::overhead(10)).hard.is_none());
        let l =
            SearchLimits { infinite: true, movetime: Some(100), time: [Some(1000); 2], ..Default::default() };
        assert!(TimeManager::new(&l, Color::Red, 0, GuiTiming::overhead(10)).hard.is_none());
    }

    #[test]
    fn the_middlegame_gets_more_than_the_opening() {
        let l = SearchLimits { time: [Some(10_000); 2], inc: [100; 2], ..Default::default() };
        let at = |ply| TimeManager::new(&l, Color::Red, ply, GuiTiming::overhead(30)).soft.unwrap();
        assert!(at(10) < at(40) && at(40) < at(80), "{:?} {:?} {:?}", at(10), at(40), at(80));
        // Never more than a fifth of the clock, however late.
        let l = SearchLimits { time: [Some(1_000); 2], inc: [100; 2], ..Default::default() };
        assert!(
            TimeManager::new(&l, Color::Red, 300, GuiTiming::overhead(30)).soft.unwrap()
                <= Duration::from_millis(200)
        );
    }

    /// (soft, hard) in milliseconds for Red at `ply` with `clock` ms left,
    /// `inc` ms a move and `movestogo`, with a move overhead of 30 ms.
    fn limits(clock: u64, inc: u64, movestogo: Option<u32>, ply: u32) -> (u64, u64) {
        limits_with(clock, inc, movestogo, ply, GuiTiming::overhead(30))
    }

    /// The same with what `gui` says of the GUI and the game.
    fn limits_with(clock: u64, inc: u64, movestogo: Option<u32>, ply: u32, gui: GuiTiming) -> (u64, u64) {
        let l = SearchLimits { time: [Some(clock); 2], inc: [inc; 2], movestogo, ..Default::default() };
        let tm = TimeManager::new(&l, Color::Red, ply, gui);
        (tm.soft.unwrap().as_millis() as u64, tm.hard.unwrap().as_millis() as u64)
    }

    #[test]
    fn a_share_of_the_base_time_is_kept_at_sudden_death() {
        // 10 s + 0.1 s: an eighth of the base, 1.25 s, instead of 4 increments.
        // The full clock: a little less than with the reserve of 400 ms.
        let gui = GuiTiming { base_ms: 10_000, ..GuiTiming::overhead(30) };
        assert_eq!(limits_with(10_000, 100, None, 60, gui), (359, 2963));
        assert_eq!(limits(10_000, 100, None, 60), (384, 3174));
        // With 1.2 s left: little above the reserve, less than the
        // increment, where 4 increments alone would allow 5 of them.
        assert_eq!(limits_with(1_200, 100, None, 60, gui), (69, 87));
        assert_eq!(limits(1_200, 100, None, 60), (115, 504));
        // From 24 s of base on the share is 3 s, however long the base.
        let at =
            |base_ms| limits_with(3_200, 100, None, 60, GuiTiming { base_ms, ..GuiTiming::overhead(30) });
        assert_eq!(at(600_000), (130, 163));
        assert_eq!(at(600_000), at(6_000_000));
        assert_eq!(at(24_000), at(600_000));
        assert_ne!(at(16_000), at(600_000));
        // Not at the end of a period: the clock is refilled there.
        let gui = GuiTiming { base_ms: 300_000, ..GuiTiming::overhead(30) };
        assert_eq!(limits_with(2_000, 0, Some(1), 60, gui), limits(2_000, 0, Some(1), 60));
    }

    #[test]
    fn the_reserve_holds_the_drain_of_the_gui_at_its_peak() {
        // 10 s + 0.1 s, a GUI that takes 90 ms a move on average but 140
        // in its slow moves: the reserve holds 80 moves of 40 ms, 3.2 s.
        let gui = GuiTiming { overhead_ms: 90, peak_ms: 140, base_ms: 10_000 };
        assert_eq!(limits_with(1_700, 100, None, 60, gui), (20, 25));
        // Below the reserve it answers ever faster: nothing of the
        // increment is left to think with, and the share of the clock
        // shrinks with it.
        assert_eq!(limits_with(800, 100, None, 60, gui), (3, 4));
        assert_eq!(limits_with(200, 100, None, 60, gui), (1, 1));
    }

    #[test]
    fn the_reserve_is_kept_at_increment_controls() {
        // 10 s + 0.1 s in the middlegame: the reserve is 400 ms (4 increments).
        // Far above it, a share of the clock.
        assert_eq!(limits(10_000, 100, None, 60), (384, 3174));
        // Just above it: about the increment less the overhead, and never
        // so much that the move takes the clock far below the reserve.
        assert_eq!(limits(600, 100, None, 60), (65, 98));
        // Below it: a fraction of the increment; the rest rebuilds the reserve.
        assert_eq!(limits(250, 100, None, 60), (17, 22));
        // Nearly empty (50 ms, 10 ms a move): answer at once.
        assert_eq!(limits(50, 10, None, 60), (1, 1));
        // At 1 s + 0.01 s the overhead (30 ms) is more than the increment:
        // the reserve holds 80 moves of the difference, 1.6 s; below it a
        // move gets a thirty-second of the usable clock times its fill.
        assert_eq!(limits(300, 10, None, 60), (1, 1));
        assert_eq!(limits(1_000, 10, None, 60), (12, 16));
    }

    #[test]
    fn a_slow_gui_gets_a_larger_reserve() {
        // 10 s + 0.1 s with a GUI seen to take 150 ms a move (see
        // the latency module): the reserve holds 80 moves of the 50 ms
        // drain, 4 s, and the plan pays the drain of the next 49 moves.
        let l = SearchLimits { time: [Some(10_000); 2], inc: [100; 2], ..Default::default() };
        let tm = TimeManager::new(&l, Color::Red, 60, GuiTiming::overhead(150));
        assert_eq!((tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis()), (100, 818));
        let l = SearchLimits { time: [Some(2_500); 2], inc: [100; 2], ..Default::default() };
        let tm = TimeManager::new(&l, Color::Red, 60, GuiTiming::overhead(150));
        assert_eq!((tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis()), (32, 40));
    }

    #[test]
    fn the_reserve_is_kept_at_the_end_of_a_period() {
        // 40 moves in 5 minutes, the last move of the period with 2 s left:
        // at most 1344 ms, leaving more than the reserve (the clock's 7/10
        // and 9/10 of the time before the reserve: 1728 ms, leaving 272).
        assert_eq!(limits(2_000, 0, Some(1), 60), (851, 1344));
        // 10 moves to go with 20 s.
        assert_eq!(limits(20_000, 0, Some(10), 60), (1561, 7808));
        // 5 moves to go and 300 ms, below the reserve: a thirty-second of
        // the clock times its fill.
        assert_eq!(limits(300, 0, Some(5), 60), (3, 4));
    }

    #[test]
    fn the_clock_survives_a_search_that_always_runs_to_its_hard_limit() {
        // The worst case: every move takes the hard limit and the GUI
        // charges a latency below the increment on top. Before the reserve
        // the clock ran out at 10+0.1 (latency 60 ms) after 15 moves and at
        // 5+0.05 (40 ms) after 17; with it the least clock left over 300
        // moves is 738 and 331 ms.
        for (base, inc, latency, least) in
            [(10_000, 100, 60, 738), (5_000, 50, 40, 331), (2_000, 20, 15, 431), (1_000, 10, 8, 441)]
        {
            let (mut clock, mut lowest) = (base, base as i64);
            let gui = GuiTiming { base_ms: base, ..GuiTiming::overhead(30) };
            for moves in 0..300 {
                let (_, hard) = limits_with(clock, inc, None, 2 * moves, gui);
                let left = clock as i64 - hard as i64 - latency;
                lowest = lowest.min(left);
                assert!(left > 0, "{base}+{inc}: the flag fell at move {moves}");
                clock = left as u64 + inc;
            }
            assert_eq!(lowest, least, "{base}+{inc}");
        }
    }

    #[test]
    fn a_gui_slower_than_the_increment_drains_the_clock_slowly() {
        // XBoard late in a long game on a busy machine (docs/clock.md):
        // every move costs 115 ms besides the engine's thinking, 130 in
        // its slow moves, at 10+0.1, and the engine has learnt it; every
        // move takes the hard limit. The flag falls, as it must when the
        // GUI alone takes more than the increment, but only after 124
        // moves; planned on the mean latency alone, after 102.
        for (peak_ms, moves) in [(130, 124), (115, 102)] {
            let gui = GuiTiming { overhead_ms: 115, peak_ms, base_ms: 10_000 };
            let mut clock: i64 = 10_000;
            let mut n = 0;
            while clock > 0 && n < 1000 {
                let (_, hard) = limits_with(clock as u64, 100, None, 2 * n, gui);
                clock += 100 - hard as i64 - 115;
                n += 1;
            }
            assert_eq!(n, moves, "peak {peak_ms}");
        }
    }

    #[test]
    fn progress_scales_the_soft_limit() {
        let p = |stability, best_share, drop| Progress { stability, best_share, drop }.soft_percent();
        // A settled search: same move 2 iterations, 70 % of the nodes, level score.
        assert_eq!(p(2, 70, 0), 100);
        // A new best move, its nodes few, the score falling: the most time.
        assert_eq!(p(0, 20, 80), 160 * 130 * 150 / 10_000);
        // One move taking every node for many iterations, the score rising: the least.
        assert_eq!(p(9, 100, -40), 75 * 70 * 85 / 10_000);
        assert!(p(2, 95, 0) < p(2, 50, 0));
        assert!(p(2, 70, 30) > p(2, 70, 0));
    }
}
