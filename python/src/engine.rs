//! `Engine`: the Chariot search in the process. Each `Engine` owns the
//! engine facade the protocols drive (`chariot::engine::Engine`: its thread
//! pool, transposition table and options) and reads the search's events
//! from its channel. A search runs with the GIL released; the calling thread
//! wakes every few milliseconds to let Python handle signals, so Ctrl-C
//! stops the search (its threads are stopped and joined) and raises
//! `KeyboardInterrupt`. Engines are independent: several may search at once
//! from several Python threads.

use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use chariot::engine::{self as core, DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS};
use chariot::eval::wdl;
use chariot::search::SearchEvent;
use chariot::search::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO};
use chariot::search::{SearchInfo, SearchLimits};
use chariot::types::MAX_MOVES;
use chariot::types::score::Reported;

use crate::args::{opt_int_in, seconds};
use crate::board::{Board, rule_set};
use crate::moves::Move;

/// How often a waiting search lets Python check for signals.
const SIGNAL_POLL: Duration = Duration::from_millis(20);
/// The depth searched when no limit is given.
const DEFAULT_DEPTH: u32 = 12;
/// The deepest search accepted.
const MAX_DEPTH: u64 = 128;

/// The engine and the channel its searches report on.
struct Core {
    engine: core::Engine,
    events: Receiver<SearchEvent>,
}

/// What one search reported.
struct Finished {
    /// The last exact report of each line (index: multipv − 1).
    lines: Vec<Option<SearchInfo>>,
    best: chariot::types::Move,
    /// The static evaluation of the root, from the side to move's view
    /// (the score of a depth-0 line).
    static_eval: i32,
    /// Nodes searched.
    nodes: u64,
}

impl Finished {
    /// The reported lines; when the limit stopped the search before its
    /// first iteration ended, the move chosen alone as a depth-0 line
    /// scored by the static evaluation.
    fn into_lines(self, pos: &chariot::board::Position) -> Vec<SearchInfo> {
        let lines: Vec<SearchInfo> = self.lines.into_iter().flatten().collect();
        if !lines.is_empty() || !self.best.is_some() {
            return lines;
        }
        vec![SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score: self.static_eval,
            bound: None,
            nodes: self.nodes,
            nps: 0,
            hashfull: 0,
            time_ms: 0,
            pv: vec![self.best],
            wdl: wdl::wdl(self.static_eval, wdl::material(pos)),
        }]
    }
}

/// A Chariot engine: `Engine(threads=1, hash_mb=16, rules="asian",
/// eval="nnue", skill=None, elo=None)`.
#[pyclass(module = "chariot", frozen)]
pub struct Engine {
    core: Mutex<Core>,
}

/// The search limits from the Python keywords (`movetime` in seconds).
fn limits(
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
    movetime: Option<&Bound<'_, PyAny>>,
) -> PyResult<SearchLimits> {
    let mut limits = SearchLimits {
        depth: opt_int_in(depth, "depth", 1..=MAX_DEPTH)?.map(|d| d as u32),
        nodes: opt_int_in(nodes, "nodes", 1..=u64::MAX >> 1)?,
        ..SearchLimits::default()
    };
    if let Some(t) = movetime.filter(|t| !t.is_none()) {
        limits.movetime = Some(((seconds(t, "movetime")? * 1000.0).round() as u64).max(1));
    }
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        limits.depth = Some(DEFAULT_DEPTH);
    }
    Ok(limits)
}

/// The lock of an engine, waited for without the GIL (another thread may
/// hold it while searching); a poisoned lock (a panic in an earlier call) is
/// taken anyway, as the engine's state stays consistent between calls.
fn lock<'a>(py: Python<'_>, core: &'a Mutex<Core>) -> MutexGuard<'a, Core> {
    loop {
        match core.try_lock() {
            Ok(guard) => return guard,
            Err(TryLockError::Poisoned(e)) => return e.into_inner(),
            // Busy: wait for the holder to let go without the GIL (the
            // holder may need it to finish), then try again with it.
            Err(TryLockError::WouldBlock) => py.detach(|| drop(core.lock())),
        }
    }
}

