//! The grace a session gives its remaining work when the input ends (or a
//! `quit` is queued) after the input has had malformed lines: such input is
//! no script to honour in full (a GUI gone wrong, or a fuzzer), so the
//! session ends [`QUIT_GRACE`] later whatever is still to do.

use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, at, never};

/// How long a queued `quit`, or the end of the input, waits for the work
/// still to do once the input has had malformed lines.
pub const QUIT_GRACE: Duration = Duration::from_secs(2);

/// Whether the input has had a malformed line, and when the grace ends.
#[derive(Default)]
pub struct QuitGrace {
    malformed: bool,
    deadline: Option<Instant>,
}

impl QuitGrace {
    /// Notes one line of input (`malformed` if it could not be parsed).
    pub fn saw(&mut self, malformed: bool) {
        self.malformed |= malformed;
    }

    /// The input has ended or a `quit` was queued: after malformed input the
    /// remaining work gets [`QUIT_GRACE`] from the first such moment.
    pub fn start(&mut self) {
        if self.malformed {
            self.deadline.get_or_insert(Instant::now() + QUIT_GRACE);
        }
    }

    /// A channel that fires when the grace is over (never, if none runs).
    pub fn timer(&self) -> Receiver<Instant> {
        self.deadline.map_or_else(never, at)
    }
}
