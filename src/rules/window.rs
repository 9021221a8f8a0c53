//! Classifying the moves of a ruling window and the decision tables: rules.md
//! §3.6–3.7, §5–6 for the Asian rules, rules-chinese.md §3.5, §5–6 for the
//! Chinese rules.
//!
//! Check flags come free from the state records. The other classes need the
//! board of every position in the window, so the window's moves are taken
//! back and replayed one by one, computing the mover's threat set before and
//! after each move and, under the Chinese rules, the kill test after it; the
//! position ends exactly as it started.

use arrayvec::ArrayVec;

use super::attack::{Attacks, MateThreat};
use super::chase::threats;
use super::kill::mate_by_checks;
use super::outcome::Outcome;
use super::value_chase::mover_threats;
use super::{MAX_KILL_DEPTH, RuleSet, Rules};
use crate::board::Position;
use crate::types::{Bitboard, Color, Move, Square};

/// One move of the window as the arbiter sees it.
#[derive(Clone, Debug)]
pub(super) struct MoveFacts {
    /// The move.
    pub mv: Move,
    /// The side that played it.
    pub side: Color,
    /// It gave check (and is then neither a kill nor a chase).
    pub check: bool,
    /// Chinese rules: the mate by checks it threatens (a kill), with the
    /// fewest moves.
    pub kill: Option<MateThreat>,
    /// NewChase (empty for a check): each victim's square after the move and
    /// its identity, the square it stood on at the start of the window.
    pub victims: ArrayVec<(Square, Square), 16>,
}

/// What the moves of one side in the window add up to (rules.md §5,
/// rules-chinese.md §5).
#[derive(Clone, Copy, Debug)]
pub(super) struct Tally {
    /// Moves of the side in the window.
    pub moves: u16,
    /// How many of them gave check.
    pub checks: u16,
    /// Chinese rules: moves found to be kills.
    pub kills: u16,
    /// Chinese rules: moves found to be chases.
    pub chases: u16,
    /// Chinese rules: moves found to be idle. When only the verdict is
    /// wanted, a side's moves are no longer classified after its first idle
    /// one, so the three counts may fall short of the non-check moves.
    pub idle: u16,
    /// Asian rules: the ids of the pieces freshly threatened by every move of
    /// the side. Chinese rules: the ids of the pieces its chase moves chased.
    pub chased: Bitboard,
}

impl Tally {
    /// Every move of the side gave check.
    pub fn perpetual_check(&self) -> bool {
        self.moves > 0 && self.checks == self.moves
    }

    /// Asian rules: some enemy piece was freshly threatened by every move.
    pub fn perpetual_chase(&self) -> bool {
        self.moves > 0 && self.chased.any()
    }

    /// Chinese rules: every move was an attack (check, kill or chase).
    pub fn all_attacks(&self) -> bool {
        self.moves > 0 && self.idle == 0
    }

    /// Chinese rules: the kinds of attack found among the side's moves.
    pub fn attacks(&self) -> Attacks {
        Attacks { check: self.checks > 0, kill: self.kills > 0, chase: self.chases > 0 }
    }
}

/// The decision table (rules.md §6, rules-chinese.md §6), before it is
/// turned into an outcome.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Decision {
    /// Row 1: both sides checked on every move.
    MutualCheck,
    /// Rows 2–3: this side checked on every move; it loses.
    Check(Color),
    /// Row 4: both sides chased perpetually (Asian) or played a forbidden
    /// pattern (Chinese).
    MutualForbidden,
    /// Rows 5–6: this side chased perpetually (Asian) or played a forbidden
    /// pattern (Chinese); it loses.
    Forbidden(Color),
    /// Row 7: no violation, a plain repetition.
    Plain,
}

impl Decision {
    /// The result: the violator loses, mutual violations and plain
    /// repetitions are draws.
    pub fn outcome(self) -> Outcome {
        match self {
            Decision::Check(by) | Decision::Forbidden(by) => Outcome::win_for(!by),
            Decision::MutualCheck | Decision::MutualForbidden | Decision::Plain => Outcome::Draw,
        }
    }
}

/// Applies the decision table of `set` to the two sides' tallies (indexed by
/// colour).
pub(super) fn decide(tally: &[Tally; 2], set: RuleSet) -> Decision {
    let [red, black] = tally;
    match (red.perpetual_check(), black.perpetual_check()) {
        (true, true) => return Decision::MutualCheck,
        (true, false) => return Decision::Check(Color::Red),
        (false, true) => return Decision::Check(Color::Black),
        (false, false) => {}
    }
    let forbidden = |t: &Tally| match set {
        RuleSet::Asian => t.perpetual_chase(),
        RuleSet::Chinese => t.all_attacks(),
    };
    match (forbidden(red), forbidden(black)) {
        (true, true) => Decision::MutualForbidden,
        (true, false) => Decision::Forbidden(Color::Red),
        (false, true) => Decision::Forbidden(Color::Black),
        (false, false) => Decision::Plain,
    }
}

