//! What a CECP engine prints: the features, thinking lines, result claims
//! and status lines.

use crate::protocol::format::{clip, pv_text};
use crate::protocol::options::{self, Kind};
use crate::rules::{Outcome, Rule, Ruling};
use crate::search::SearchInfo;
use crate::tt::Bound;
use crate::types::score::Reported;

/// CECP's mate scores: 100000 + N for "mate in N moves".
const MATE_SCORE: i32 = 100_000;

/// Longest `#` line printed (longer ones are cut).
const MAX_NOTE: usize = 300;

/// The options offered in the GUI's engine settings (by their UCI names).
/// `memory` and `cores` set the first two as well; `hard`/`easy` stand for
/// `Ponder`.
const ADVERTISED: [&str; 15] = [
    "Hash",
    "Threads",
    "MultiPV",
    "Move Overhead",
    "Clear Hash",
    "Rule60",
    "RuleSet",
    "OwnBook",
    "BookFile",
    "BookVariety",
    "Use NNUE",
    "EvalFile",
    "Skill Level",
    "UCI_LimitStrength",
    "UCI_Elo",
];

/// The reply to `protover`: the features, one `option` feature per
/// setting, and `done=1` last.
pub fn features() -> Vec<String> {
    let version = env!("CARGO_PKG_VERSION");
    let mut lines = vec![format!(
        "feature myname=\"Chariot {version}\" variants=\"xiangqi\" setboard=1 usermove=1 ping=1 \
         playother=1 time=1 draw=1 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 name=0 nps=0 \
         memory=1 smp=1 exclude=1 debug=1"
    )];
    for def in ADVERTISED.iter().filter_map(|name| options::lookup(name)) {
        let kind = match def.kind {
            Kind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
            Kind::Check(b) => format!("-check {}", b as u8),
            // The current choice is marked with an asterisk.
            Kind::Combo { default, choices } => {
                let marked: Vec<String> = choices
                    .iter()
                    .map(|&c| if c == default { format!("*{c}") } else { c.to_string() })
                    .collect();
                format!("-combo {}", marked.join(" /// "))
            }
            Kind::Button => "-button".to_string(),
            Kind::Text => "-string ".to_string(),
            Kind::Path => "-file ".to_string(),
        };
        lines.push(format!("feature option=\"{} {kind}\"", def.uci));
    }
    lines.push("feature done=1".to_string());
    lines
}

/// A search score in CECP's form: centipawns, or ±(100000 + moves) for mates.
pub fn score(score: i32) -> i32 {
    match Reported::from_score(score) {
        Reported::Cp(cp) => cp,
        Reported::Mate(n) if n > 0 => MATE_SCORE + n,
        Reported::Mate(n) => -MATE_SCORE + n,
    }
}

/// A thinking line: `ply score time nodes pv`, time in centiseconds; a
/// bound ends the pv with `?` (fail low) or `!` (fail high). The optional
/// fields CECP allows before the pv (selective depth, speed, tablebase
/// hits) are left out: XBoard 4.9 shows them as part of the pv in its main
/// window.
pub fn thinking(i: &SearchInfo) -> String {
    let bound = match i.bound {
        Some(Bound::Upper) => "?",
        Some(Bound::Lower) => "!",
        _ => "",
    };
    format!("{} {} {} {} {}{bound}", i.depth, score(i.score), i.time_ms / 10, i.nodes, pv_text(&i.pv))
}

/// The result of a game the arbiter has ended, e.g. `0-1 {Perpetual check
/// by Red}`; `None` while the game goes on.
pub fn result(ruling: &Ruling) -> Option<String> {
    let code = match ruling.outcome? {
        Outcome::RedWins => "1-0",
        Outcome::BlackWins => "0-1",
        Outcome::Draw => "1/2-1/2",
    };
    Some(format!("{code} {{{}}}", reason(&ruling.rule.to_string())))
}

/// The claim of the move-limit draw after `plies` plies without a capture
/// under a limit of `limit` plies (made late, when XBoard's own count
/// allows it: see [`super::move_limit`]).
pub fn move_limit_result(plies: u16, limit: u16) -> String {
    format!("1/2-1/2 {{{}}}", reason(&Rule::MoveLimit { plies, limit }.to_string()))
}

