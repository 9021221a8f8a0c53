//! What the threads of one search share, and how the move to play is chosen
//! from their results.
//!
//! Every thread publishes its result after each iteration it completes (and
//! once more when it stops). The search is concluded once, by whoever gets
//! there first: the main thread when it decides to stop, or the engine's
//! control thread on `stop` or at the hard time limit when the main thread
//! has not answered (with more search threads than cores a thread can wait
//! a long while for a core). Concluding does not wait for the helpers: they
//! have published what they finished, and they stop on their own.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender, bounded};
use once_cell::sync::Lazy;

use super::gate::Gate;
use super::skill::Skill;
use super::timeman::{GuiTiming, TimeManager};
use super::{SearchConfig, SearchEvent, SearchInfo, SearchLimits};
use crate::board::Position;
use crate::eval::wdl::{material, wdl};
use crate::tt::TranspositionTable;
use crate::types::Move;
use crate::types::score::{MATE_BOUND, NONE};

/// Cores this process may use.
static CORES: Lazy<usize> = Lazy::new(|| std::thread::available_parallelism().map_or(1, |n| n.get()));

/// A node counter on its own cache line.
#[repr(align(64))]
#[derive(Default)]
pub struct NodeCounter(pub AtomicU64);

/// A thread's answer: its best root move so far and what backs it.
#[derive(Clone, Debug)]
pub struct ThreadResult {
    /// Its best root move ([`Move::NONE`] before the first iteration).
    pub best: Move,
    /// The score of that move.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: i32,
    /// The greatest ply that iteration reached on its principal variation.
    pub seldepth: usize,
    /// Its principal variation.
    pub pv: Vec<Move>,
}

impl ThreadResult {
    /// No result yet.
    pub const NONE: ThreadResult =
        ThreadResult { best: Move::NONE, score: NONE, depth: 0, seldepth: 0, pv: Vec::new() };
}

/// Everything the threads of one search share. Created per `go`.
pub struct SearchShared {
    /// The transposition table.
    pub tt: Arc<TranspositionTable>,
    /// Set to stop every thread.
    pub stop: AtomicBool,
    /// True while pondering: the clock does not run.
    pub pondering: AtomicBool,
    /// Milliseconds after `start` at which the clock started (set by `ponderhit`).
    pub clock_offset_ms: AtomicU64,
    /// The deepest iteration any thread has completed (0: no move to play yet).
    pub deepest: AtomicI32,
    /// Nodes searched, per thread (published every few hundred nodes).
    pub nodes: Box<[NodeCounter]>,
    /// The limits given by `go`.
    pub limits: SearchLimits,
    /// The thinking time those limits allow (replaced at a ponder hit that
    /// brings the GUI's clock, [`SearchShared::retime`]).
    time: Budget,
    /// Engine settings.
    pub config: SearchConfig,
    /// How to play below full strength (`None` at full strength): only the
    /// main thread searches then.
    pub skill: Option<Skill>,
    /// The position to search, with its game history.
    pub root: Position,
    /// The root moves allowed (legal, after `searchmoves` and `banmoves`).
    pub root_moves: Vec<Move>,
    /// When `go` arrived.
    pub start: Instant,
    /// With more search threads than cores, the turns the helpers take for
    /// the cores (the main thread never waits for one); None otherwise.
    pub gate: Option<Gate>,
    /// Where progress and the final move go (through [`SearchShared::emit`]
    /// and [`SearchShared::conclude`]).
    events: Sender<SearchEvent>,
    /// Each thread's latest result.
    published: Box<[Mutex<ThreadResult>]>,
    /// The clock's milliseconds when the move was reported (`u64::MAX`
    /// until then, and for a search concluded while pondering).
    thought_ms: AtomicU64,
    /// Set by the one call of [`SearchShared::conclude`] that reports the
    /// move; held while an event is sent, so that nothing follows the move.
    concluded: Mutex<bool>,
    /// Receives `()` once the move has been reported.
    done: Sender<()>,
}

/// A [`TimeManager`]'s limits in atomics, so that a running search can be
/// given new ones (`u64::MAX`: none).
struct Budget {
    soft_ms: AtomicU64,
    hard_ms: AtomicU64,
}

impl Budget {
    fn new(time: TimeManager) -> Budget {
        let budget = Budget { soft_ms: AtomicU64::new(u64::MAX), hard_ms: AtomicU64::new(u64::MAX) };
        budget.set(time);
        budget
    }

    fn set(&self, time: TimeManager) {
        let ms = |d: Option<std::time::Duration>| d.map_or(u64::MAX, |d| d.as_millis() as u64);
        self.soft_ms.store(ms(time.soft), Ordering::Relaxed);
        self.hard_ms.store(ms(time.hard), Ordering::Relaxed);
    }

