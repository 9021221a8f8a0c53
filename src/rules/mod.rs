//! The rule arbiter: how a xiangqi game ends, under either of two rule sets
//! ([`RuleSet`]): the Asian rules (`docs/rules.md` in the shared documents,
//! the default) or the Chinese Xiangqi Association's rules
//! (`docs/rules-chinese.md`). Only the repetition ruling differs between
//! them; mate, stalemate and the no-capture limit are shared.
//!
//! * [`adjudicate`]: the game-level ruling after a move (no legal move loses,
//!   then repetition at the third occurrence, then the no-capture limit),
//!   with the window and a readable reason.
//! * [`search_ruling`]: the cheap in-search version (rules.md §7), called at
//!   every non-root node; it only compares keys unless a position repeats.
//!
//! Both take the position explicitly, hold no state, and leave the position
//! exactly as they found it (move classification takes moves back and
//! replays them). Modules: `repetition` finds the window; `chase` computes
//! the Asian threat sets, `value_chase` the Chinese (value-based) ones and
//! `kill` the Chinese mate-threat test; `window` classifies the window's
//! moves and applies the decision table of the rule set; `verdict` builds
//! the game-level ruling from it; `outcome` and `attack` hold the small
//! answer types both of them use.

mod attack;
mod chase;
mod kill;
mod outcome;
mod repetition;
mod value_chase;
mod verdict;
mod window;

use std::fmt;
use std::str::FromStr;

pub use attack::{Attacks, MateThreat};
pub use chase::threats;
pub use outcome::Outcome;
pub use value_chase::value_threats;
pub use verdict::{MoveClass, Rule, Ruling, SideClass, Victim, Window, WindowMove};

use crate::board::Position;

/// The default no-capture limit: 120 plies (60 rounds).
pub const DEFAULT_MOVE_LIMIT: u16 = 120;

/// The default depth of the Chinese kill test: a mate by at most three
/// consecutive checks (rules-chinese.md §3.2, `KILL_DEPTH`).
pub const DEFAULT_KILL_DEPTH: u8 = 3;

/// The deepest kill test accepted (each extra move multiplies its cost).
pub const MAX_KILL_DEPTH: u8 = 5;

/// Which rulebook judges repetitions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum RuleSet {
    /// The Asian (AXF) rules: perpetual check and perpetual chase of one
    /// piece are forbidden (rules.md).
    #[default]
    Asian,
    /// The Chinese Xiangqi Association's rules: perpetual check, mate threat
    /// (kill), chase by piece values, and every mixture of them are
    /// forbidden (rules-chinese.md).
    Chinese,
}

impl RuleSet {
    /// Both rule sets, the default first.
    pub const ALL: [RuleSet; 2] = [RuleSet::Asian, RuleSet::Chinese];

    /// `asian` or `chinese` (the option value and the `judge --rules` word).
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Asian => "asian",
            RuleSet::Chinese => "chinese",
        }
    }

    /// True if the search must never prune a move that may repeat a
    /// position at shallow depth. Under the Chinese rules most repetitions
    /// decide the game (a chase by piece values, a mate threat, one check
    /// one chase), and a pruned reply that completes a forbidden cycle let
    /// the violator walk into it; under the Asian rules the search plays
    /// every rule case right without the exemption (`tests/rules_search.rs`)
    /// and games never showed it paying, so the default search stays as it
    /// was before the Chinese rules came (`docs/strength.md`).
    pub const fn searches_every_repetition(self) -> bool {
        matches!(self, RuleSet::Chinese)
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RuleSet {
    type Err = String;

    /// `asian` or `chinese`, in any case.
    fn from_str(s: &str) -> Result<RuleSet, String> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown rule set '{}' (asian or chinese)", s.escape_debug()))
    }
}

/// How games are judged: the rule set and its parameters.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    /// The rule set that judges repetitions.
    pub set: RuleSet,
    /// The no-capture limit in plies (0 = off).
    pub move_limit: u16,
    /// The Chinese kill test's depth: the most moves (all checks) of the
    /// threatening side in a mate that counts as a kill, 1 to
    /// [`MAX_KILL_DEPTH`] (0 finds no kill). The Asian rules ignore it.
    pub kill_depth: u8,
}

