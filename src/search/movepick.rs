//! The staged move picker: the transposition-table move first, then good
//! captures, killers, the counter move, quiet moves by history, and finally
//! the captures that lose material. Moves are generated only when a stage
//! needs them, so a cut-off on the first move costs no generation at all.

use arrayvec::ArrayVec;

use super::history::{Histories, cont_index};
use crate::board::{GenType, Position, SEE_VALUE};
use crate::types::{MAX_MOVES, Move, MoveList};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    EvasionTt,
    GenEvasions,
    Evasions,
    QsTt,
    QsGenCaptures,
    QsCaptures,
    Done,
}

/// What the picker needs to know about the search path to score quiet moves.
#[derive(Clone, Copy)]
pub struct PickContext {
    /// Continuation indices of the moves 1, 2 and 4 plies back (if real moves).
    pub cont: [Option<usize>; 3],
}

/// Produces the moves of one node in a good order. Captures, killers and the
/// counter move are pseudo-legal (the search checks legality); evasions are legal.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    moves: ArrayVec<(Move, i32), MAX_MOVES>,
    idx: usize,
    bad: ArrayVec<Move, MAX_MOVES>,
    bad_idx: usize,
    /// Set by the search to stop yielding quiet moves (late-move pruning).
    pub skip_quiets: bool,
}

impl MovePicker {
    /// A picker for a main-search node.
    pub fn new(pos: &Position, tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        let in_check = pos.in_check();
        let valid_tt = pos.is_pseudo_legal(tt_move);
        let stage = match (in_check, valid_tt) {
            (true, true) => Stage::EvasionTt,
            (true, false) => Stage::GenEvasions,
            (false, true) => Stage::TtMove,
            (false, false) => Stage::GenCaptures,
        };
        MovePicker {
            stage,
            tt_move: if valid_tt { tt_move } else { Move::NONE },
            killers,
            counter,
            moves: ArrayVec::new(),
            idx: 0,
            bad: ArrayVec::new(),
            bad_idx: 0,
            skip_quiets: false,
        }
    }

    /// A picker for quiescence search: captures only (all evasions when in check).
    pub fn new_qsearch(pos: &Position, tt_move: Move) -> MovePicker {
        let mut mp = MovePicker::new(pos, Move::NONE, [Move::NONE; 2], Move::NONE);
        if !pos.in_check() {
            let tt_ok = pos.is_pseudo_legal(tt_move) && pos.piece_on(tt_move.to()).is_some();
            mp.tt_move = if tt_ok { tt_move } else { Move::NONE };
            mp.stage = if tt_ok { Stage::QsTt } else { Stage::QsGenCaptures };
        }
        mp
    }

    fn capture_score(pos: &Position, hist: &Histories, m: Move) -> i32 {
        let mover = pos.piece_on(m.from()).expect("capture has a mover");
        let victim = pos.piece_on(m.to()).map_or(0, |p| p.kind().index());
        16 * SEE_VALUE[victim] - SEE_VALUE[mover.kind().index()].min(1000) / 8
            + hist.capture(mover, m.to(), victim) / 8
    }

    fn quiet_score(pos: &Position, hist: &Histories, ctx: &PickContext, m: Move) -> i32 {
        let mover = pos.piece_on(m.from()).expect("quiet has a mover");
        let cur = cont_index(mover, m.to());
        let mut s = hist.butterfly(pos.side_to_move(), m);
        for (i, prev) in ctx.cont.iter().enumerate() {
            if let Some(p) = prev {
                let c = hist.continuation(*p, cur);
                s += if i == 2 { c / 2 } else { c };
            }
        }
        s
    }

    fn fill(&mut self, list: &MoveList, mut score: impl FnMut(Move) -> i32) {
        self.moves.clear();
        self.idx = 0;
        for &m in list {
            self.moves.push((m, score(m)));
        }
    }