    fn soft(&self) -> Option<std::time::Duration> {
        Budget::duration(&self.soft_ms)
    }

    fn hard(&self) -> Option<std::time::Duration> {
        Budget::duration(&self.hard_ms)
    }

    fn duration(ms: &AtomicU64) -> Option<std::time::Duration> {
        Some(ms.load(Ordering::Relaxed)).filter(|&ms| ms != u64::MAX).map(std::time::Duration::from_millis)
    }
}

impl SearchShared {
    /// The shared state of a search of `root` by `threads` threads; the
    /// receiver gets `()` once the move has been reported.
    pub fn new(
        tt: Arc<TranspositionTable>,
        threads: usize,
        limits: SearchLimits,
        config: SearchConfig,
        root: Position,
        root_moves: Vec<Move>,
        events: Sender<SearchEvent>,
    ) -> (Arc<SearchShared>, Receiver<()>) {
        let start = Instant::now();
        let time = TimeManager::new(&limits, root.side_to_move(), root.move_number_ply(), config.gui);
        let (done, done_rx) = bounded(1);
        let shared = SearchShared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(limits.ponder),
            clock_offset_ms: AtomicU64::new(0),
            deepest: AtomicI32::new(0),
            nodes: (0..threads).map(|_| NodeCounter::default()).collect(),
            limits,
            time: Budget::new(time),
            skill: config.strength.skill(),
            config,
            root,
            root_moves,
            start,
            events,
            gate: (threads > *CORES).then(|| Gate::new(CORES.saturating_sub(1), threads)),
            published: (0..threads).map(|_| Mutex::new(ThreadResult::NONE)).collect(),
            thought_ms: AtomicU64::new(u64::MAX),
            concluded: Mutex::new(false),
            done,
        };
        (Arc::new(shared), done_rx)
    }

    /// Total nodes of all threads (as last published).
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Ordering::Relaxed)).sum()
    }

    /// How long the search thought by the clock (from `ponderhit` when it
    /// pondered) before it reported its move; `None` before that, and for
    /// a search that ended while pondering.
    pub fn thought_ms(&self) -> Option<u64> {
        Some(self.thought_ms.load(Ordering::Relaxed)).filter(|&ms| ms != u64::MAX)
    }

    /// Milliseconds since the clock started (after `ponderhit` when pondering).
    pub(super) fn clock_ms(&self) -> u64 {
        (self.start.elapsed().as_millis() as u64).saturating_sub(self.clock_offset_ms.load(Ordering::Relaxed))
    }

    /// When the search must have stopped by the clock: None without a time
    /// limit, while pondering, and until some thread has a move to play
    /// (the first iteration is never cut short).
    pub fn deadline(&self) -> Option<Instant> {
        if self.pondering.load(Ordering::Relaxed) || self.deepest.load(Ordering::Acquire) < 1 {
            return None;
        }
        let offset = std::time::Duration::from_millis(self.clock_offset_ms.load(Ordering::Relaxed));
        self.time.hard().map(|hard| self.start + offset + hard)
    }

    /// The thinking time the clock allows now.
    pub fn time(&self) -> TimeManager {
        TimeManager { soft: self.time.soft(), hard: self.time.hard() }
    }

    /// The search began on clocks the engine estimated (CECP pondering):
    /// plans its time again on the GUI's clocks `limits`, given with the
    /// move that hit, and on what `gui` says of the GUI and the game.
    pub fn retime(&self, limits: &SearchLimits, gui: GuiTiming) {
        let root = &self.root;
        self.time.set(TimeManager::new(limits, root.side_to_move(), root.move_number_ply(), gui));
    }

    /// Thread `id`'s latest result replaces its previous one.
    pub(super) fn publish(&self, id: usize, result: ThreadResult) {
        // A completed iteration (depth >= 1) always comes with a move.
        let depth = result.depth;
        let old =
            std::mem::replace(&mut *self.published[id].lock().unwrap_or_else(|e| e.into_inner()), result);
        // Freed outside the lock: the lock is held for a move only.
        drop(old);
        self.deepest.fetch_max(depth, Ordering::Release);
    }

    /// The published result of the deepest completed iteration (the best
    /// scored one among equally deep), if any thread has completed one.
    pub(super) fn deepest_result(&self) -> Option<ThreadResult> {
        self.published
            .iter()
            .map(|slot| slot.lock().unwrap_or_else(|e| e.into_inner()).clone())
            .filter(|r| r.depth >= 1)
            .max_by_key(|r| (r.depth, r.score))
    }

    /// Reports the move to play (with a last `info` line when a helper's
    /// deeper result wins) and signals the end of the search. Only the first
    /// call does anything.
    pub fn conclude(&self) {
        let mut concluded = self.concluded.lock().unwrap_or_else(|e| e.into_inner());
        if *concluded {
            return;
        }
        *concluded = true;
        self.stop.store(true, Ordering::Relaxed);
        if !self.pondering.load(Ordering::Relaxed) {
            self.thought_ms.store(self.clock_ms(), Ordering::Relaxed);
        }
        let results: Vec<ThreadResult> = self
            .published
            .iter()
            .map(|slot| slot.lock().unwrap_or_else(|e| e.into_inner()).clone())
            .collect();
        let main_depth = results[0].depth;
        let mut best = pick_best_thread(&results);
        if !best.best.is_some() {
            // No thread has finished an iteration (stopped at once): the
            // table's move, else any allowed move, beats no move.
            let tt_move =
                self.tt.probe(self.root.key()).map(|e| e.mv).filter(|m| self.root_moves.contains(m));
            best.best = tt_move.or(self.root_moves.first().copied()).unwrap_or(Move::NONE);
        }
        if best.depth > main_depth && best.score != NONE {
            let elapsed = self.start.elapsed();
            let nodes = self.total_nodes();
            let _ = self.events.send(SearchEvent::Info(SearchInfo {
                depth: best.depth as u32,
                seldepth: best.seldepth.max(best.depth as usize) as u32,
                multipv: 1,
                score: best.score,
                bound: None,
                nodes,
                nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64,
                hashfull: self.tt.hashfull(),
                time_ms: elapsed.as_millis() as u64,
                pv: legal_prefix(&self.root, &best.pv),
                wdl: wdl(best.score, material(&self.root)),
            }));
        }
        let ponder = best
            .pv
            .get(1)
            .copied()
            .filter(|_| best.pv.first() == Some(&best.best))
            .or_else(|| self.ponder_from_tt(best.best));
        let _ = self.events.send(SearchEvent::BestMove { best: best.best, ponder, score: best.score });
        let _ = self.done.send(());
    }

    /// Sends `info` unless the move has been reported already (a thread
    /// that reports after the engine concluded for it is too late).
    pub(super) fn emit(&self, info: SearchInfo) {
        let concluded = self.concluded.lock().unwrap_or_else(|e| e.into_inner());
        if !*concluded {
            let _ = self.events.send(SearchEvent::Info(info));
        }
    }

    /// A reply to `best` from the transposition table, if it is legal.
    fn ponder_from_tt(&self, best: Move) -> Option<Move> {
        if !best.is_some() {
            return None;
        }
        let mut pos = self.root.clone();
        pos.do_move(best);
        let m = self.tt.probe(pos.key())?.mv;
        (pos.is_pseudo_legal(m) && pos.is_legal(m)).then_some(m)
    }
}

