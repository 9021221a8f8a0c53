//! Turns for the helper threads when a search has more threads than cores.
//!
//! A thousand threads all runnable on two cores starve everyone: the
//! scheduler hands each a slice in turn, so the thread that answers `stop`
//! or watches the clock (the engine's control thread, the main search
//! thread) waits up to seconds for a core, and a thread preempted while it
//! holds a lock holds it that long. The gate keeps the runnable set at the
//! number of cores: the main search thread always runs; the helpers share
//! the remaining cores (at least one) in turns, in first-come order, each
//! parked (not runnable) while it waits. A helper gives up its turn every
//! few thousand nodes ([`Gate::pass`]). Once the search has stopped, each
//! helper notices it in its next turn and leaves, handing the turn on: the
//! runnable set stays small while a thousand threads wind down.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::Thread;

/// Turns for the helper threads of one search (see the module comment).
pub struct Gate {
    state: Mutex<State>,
    /// Per thread id: a turn has been handed to it while it was parked.
    granted: Box<[AtomicBool]>,
}

struct State {
    /// Turns nobody holds.
    free: usize,
    /// Parked helpers in the order they asked for a turn.
    queue: VecDeque<(usize, Thread)>,
}

impl Gate {
    /// A gate of `turns` concurrent turns (at least one) for the helpers of
    /// a search of `threads` threads.
    pub fn new(turns: usize, threads: usize) -> Gate {
        Gate {
            // Room for every thread: queueing never allocates.
            state: Mutex::new(State { free: turns.max(1), queue: VecDeque::with_capacity(threads) }),
            granted: (0..threads).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Thread `id` waits for a turn (returns at once when one is free).
    pub fn enter(&self, id: usize) {
        let mut state = self.state();
        if state.free > 0 {
            state.free -= 1;
            return;
        }
        state.queue.push_back((id, std::thread::current()));
        drop(state);
        self.park_until_granted(id);
    }

    /// Thread `id`, which holds a turn, hands it to the helper that has
    /// waited longest, if any, and queues for the next one.
    pub fn pass(&self, id: usize) {
        let mut state = self.state();
        let Some((next, thread)) = state.queue.pop_front() else { return };
        self.grant(next, &thread);
        state.queue.push_back((id, std::thread::current()));
        drop(state);
        self.park_until_granted(id);
    }

    /// A helper that holds a turn is done with the search: its turn goes to
    /// the helper that has waited longest, or back to the free ones.
    pub fn leave(&self) {
        let mut state = self.state();
        match state.queue.pop_front() {
            Some((next, thread)) => self.grant(next, &thread),
            None => state.free += 1,
        }
    }

    fn grant(&self, id: usize, thread: &Thread) {
        self.granted[id].store(true, Ordering::Release);
        thread.unpark();
    }

    fn park_until_granted(&self, id: usize) {
        // `park` may return spuriously; the flag says whether the turn came.
        while !self.granted[id].swap(false, Ordering::Acquire) {
            std::thread::park();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicUsize;

    /// However the helpers pass their turns, no more than `turns` of them
    /// run at once, and every one of them gets to finish.
    #[test]
    fn at_most_the_turns_run_at_once_and_all_finish() {
        for turns in [1, 2, 3] {
            let threads = 12;
            let gate = Arc::new(Gate::new(turns, threads));
            let running = Arc::new(AtomicUsize::new(0));
            let most = Arc::new(AtomicUsize::new(0));
            let handles: Vec<_> = (0..threads)
                .map(|id| {
                    let (gate, running, most) = (Arc::clone(&gate), Arc::clone(&running), Arc::clone(&most));
                    std::thread::spawn(move || {
                        gate.enter(id);
                        for _ in 0..50 {
                            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(now, Ordering::SeqCst);
                            std::hint::spin_loop();
                            running.fetch_sub(1, Ordering::SeqCst);
                            gate.pass(id);
                        }
                        gate.leave();
                    })
                })
                .collect();
            for h in handles {
                h.join().unwrap();
            }
            assert!(
                most.load(Ordering::SeqCst) <= turns,
                "{} ran at once with {turns} turns",
                most.load(Ordering::SeqCst)
            );
        }
    }
}
