//! The engine facade the protocols drive: the game position, the options,
//! the transposition table and the thread pool. It never prints; a search
//! reports through [`SearchEvent`]s on the channel given to [`Engine::new`].

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use crate::board::zobrist::SplitMix64;
use crate::board::{FenError, Position};
use crate::book::OwnBook;
use crate::book::probe::Candidate;
use crate::eval::{self, nnue::Network};
use crate::rules::{self, Ruling};
use crate::search::latency::Latency;
use crate::search::{GuiTiming, SearchConfig, SearchEvent, SearchLimits, SearchShared};
use crate::threads::ThreadPool;
use crate::tt::TranspositionTable;
use crate::types::Move;

/// Why a `position` command was not (fully) applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The FEN was refused; the engine keeps its previous position.
    BadFen(FenError),
    /// Move number `index` (0-based) is malformed or illegal; the position
    /// reached before it is kept.
    IllegalMove {
        /// Index of the move in the list.
        index: usize,
        /// The move as given.
        text: String,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::BadFen(e) => write!(f, "invalid FEN: {e}"),
            PositionError::IllegalMove { index, text } => {
                let shown: String = text.chars().take(16).flat_map(char::escape_debug).collect();
                write!(
                    f,
                    "illegal move '{shown}' (move {} of the list); kept the position before it",
                    index + 1
                )
            }
        }
    }
}

/// Plays `moves` (in `h2e2` form) on `pos`. At the first malformed or illegal
/// move, stops with `pos` at the position reached before it.
pub fn play_moves<S: AsRef<str>>(pos: &mut Position, moves: &[S]) -> Result<(), PositionError> {
    pos.reserve(moves.len() + 256);
    for (index, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        let m = pos
            .parse_legal_move(text)
            .ok_or_else(|| PositionError::IllegalMove { index, text: text.to_string() })?;
        pos.do_move(m);
    }
    Ok(())
}

/// Default transposition table size in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest transposition table accepted, in megabytes.
pub const MAX_HASH_MB: usize = 1 << 20;
/// Largest thread count accepted.
pub const MAX_THREADS: usize = 1024;
/// How long [`Engine::stop`] waits for the main search thread to report.
pub const STOP_GRACE: Duration = Duration::from_millis(3);

struct Running {
    shared: Arc<SearchShared>,
    done: Receiver<()>,
}

/// See the module comment.
pub struct Engine {
    pool: ThreadPool,
    tt: Arc<TranspositionTable>,
    pos: Position,
    config: SearchConfig,
    events: Sender<SearchEvent>,
    running: Option<Running>,
    last_nodes: u64,
    book: OwnBook,
    /// The network `EvalFile` loaded (the built-in one by default); the
    /// search uses it when `Use NNUE` is on.
    network: Arc<Network>,
    /// The evaluation the table's scores and the histories come from (the
    /// network, or `None`: classical): when the next search evaluates
    /// otherwise, both are cleared first, or the old evaluation's scores
    /// would steer it.
    table_eval: Option<Arc<Network>>,
    /// The GUI's latency, learnt from the clocks of timed searches.
    latency: Latency,
}

impl Engine {
    /// An engine with one thread and a 16 MB table, at the start position.
    pub fn new(events: Sender<SearchEvent>) -> Engine {
        let mut config = SearchConfig::default();
        config.strength.seed = process_seed();
        let network = Network::embedded();
        // `Use NNUE` is on by default: searches evaluate with the built-in network.
        config.network = Some(Arc::clone(&network));
        Engine {
            pool: ThreadPool::with_main_thread(),
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            pos: Position::startpos(),
            config,
            events,
            running: None,
            last_nodes: 0,
            book: OwnBook::new(),
            table_eval: Some(Arc::clone(&network)),
            network,
            latency: Latency::new(),
        }
    }

    /// The current game position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The search settings (MultiPV, move overhead, rules, strength, network).
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The search settings (MultiPV, move overhead, move limit).
    pub fn config_mut(&mut self) -> &mut SearchConfig {
        &mut self.config
    }

    /// Sets the position from a FEN and a list of moves. On an illegal move,
    /// keeps the position reached before it and says which move it was.
    pub fn set_position<S: AsRef<str>>(&mut self, fen: &str, moves: &[S]) -> Result<(), PositionError> {
        let mut pos = Position::from_fen(fen).map_err(PositionError::BadFen)?;
        let result = play_moves(&mut pos, moves);
        self.pos = pos;
        result
    }

