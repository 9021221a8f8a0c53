//! The principal-variation search and the quiescence search.

use arrayvec::ArrayVec;

use super::history::cont_index;
use super::movepick::{MovePicker, PickContext};
use super::tunables;
use super::worker::{REDUCTIONS, Worker};
use crate::board::SEE_VALUE;
use crate::eval::is_dead_draw;
use crate::rules;
use crate::tt::{Bound, TtEntry};
use crate::types::score::{DRAW, INFINITE, MATE_BOUND, MAX_PLY, NONE, from_tt, mate_in, mated_in, to_tt};
use crate::types::{Move, PieceKind};

/// Depth stored for quiescence entries searched with losing checks.
const QS_DEPTH_CHECKS: i32 = 0;
/// Depth stored for quiescence entries searched with captures only.
const QS_DEPTH_NO_CHECKS: i32 = -1;

/// True if a table score with this bound settles the node for the window.
#[inline(always)]
fn cuts_off(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    score != NONE
        && match bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
}

/// The static evaluation `eval`, replaced by the table's score when that
/// score's bound says the true value lies on the far side of `eval`.
#[inline(always)]
fn refine(eval: i32, bound: Bound, score: i32) -> i32 {
    let tighter = match bound {
        Bound::Exact => true,
        Bound::Lower => score > eval,
        Bound::Upper => score < eval,
        Bound::None => false,
    };
    if score != NONE && tighter { score } else { eval }
}

impl Worker {
    /// Counts a node (and its ply for the pv and seldepth); false if the
    /// search must stop instead.
    #[inline(always)]
    fn enter_node<const PV: bool>(&mut self, ply: usize) -> bool {
        if self.should_stop() {
            return false;
        }
        self.nodes += 1;
        if PV {
            self.pv_len[ply] = ply;
            self.seldepth = self.seldepth.max(ply + 1);
        }
        true
    }

    /// Continuation indices of the moves 1, 2 and 4 plies before `ply`.
    fn pick_context(&self, ply: usize) -> PickContext {
        let back = |n: usize| if ply >= n { self.stack[ply - n].cont } else { None };
        PickContext { cont: [back(1), back(2), back(4)] }
    }

    /// The score the rules impose on this node, if any: a dead draw, or the
    /// arbiter's ruling on a repetition or the no-capture limit (a win or
    /// loss by rule counts like a mate at this ply). These scores depend on
    /// the path, so callers return them before touching the table.
    fn rule_score(&mut self, ply: usize) -> Option<i32> {
        if is_dead_draw(&self.pos) {
            return Some(DRAW);
        }
        let outcome = rules::search_ruling(&mut self.pos, ply, self.rules)?;
        Some(match outcome.winner() {
            None => DRAW,
            Some(c) if c == self.pos.side_to_move() => mate_in(ply),
            Some(_) => mated_in(ply),
        })
    }

