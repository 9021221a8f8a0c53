//! The latency a GUI adds to every move, learnt from the clocks it sends.
//!
//! A GUI charges a move from the moment it sends `go` (or the opponent's
//! move) until it has read the engine's answer: the engine's own thinking
//! plus pipes, scheduling on a busy machine, and the GUI's own work (drawing
//! and animating the move, refereeing). Only the thinking is the engine's to
//! measure; the rest shows in the next clock the GUI sends. Before move `n`
//! the clock is `C(n)`; the engine thinks `t(n)` and the GUI adds `inc`
//! after charging `t(n) + L(n)`, so at the engine's next move
//! `L(n) = C(n) + inc - t(n) - C(n+1)`. The mean of the last few such
//! samples is the latency the time manager plans with when it is larger
//! than `Move Overhead`; the largest of them (but one) is the drain its
//! reserve holds against. The same clocks give the game's base time (the largest
//! clock of each side since the game began), of which the reserve keeps a
//! share.

use super::limits::SearchLimits;
use crate::types::Color;

/// Samples kept: the estimate follows a machine that gets busier within a
/// few moves.
const WINDOW: usize = 8;

/// A sample above this (milliseconds) is not a latency: a clock set anew
/// (a new game that the GUI did not announce, a clock changed by hand).
const MAX_SAMPLE_MS: i64 = 2000;

/// A sample below this (milliseconds) is not one either; small negative
/// ones are rounding (CECP clocks come in centiseconds) and count as 0.
const MIN_SAMPLE_MS: i64 = -50;

/// A clock the GUI sent for a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Clock {
    side: Color,
    ply: u32,
    clock_ms: u64,
    inc_ms: u64,
    /// Its move ends a period of a `movestogo` control: the next clock is
    /// refilled, not charged.
    period_end: bool,
}

/// See the module comment.
#[derive(Clone, Debug, Default)]
pub struct Latency {
    /// The GUI's clock for the running search.
    current: Option<Clock>,
    /// The last search that ended with a timed move, and the engine's own
    /// thinking time for it (from `ponderhit` when pondering).
    last: Option<(Clock, u64)>,
    samples: [u64; WINDOW],
    count: usize,
    /// The ply of the last clock observed: a lower one starts a new game.
    game_ply: u32,
    /// The largest clock of each side since the game began (its base time).
    base_ms: [u64; 2],
}

impl Latency {
    /// No samples: the estimate is 0.
    pub fn new() -> Latency {
        Latency::default()
    }

    /// A clock from the GUI for `side` to move at `ply` under `limits`
    /// (at `go`, or for CECP at a ponder hit): when it follows the engine's
    /// previous timed move in the same game, it is a sample. Estimated
    /// clocks are not.
    pub fn observe(&mut self, limits: &SearchLimits, side: Color, ply: u32) {
        if limits.clock_estimated {
            return;
        }
        // The side's game clock (a fixed time a move says nothing of it).
        let clock = limits.time[side.index()].filter(|_| limits.movetime.is_none());
        if let Some(clock_ms) = clock {
            if ply < self.game_ply {
                self.base_ms = [0; 2];
            }
            self.game_ply = ply;
            self.base_ms[side.index()] = self.base_ms[side.index()].max(clock_ms);
        }
        self.current = clock.filter(|_| !limits.infinite).map(|clock_ms| Clock {
            side,
            ply,
            clock_ms,
            inc_ms: limits.inc[side.index()],
            period_end: limits.movestogo == Some(1),
        });
        let (Some(last), Some(now)) = (self.last.take(), self.current) else { return };
        let (before, thought_ms) = last;
        if before.side != side || before.ply + 2 != ply || before.period_end {
            return;
        }
        let sample = before.clock_ms as i64 + before.inc_ms as i64 - thought_ms as i64 - now.clock_ms as i64;
        if (MIN_SAMPLE_MS..=MAX_SAMPLE_MS).contains(&sample) {
            self.samples[self.count % WINDOW] = sample.max(0) as u64;
            self.count += 1;
        }
    }

    /// The search under the last observed clock ended: with a move after
    /// thinking `thought_ms`, or `None` (a ponder search that missed, a
    /// search stopped otherwise).
    pub fn searched(&mut self, thought_ms: Option<u64>) {
        let current = self.current.take();
        self.last = current.zip(thought_ms);
    }

    /// The mean of the last samples, in milliseconds (0 without any).
    pub fn estimate_ms(&self) -> u64 {
        let n = self.count.min(WINDOW);
        if n == 0 {
            return 0;
        }
        self.samples[..n].iter().sum::<u64>() / n as u64
    }

    /// The largest but one of the last samples (one hiccup does not
    /// count; with fewer than two, 0), in milliseconds.
    pub fn peak_ms(&self) -> u64 {
        let mut recent = self.samples;
        let recent = &mut recent[..self.count.min(WINDOW)];
        recent.sort_unstable();
        recent.iter().rev().nth(1).copied().unwrap_or(0)
    }