    /// Sets the game position to `pos`, history included (for tools that
    /// play whole games: no FEN to parse, no moves to replay).
    pub fn set_game(&mut self, pos: Position) {
        self.pos = pos;
    }

    /// Plays the legal move `m` on the game position. A running search is
    /// not disturbed (it searches a copy), but its result is for the
    /// position before the move.
    pub fn play(&mut self, m: Move) {
        self.pos.do_move(m);
    }

    /// Takes back the last move of the game; false if there is none since
    /// the FEN the game was set up from.
    pub fn take_back(&mut self) -> bool {
        let any = self.pos.game_ply() > 0;
        if any {
            self.pos.undo_move();
        }
        any
    }

    /// Evaluates with the network (`Use NNUE`) or classically, from the
    /// next search on.
    pub fn set_use_nnue(&mut self, on: bool) {
        self.config.network = on.then(|| Arc::clone(&self.network));
    }

    /// True if searches evaluate with the network.
    pub fn uses_nnue(&self) -> bool {
        self.config.network.is_some()
    }

    /// The network searches evaluate with (`None`: classically).
    pub fn search_network(&self) -> Option<Arc<Network>> {
        self.config.network.clone()
    }

    /// The network (`EvalFile`), used when `Use NNUE` is on.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// Loads the network `path` names (`EvalFile`, see [`Network::named`])
    /// for the next searches. A file that cannot be read
    /// or is no valid network leaves the network as it was; the error says
    /// why, and which network is kept.
    pub fn set_network_file(&mut self, path: &str) -> Result<(), String> {
        let net =
            Network::named(path).map_err(|e| format!("{e}; keeping the network {}", self.network.name()))?;
        self.network = net;
        // With the network on, the next search uses the new one.
        self.set_use_nnue(self.uses_nnue());
        Ok(())
    }

    /// The static evaluation of the current position, by the evaluation
    /// the search uses, from the side to move's view.
    pub fn static_eval(&self) -> i32 {
        match &self.config.network {
            Some(net) => eval::evaluate_with(net, &self.pos),
            None => eval::evaluate(&self.pos),
        }
    }

    /// The opening book settings (`OwnBook`, `BookFile`, `BookVariety`).
    pub fn book_mut(&mut self) -> &mut OwnBook {
        &mut self.book
    }

    /// The book moves that may be played in the current position, with
    /// their chances (empty when the book is off).
    pub fn book_moves(&mut self) -> Vec<Candidate> {
        let legal = self.pos.legal_moves();
        self.book.candidates(&mut self.pos, self.config.rules, &legal)
    }

    /// Starts searching the current position (returns at once). A search
    /// already running is stopped first.
    ///
    /// With the book on, a position with a playable book move (see
    /// [`crate::book::probe`]) is answered with it unless the `go` asks for
    /// an analysis (`infinite`) or a mate search: the move is announced in a
    /// message and searched alone to depth 1, which takes microseconds and
    /// reports a score (the GUI's draw and resign logic gets one); a
    /// `ponder` search then waits for `ponderhit` or `stop` as usual.
    pub fn go(&mut self, mut limits: SearchLimits) {
        self.stop();
        self.wait();
        // Say so when the game is already over by the rules (the GUI may
        // still want a move, e.g. for analysis, so the search runs anyway).
        let ruling = self.ruling();
        if ruling.outcome.is_some() {
            let _ = self.events.send(SearchEvent::Message(format!("game over: {}", ruling.summary())));
        }
        let legal = self.pos.legal_moves();
        let allowed = |m: &Move| {
            (limits.search_moves.is_empty() || limits.search_moves.contains(m))
                && !limits.ban_moves.contains(m)
        };
        self.latency.observe(&limits, self.pos.side_to_move(), self.pos.move_number_ply());
        let mut root_moves: Vec<Move> = legal.iter().copied().filter(allowed).collect();
        if root_moves.is_empty() {
            root_moves = legal.to_vec();
        }
        if !limits.infinite
            && limits.mate.is_none()
            && ruling.outcome.is_none()
            && let Some(choice) = self.book.choose(&mut self.pos, self.config.rules, &root_moves)
        {
            let _ = self.events.send(SearchEvent::Message(choice.describe()));
            root_moves = vec![choice.mv()];
            limits = SearchLimits { depth: Some(1), ponder: limits.ponder, ..SearchLimits::default() };
        }
        self.forget_other_evaluation();
        self.tt.new_search();
        let mut config = self.config.clone();
        config.gui = self.gui_timing();
        let (shared, done) = SearchShared::new(
            Arc::clone(&self.tt),
            self.pool.len(),
            limits,
            config,
            self.pos.clone(),
            root_moves,
            self.events.clone(),
        );
        self.pool.start(&shared);
        self.running = Some(Running { shared, done });
    }

