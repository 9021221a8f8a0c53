//! One search thread's state and its iterative-deepening loop. The main
//! thread (id 0) also manages time, reports progress and picks the move.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use once_cell::sync::Lazy;

use super::SearchInfo;
use super::history::Histories;
use super::shared::{SearchShared, ThreadResult, legal_prefix};
use super::timeman::Progress;
use super::tunables;
use crate::board::Position;
use crate::eval::Evaluator;
use crate::eval::wdl::{material, wdl};
use crate::rules::Rules;
use crate::tt::Bound;
use crate::types::score::{INFINITE, MATE_BOUND, MAX_PLY, NONE, mate_in, mated_in};
use crate::types::{Color, Move};

/// (block size, phase) of the depths each helper skips: helper `i` skips
/// depth `d` when `(d + phase) / size` is odd.
const SKIP_BLOCKS: [(i32, i32); 20] = [
    (1, 1),
    (2, 0),
    (2, 1),
    (2, 2),
    (2, 3),
    (3, 0),
    (3, 1),
    (3, 2),
    (3, 3),
    (3, 4),
    (3, 5),
    (4, 0),
    (4, 1),
    (4, 2),
    (4, 3),
    (4, 4),
    (4, 5),
    (4, 6),
    (4, 7),
    (1, 0),
];

/// A move at the root with what the search learned about it.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub avg_score: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// Nodes searched below this move in this search, all iterations.
    pub effort: u64,
}

impl RootMove {
    /// Counts an iteration's score into the running average the next
    /// aspiration window is centred on.
    fn average_in(&mut self, score: i32) {
        self.avg_score = if self.avg_score == -INFINITE { score } else { (2 * score + self.avg_score) / 3 };
    }
}

/// Per-ply search state.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub static_eval: i32,
    pub killers: [Move; 2],
    pub current_move: Move,
    /// Continuation-history index of the move made at this ply (None for null moves).
    pub cont: Option<usize>,
    pub in_check: bool,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: NONE,
            killers: [Move::NONE; 2],
            current_move: Move::NONE,
            cont: None,
            in_check: false,
        }
    }
}

/// Late-move reductions by depth and move number.
pub(super) static REDUCTIONS: Lazy<[[i32; 64]; 64]> = Lazy::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.8 + (d as f64).ln() * (m as f64).ln() / 2.3) as i32;
        }
    }
    t
});

/// The state of one search thread. It lives as long as its thread, so the
/// histories carry over from one move to the next until a new game.
pub struct Worker {
    pub(super) id: usize,
    pub(super) pos: Position,
    /// Evaluates `pos`; the search makes its moves through it.
    pub(super) eval: Evaluator,
    pub(super) hist: Box<Histories>,
    pub(super) stack: Vec<Frame>,
    pub(super) pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    pub(super) root_moves: Vec<RootMove>,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) root_depth: i32,
    pub(super) pv_idx: usize,
    pub(super) completed_depth: i32,
    pub(super) stopped: bool,
    /// The thread is abandoning its iteration because another thread has
    /// completed that depth (`stopped` is set too, to unwind the search).
    pub(super) superseded: bool,
    pub(super) shared: Option<Arc<SearchShared>>,
    pub(super) rules: Rules,
    /// The histories have been written to since they were last cleared.
    learned: bool,
    /// How many lines the GUI wants reported (fewer than are searched when
    /// a strength level searches more to choose from).
    report_lines: usize,
    /// Below full strength: the lines of the last completed iteration, best
    /// first, to choose the move from.
    skill_lines: Vec<RootMove>,
    /// The side to move and score of this thread's last search (main
    /// thread), the reference for a falling score in the next one.
    last_search: Option<(Color, i32)>,
}

impl Worker {
    /// A fresh worker for thread `id` (0 = main).
    pub fn new(id: usize) -> Worker {
        Worker {
            id,
            pos: Position::startpos(),
            eval: Evaluator::new(MAX_PLY + 8),
            hist: Box::default(),
            stack: vec![Frame::default(); MAX_PLY + 8],
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            root_moves: Vec::new(),
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            pv_idx: 0,
            completed_depth: 0,
            stopped: false,
            superseded: false,
            shared: None,
            rules: Rules::DEFAULT,
            learned: false,
            report_lines: 1,
            skill_lines: Vec::new(),
            last_search: None,
        }
    }

    /// Forgets what was learned (new game).
    pub fn clear(&mut self) {
        // Clearing writes megabytes; a pool of many threads, most of which
        // have never searched, is cleared at once.
        if std::mem::take(&mut self.learned) {
            self.hist.clear();
        }
        self.last_search = None;
    }

    #[inline(always)]
    pub(super) fn shared(&self) -> &SearchShared {
        self.shared.as_deref().expect("searching")
    }

