//! The kinds of attack the arbiter tells apart in a repetition: a mate
//! threat by consecutive checks ([`MateThreat`], the Chinese kill) and the
//! kinds present among one side's moves ([`Attacks`]). The window's move
//! classification produces them; the ruling reports them.

use std::fmt;

use crate::types::Move;

/// A threat to mate by consecutive checks: what makes a move a kill under
/// the Chinese rules (rules-chinese.md §3.2).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MateThreat {
    /// The fewest moves (all checks) of the threatening side that mate
    /// against every defence, were it to move again.
    pub moves: u8,
    /// The first check of such a mate.
    pub first: Move,
}

impl fmt::Display for MateThreat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mate in {} by checks, starting {}", self.moves, self.first)
    }
}

/// The kinds of attack among one side's moves in the window (Chinese rules).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Attacks {
    /// At least one move gave check.
    pub check: bool,
    /// At least one move was a kill (a mate threat).
    pub kill: bool,
    /// At least one move was a chase.
    pub chase: bool,
}

impl Attacks {
    /// The rulebook's English name of a cycle of these attacks only, e.g.
    /// "perpetual mate threat" (长杀) or "one check one chase" (一将一捉).
    pub const fn words(self) -> &'static str {
        match (self.check, self.kill, self.chase) {
            (false, false, false) => "no attack",
            (true, false, false) => "perpetual check",
            (false, true, false) => "perpetual mate threat",
            (false, false, true) => "perpetual chase",
            (true, true, false) => "one check one mate threat",
            (true, false, true) => "one check one chase",
            (false, true, true) => "one mate threat one chase",
            (true, true, true) => "checks, mate threats and chases",
        }
    }

    /// The pinyin names of the kinds present: `jiang`, `sha`, `zhuo`.
    pub(super) fn pinyin(self) -> Vec<&'static str> {
        [(self.check, "jiang"), (self.kill, "sha"), (self.chase, "zhuo")]
            .into_iter()
            .filter_map(|(present, name)| present.then_some(name))
            .collect()
    }
}