    /// Clears the table and the histories if they were filled by another
    /// evaluation than the one the next search uses (`Use NNUE` or
    /// `EvalFile` changed since).
    fn forget_other_evaluation(&mut self) {
        let identity = |net: &Option<Arc<Network>>| net.as_ref().map(Arc::as_ptr);
        if identity(&self.table_eval) != identity(&self.config.network) {
            self.pool.clear();
            if let Err(e) = self.clear_hash() {
                let _ = self.events.send(SearchEvent::Message(e));
            }
            self.table_eval = self.config.network.clone();
        }
    }

    /// The rule arbiter's verdict on the current position of the game.
    pub fn ruling(&mut self) -> Ruling {
        rules::adjudicate(&mut self.pos, self.config.rules)
    }

    /// Stops the running search; its move has been reported on return. The
    /// main search thread answers within a millisecond when it has a core;
    /// if it has not answered within [`STOP_GRACE`] (more threads than
    /// cores can keep it waiting for one), the move is chosen here from what
    /// the threads have published.
    pub fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.shared.stop.store(true, Ordering::Release);
            if !self.wait_for(STOP_GRACE)
                && let Some(r) = &self.running
            {
                r.shared.conclude();
                self.wait();
            }
        }
    }

    /// When the running search must stop by the clock, if it has a time
    /// limit and the clock runs. The main search thread keeps to it; the
    /// caller should call [`Engine::stop`] if the search is still running
    /// then.
    pub fn deadline(&self) -> Option<Instant> {
        self.running.as_ref().and_then(|r| r.shared.deadline())
    }

    /// What the time manager knows besides the clock: per move `Move
    /// Overhead`, or the latency the GUI has been seen to add when that is
    /// more; the largest latency of late; the side to move's base time.
    fn gui_timing(&self) -> GuiTiming {
        GuiTiming {
            overhead_ms: self.config.move_overhead_ms.max(self.latency.estimate_ms()),
            peak_ms: self.latency.peak_ms(),
            base_ms: self.latency.base_ms(self.pos.side_to_move()),
        }
    }

    /// The GUI's latency per move as the engine has seen it (the mean of
    /// the last samples, 0 before any), in milliseconds.
    pub fn gui_latency_ms(&self) -> u64 {
        self.latency.estimate_ms()
    }

    /// The opponent played the expected move: the clock starts now. `real`:
    /// the GUI's clocks, when the search began on clocks the engine
    /// estimated (CECP pondering: the GUI sends `time` with the move that
    /// hits); they are read for the GUI's latency, and the search's time
    /// is planned again on them.
    pub fn ponderhit(&mut self, real: Option<&SearchLimits>) {
        if let Some(limits) = real {
            self.latency.observe(limits, self.pos.side_to_move(), self.pos.move_number_ply());
        }
        if let Some(r) = &self.running
            && r.shared.pondering.load(Ordering::Relaxed)
        {
            if let Some(limits) = real.filter(|l| l.manages_time()) {
                r.shared.retime(limits, self.gui_timing());
            }
            let ms = r.shared.start.elapsed().as_millis() as u64;
            r.shared.clock_offset_ms.store(ms, Ordering::Relaxed);
            r.shared.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// True while a search runs (until its `BestMove` has been sent).
    pub fn is_searching(&mut self) -> bool {
        if let Some(r) = &self.running
            && r.done.try_recv().is_ok()
        {
            self.finish();
        }
        self.running.is_some()
    }

    /// Waits up to `timeout` for the running search to report its move;
    /// true if no search is running any more.
    pub fn wait_for(&mut self, timeout: Duration) -> bool {
        if let Some(r) = &self.running {
            match r.done.recv_timeout(timeout) {
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => return false,
                _ => self.finish(),
            }
        }
        true
    }

    /// Blocks until the running search (if any) has reported its move.
    pub fn wait(&mut self) {
        if let Some(r) = &self.running {
            let _ = r.done.recv();
            self.finish();
        }
    }

    fn finish(&mut self) {
        if let Some(r) = self.running.take() {
            self.last_nodes = r.shared.total_nodes();
            self.latency.searched(r.shared.thought_ms());
        }
    }

    /// True if a search is running that will not end by itself: `infinite`,
    /// or pondering before `ponderhit` (both wait for the GUI).
    pub fn is_endless(&self) -> bool {
        self.running.as_ref().is_some_and(|r| {
            !r.shared.stop.load(Ordering::Relaxed)
                && (r.shared.limits.infinite || r.shared.pondering.load(Ordering::Relaxed))
        })
    }

    /// The table entry of `pos`, if any (UCCI `probe`).
    pub fn probe(&self, pos: &Position) -> Option<crate::tt::TtEntry> {
        self.tt.probe(pos.key())
    }

    /// Nodes searched by the last finished search.
    pub fn last_nodes(&self) -> u64 {
        self.last_nodes
    }

    /// Nodes searched so far by the running search, or by the last one.
    pub fn nodes_searched(&self) -> u64 {
        self.running.as_ref().map_or(self.last_nodes, |r| r.shared.total_nodes())
    }

    /// New game: clears every thread's histories and the table (once the
    /// threads are idle, nothing else holds the old table).
    pub fn new_game(&mut self) -> Result<(), String> {
        self.wait();
        // A weakened engine chooses differently in each game.
        self.config.strength.seed = SplitMix64(self.config.strength.seed).next_u64();
        self.pool.clear();
        self.clear_hash()
    }

    /// Empties the transposition table: nothing to do if no search has used
    /// it; writing zeros over it up to [`crate::tt::IN_PLACE_MB`], where its
    /// memory is likely all in use and a search would otherwise pay for
    /// fresh pages as it touches them; above that a new table, which is
    /// immediate however large (writing zeros over gigabytes the system has
    /// not handed out yet takes many seconds). The new table fails only if
    /// the memory just freed is taken meanwhile (by another program, or by
    /// threads still ending a stopped search); it is then 1 MB and the error
    /// says so.
    pub fn clear_hash(&mut self) -> Result<(), String> {
        self.wait();
        let mb = self.tt.size_mb();
        if !self.tt.is_used() {
            Ok(())
        } else if mb <= crate::tt::IN_PLACE_MB {
            self.tt.clear(self.pool.len());
            Ok(())
        } else {
            self.replace_table(mb)
                .map_err(|_| format!("cannot allocate {mb} MB for the hash again; it has 1 MB"))
        }
    }

    /// Resizes the transposition table (clamped to 1..=[`MAX_HASH_MB`]); the
    /// table is empty afterwards. If the memory cannot be had, the table keeps
    /// its old size (or less if even that is gone) and the error says so.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
        self.wait();
        let mb = mb.clamp(1, MAX_HASH_MB);
        if mb == self.tt.size_mb() {
            return Ok(());
        }
        let old = self.tt.size_mb();
        self.replace_table(mb).map_err(|_| {
            let _ = self.replace_table(old);
            format!("cannot allocate {mb} MB for the hash; keeping {} MB", self.tt.size_mb())
        })
    }

    /// Replaces the table by an empty one of `mb` megabytes. The old one is
    /// dropped first, so the two need memory at once only while threads of a
    /// stopped search still hold it (a few nodes' time). On failure the
    /// table is left at the smallest size.
    fn replace_table(&mut self, mb: usize) -> Result<(), ()> {
        self.tt = Arc::new(TranspositionTable::new(1));
        let table = TranspositionTable::try_new(mb).ok_or(())?;
        self.tt = Arc::new(table);
        Ok(())
    }

    /// Current transposition table size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Sets the number of search threads (clamped to 1..=[`MAX_THREADS`]).
    /// If the system will not start that many, the pool has as many as it
    /// could start and the error says so.
    pub fn set_threads(&mut self, n: usize) -> Result<(), String> {
        self.wait();
        let n = n.clamp(1, MAX_THREADS);
        self.pool.resize(n).map_err(|e| format!("could start only {} of {n} threads: {e}", self.pool.len()))
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.pool.len()
    }
}

/// A seed that differs from one run of the program to the next (the time
/// and the process id), so that a weakened engine started afresh for each
/// game does not repeat its games.
fn process_seed() -> u64 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    SplitMix64(nanos ^ u64::from(std::process::id()).rotate_left(32)).next_u64()
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}
