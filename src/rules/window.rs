//! Classifying the moves of a ruling window (rules.md §3.6, §3.7, §5) and the
//! decision table (§6).
//!
//! Check flags come free from the state records. Chase sets need the board of
//! every position in the window, so the window's moves are taken back and
//! replayed one by one, computing the threat set of the mover before and
//! after each move; the position ends exactly as it started.

use arrayvec::ArrayVec;

use super::chase::threats;
use super::verdict::Outcome;
use crate::board::Position;
use crate::types::{Bitboard, Color, Move, Square};

/// One move of the window as the arbiter sees it.
#[derive(Clone, Debug)]
pub(super) struct MoveFacts {
    /// The move.
    pub mv: Move,
    /// The side that played it.
    pub side: Color,
    /// It gave check (and is then never a chase).
    pub check: bool,
    /// NewChase (empty for a check): each victim's square after the move and
    /// its identity, the square it stood on at the start of the window.
    pub victims: ArrayVec<(Square, Square), 16>,
}

/// What the moves of one side in the window add up to (§5).
#[derive(Clone, Copy, Debug)]
pub(super) struct Tally {
    /// Moves of the side in the window.
    pub moves: u32,
    /// How many of them gave check.
    pub checks: u32,
    /// Ids of the pieces freshly threatened by every move of the side.
    pub chased: Bitboard,
}

impl Tally {
    /// Every move of the side gave check.
    pub fn perpetual_check(&self) -> bool {
        self.moves > 0 && self.checks == self.moves
    }

    /// Some enemy piece was freshly threatened by every move of the side.
    pub fn perpetual_chase(&self) -> bool {
        self.moves > 0 && self.chased.any()
    }
}

/// The decision table of §6, before it is turned into an outcome.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Decision {
    /// Row 1: both sides checked on every move.
    MutualCheck,
    /// Rows 2–3: this side checked on every move; it loses.
    Check(Color),
    /// Row 4: both sides perpetually chased.
    MutualChase,
    /// Rows 5–6: this side perpetually chased; it loses.
    Chase(Color),
    /// Row 7: no violation, a plain repetition.
    Plain,
}

impl Decision {
    /// The result: the violator loses, mutual violations and plain
    /// repetitions are draws.
    pub fn outcome(self) -> Outcome {
        match self {
            Decision::Check(by) | Decision::Chase(by) => Outcome::win_for(!by),
            Decision::MutualCheck | Decision::MutualChase | Decision::Plain => Outcome::Draw,
        }
    }
}

/// Applies the decision table to the two sides' tallies (indexed by colour).
pub(super) fn decide(tally: &[Tally; 2]) -> Decision {
    let [red, black] = tally;
    match (red.perpetual_check(), black.perpetual_check()) {
        (true, true) => return Decision::MutualCheck,
        (true, false) => return Decision::Check(Color::Red),
        (false, true) => return Decision::Check(Color::Black),
        (false, false) => {}
    }
    match (red.perpetual_chase(), black.perpetual_chase()) {
        (true, true) => Decision::MutualChase,
        (true, false) => Decision::Chase(Color::Red),
        (false, true) => Decision::Chase(Color::Black),
        (false, false) => Decision::Plain,
    }
}

/// Classifies the last `len` plies of `pos` (a window that starts and ends in
/// the same position, so it holds no capture and no null move) and returns
/// each side's tally.
///
/// With `record`, every move is classified and appended to it. Without it,
/// only the work the verdict needs is done: no chase sets at all if a side
/// checked on every move, and none for a side that checked at least once or
/// whose running intersection is already empty.
pub(super) fn classify(
    pos: &mut Position,
    len: usize,
    mut record: Option<&mut Vec<MoveFacts>>,
) -> [Tally; 2] {
    let to_move = pos.side_to_move();
    let mover = |j: usize| if (len - j) % 2 == 1 { !to_move } else { to_move };
    // Move j of the window and whether it gave check, from the state records.
    let step = |pos: &Position, j: usize| {
        let st = pos.state_back(len - 1 - j);
        (st.last_move, st.checkers.any())
    };
    let mut tally = [Tally { moves: 0, checks: 0, chased: Bitboard::FULL }; 2];
    for j in 0..len {
        let t = &mut tally[mover(j).index()];
        t.moves += 1;
        t.checks += u32::from(step(pos, j).1);
    }
    for t in &mut tally {
        if t.checks > 0 {
            t.chased = Bitboard::EMPTY; // a check move has an empty chase set
        }
    }
    let full = record.is_some();
    let check_decided = tally.iter().any(Tally::perpetual_check);
    if !full && (check_decided || tally.iter().all(|t| t.chased.is_empty())) {
        return tally;
    }

    let window: Vec<(Move, bool)> = (0..len).map(|j| step(pos, j)).collect();
    for _ in 0..len {
        pos.undo_move();
    }
    // id_of[sq]: the square at the window start of the piece now on sq.
    let mut id_of: [Square; Square::COUNT] = std::array::from_fn(|i| Square::new(i as u8));
    for (j, &(mv, check)) in window.iter().enumerate() {
        let side = mover(j);
        let t = &mut tally[side.index()];
        let wanted = !check && (full || t.chased.any());
        let before = if wanted { threats(pos, side) } else { Bitboard::EMPTY };
        pos.do_move(mv);
        let chased = if wanted { threats(pos, side) & !before } else { Bitboard::EMPTY };
        // The victims did not move, so their squares before and after agree.
        let ids = chased.fold(Bitboard::EMPTY, |b, sq| b | id_of[sq.index()]);
        if wanted {
            t.chased &= ids;
        }
        if let Some(r) = record.as_deref_mut() {
            let victims = chased.map(|sq| (sq, id_of[sq.index()])).collect();
            r.push(MoveFacts { mv, side, check, victims });
        }
        id_of[mv.to().index()] = id_of[mv.from().index()];
    }
    tally
}