/// True if the result is claimed: every ruling but a win by a repetition
/// rule (perpetual check, chase, a forbidden pattern: a decisive ruling
/// with a repetition window). XBoard verifies an
/// engine's win claim against its own judgement (`-testClaims`, on in its
/// default configuration), which knows only mate and stalemate as wins, so
/// it would forfeit a correct claim of one of those; it rules perpetual
/// check and chase itself when the position repeats (`-repeatsToDraw`),
/// so the engine plays on and leaves that ruling to it. Draws are claimed:
/// XBoard flags the third occurrence and the move limit as claimable.
pub fn is_claimed(ruling: &Ruling) -> bool {
    ruling.window.is_none() || ruling.outcome == Some(Outcome::Draw)
}

/// The arbiter's wording with the sentence and the side names capitalised
/// ("perpetual check by red" → "Perpetual check by Red").
fn reason(rule: &str) -> String {
    let words: Vec<String> = rule
        .split(' ')
        .enumerate()
        .map(|(i, w)| match w {
            "red" | "red:" | "black" | "black:" => capitalised(w),
            _ if i == 0 => capitalised(w),
            _ => w.to_string(),
        })
        .collect();
    words.join(" ")
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// A line XBoard only writes to its debug log (`feature debug=1`).
pub fn note(text: &str) -> String {
    format!("# {}", clip(text, MAX_NOTE))
}

/// The `.` status line of an analysis: elapsed centiseconds, nodes, the
/// depth completed, no moves left at it, and the moves at the root.
pub fn status(centis: u64, nodes: u64, depth: u32, root_moves: usize) -> String {
    format!("stat01: {centis} {nodes} {depth} 0 {root_moves}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Move;
    use crate::types::score::{mate_in, mated_in};

    #[test]
    fn scores_and_thinking_lines() {
        assert_eq!(score(35), 35);
        assert_eq!(score(mate_in(1)), 100_001);
        assert_eq!(score(mate_in(5)), 100_003);
        assert_eq!(score(mated_in(2)), -100_001);
        assert_eq!(score(mated_in(0)), -100_000);
        let info = SearchInfo {
            depth: 9,
            seldepth: 14,
            multipv: 1,
            score: -20,
            bound: Some(Bound::Upper),
            nodes: 48_000,
            nps: 1_000_000,
            hashfull: 3,
            time_ms: 10_849,
            pv: vec![Move::parse("h2e2").unwrap(), Move::parse("h9g7").unwrap()],
            wdl: Default::default(),
        };
        assert_eq!(thinking(&info), "9 -20 1084 48000 h2e2 h9g7?");
    }

    #[test]
    fn features_end_with_done() {
        let f = features();
        assert!(f[0].starts_with("feature myname=\"Chariot ") && f[0].contains("variants=\"xiangqi\""));
        assert!(f.iter().any(|l| l.starts_with("feature option=\"Hash -spin 16 1 ")));
        assert!(f.contains(&"feature option=\"Clear Hash -button\"".to_string()));
        assert!(f.contains(&"feature option=\"Rule60 -spin 120 0 1000\"".to_string()));
        assert!(f.contains(&"feature option=\"RuleSet -combo *asian /// chinese\"".to_string()));
        assert!(f.contains(&"feature option=\"OwnBook -check 0\"".to_string()));
        assert!(f.contains(&"feature option=\"BookFile -file \"".to_string()));
        assert!(f.contains(&"feature option=\"BookVariety -spin 50 0 100\"".to_string()));
        assert!(f.contains(&"feature option=\"Skill Level -spin 20 0 20\"".to_string()));
        assert!(f.contains(&"feature option=\"Use NNUE -check 1\"".to_string()));
        assert!(f.contains(&"feature option=\"EvalFile -file \"".to_string()));
        assert_eq!(f.last().unwrap(), "feature done=1");
    }

    #[test]
    fn reasons_read_as_sentences() {
        assert_eq!(reason("perpetual check by red"), "Perpetual check by Red");
        assert_eq!(reason("checkmate: black is mated"), "Checkmate: Black is mated");
        assert_eq!(
            reason("perpetual chase of the black cannon on b6 by red"),
            "Perpetual chase of the Black cannon on b6 by Red"
        );
        assert_eq!(
            reason("60-round limit: 120 plies without a capture"),
            "60-round limit: 120 plies without a capture"
        );
    }
}
