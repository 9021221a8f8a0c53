//! The engine of a protocol session, built on a thread of its own from the
//! start: allocating the hash table takes several milliseconds, and the
//! handshake need not wait for it. Both sessions (UCI/UCCI and CECP) use it.

use std::cell::{Cell, OnceCell};
use std::ops::{Deref, DerefMut};
use std::thread::JoinHandle;

use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, at, never};

use crate::engine::Engine;
use crate::search::SearchEvent;

/// How long after its hard time limit a search is stopped from the protocol
/// loop if the main search thread has not stopped it.
const DEADLINE_SLACK: Duration = Duration::from_millis(2);

/// See the module comment. The first use of the engine waits for it to be
/// ready.
pub struct LazyEngine {
    engine: OnceCell<Engine>,
    building: Cell<Option<JoinHandle<Engine>>>,
}

impl LazyEngine {
    /// Starts building the engine; its search events will go to `events`.
    pub fn spawn(events: Sender<SearchEvent>) -> LazyEngine {
        let lazy = LazyEngine { engine: OnceCell::new(), building: Cell::new(None) };
        let thread_events = events.clone();
        let builder = std::thread::Builder::new().name("engine-init".into());
        match builder.spawn(move || Engine::new(thread_events)) {
            Ok(handle) => lazy.building.set(Some(handle)),
            // No thread to spare: build it here and now.
            Err(_) => {
                let _ = lazy.engine.set(Engine::new(events));
            }
        }
        lazy
    }

    /// The engine if it has been used already (never waits).
    pub fn built(&self) -> Option<&Engine> {
        self.engine.get()
    }

    /// Fires when the running search should have stopped by the clock: the
    /// main search thread keeps to the clock itself, and this is the
    /// backstop for when it cannot get a core in time ([`Engine::stop`] it
    /// then). Never fires without a timed search.
    pub fn search_deadline(&self) -> Receiver<Instant> {
        self.built().and_then(Engine::deadline).map_or_else(never, |d| at(d + DEADLINE_SLACK))
    }

    /// The engine, once it is built (waits for the build the first time).
    pub fn ready(&self) -> &Engine {
        self.engine.get_or_init(|| {
            let handle = self.building.take().expect("the engine is built once");
            handle.join().expect("building the engine failed")
        })
    }
}

impl Deref for LazyEngine {
    type Target = Engine;

    fn deref(&self) -> &Engine {
        self.ready()
    }
}

impl DerefMut for LazyEngine {
    fn deref_mut(&mut self) -> &mut Engine {
        self.ready();
        self.engine.get_mut().expect("built by ready()")
    }
}