/// Classifies the last `len` plies of `pos` (a window that starts and ends in
/// the same position, so it holds no capture and no null move) under
/// `rules`, and returns each side's tally.
///
/// With `record`, every move is classified and appended to it. Without it,
/// only the work the verdict needs is done: nothing beyond the check flags
/// if a side checked on every move; under the Asian rules no chase sets for
/// a side that checked at least once or whose running intersection is
/// already empty; under the Chinese rules the chase test first and the kill
/// test only for a move that is no chase, and nothing more for a side once
/// one of its moves is idle.
#[inline]
pub(super) fn classify(
    pos: &mut Position,
    len: usize,
    rules: Rules,
    record: Option<&mut Vec<MoveFacts>>,
) -> [Tally; 2] {
    let to_move = pos.side_to_move();
    let asian = rules.set == RuleSet::Asian;
    let chased = if asian { Bitboard::FULL } else { Bitboard::EMPTY };
    let mut tally = [Tally { moves: 0, checks: 0, kills: 0, chases: 0, idle: 0, chased }; 2];
    for j in 0..len {
        let t = &mut tally[mover(to_move, len, j).index()];
        t.moves += 1;
        t.checks += u16::from(step(pos, len, j).1);
    }
    if asian {
        for t in &mut tally {
            if t.checks > 0 {
                t.chased = Bitboard::EMPTY; // a check move has an empty chase set
            }
        }
    }
    let full = record.is_some();
    let check_decided = tally.iter().any(Tally::perpetual_check);
    let no_chase_left = asian && tally.iter().all(|t| t.chased.is_empty());
    if !full && (check_decided || no_chase_left) {
        return tally;
    }
    replay(pos, len, rules, record, &mut tally);
    tally
}

/// The side that played move `j` of a window of `len` plies that ends with
/// `to_move` to move.
fn mover(to_move: Color, len: usize, j: usize) -> Color {
    if (len - j) % 2 == 1 { !to_move } else { to_move }
}

/// Move `j` of the window of the last `len` plies and whether it gave check,
/// from the state records.
fn step(pos: &Position, len: usize, j: usize) -> (Move, bool) {
    let st = pos.state_back(len - 1 - j);
    (st.last_move, st.checkers.any())
}

/// The part of [`classify`] beyond the check flags: takes the window's moves
/// back, then replays them, classifying each as far as needed and adding to
/// `tally`. Out of line, so that the check-flag verdicts stay cheap.
#[inline(never)]
fn replay(
    pos: &mut Position,
    len: usize,
    rules: Rules,
    mut record: Option<&mut Vec<MoveFacts>>,
    tally: &mut [Tally; 2],
) {
    let to_move = pos.side_to_move();
    let asian = rules.set == RuleSet::Asian;
    let full = record.is_some();
    let window: Vec<(Move, bool)> = (0..len).map(|j| step(pos, len, j)).collect();
    for _ in 0..len {
        pos.undo_move();
    }
    let kill_depth = rules.kill_depth.min(MAX_KILL_DEPTH);
    // id_of[sq]: the square at the window start of the piece now on sq.
    let mut id_of: [Square; Square::COUNT] = std::array::from_fn(|i| Square::new(i as u8));
    for (j, &(mv, check)) in window.iter().enumerate() {
        let side = mover(to_move, len, j);
        let t = &mut tally[side.index()];
        // The victims do not move, so their squares before and after agree.
        let ids = |chased: Bitboard| chased.fold(Bitboard::EMPTY, |b, sq| b | id_of[sq.index()]);
        let (chased, kill) = if asian {
            let wanted = !check && (full || t.chased.any());
            let chased = play_asian(pos, mv, side, wanted);
            if wanted {
                t.chased &= ids(chased);
            }
            (chased, None)
        } else {
            let wanted = !check && (full || t.idle == 0);
            let (chased, kill) = play_chinese(pos, mv, wanted, full, kill_depth);
            if wanted {
                match (kill, chased.any()) {
                    (Some(_), _) => t.kills += 1,
                    (None, true) => {
                        t.chases += 1;
                        t.chased |= ids(chased);
                    }
                    (None, false) => t.idle += 1,
                }
            }
            (chased, kill)
        };
        if let Some(r) = record.as_deref_mut() {
            let victims = chased.map(|sq| (sq, id_of[sq.index()])).collect();
            r.push(MoveFacts { mv, side, check, kill, victims });
        }
        id_of[mv.to().index()] = id_of[mv.from().index()];
    }
}

/// Plays `mv` of `side` (the side to move); if `wanted`, returns its
/// NewChase under the Asian rules: Th after the move minus Th before.
fn play_asian(pos: &mut Position, mv: Move, side: Color, wanted: bool) -> Bitboard {
    let before = if wanted { threats(pos, side) } else { Bitboard::EMPTY };
    pos.do_move(mv);
    if wanted { threats(pos, side) & !before } else { Bitboard::EMPTY }
}

/// Plays `mv` of the side to move; if `wanted` (which needs `mv` to give no
/// check), returns its NewChase under the Chinese rules and the mate it
/// threatens. The threat set after the move comes first, and the one before
/// it is only computed for the pieces found there. With `exact` both tests
/// always run and the kill is the one with the fewest moves (for a trace);
/// otherwise the kill test runs only when the move chases nothing, since
/// either makes it an attack. (Kept out of line: it is costly anyway, and
/// the Asian loop stays small.)
#[inline(never)]
fn play_chinese(
    pos: &mut Position,
    mv: Move,
    wanted: bool,
    exact: bool,
    depth: u8,
) -> (Bitboard, Option<MateThreat>) {
    pos.do_move(mv);
    if !wanted {
        return (Bitboard::EMPTY, None);
    }
    // The mover moves again: the opponent passes, which is legal since the
    // move gave no check.
    pos.do_null_move();
    let after = mover_threats(pos, Bitboard::FULL);
    pos.undo_null_move();
    let chased = if after.any() {
        pos.undo_move();
        let before = mover_threats(pos, after);
        pos.do_move(mv);
        after & !before
    } else {
        Bitboard::EMPTY
    };
    if !exact && chased.any() {
        return (chased, None);
    }
    pos.do_null_move();
    let kill = if exact {
        (1..=depth).find_map(|d| mate_by_checks(pos, d).map(|first| MateThreat { moves: d, first }))
    } else {
        mate_by_checks(pos, depth).map(|first| MateThreat { moves: depth, first })
    };
    pos.undo_null_move();
    (chased, kill)
}