    /// The largest clock `side` has had in the game under way (its base
    /// time, or more where increments piled up), in milliseconds; 0 before
    /// any clock. A clock at a lower ply than the last one begins a new game.
    pub fn base_ms(&self, side: Color) -> u64 {
        self.base_ms[side.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64) -> SearchLimits {
        SearchLimits { time: [Some(ms), Some(ms)], inc: [inc; 2], ..Default::default() }
    }

    /// A search at `ply` under `limits` that thought `thought` ms.
    fn search(l: &mut Latency, limits: &SearchLimits, side: Color, ply: u32, thought: Option<u64>) {
        l.observe(limits, side, ply);
        l.searched(thought);
    }

    #[test]
    fn the_clock_the_gui_sends_next_gives_the_latency() {
        let mut l = Latency::new();
        // 10 s + 0.1 s: the engine thinks 200 ms, the GUI takes 260 from
        // the clock: 9840 ms at the next move, a latency of 60 ms.
        search(&mut l, &clock(10_000, 100), Color::Red, 0, Some(200));
        search(&mut l, &clock(9_840, 100), Color::Red, 2, Some(300));
        assert_eq!(l.estimate_ms(), 60);
        // 300 ms thought and 9640 ms at the next move: none; the mean of 60 and 0.
        l.observe(&clock(9_640, 100), Color::Red, 4);
        assert_eq!(l.estimate_ms(), 30);
    }

    #[test]
    fn a_cecp_ponder_hit_reads_the_clock_sent_with_the_move() {
        let mut l = Latency::new();
        search(&mut l, &clock(10_000, 100), Color::Red, 0, Some(200));
        // Pondering starts on the engine's estimate (10000 - 200 + 100):
        // nothing learnt from it.
        let estimate = SearchLimits { clock_estimated: true, ponder: true, ..clock(9_900, 100) };
        l.observe(&estimate, Color::Red, 2);
        assert_eq!(l.count, 0);
        // The hit comes with the GUI's clock, 9820: 80 ms of latency. The
        // search then thinks 150 ms from the hit.
        l.observe(&clock(9_820, 100), Color::Red, 2);
        l.searched(Some(150));
        assert_eq!(l.estimate_ms(), 80);
        // A miss: the ponder search ends while pondering, then a search on
        // the GUI's clock; only the search after that gives a sample.
        l.observe(&SearchLimits { clock_estimated: true, ponder: true, ..clock(9_770, 100) }, Color::Red, 4);
        l.searched(None);
        search(&mut l, &clock(9_700, 100), Color::Red, 4, Some(100));
        search(&mut l, &clock(9_600, 100), Color::Red, 6, Some(100));
        assert_eq!((l.count, l.estimate_ms()), (2, (80 + 100) / 2));
    }

    #[test]
    fn only_a_continued_game_gives_a_sample() {
        let mut l = Latency::new();
        search(&mut l, &clock(10_000, 100), Color::Red, 0, Some(200));
        // Another game (the ply went back), the other side, a ponder miss.
        search(&mut l, &clock(9_000, 100), Color::Red, 0, Some(200));
        l.observe(&clock(9_000, 100), Color::Black, 2);
        search(&mut l, &clock(10_000, 100), Color::Red, 0, None);
        l.observe(&clock(9_000, 100), Color::Red, 2);
        // The end of a period: the clock is refilled.
        search(&mut l, &SearchLimits { movestogo: Some(1), ..clock(1_000, 0) }, Color::Red, 0, Some(500));
        l.observe(&clock(60_000, 0), Color::Red, 2);
        // A clock set anew.
        search(&mut l, &clock(1_000, 0), Color::Red, 0, Some(100));
        l.observe(&clock(60_000, 0), Color::Red, 2);
        assert_eq!(l.estimate_ms(), 0);
        // Small negative samples (rounding) count as 0; the window keeps 8.
        search(&mut l, &clock(1_000, 0), Color::Red, 0, Some(100));
        l.observe(&clock(920, 0), Color::Red, 2);
        assert_eq!((l.count, l.estimate_ms()), (1, 0));
        for ply in (2..20).step_by(2) {
            search(&mut l, &clock(1_000, 0), Color::Red, ply, Some(100));
            l.observe(&clock(800, 0), Color::Red, ply + 2);
        }
        assert_eq!(l.estimate_ms(), 100);
    }

    #[test]
    fn the_peak_is_the_largest_sample_but_one() {
        let mut l = Latency::new();
        assert_eq!(l.peak_ms(), 0);
        // 10 s + 0.1 s, 100 ms thought a move; the GUI takes 20, 150, 60,
        // 300 (a hiccup), 40 ms.
        let mut left = 10_000;
        search(&mut l, &clock(left, 100), Color::Red, 0, Some(100));
        for (i, latency) in [20, 150, 60, 300, 40].into_iter().enumerate() {
            left -= latency;
            search(&mut l, &clock(left, 100), Color::Red, 2 * i as u32 + 2, Some(100));
        }
        assert_eq!((l.estimate_ms(), l.peak_ms()), (114, 150));
    }

    #[test]
    fn the_base_time_is_the_largest_clock_of_the_game() {
        let mut l = Latency::new();
        assert_eq!(l.base_ms(Color::Red), 0);
        search(&mut l, &clock(10_000, 100), Color::Red, 0, Some(300));
        l.observe(&clock(12_000, 100), Color::Black, 1);
        search(&mut l, &clock(9_800, 100), Color::Red, 2, Some(100));
        assert_eq!((l.base_ms(Color::Red), l.base_ms(Color::Black)), (10_000, 12_000));
        // A fixed time a move says nothing of it.
        search(&mut l, &SearchLimits { movetime: Some(500), ..clock(60_000, 0) }, Color::Red, 4, Some(500));
        assert_eq!(l.base_ms(Color::Red), 10_000);
        // A new game (the ply went back) at another control.
        search(&mut l, &clock(5_000, 50), Color::Red, 0, Some(100));
        assert_eq!((l.base_ms(Color::Red), l.base_ms(Color::Black)), (5_000, 0));
    }
}