    /// Runs this thread's part of a search. Every thread publishes its
    /// result; the main thread then concludes the search (reports the move)
    /// unless the engine has already done so.
    pub fn run(&mut self, shared: Arc<SearchShared>) {
        // Below full strength the main thread searches alone.
        let helper_idle = self.id > 0 && shared.skill.is_some();
        // With more threads than cores a helper waits for its turn first,
        // before it allocates anything (a thread that the scheduler
        // preempts inside the allocator holds up every thread that needs
        // it), and does nothing if the search is over by then.
        let gated = self.id > 0 && !helper_idle;
        if gated && let Some(gate) = &shared.gate {
            gate.enter(self.id);
            if shared.stop.load(Ordering::Acquire) {
                gate.leave();
                return;
            }
        }
        self.learned = true;
        self.pos = shared.root.clone();
        self.pos.reserve(MAX_PLY + 16);
        self.eval.set_network(shared.config.network.clone());
        self.eval.reset(&self.pos);
        self.rules = shared.config.rules;
        self.nodes = 0;
        self.completed_depth = 0;
        self.stopped = false;
        self.superseded = false;
        self.root_moves = shared
            .root_moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                avg_score: -INFINITE,
                seldepth: 0,
                pv: vec![mv],
                effort: 0,
            })
            .collect();
        self.stack.fill(Frame::default());
        self.skill_lines.clear();
        self.shared = Some(shared);
        if !self.root_moves.is_empty() && !helper_idle {
            self.iterative_deepening();
            if self.id == 0 && self.completed_depth > 0 {
                self.last_search = Some((self.pos.side_to_move(), self.result().score));
            }
        } else if self.root_moves.is_empty() && self.id == 0 {
            // No legal move: the side to move has lost (checkmate or stalemate).
            let shared = self.shared();
            shared.emit(SearchInfo {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score: mated_in(0),
                bound: None,
                nodes: 0,
                nps: 0,
                hashfull: 0,
                time_ms: shared.start.elapsed().as_millis() as u64,
                pv: Vec::new(),
                wdl: wdl(mated_in(0), 0),
            });
        }
        let result = if helper_idle {
            ThreadResult::NONE
        } else {
            self.skill_result().unwrap_or_else(|| self.result())
        };
        let shared = self.shared.take().expect("searching");
        shared.nodes[self.id].0.store(self.nodes, Ordering::Relaxed);
        shared.publish(self.id, result);
        if gated && let Some(gate) = &shared.gate {
            gate.leave();
        }
        if self.id != 0 {
            return;
        }
        // The main thread: wait for `stop` or `ponderhit` if the GUI expects
        // us to keep thinking, then report the move.
        while !shared.stop.load(Ordering::Relaxed)
            && (shared.limits.infinite || shared.pondering.load(Ordering::Relaxed))
        {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        shared.conclude();
    }

    fn result(&self) -> ThreadResult {
        match self.root_moves.first() {
            Some(rm) => ThreadResult {
                best: rm.mv,
                score: if rm.score == -INFINITE { rm.prev_score } else { rm.score },
                depth: self.completed_depth,
                seldepth: rm.seldepth,
                pv: rm.pv.clone(),
            },
            None => ThreadResult::NONE,
        }
    }

    /// Below full strength, the line the level chooses among those of the
    /// last completed iteration (none before the first).
    fn skill_result(&self) -> Option<ThreadResult> {
        let shared = self.shared();
        let skill = shared.skill?;
        let lines: Vec<(Move, i32)> = self.skill_lines.iter().map(|rm| (rm.mv, rm.score)).collect();
        let chosen = skill.pick(&lines, shared.root.key())?;
        let rm = self.skill_lines.iter().find(|rm| rm.mv == chosen)?;
        Some(ThreadResult {
            best: rm.mv,
            score: rm.score,
            depth: self.completed_depth,
            seldepth: rm.seldepth,
            pv: rm.pv.clone(),
        })
    }

    /// Called at every node: publishes the node count, checks the limits.
    #[inline]
    pub(super) fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let shared = self.shared.as_deref().expect("searching");
        if self.id == 0 {
            if shared.nodes.len() == 1 && shared.limits.nodes.is_some_and(|n| self.nodes >= n) {
                shared.stop.store(true, Ordering::Relaxed);
            }
            if self.nodes & 511 == 0 {
                shared.nodes[0].0.store(self.nodes, Ordering::Relaxed);
                if self.out_of_time(shared)
                    || shared
                        .limits
                        .nodes
                        .is_some_and(|n| shared.nodes.len() > 1 && shared.total_nodes() >= n)
                    || shared.skill.is_some_and(|s| self.completed_depth >= 1 && self.nodes >= s.nodes())
                {
                    shared.stop.store(true, Ordering::Relaxed);
                }
            }
        } else if self.nodes & 511 == 0 {
            shared.nodes[self.id].0.store(self.nodes, Ordering::Relaxed);
        }
        if self.id > 0
            && self.nodes & 4095 == 0
            && let Some(gate) = &shared.gate
        {
            // More search threads than cores: a helper searches in turns
            // (see `gate`), so that the threads that must answer at once
            // (the main thread, the one reading `stop`) always get a core.
            gate.pass(self.id);
        }
        // A thread whose iteration another thread has completed is of no
        // more use there: it goes on to a deeper one (the main thread takes
        // the finished result as its own, see `adopt`). With several lines
        // (MultiPV) the main thread finishes its own: a helper completes
        // the first line only. `stop` is read first: a helper that completes
        // the depth of `go depth` publishes it before it stops the search,
        // so a thread that sees the stop also sees that depth completed.
        let stop = shared.stop.load(Ordering::Acquire);
        self.superseded = (self.id > 0 || shared.config.multipv <= 1)
            && self.root_depth <= shared.deepest.load(Ordering::Relaxed);
        self.stopped = self.superseded || stop;
        self.stopped
    }

    fn out_of_time(&self, shared: &SearchShared) -> bool {
        if shared.pondering.load(Ordering::Relaxed) || self.completed_depth < 1 && self.root_depth <= 1 {
            return false;
        }
        shared.time().hard.is_some_and(|h| shared.clock_ms() >= h.as_millis() as u64)
    }

    fn iterative_deepening(&mut self) {
        let limits = self.shared().limits.clone();
        let skill = self.shared().skill;
        self.report_lines = self.shared().config.multipv.clamp(1, self.root_moves.len());
        // A level searches more lines to choose from than it reports.
        let multipv = skill.map_or(1, |s| s.lines()).max(self.report_lines).min(self.root_moves.len());
        let max_depth = limits.depth.map_or(MAX_PLY as i32 - 4, |d| (d as i32).clamp(1, MAX_PLY as i32 - 4));
        let mut last_best = Move::NONE;
        let mut stability = 0;
        let mut iteration_scores = Vec::new();
        let mut depth = 0;
        while depth < max_depth && !self.shared().stop.load(Ordering::Relaxed) {
            // Never a depth some thread has completed already.
            depth = (depth + 1).max(self.shared().deepest.load(Ordering::Relaxed) + 1);
            if depth > max_depth {
                break;
            }
            // Helpers skip depths in staggered blocks, so that they run ahead
            // of the main thread and of each other and fill the table with
            // deeper results (the skip-block pattern of Lazy SMP).
            // The last depth is never skipped: a helper that skipped it
            // would sit idle while the main thread finishes the search.
            if self.id > 0 && depth > 1 && depth < max_depth {
                let (size, phase) = SKIP_BLOCKS[(self.id - 1) % SKIP_BLOCKS.len()];
                if ((depth + phase) / size) % 2 == 1 {
                    continue;
                }
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(depth);
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.id == 0 && !self.superseded && (self.stopped || pv_idx + 1 == multipv) {
                    self.report(depth, self.report_lines, None);
                }
                if self.stopped {
                    break;
                }
            }
            if self.superseded {
                self.stopped = false;
                self.superseded = false;
                // The main thread goes on from the deepest finished result
                // as if it had completed that iteration itself.
                if self.id != 0 || !self.adopt() {
                    continue;
                }
                depth = self.completed_depth;
                self.report(depth, 1, None);
            } else {
                if self.stopped {
                    break;
                }
                self.completed_depth = depth;
                self.shared().publish(self.id, self.result());
                if self.id != 0 {
                    // A helper that completes the requested depth ends the search.
                    if limits.depth.is_some_and(|d| depth >= d as i32) {
                        self.shared().stop.store(true, Ordering::Release);
                    }
                    continue;
                }
            }
            // Main thread: decide whether another iteration is worth it.
            if let Some(skill) = skill {
                // A level chooses among the lines of its last iteration, and
                // starts no iteration once it has spent half its nodes.
                self.skill_lines = self.root_moves[..multipv].to_vec();
                if self.nodes * 2 >= skill.nodes() {
                    break;
                }
            }
            let best = &self.root_moves[0];
            if best.mv == last_best {
                stability = (stability + 1).min(10);
            } else {
                stability = 0;
                last_best = best.mv;
            }
            let (score, best_effort) = (best.score, best.effort);
            iteration_scores.push(score);
            let shared = self.shared();
            if let Some(m) = limits.mate {
                // A mate search ends when the mate is found (or a limit hits).
                if score >= mate_in(2 * m as usize) {
                    break;
                }
            } else if limits.manages_time() && !shared.pondering.load(Ordering::Relaxed) {
                if self.root_moves.len() == 1 && depth >= 4 {
                    break;
                }
                if let Some(soft) = shared.time().soft {
                    let progress = Progress {
                        stability,
                        best_share: best_effort * 100 / self.nodes.max(1),
                        drop: self.score_drop(score, &iteration_scores),
                    };
                    if shared.clock_ms() * 100 >= soft.as_millis() as u64 * progress.soft_percent() {
                        break;
                    }
                }
                if score.abs() >= MATE_BOUND && depth >= 2 * (mate_in(0) - score.abs()) + 4 {
                    break;
                }
            }
        }
    }

    /// How far `score` (the last iteration's) has fallen: the mean of the
    /// fall since the last search of the same side and since three
    /// iterations ago, where there are such scores and no mate is at stake.
    fn score_drop(&self, score: i32, iteration_scores: &[i32]) -> i32 {
        if score.abs() >= MATE_BOUND {
            return 0;
        }
        let earlier = iteration_scores.len().checked_sub(4).map(|i| iteration_scores[i]);
        let before = self.last_search.filter(|&(side, _)| side == self.pos.side_to_move()).map(|(_, s)| s);
        let (sum, count) = [earlier, before]
            .into_iter()
            .flatten()
            .filter(|s| s.abs() < MATE_BOUND)
            .fold((0, 0), |(sum, count), s| (sum + (s - score).clamp(-500, 500), count + 1));
        if count == 0 { 0 } else { sum / count }
    }

    /// Takes the deepest result another thread has published as this
    /// thread's completed iteration: its move first, with its score and
    /// principal variation. False if there is none deeper than our own.
    fn adopt(&mut self) -> bool {
        let Some(r) = self.shared().deepest_result() else { return false };
        if r.depth <= self.completed_depth {
            return false;
        }
        let Some(i) = self.root_moves.iter().position(|rm| rm.mv == r.best) else { return false };
        self.root_moves[..=i].rotate_right(1);
        let rm = &mut self.root_moves[0];
        rm.score = r.score;
        rm.average_in(r.score);
        rm.seldepth = r.seldepth;
        rm.pv = r.pv;
        self.completed_depth = r.depth;
        true
    }

    /// Searches the current root line with an aspiration window around the last score.
    fn aspiration(&mut self, depth: i32) {
        let prev = self.root_moves[self.pv_idx].avg_score;
        let mut delta = tunables::asp_delta() + (if prev == -INFINITE { 0 } else { prev.abs() / 16 });
        let (mut alpha, mut beta) = if depth >= 4 && prev != -INFINITE && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        // Each fail high re-searches a ply shallower: the move that failed high
        // is usually good, and the shallower search confirms it sooner.
        let mut failed_high = 0;
        loop {
            let score = self.search::<true>(alpha, beta, (depth - failed_high).max(1), 0, false);
            let pv_idx = self.pv_idx;
            self.root_moves[pv_idx..]
                .sort_by(|a, b| b.score.cmp(&a.score).then(b.prev_score.cmp(&a.prev_score)));
            if self.stopped {
                return;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                failed_high = 0;
                if self.id == 0 && self.elapsed_ms() > 2000 && pv_idx < self.report_lines {
                    self.report(depth, pv_idx + 1, Some(Bound::Upper));
                }
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                failed_high = (failed_high + 1).min(3);
                if self.id == 0 && self.elapsed_ms() > 2000 && pv_idx < self.report_lines {
                    self.report(depth, pv_idx + 1, Some(Bound::Lower));
                }
            } else {
                self.root_moves[pv_idx].average_in(score);
                return;
            }
            delta += delta;
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.shared().start.elapsed().as_millis() as u64
    }

    /// Sends one `Info` per principal variation (the first `lines`).
    fn report(&self, depth: i32, lines: usize, bound: Option<Bound>) {
        let shared = self.shared();
        let elapsed = shared.start.elapsed();
        let nodes = shared.total_nodes().max(self.nodes);
        let time_ms = elapsed.as_millis() as u64;
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64;
        let hashfull = shared.tt.hashfull();
        let material = material(&shared.root);
        for (i, rm) in self.root_moves.iter().take(lines).enumerate() {
            let updated = rm.score != -INFINITE;
            if depth == 1 && !updated && i > 0 {
                continue;
            }
            let d = if updated { depth } else { (depth - 1).max(1) };
            let score = if updated { rm.score } else { rm.prev_score };
            if score == -INFINITE {
                continue;
            }
            let line_bound = if bound.is_some() && i == self.pv_idx { bound } else { None };
            shared.emit(SearchInfo {
                depth: d as u32,
                seldepth: rm.seldepth.max(1) as u32,
                multipv: i + 1,
                score,
                bound: line_bound,
                nodes,
                nps,
                hashfull,
                time_ms,
                pv: legal_prefix(&shared.root, &rm.pv),
                wdl: wdl(score, material),
            });
        }
    }
}
