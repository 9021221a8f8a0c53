//! The game-level ruling: a [`Ruling`] with the outcome, the rule applied,
//! the ruling window and the class of every window move, printable as a
//! readable reason ([`fmt::Display`]) or as one line ([`Ruling::summary`]).

use std::fmt;

use super::RuleSet;
use super::attack::{Attacks, MateThreat};
use super::outcome::Outcome;
use super::window::{Decision, MoveFacts, Tally, decide};
use crate::board::Position;
use crate::types::{Bitboard, Color, Move, Piece, Square};

/// A piece threatened by a chase move, followed through the window.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Victim {
    /// The piece.
    pub piece: Piece,
    /// Where it stands at that point of the window.
    pub square: Square,
    /// Its identity: the square it stood on at the start of the window (which
    /// is also where it stands in the current position).
    pub id: Square,
}

impl fmt::Display for Victim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {} {} on {}", self.piece.color().name(), self.piece.kind().name(), self.square)?;
        if self.square != self.id {
            write!(f, " (on {} at the window start)", self.id)?;
        }
        Ok(())
    }
}

/// What one move of the window is for the arbiter (rules.md §3.6, §3.8;
/// rules-chinese.md §3.5, where a move with several effects takes the first
/// class that applies in this order).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveClass {
    /// The move gave check (whatever else it attacked).
    Check,
    /// Chinese rules only: the move threatens this mate (a kill).
    Kill(MateThreat),
    /// The move newly threatened these pieces (NewChase).
    Chase(Vec<Victim>),
    /// Anything else.
    Idle,
}

/// One move of the ruling window.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WindowMove {
    /// Index of the move in the game (the position before it has this ply index).
    pub ply: usize,
    /// The move.
    pub mv: Move,
    /// The side that played it.
    pub side: Color,
    /// Its class.
    pub class: MoveClass,
}

/// What one side's moves in the window add up to (rules.md §5,
/// rules-chinese.md §5).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SideClass {
    /// Every move gave check (both rule sets).
    PerpetualCheck,
    /// Asian rules: every move newly threatened these pieces (named where
    /// they stand now).
    PerpetualChase(Vec<Victim>),
    /// Asian rules: neither.
    NoViolation,
    /// Chinese rules: every move was an attack of these kinds, not all
    /// checks: a forbidden pattern (长杀, 长捉, 一将一捉, …).
    Forbidden(Attacks),
    /// Chinese rules: at least one idle move, besides attacks of these kinds:
    /// an allowed pattern (闲, 一将一闲, 一杀一闲, …).
    Allowed(Attacks),
}

impl SideClass {
    /// The pattern as the case files name it: `perpetual_check`,
    /// `forbidden` (a perpetual chase under the Asian rules) or `allowed`.
    pub const fn pattern(&self) -> &'static str {
        match self {
            SideClass::PerpetualCheck => "perpetual_check",
            SideClass::PerpetualChase(_) | SideClass::Forbidden(_) => "forbidden",
            SideClass::NoViolation | SideClass::Allowed(_) => "allowed",
        }
    }

    /// The rulebook's name of the side's cycle in pinyin, as the Chinese case
    /// files write it: `chang_jiang`, `chang_sha`, `chang_zhuo`,
    /// `mixed_jiang_zhuo`, `allowed (xian)`, `allowed (sha+xian)`, …; the
    /// Asian classes are `chang_jiang`, `chang_zhuo` and `allowed`.
    pub fn name(&self) -> String {
        match self {
            SideClass::PerpetualCheck => "chang_jiang".into(),
            SideClass::PerpetualChase(_) => "chang_zhuo".into(),
            SideClass::NoViolation => "allowed".into(),
            SideClass::Forbidden(a) => match a.pinyin().as_slice() {
                [one] => format!("chang_{one}"),
                kinds => format!("mixed_{}", kinds.join("_")),
            },
            SideClass::Allowed(a) => {
                let mut kinds = a.pinyin();
                kinds.push("xian");
                format!("allowed ({})", kinds.join("+"))
            }
        }
    }
}

/// The moves between the third-to-last occurrence of the position and now.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Window {
    /// Ply index of the first position of the window.
    pub start_ply: usize,
    /// Ply index of the last position (the current one).
    pub end_ply: usize,
    /// Every move of the window, in order.
    pub moves: Vec<WindowMove>,
    /// Red's class over the window.
    pub red: SideClass,
    /// Black's class over the window.
    pub black: SideClass,
}