/// The longest prefix of `pv` that is a legal line from `root`.
pub(super) fn legal_prefix(root: &Position, pv: &[Move]) -> Vec<Move> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        if !(pos.is_pseudo_legal(m) && pos.is_legal(m)) {
            break;
        }
        pos.do_move(m);
        out.push(m);
    }
    out
}

/// Picks the move to play from the threads' results: each thread votes for
/// its best move, weighted by its depth and score; the deepest thread among
/// the winners supplies the principal variation.
fn pick_best_thread(results: &[ThreadResult]) -> ThreadResult {
    let valid: Vec<&ThreadResult> = results.iter().filter(|r| r.best.is_some()).collect();
    let Some(first) = valid.first() else { return ThreadResult::NONE };
    if valid.len() == 1 {
        return (*first).clone();
    }
    let min_score = valid.iter().map(|r| r.score).min().unwrap_or(0);
    let mut votes: Vec<(Move, i64)> = Vec::new();
    for r in &valid {
        let w = (r.score - min_score + 14) as i64 * r.depth.max(1) as i64;
        match votes.iter_mut().find(|(m, _)| *m == r.best) {
            Some(v) => v.1 += w,
            None => votes.push((r.best, w)),
        }
    }
    let winner = votes.iter().max_by_key(|(_, w)| *w).map(|(m, _)| *m).expect("non-empty");
    let best = valid
        .iter()
        .filter(|r| r.best == winner)
        .max_by_key(|r| (r.depth, r.score))
        .expect("the winner came from some thread");
    // A proven mate from any thread beats the vote.
    let mate = valid.iter().filter(|r| r.score >= MATE_BOUND).max_by_key(|r| r.score);
    (*mate.unwrap_or(best)).clone()
}