/// Runs one search of `board` and collects its reports. The GIL is released
/// while waiting; a pending signal (Ctrl-C) stops the search and is raised.
fn search(
    py: Python<'_>,
    core: &mut Core,
    board: &Board,
    limits: SearchLimits,
    multipv: usize,
) -> PyResult<Finished> {
    while core.events.try_recv().is_ok() {}
    core.engine.config_mut().multipv = multipv;
    core.engine.set_game(board.pos.clone());
    core.engine.go(limits);
    let mut lines: Vec<Option<SearchInfo>> = vec![None; multipv];
    loop {
        let events = &core.events;
        let event = py.detach(|| events.recv_timeout(SIGNAL_POLL));
        match event {
            Ok(SearchEvent::Info(info)) => {
                if info.bound.is_none()
                    && let Some(slot) = lines.get_mut(info.multipv.saturating_sub(1))
                {
                    *slot = Some(info);
                }
            }
            Ok(SearchEvent::BestMove { best, .. }) => {
                let engine = &mut core.engine;
                py.detach(|| engine.wait());
                let static_eval = engine.static_eval();
                return Ok(Finished { lines, best, static_eval, nodes: engine.last_nodes() });
            }
            Ok(SearchEvent::Message(_)) => {}
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    let engine = &mut core.engine;
                    py.detach(|| {
                        engine.stop();
                        engine.wait();
                    });
                    while core.events.try_recv().is_ok() {}
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyValueError::new_err("the search ended without a move"));
            }
        }
    }
}

/// One line of an analysis as a dict.
fn line_dict<'py>(py: Python<'py>, info: &SearchInfo) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let (cp, mate) = match Reported::from_score(info.score) {
        Reported::Cp(cp) => (Some(cp), None),
        Reported::Mate(n) => (None, Some(n)),
    };
    d.set_item("multipv", info.multipv)?;
    d.set_item("score", cp)?;
    d.set_item("mate", mate)?;
    d.set_item("wdl", (info.wdl.win, info.wdl.draw, info.wdl.loss))?;
    d.set_item("depth", info.depth)?;
    d.set_item("seldepth", info.seldepth)?;
    d.set_item("nodes", info.nodes)?;
    d.set_item("nps", info.nps)?;
    d.set_item("time", info.time_ms as f64 / 1000.0)?;
    d.set_item("hashfull", info.hashfull)?;
    d.set_item("pv", info.pv.iter().copied().map(Move::of).collect::<Vec<_>>())?;
    Ok(d)
}