/// The rule a [`Ruling`] applied.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Rule {
    /// `loser` is to move, in check, with no legal move.
    Checkmate {
        /// The mated side.
        loser: Color,
    },
    /// `loser` is to move, not in check, with no legal move: a loss in xiangqi.
    Stalemate {
        /// The side that cannot move.
        loser: Color,
    },
    /// Repetition where `by` checked on every move of the window (and the
    /// other side did not): `by` loses.
    PerpetualCheck {
        /// The violator.
        by: Color,
    },
    /// Repetition where both sides checked on every move: draw.
    MutualPerpetualCheck,
    /// Repetition where `by` chased `victims` on every move (and neither side
    /// checked on every move, nor did the other side chase): `by` loses.
    PerpetualChase {
        /// The violator.
        by: Color,
        /// The pieces chased on every move, where they stand now.
        victims: Vec<Victim>,
    },
    /// Repetition where both sides chased perpetually: draw.
    MutualPerpetualChase,
    /// Repetition with no violation: draw.
    Repetition,
    /// Chinese rules: repetition where `by` attacked on every move, with
    /// attacks of these kinds, not all checks (and the other side neither
    /// did so nor checked on every move): `by` loses.
    Forbidden {
        /// The violator.
        by: Color,
        /// The kinds of attack in its cycle.
        attacks: Attacks,
        /// The pieces its chase moves chased, where they stand now.
        victims: Vec<Victim>,
    },
    /// Chinese rules: repetition where both sides played forbidden
    /// patterns, neither only checks: draw.
    MutualForbidden,
    /// Chinese rules: repetition where both sides played allowed patterns
    /// (each made an idle move): draw.
    BothAllowed,
    /// `plies` plies without a capture reached the limit of `limit` plies: draw.
    MoveLimit {
        /// Plies since the last capture.
        plies: u16,
        /// The limit in plies.
        limit: u16,
    },
    /// No rule ends the game yet.
    Ongoing {
        /// Plies since the last capture.
        plies: u16,
    },
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Checkmate { loser } => write!(f, "checkmate: {} is mated", loser.name()),
            Rule::Stalemate { loser } => {
                write!(f, "stalemate: {} has no legal move, which loses", loser.name())
            }
            Rule::PerpetualCheck { by } => write!(f, "perpetual check by {}", by.name()),
            Rule::MutualPerpetualCheck => write!(f, "mutual perpetual check"),
            Rule::PerpetualChase { by, victims } => {
                write!(f, "perpetual chase of {} by {}", list(victims), by.name())
            }
            Rule::MutualPerpetualChase => write!(f, "mutual perpetual chase"),
            Rule::Repetition => write!(f, "plain repetition (no perpetual check or chase)"),
            Rule::Forbidden { by, attacks, victims } => {
                write!(f, "{} by {}", attacks.words(), by.name())?;
                if !victims.is_empty() {
                    write!(f, " (chasing {})", list(victims))?;
                }
                Ok(())
            }
            Rule::MutualForbidden => write!(f, "mutual forbidden: draw (both sides attack on every move)"),
            Rule::BothAllowed => write!(f, "both allowed: draw (each side made an idle move)"),
            Rule::MoveLimit { plies, limit } => {
                write!(f, "{}-round limit: {plies} plies without a capture", limit / 2)
            }
            Rule::Ongoing { plies } => write!(f, "no ruling yet ({plies} plies without a capture)"),
        }
    }
}

/// "the black cannon on b6 and the black horse on c5".
fn list(victims: &[Victim]) -> String {
    let names: Vec<String> = victims.iter().map(Victim::to_string).collect();
    names.join(" and ")
}

/// The game-level ruling at a position (see [`adjudicate`](super::adjudicate)).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Ruling {
    /// How the game ends here, or `None` if it goes on.
    pub outcome: Option<Outcome>,
    /// The rule applied.
    pub rule: Rule,
    /// For repetition rulings, the window and its moves.
    pub window: Option<Window>,
}

