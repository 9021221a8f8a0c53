//! The option table: one definition per option, with its UCI and UCCI
//! names, so both dialects advertise and accept the same settings.

use super::command::Dialect;
use crate::engine::{DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS};
use crate::search::SearchConfig;

/// Every option the engine knows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionId {
    /// Transposition table size in MB.
    Hash,
    /// Search threads.
    Threads,
    /// Number of principal variations.
    MultiPv,
    /// Whether the GUI may ask us to ponder (changes nothing by itself).
    Ponder,
    /// Milliseconds kept back per move.
    MoveOverhead,
    /// Empty the transposition table.
    ClearHash,
    /// The no-capture limit in plies (0 = off).
    Rule60,
    /// UCCI: clock values are in milliseconds.
    UseMillisec,
    /// UCCI: do not read commands while thinking.
    Batch,
    /// Extra `info` output.
    Debug,
    /// UCCI: a new game starts.
    NewGame,
    /// Accepted for compatibility; Chariot has no such feature.
    Ignored,
}

/// The type of an option, as advertised.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A boolean.
    Check(bool),
    /// An action without value.
    Button,
}

/// One advertised option.
pub struct OptionDef {
    /// Which option.
    pub id: OptionId,
    /// Name in UCI.
    pub uci: &'static str,
    /// Name in UCCI (one lower-case word).
    pub ucci: &'static str,
    /// Type and range.
    pub kind: Kind,
    /// Advertised in UCI / UCCI.
    pub dialects: (bool, bool),
}

/// The advertised options.
pub const OPTIONS: [OptionDef; 11] = [
    OptionDef {
        id: OptionId::Hash,
        uci: "Hash",
        ucci: "hashsize",
        kind: Kind::Spin { default: DEFAULT_HASH_MB as i64, min: 1, max: MAX_HASH_MB as i64 },
        dialects: (true, true),
    },
    OptionDef {
        id: OptionId::Threads,
        uci: "Threads",
        ucci: "threads",
        kind: Kind::Spin { default: 1, min: 1, max: MAX_THREADS as i64 },
        dialects: (true, true),
    },
    OptionDef {
        id: OptionId::MultiPv,
        uci: "MultiPV",
        ucci: "multipv",
        kind: Kind::Spin { default: 1, min: 1, max: 128 },
        dialects: (true, false),
    },
    OptionDef {
        id: OptionId::Ponder,
        uci: "Ponder",
        ucci: "ponder",
        kind: Kind::Check(false),
        dialects: (true, true),
    },
    OptionDef {
        id: OptionId::MoveOverhead,
        uci: "Move Overhead",
        ucci: "moveoverhead",
        kind: Kind::Spin { default: SEARCH_DEFAULTS.move_overhead_ms as i64, min: 0, max: 5000 },
        dialects: (true, true),
    },
    OptionDef {
        id: OptionId::ClearHash,
        uci: "Clear Hash",
        ucci: "clearhash",
        kind: Kind::Button,
        dialects: (true, true),
    },
    OptionDef {
        id: OptionId::Rule60,
        uci: "Rule60",
        ucci: "rule60",
        kind: Kind::Spin { default: SEARCH_DEFAULTS.move_limit as i64, min: 0, max: 1000 },
        dialects: (true, true),
    },
    OptionDef {
        id: OptionId::UseMillisec,
        uci: "usemillisec",
        ucci: "usemillisec",
        kind: Kind::Check(false),
        dialects: (false, true),
    },
    OptionDef {
        id: OptionId::Batch,
        uci: "batch",
        ucci: "batch",
        kind: Kind::Check(false),
        dialects: (false, true),
    },
    OptionDef {
        id: OptionId::Debug,
        uci: "debug",
        ucci: "debug",
        kind: Kind::Check(false),
        dialects: (false, true),
    },
    OptionDef {
        id: OptionId::NewGame,
        uci: "newgame",
        ucci: "newgame",
        kind: Kind::Button,
        dialects: (false, true),
    },
];

const SEARCH_DEFAULTS: SearchConfig = SearchConfig::DEFAULT;

/// UCCI 3.0 options we accept and ignore (the engine has no book, tablebases
/// or style settings), so GUIs that always send them get no error.
const IGNORED: [&str; 12] = [
    "usebook",
    "useegtb",
    "bookfiles",
    "egtbpaths",
    "evalapi",
    "idle",
    "promotion",
    "pruning",
    "knowledge",
    "randomness",
    "style",
    "uci_variant",
];

fn normalize(name: &str) -> String {
    name.chars().filter(|c| !matches!(c, ' ' | '_' | '-')).flat_map(char::to_lowercase).collect()
}

/// Finds an option by its UCI or UCCI name (any case, spaces optional).
pub fn lookup(name: &str) -> Option<(OptionId, Kind)> {
    let n = normalize(name);
    if let Some(def) = OPTIONS.iter().find(|d| normalize(d.uci) == n || normalize(d.ucci) == n) {
        return Some((def.id, def.kind));
    }
    match n.as_str() {
        "hash" => Some((OptionId::Hash, OPTIONS[0].kind)),
        "sixtymoverule" | "movelimit" => Some((OptionId::Rule60, OPTIONS[6].kind)),
        _ if IGNORED.iter().any(|i| normalize(i) == n) => Some((OptionId::Ignored, Kind::Button)),
        _ => None,
    }
}

/// The `option …` lines a dialect prints at the handshake.
pub fn advertise(dialect: Dialect) -> Vec<String> {
    OPTIONS
        .iter()
        .filter(|d| if dialect == Dialect::Uci { d.dialects.0 } else { d.dialects.1 })
        .map(|d| {
            let (prefix, name) = match dialect {
                Dialect::Uci => ("option name ", d.uci),
                Dialect::Ucci => ("option ", d.ucci),
            };
            let kind = match d.kind {
                Kind::Spin { default, min, max } => {
                    format!("type spin default {default} min {min} max {max}")
                }
                Kind::Check(b) => format!("type check default {b}"),
                Kind::Button => "type button".to_string(),
            };
            format!("{prefix}{name} {kind}")
        })
        .collect()
}

/// Parses a check value (`true`/`on`/`1` or `false`/`off`/`0`).
pub fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" | "yes" => Some(true),
        "false" | "off" | "0" | "no" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_either_dialect() {
        assert_eq!(lookup("Hash").unwrap().0, OptionId::Hash);
        assert_eq!(lookup("hashsize").unwrap().0, OptionId::Hash);
        assert_eq!(lookup("move overhead").unwrap().0, OptionId::MoveOverhead);
        assert_eq!(lookup("Move_Overhead").unwrap().0, OptionId::MoveOverhead);
        assert_eq!(lookup("usebook").unwrap().0, OptionId::Ignored);
        assert!(lookup("Frobnicate").is_none());
        assert!(
            advertise(Dialect::Uci)
                .iter()
                .any(|l| l == "option name Hash type spin default 16 min 1 max 1048576")
        );
        assert!(advertise(Dialect::Ucci).iter().any(|l| l.starts_with("option usemillisec type check")));
    }
}
