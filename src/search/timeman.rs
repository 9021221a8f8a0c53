//! Time management: how long to think about one move.
//!
//! Two limits come out of the clock: a soft one (do not start another
//! iteration after it) and a hard one (stop the search at once). The hard
//! limit always leaves the move overhead and a safety margin on the clock.

use std::time::Duration;

use super::limits::SearchLimits;
use crate::types::Color;

/// Soft and hard thinking-time limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    /// Do not start a new iteration after this much time.
    pub soft: Option<Duration>,
    /// Stop the search after this much time.
    pub hard: Option<Duration>,
}

impl TimeManager {
    /// Limits for `side` to move under `limits`, keeping `overhead_ms` per
    /// move for communication delays.
    pub fn new(limits: &SearchLimits, side: Color, overhead_ms: u64) -> TimeManager {
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
        let mtg = limits.movestogo.map_or(32, |m| m.clamp(1, 40)) as u64;
        let (ideal, hard) = if mtg == 1 {
            (usable * 7 / 10, usable * 9 / 10)
        } else {
            let ideal = usable / mtg + inc * 3 / 4;
            (ideal.min(usable * 4 / 10), (ideal * 4).min(usable * 7 / 10))
        };
        let soft = ideal * 8 / 10;
        TimeManager { soft: Some(ms(soft.max(1))), hard: Some(ms(hard.max(1))) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_leave_time_on_the_clock() {
        let l = SearchLimits { time: [Some(1000), Some(1000)], ..Default::default() };
        let tm = TimeManager::new(&l, Color::Red, 30);
        assert!(tm.hard.unwrap() < Duration::from_millis(700));
        assert!(tm.soft.unwrap() <= tm.hard.unwrap());
        let l = SearchLimits { time: [Some(5), None], ..Default::default() };
        let tm = TimeManager::new(&l, Color::Red, 30);
        assert!(tm.hard.unwrap() <= Duration::from_millis(1));
        let l = SearchLimits { movetime: Some(300), ..Default::default() };
        assert_eq!(TimeManager::new(&l, Color::Black, 10).hard, Some(Duration::from_millis(290)));
        let l = SearchLimits { depth: Some(5), ..Default::default() };
        assert!(TimeManager::new(&l, Color::Black, 10).hard.is_none());
        let l =
            SearchLimits { infinite: true, movetime: Some(100), time: [Some(1000); 2], ..Default::default() };
        assert!(TimeManager::new(&l, Color::Red, 10).hard.is_none());
    }
}