impl Rules {
    /// The defaults: the Asian rules, a 120-ply limit, kill depth 3.
    pub const DEFAULT: Rules =
        Rules { set: RuleSet::Asian, move_limit: DEFAULT_MOVE_LIMIT, kill_depth: DEFAULT_KILL_DEPTH };

    /// The defaults with the rule set `set`.
    pub const fn of(set: RuleSet) -> Rules {
        Rules { set, ..Rules::DEFAULT }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::DEFAULT
    }
}

/// The game-level ruling at the current position of a game played with
/// [`Position::do_move`] (rules.md / rules-chinese.md §1, §4–6, §8), in this
/// order:
///
/// 1. the side to move has no legal move: it loses (checkmate or stalemate);
/// 2. the position occurs for the third time (or later) since the last
///    capture: the repetition ruling of `rules.set` over the window from its
///    third-to-last occurrence;
/// 3. `rules.move_limit` plies without a capture (0 = no limit): draw;
/// 4. otherwise the game goes on (`outcome` is `None`).
///
/// `pos` is left exactly as it was.
pub fn adjudicate(pos: &mut Position, rules: Rules) -> Ruling {
    let side = pos.side_to_move();
    if !pos.has_legal_move() {
        let rule =
            if pos.in_check() { Rule::Checkmate { loser: side } } else { Rule::Stalemate { loser: side } };
        return Ruling { outcome: Some(Outcome::win_for(!side)), rule, window: None };
    }
    if let Some(len) = repetition::game_window(pos) {
        let mut facts = Vec::with_capacity(len);
        let tally = window::classify(pos, len, rules, Some(&mut facts));
        return Ruling::repetition(pos, rules.set, &tally, &facts);
    }
    let plies = pos.rule60();
    if limit_reached(pos, rules.move_limit) {
        return Ruling {
            outcome: Some(Outcome::Draw),
            rule: Rule::MoveLimit { plies, limit: rules.move_limit },
            window: None,
        };
    }
    Ruling { outcome: None, rule: Rule::Ongoing { plies }, window: None }
}

/// The in-search ruling at a non-root node `ply_from_root` plies below the
/// root (rules.md §7, the simple version), in absolute terms; `None` means
/// search on.
///
/// * A third occurrence rules over the window from the third-to-last one.
/// * A second occurrence rules over one cycle when the earlier occurrence is
///   strictly inside the tree (`ply_from_root` > its distance back).
/// * Then `rules.move_limit` plies without a capture (0 = no limit): a draw,
///   or a loss for the side to move if it has no legal move.
///
/// The scan never passes the last capture or null move. Without a repeated
/// key this is a short loop over the stored keys, whatever the rule set;
/// move classes are computed only when a key repeats, cheapest test first,
/// and only as far as the verdict needs them (nothing when a side checked on
/// every move of the window). `pos` is left exactly as it was. The search
/// does its own no-legal-move test elsewhere (a repeated position always has
/// moves).
#[inline]
pub fn search_ruling(pos: &mut Position, ply_from_root: usize, rules: Rules) -> Option<Outcome> {
    // The common case, a position new since the last capture with the limit
    // not reached, answered inline; everything else out of line.
    if !pos.may_repeat() && !limit_reached(pos, rules.move_limit) {
        return None;
    }
    repetition_or_limit(pos, ply_from_root, rules)
}

/// [`search_ruling`] once the position may repeat or the limit is reached.
#[inline(never)]
fn repetition_or_limit(pos: &mut Position, ply_from_root: usize, rules: Rules) -> Option<Outcome> {
    if let Some(len) = repetition::search_window(pos, ply_from_root) {
        let tally = window::classify(pos, len, rules, None);
        return Some(window::decide(&tally, rules.set).outcome());
    }
    if limit_reached(pos, rules.move_limit) {
        let side = pos.side_to_move();
        return Some(if pos.has_legal_move() { Outcome::Draw } else { Outcome::win_for(!side) });
    }
    None
}

/// True if the no-capture limit (`move_limit` plies, 0 = off) has been reached.
#[inline]
fn limit_reached(pos: &Position, move_limit: u16) -> bool {
    move_limit != 0 && pos.rule60() >= move_limit
}