    /// Removes and returns the best-scored remaining move of the current batch.
    fn pick_best(&mut self) -> Option<Move> {
        if self.idx >= self.moves.len() {
            return None;
        }
        // The first of the best-scored (the order of ties is part of the
        // search's behaviour), the best score kept in a register.
        let rest = &self.moves[self.idx..];
        let (mut best, mut best_score) = (0, rest[0].1);
        for (i, &(_, score)) in rest.iter().enumerate().skip(1) {
            if score > best_score {
                (best, best_score) = (i, score);
            }
        }
        self.moves.swap(self.idx, self.idx + best);
        self.idx += 1;
        Some(self.moves[self.idx - 1].0)
    }

    fn is_special(&self, m: Move) -> bool {
        m == self.tt_move || m == self.killers[0] || m == self.killers[1] || m == self.counter
    }

    fn quiet_candidate(&self, pos: &Position, m: Move) -> bool {
        m != self.tt_move && pos.is_pseudo_legal(m) && pos.piece_on(m.to()).is_none()
    }

    /// The next move, or `None` when the node has no more.
    pub fn next(&mut self, pos: &Position, hist: &Histories, ctx: &PickContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenCaptures;
                    return Some(self.tt_move);
                }
                Stage::GenCaptures => {
                    let mut list = MoveList::new();
                    pos.generate(GenType::Captures, &mut list);
                    self.fill(&list, |m| Self::capture_score(pos, hist, m));
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => {
                        if pos.see_ge(m, 0) {
                            return Some(m);
                        }
                        self.bad.push(m);
                    }
                    None => self.stage = Stage::Killer1,
                },
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    let k = self.killers[0];
                    if !self.skip_quiets && self.quiet_candidate(pos, k) {
                        return Some(k);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    let k = self.killers[1];
                    if !self.skip_quiets && k != self.killers[0] && self.quiet_candidate(pos, k) {
                        return Some(k);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    let c = self.counter;
                    if !self.skip_quiets
                        && c != self.killers[0]
                        && c != self.killers[1]
                        && self.quiet_candidate(pos, c)
                    {
                        return Some(c);
                    }
                }
                Stage::GenQuiets => {
                    if !self.skip_quiets {
                        let mut list = MoveList::new();
                        pos.generate(GenType::Quiets, &mut list);
                        self.fill(&list, |m| Self::quiet_score(pos, hist, ctx, m));
                    } else {
                        self.moves.clear();
                        self.idx = 0;
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    match self.pick_best() {
                        Some(m) if self.is_special(m) => {}
                        Some(m) => return Some(m),
                        None => self.stage = Stage::BadCaptures,
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_idx < self.bad.len() {
                        self.bad_idx += 1;
                        return Some(self.bad[self.bad_idx - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::EvasionTt => {
                    self.stage = Stage::GenEvasions;
                    if pos.is_legal(self.tt_move) {
                        return Some(self.tt_move);
                    }
                    self.tt_move = Move::NONE;
                }
                Stage::GenEvasions => {
                    let mut list = MoveList::new();
                    pos.generate_evasions(&mut list);
                    self.fill(&list, |m| {
                        if pos.piece_on(m.to()).is_some() {
                            (1 << 20) + Self::capture_score(pos, hist, m)
                        } else {
                            Self::quiet_score(pos, hist, ctx, m)
                        }
                    });
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.pick_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::QsTt => {
                    self.stage = Stage::QsGenCaptures;
                    return Some(self.tt_move);
                }
                Stage::QsGenCaptures => {
                    let mut list = MoveList::new();
                    pos.generate(GenType::Captures, &mut list);
                    self.fill(&list, |m| Self::capture_score(pos, hist, m));
                    self.stage = Stage::QsCaptures;
                }
                Stage::QsCaptures => match self.pick_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }

    /// True while the picker is still in the good-capture or earlier stages
    /// (moves from here on are quiet or losing).
    pub fn in_early_stages(&self) -> bool {
        matches!(self.stage, Stage::TtMove | Stage::GenCaptures | Stage::GoodCaptures)
    }
}