    /// True if the side to move still has a rook, horse or cannon (null-move safety).
    fn has_major_pieces(&self) -> bool {
        let us = self.pos.side_to_move();
        (self.pos.pieces_of(us, PieceKind::Rook)
            | self.pos.pieces_of(us, PieceKind::Horse)
            | self.pos.pieces_of(us, PieceKind::Cannon))
        .any()
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn history_bonus(depth: i32) -> i32 {
        (tunables::hist_bonus_mult() * depth - tunables::hist_bonus_base()).min(tunables::hist_bonus_max())
    }

    /// Rewards `best` (a quiet move that failed high) and punishes the quiets tried before it.
    fn update_quiet_stats(&mut self, ply: usize, best: Move, tried: &[Move], depth: i32) {
        let bonus = Self::history_bonus(depth);
        let us = self.pos.side_to_move();
        let ctx = self.pick_context(ply);
        let frame = &mut self.stack[ply];
        if frame.killers[0] != best {
            frame.killers[1] = frame.killers[0];
            frame.killers[0] = best;
        }
        if let Some(prev) = ctx.cont[0] {
            self.hist.set_counter(prev, best);
        }
        for (m, b) in std::iter::once((best, bonus)).chain(tried.iter().map(|&m| (m, -bonus))) {
            let Some(p) = self.pos.piece_on(m.from()) else { continue };
            self.hist.update_butterfly(us, m, b);
            let cur = cont_index(p, m.to());
            for (i, prev) in ctx.cont.iter().enumerate() {
                if let Some(prev) = prev {
                    self.hist.update_continuation(*prev, cur, if i == 2 { b / 2 } else { b });
                }
            }
        }
    }

    fn update_capture_stats(&mut self, best: Option<Move>, tried: &[Move], depth: i32) {
        let bonus = Self::history_bonus(depth);
        let moves = best.into_iter().map(|m| (m, bonus)).chain(tried.iter().map(|&m| (m, -bonus)));
        for (m, b) in moves {
            if let (Some(p), Some(v)) = (self.pos.piece_on(m.from()), self.pos.piece_on(m.to())) {
                self.hist.update_capture(p, m.to(), v.kind().index(), b);
            }
        }
    }

    /// Alpha-beta search of the current position to `depth` plies.
    pub(super) fn search<const PV: bool>(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let root = ply == 0;
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply, true);
        }
        if !self.enter_node::<PV>(ply) {
            return 0;
        }
        let in_check = self.pos.in_check();
        if !root {
            if let Some(score) = self.rule_score(ply) {
                return score;
            }
            if ply >= MAX_PLY - 4 {
                return if in_check { DRAW } else { self.eval.evaluate(&self.pos) };
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        self.stack[ply].in_check = in_check;
        self.stack[ply + 1].killers = [Move::NONE; 2];
        let key = self.pos.key();
        let tte = self.shared().tt.probe(key);
        let tt_move = if root { self.root_moves[self.pv_idx].mv } else { tte.map_or(Move::NONE, |e| e.mv) };
        let tt_score =
            tte.map_or(NONE, |e| if e.bound == Bound::None { NONE } else { from_tt(e.score, ply) });
        let tt_capture = tt_move.is_some() && self.pos.piece_on(tt_move.to()).is_some();
        let tt_pv = PV || tte.is_some_and(|e| e.pv);

        if !PV
            && let Some(e) = tte
            && e.depth >= depth
            && cuts_off(e.bound, tt_score, alpha, beta)
        {
            if tt_score >= beta && tt_move.is_some() && !tt_capture && self.pos.is_pseudo_legal(tt_move) {
                self.update_quiet_stats(ply, tt_move, &[], depth);
            }
            return tt_score;
        }

        // Static evaluation, refined by the table's bound when it is tighter.
        let (static_eval, eval) = if in_check {
            (NONE, NONE)
        } else {
            let raw = match tte {
                Some(e) if e.eval != NONE && e.eval.abs() < MATE_BOUND => e.eval,
                _ => self.eval.evaluate(&self.pos),
            };
            let refined = tte.map_or(raw, |e| refine(raw, e.bound, tt_score));
            if tte.is_none() {
                self.shared().tt.store(
                    key,
                    TtEntry { mv: Move::NONE, score: 0, eval: raw, depth: -6, bound: Bound::None, pv: tt_pv },
                );
            }
            (raw, refined)
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && (if self.stack[ply - 2].static_eval != NONE {
                static_eval > self.stack[ply - 2].static_eval
            } else {
                ply >= 4
                    && self.stack[ply - 4].static_eval != NONE
                    && static_eval > self.stack[ply - 4].static_eval
            });

        if !PV && !in_check {
            // Reverse futility pruning.
            let margin =
                tunables::rfp_margin() * depth - if improving { tunables::rfp_improving() } else { 0 };
            if depth <= tunables::rfp_depth() && eval - margin >= beta && eval.abs() < MATE_BOUND {
                return (eval + beta) / 2;
            }
            // Null-move pruning: pass, and if a reduced search still fails high, cut.
            if eval >= beta
                && static_eval >= beta - tunables::nmp_eval_depth() * depth + tunables::nmp_eval_base()
                && self.stack[ply.saturating_sub(1)].current_move != Move::NULL
                && ply > 0
                && beta > -MATE_BOUND
                && self.has_major_pieces()
            {
                let r = 3 + depth / 3 + ((eval - beta) / tunables::nmp_eval_div()).min(3);
                self.stack[ply].current_move = Move::NULL;
                self.stack[ply].cont = None;
                self.eval.do_null_move(&mut self.pos);
                let v = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.eval.undo_null_move(&mut self.pos);
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        // Internal iterative reduction: no table move here means a poor guess.
        if depth >= 4 && !tt_move.is_some() && (PV || cut_node) {
            depth -= 1;
        }

        let prev_cont = if ply > 0 { self.stack[ply - 1].cont } else { None };
        let counter = prev_cont.map_or(Move::NONE, |p| self.hist.counter(p));
        let mut picker = MovePicker::new(&self.pos, tt_move, self.stack[ply].killers, counter);
        let ctx = self.pick_context(ply);
        let us = self.pos.side_to_move();
        let mut best_score = -INFINITE;
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, 32> = ArrayVec::new();

        while let Some(m) = picker.next(&self.pos, &self.hist, &ctx) {
            if root && !self.root_moves[self.pv_idx..].iter().any(|rm| rm.mv == m) {
                continue;
            }
            if !self.pos.is_legal(m) {
                continue;
            }
            move_count += 1;
            let mover = self.pos.piece_on(m.from()).expect("legal move has a mover");
            let victim = self.pos.piece_on(m.to());
            let is_capture = victim.is_some();
            let gives_check = self.pos.gives_check(m);
            let cur_cont = cont_index(mover, m.to());
            let history = if is_capture {
                0
            } else {
                self.hist.butterfly(us, m) + ctx.cont[0].map_or(0, |p| self.hist.continuation(p, cur_cont))
            };
            let reduction = REDUCTIONS[(depth as usize).min(63)][move_count.min(63)];

            // Shallow-depth pruning, once a move has been searched and no mate is at stake
            // (nor, under the Chinese rules, a ruling: a move that may repeat a position is searched).
            let key_after = self.pos.key_after(m);
            if !root
                && best_score > -MATE_BOUND
                && self.has_major_pieces()
                && !(self.rules.set.searches_every_repetition() && self.pos.may_repeat_as(key_after))
            {
                let lmr_depth = (depth - 1 - reduction).max(0);
                if !is_capture && !gives_check {
                    let lmp = (tunables::lmp_base() + depth * depth) / if improving { 1 } else { 2 };
                    if move_count as i32 > lmp && depth <= 8 {
                        picker.skip_quiets = true;
                        continue;
                    }
                    if !in_check
                        && lmr_depth <= 8
                        && static_eval + tunables::fut_base() + tunables::fut_mult() * lmr_depth <= alpha
                    {
                        continue;
                    }
                    if lmr_depth <= 6 && history < -tunables::hist_prune() * depth {
                        continue;
                    }
                    if !self.pos.see_ge(m, -tunables::see_quiet() * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if depth <= 6 && !gives_check && !self.pos.see_ge(m, -tunables::see_capture() * depth)
                {
                    continue;
                }
            }

            // Check extension for checks that do not simply lose material.
            let extension = if gives_check && (ply as i32) < 2 * self.root_depth && self.pos.see_ge(m, 0) {
                1
            } else {
                0
            };
            let new_depth = depth - 1 + extension;

            self.shared().tt.prefetch(key_after);
            self.stack[ply].current_move = m;
            self.stack[ply].cont = Some(cur_cont);
            self.eval.do_move(&mut self.pos, m);
            let nodes_before = self.nodes;

            let mut score = -INFINITE;
            if depth >= 2 && move_count > 1 + root as usize && (!is_capture || !tt_pv) {
                let mut r = reduction;
                if tt_pv {
                    r -= 1;
                }
                if cut_node {
                    r += 1;
                }
                if tt_capture {
                    r += 1;
                }
                if gives_check {
                    r -= 1;
                }
                if !improving {
                    r += 1;
                }
                r -= history / tunables::lmr_hist_div();
                let d = (new_depth - r).clamp(1, new_depth.max(1));
                score = -self.search::<false>(-alpha - 1, -alpha, d, ply + 1, true);
                if score > alpha && d < new_depth {
                    score = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !PV || move_count > 1 {
                score = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            }
            if PV && (move_count == 1 || (score > alpha && (root || score < beta))) {
                score = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.eval.undo_move(&mut self.pos);
            if self.stopped {
                return 0;
            }

            if root {
                let seldepth = self.seldepth;
                let child_pv: Vec<Move> =
                    (ply + 1..self.pv_len[ply + 1].max(ply + 1)).map(|i| self.pv[ply + 1][i]).collect();
                let rm = self.root_moves.iter_mut().find(|rm| rm.mv == m).expect("root move");
                rm.effort += self.nodes - nodes_before;
                if move_count == 1 || score > alpha {
                    rm.score = score;
                    rm.seldepth = seldepth;
                    rm.pv.clear();
                    rm.pv.push(m);
                    rm.pv.extend(child_pv);
                } else {
                    rm.score = -INFINITE;
                }
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if PV && !root {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if m != best_move {
                if is_capture {
                    let _ = captures_tried.try_push(m);
                } else {
                    let _ = quiets_tried.try_push(m);
                }
            }
        }

        if move_count == 0 {
            // No legal move: checkmate and stalemate both lose.
            return mated_in(ply);
        }

        if best_score >= beta && best_move.is_some() {
            if self.pos.piece_on(best_move.to()).is_none() {
                self.update_quiet_stats(
                    ply,
                    best_move,
                    &quiets_tried,
                    depth + (best_score > beta + 80) as i32,
                );
                self.update_capture_stats(None, &captures_tried, depth);
            } else {
                self.update_capture_stats(Some(best_move), &captures_tried, depth);
            }
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if PV && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !root || self.pv_idx == 0 {
            self.shared().tt.store(
                key,
                TtEntry {
                    mv: best_move,
                    score: to_tt(best_score, ply),
                    eval: static_eval,
                    depth,
                    bound,
                    pv: tt_pv,
                },
            );
        }
        best_score
    }

    /// Quiescence search: captures (all evasions when in check), until the
    /// position is quiet. At its first ply (`checks`) a capture that gives
    /// check is searched even when it loses material: a sacrifice that mates.
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
    ) -> i32 {
        if !self.enter_node::<PV>(ply) {
            return 0;
        }
        if let Some(score) = self.rule_score(ply) {
            return score;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 4 {
            return if in_check { DRAW } else { self.eval.evaluate(&self.pos) };
        }
        let key = self.pos.key();
        let tte = self.shared().tt.probe(key);
        let tt_move = tte.map_or(Move::NONE, |e| e.mv);
        let tt_score =
            tte.map_or(NONE, |e| if e.bound == Bound::None { NONE } else { from_tt(e.score, ply) });
        let qs_depth = if checks { QS_DEPTH_CHECKS } else { QS_DEPTH_NO_CHECKS };
        if !PV
            && let Some(e) = tte
            && e.depth >= qs_depth
            && cuts_off(e.bound, tt_score, alpha, beta)
        {
            return tt_score;
        }

        let mut best_score;
        let static_eval;
        if in_check {
            best_score = -INFINITE;
            static_eval = NONE;
        } else {
            static_eval = match tte {
                Some(e) if e.eval != NONE && e.eval.abs() < MATE_BOUND => e.eval,
                _ => self.eval.evaluate(&self.pos),
            };
            best_score = tte.map_or(static_eval, |e| refine(static_eval, e.bound, tt_score));
            if best_score >= beta {
                if tte.is_none() {
                    self.shared().tt.store(
                        key,
                        TtEntry {
                            mv: Move::NONE,
                            score: to_tt(best_score, ply),
                            eval: static_eval,
                            depth: qs_depth,
                            bound: Bound::Lower,
                            pv: false,
                        },
                    );
                }
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        let mut picker = MovePicker::new_qsearch(&self.pos, tt_move);
        let ctx = self.pick_context(ply);
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        while let Some(m) = picker.next(&self.pos, &self.hist, &ctx) {
            if !self.pos.is_legal(m) {
                continue;
            }
            move_count += 1;
            if !in_check && best_score > -MATE_BOUND {
                let victim = self.pos.piece_on(m.to()).map_or(0, |p| SEE_VALUE[p.kind().index()]);
                let futile = static_eval + victim + tunables::qs_futility();
                if futile <= alpha && !self.pos.gives_check(m) {
                    best_score = best_score.max(futile);
                    continue;
                }
                // The check test only for the losing captures of the first ply.
                if !(self.pos.see_ge(m, 0) || checks && self.pos.gives_check(m)) {
                    continue;
                }
            }
            let mover = self.pos.piece_on(m.from()).expect("legal move has a mover");
            self.stack[ply].current_move = m;
            self.stack[ply].cont = Some(cont_index(mover, m.to()));
            self.eval.do_move(&mut self.pos, m);
            let score = -self.qsearch::<PV>(-beta, -alpha, ply + 1, false);
            self.eval.undo_move(&mut self.pos);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && move_count == 0 {
            return mated_in(ply);
        }
        let bound = if best_score >= beta { Bound::Lower } else { Bound::Upper };
        self.shared().tt.store(
            key,
            TtEntry {
                mv: best_move,
                score: to_tt(best_score, ply),
                eval: static_eval,
                depth: qs_depth,
                bound,
                pv: PV,
            },
        );
        best_score
    }
}