#[pymethods]
impl Engine {
    /// A new engine. `threads`: search threads (1–1024); `hash_mb`: the
    /// transposition table in MB (1–1048576); `rules`: `"asian"` or
    /// `"chinese"`, the rules the search follows; `eval`: `"nnue"` (the
    /// built-in network) or `"classical"`; `skill`: a skill level 0–20
    /// (None: full strength); `elo`: play at this Elo, 800–2800 (overrides
    /// `skill`); `network`: a network file (`chariot train`'s output) to
    /// evaluate with instead of the built-in one.
    #[new]
    #[pyo3(signature = (threads = None, hash_mb = None, rules = "asian", eval = "nnue", skill = None, elo = None, network = None))]
    #[allow(clippy::too_many_arguments)] // the keyword arguments of the Python constructor
    fn new(
        py: Python<'_>,
        threads: Option<&Bound<'_, PyAny>>,
        hash_mb: Option<&Bound<'_, PyAny>>,
        rules: &str,
        eval: &str,
        skill: Option<&Bound<'_, PyAny>>,
        elo: Option<&Bound<'_, PyAny>>,
        network: Option<String>,
    ) -> PyResult<Engine> {
        let threads = opt_int_in(threads, "threads", 1..=MAX_THREADS as u64)?.map_or(1, |t| t as usize);
        let hash_mb =
            opt_int_in(hash_mb, "hash_mb", 1..=MAX_HASH_MB as u64)?.map_or(DEFAULT_HASH_MB, |h| h as usize);
        let skill = opt_int_in(skill, "skill", 0..=MAX_LEVEL as u64)?.map(|s| s as u8);
        let elo = opt_int_in(elo, "elo", MIN_ELO as u64..=MAX_ELO as u64)?.map(|e| e as u16);
        let set = rule_set(rules)?;
        let nnue = match eval.trim().to_ascii_lowercase().as_str() {
            "nnue" => true,
            "classical" => false,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown eval '{}' (nnue or classical)",
                    crate::notation::quote(eval)
                )));
            }
        };
        let (sender, events) = unbounded();
        let core = py.detach(move || -> Result<Core, String> {
            let mut engine = core::Engine::new(sender);
            engine.set_hash_mb(hash_mb)?;
            engine.set_threads(threads)?;
            if let Some(path) = &network {
                engine.set_network_file(path)?;
            }
            engine.set_use_nnue(nnue);
            let config = engine.config_mut();
            config.rules.set = set;
            if let Some(s) = skill {
                config.strength.skill_level = s;
            }
            if let Some(e) = elo {
                config.strength.limit_strength = true;
                config.strength.elo = e;
            }
            Ok(Core { engine, events })
        });
        Ok(Engine { core: Mutex::new(core.map_err(PyValueError::new_err)?) })
    }

    /// Searches `board` and returns one dict per line, best first:
    /// `score` (centipawns from the side to move's view, None for a mate),
    /// `mate` (moves to mate, negative when mated; None otherwise), `wdl`
    /// (win, draw, loss in permille), `depth`, `seldepth`, `nodes`, `nps`,
    /// `time` (seconds), `hashfull`, `multipv` and `pv` (a list of `Move`s).
    /// Limits: `depth` (plies), `nodes`, `movetime` (seconds); several end
    /// the search at the first reached; none means depth 12. A limit that
    /// stops the search before its first iteration ends gives one line of
    /// depth 0 (the move chosen). An empty list if the side to move has no
    /// legal move.
    #[pyo3(signature = (board, *, depth = None, nodes = None, movetime = None, multipv = None))]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        board: &Bound<'_, Board>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        movetime: Option<&Bound<'_, PyAny>>,
        multipv: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let multipv = opt_int_in(multipv, "multipv", 1..=MAX_MOVES as u64)?.map_or(1, |m| m as usize);
        let limits = limits(depth, nodes, movetime)?;
        // A copy: the caller's board stays free for other threads meanwhile.
        let board = board.try_borrow().map_err(|e| PyValueError::new_err(e.to_string()))?.clone();
        if !board.pos.has_legal_move() {
            return Ok(Vec::new());
        }
        let mut core = lock(py, &self.core);
        let finished = search(py, &mut core, &board, limits, multipv)?;
        finished.into_lines(&board.pos).iter().map(|info| line_dict(py, info)).collect()
    }

    /// The move the engine plays in `board` (limits as for `analyse`).
    /// `ValueError` if the side to move has no legal move.
    #[pyo3(signature = (board, *, depth = None, nodes = None, movetime = None))]
    fn play(
        &self,
        py: Python<'_>,
        board: &Bound<'_, Board>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        movetime: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Move> {
        let limits = limits(depth, nodes, movetime)?;
        // A copy: the caller's board stays free for other threads meanwhile.
        let board = board.try_borrow().map_err(|e| PyValueError::new_err(e.to_string()))?.clone();
        if !board.pos.has_legal_move() {
            return Err(PyValueError::new_err(format!("no legal move in {}", board.pos.fen())));
        }
        let mut core = lock(py, &self.core);
        let finished = search(py, &mut core, &board, limits, 1)?;
        if finished.best.is_some() {
            Ok(Move::of(finished.best))
        } else {
            Err(PyValueError::new_err(format!("the search found no move in {}", board.pos.fen())))
        }
    }

    /// Forgets what earlier searches learnt (the table and the histories),
    /// as before a new game.
    fn new_game(&self, py: Python<'_>) -> PyResult<()> {
        let mut core = lock(py, &self.core);
        let engine = &mut core.engine;
        py.detach(|| engine.new_game()).map_err(PyValueError::new_err)
    }

    /// The number of search threads.
    #[getter]
    fn threads(&self, py: Python<'_>) -> usize {
        lock(py, &self.core).engine.threads()
    }

    /// The transposition table's size in MB.
    #[getter]
    fn hash_mb(&self, py: Python<'_>) -> usize {
        lock(py, &self.core).engine.hash_mb()
    }

    /// `"asian"` or `"chinese"`.
    #[getter]
    fn rules(&self, py: Python<'_>) -> &'static str {
        lock(py, &self.core).engine.config().rules.set.name()
    }

    /// `"nnue"` or `"classical"`.
    #[getter]
    fn eval(&self, py: Python<'_>) -> &'static str {
        if lock(py, &self.core).engine.uses_nnue() { "nnue" } else { "classical" }
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let core = lock(py, &self.core);
        let e = &core.engine;
        let eval = if e.uses_nnue() { "nnue" } else { "classical" };
        format!(
            "Engine(threads={}, hash_mb={}, rules='{}', eval='{eval}')",
            e.threads(),
            e.hash_mb(),
            e.config().rules.set.name()
        )
    }
}