impl Ruling {
    /// `red_wins`, `black_wins`, `draw` or `none`.
    pub fn verdict(&self) -> &'static str {
        self.outcome.map_or("none", Outcome::as_str)
    }

    /// What `chariot judge` prints: the line `verdict <red_wins |
    /// black_wins | draw | none>`, then the reason ([`fmt::Display`]): the
    /// rule and, for repetitions, the window, each side's class and every
    /// window move with its class, one per line (no final newline).
    pub fn report(&self) -> String {
        format!("verdict {}\n{self}", self.verdict())
    }

    /// One line for an engine `info string`, e.g.
    /// `black_wins: perpetual chase of the black cannon on b6 by red (plies 0-8)`.
    pub fn summary(&self) -> String {
        match &self.window {
            Some(w) => format!("{}: {} (plies {}-{})", self.verdict(), self.rule, w.start_ply, w.end_ply),
            None => format!("{}: {}", self.verdict(), self.rule),
        }
    }

    /// The ruling of `set` on a repetition whose window's moves are `facts`,
    /// made at the current position `pos` (which equals the window's first
    /// position).
    pub(super) fn repetition(
        pos: &Position,
        set: RuleSet,
        tally: &[Tally; 2],
        facts: &[MoveFacts],
    ) -> Ruling {
        let side_class = |c: Color| {
            let t = &tally[c.index()];
            match set {
                _ if t.perpetual_check() => SideClass::PerpetualCheck,
                RuleSet::Asian if t.perpetual_chase() => SideClass::PerpetualChase(victims(pos, t.chased)),
                RuleSet::Asian => SideClass::NoViolation,
                RuleSet::Chinese if t.all_attacks() => SideClass::Forbidden(t.attacks()),
                RuleSet::Chinese => SideClass::Allowed(t.attacks()),
            }
        };
        let decision = decide(tally, set);
        let rule = match (decision, set) {
            (Decision::MutualCheck, _) => Rule::MutualPerpetualCheck,
            (Decision::Check(by), _) => Rule::PerpetualCheck { by },
            (Decision::MutualForbidden, RuleSet::Asian) => Rule::MutualPerpetualChase,
            (Decision::MutualForbidden, RuleSet::Chinese) => Rule::MutualForbidden,
            (Decision::Forbidden(by), RuleSet::Asian) => {
                Rule::PerpetualChase { by, victims: victims(pos, tally[by.index()].chased) }
            }
            (Decision::Forbidden(by), RuleSet::Chinese) => {
                let t = &tally[by.index()];
                Rule::Forbidden { by, attacks: t.attacks(), victims: victims(pos, t.chased) }
            }
            (Decision::Plain, RuleSet::Asian) => Rule::Repetition,
            (Decision::Plain, RuleSet::Chinese) => Rule::BothAllowed,
        };
        let end_ply = pos.game_ply();
        let start_ply = end_ply - facts.len();
        let moves = facts
            .iter()
            .zip(start_ply..)
            .map(|(m, ply)| WindowMove { ply, mv: m.mv, side: m.side, class: class(pos, m) })
            .collect();
        let window = Window {
            start_ply,
            end_ply,
            moves,
            red: side_class(Color::Red),
            black: side_class(Color::Black),
        };
        Ruling { outcome: Some(decision.outcome()), rule, window: Some(window) }
    }
}

/// The pieces whose ids are `ids`, where they stand in `pos` (the window's
/// first and last position).
fn victims(pos: &Position, ids: Bitboard) -> Vec<Victim> {
    ids.filter_map(|sq| Some(Victim { piece: pos.piece_on(sq)?, square: sq, id: sq })).collect()
}

/// The public class of a classified move.
fn class(pos: &Position, m: &MoveFacts) -> MoveClass {
    if m.check {
        MoveClass::Check
    } else if let Some(threat) = m.kill {
        MoveClass::Kill(threat)
    } else if m.victims.is_empty() {
        MoveClass::Idle
    } else {
        let victim = |&(square, id): &(Square, Square)| Some(Victim { piece: pos.piece_on(id)?, square, id });
        MoveClass::Chase(m.victims.iter().filter_map(victim).collect())
    }
}

impl fmt::Display for MoveClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveClass::Check => write!(f, "check"),
            MoveClass::Kill(threat) => write!(f, "kill: threatens {threat}"),
            MoveClass::Chase(victims) => write!(f, "chase of {}", list(victims)),
            MoveClass::Idle => write!(f, "idle"),
        }
    }
}

impl fmt::Display for SideClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SideClass::PerpetualCheck => write!(f, "checks on every move (perpetual check)"),
            SideClass::PerpetualChase(v) => write!(f, "chases {} on every move (perpetual chase)", list(v)),
            SideClass::NoViolation => write!(f, "no perpetual check or chase"),
            SideClass::Forbidden(a) => {
                write!(f, "every move attacks: {}, forbidden ({})", a.words(), self.name())
            }
            SideClass::Allowed(_) => write!(f, "not every move attacks: {}", self.name()),
        }
    }
}

impl fmt::Display for Ruling {
    /// The rule, then for repetitions the window, each side's class and every
    /// window move with its class, one per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rule: {}", self.rule)?;
        if let Some(w) = &self.window {
            write!(
                f,
                "\nwindow: plies {}-{}, from the third-to-last occurrence of the position to now",
                w.start_ply, w.end_ply
            )?;
            write!(f, "\nred: {}\nblack: {}", w.red, w.black)?;
            for m in &w.moves {
                write!(f, "\n  ply {:>3} {:<5} {}: {}", m.ply, m.side.name(), m.mv, m.class)?;
            }
        }
        Ok(())
    }
}
