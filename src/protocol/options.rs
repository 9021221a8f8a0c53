//! The option table: one definition per option, with its UCI and UCCI
//! names, so every dialect advertises and accepts the same settings. Values
//! are checked and clamped here; [`Setting::apply_to`] applies the engine's
//! own settings, and each session keeps the rest.

use once_cell::sync::Lazy;

use super::command::Dialect;
use super::format::shown;
use crate::book::DEFAULT_VARIETY;
use crate::book::probe::MAX_VARIETY;
use crate::engine::{DEFAULT_HASH_MB, Engine, MAX_HASH_MB, MAX_THREADS};
use crate::rules::RuleSet;
use crate::search::SearchConfig;
use crate::search::skill;
#[cfg(feature = "tune")]
use crate::search::tunables;

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
    /// The rule set that judges repetitions: `asian` or `chinese`.
    RuleSet,
    /// Play from the opening book (UCCI `usebook`).
    OwnBook,
    /// The book file; empty or `<default>` for the built-in book (UCCI `bookfiles`).
    BookFile,
    /// How varied the book's choice is, 0 (always the heaviest move) to 100
    /// (every book move alike); 50 follows the weights.
    BookVariety,
    /// `Use NNUE`: evaluate with the network rather than classically.
    UseNnue,
    /// The network file; empty or `<default>` for the built-in network.
    EvalFile,
    /// `Skill Level` 0..=20 (20: full strength).
    SkillLevel,
    /// `UCI_LimitStrength`: play at `UCI_Elo`.
    LimitStrength,
    /// `UCI_Elo`: the strength when it is limited.
    Elo,
    /// `UCI_ShowWDL`: win/draw/loss chances after the score in `info`.
    ShowWdl,
    /// UCCI: clock values are in milliseconds.
    UseMillisec,
    /// UCCI: finish each search before reading the next command.
    Batch,
    /// Extra `info` output.
    Debug,
    /// UCCI: a new game starts.
    NewGame,
    /// `UCI_Variant` / `UCCI_Variant`: only `xiangqi` is accepted.
    Variant,
    /// Accepted for compatibility; Chariot has no such feature.
    Ignored,
    /// A search constant of the `tune` build (index into [`tunables::TUNABLES`]).
    #[cfg(feature = "tune")]
    Tunable(usize),
}

/// The type of an option, as advertised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// One word of a fixed list.
    Combo {
        /// Default value.
        default: &'static str,
        /// Every value, in the order of [`Setting::value`].
        choices: &'static [&'static str],
    },
    /// An action without value.
    Button,
    /// Any text.
    Text,
    /// A file name (a string in UCI and UCCI, a file chooser in CECP).
    Path,
}

/// One option.
#[derive(Clone, Debug)]
pub struct OptionDef {
    /// Which option.
    pub id: OptionId,
    /// Name in UCI.
    pub uci: &'static str,
    /// Name in UCCI (one lower-case word).
    pub ucci: &'static str,
    /// Type and range.
    pub kind: Kind,
    /// Printed at the `uci` handshake.
    pub in_uci: bool,
    /// Printed at the `ucci` handshake.
    pub in_ucci: bool,
}

/// An option value ready to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    /// Which option.
    pub id: OptionId,
    /// The value: the number of a spin, 0/1 for a check, the index of a
    /// combo's choice, 0 otherwise.
    pub value: i64,
    /// The text of a file name (empty otherwise).
    pub text: String,
}

impl Setting {
    /// True for the settings that replace or clear the table or change the
    /// thread pool: the session stops any search before it applies them.
    pub fn needs_idle_engine(&self) -> bool {
        matches!(self.id, OptionId::Hash | OptionId::Threads | OptionId::ClearHash)
    }

    /// Applies a setting of the engine itself (table, threads, search
    /// settings); the settings a session keeps (clock units, batch mode,
    /// debug output, win/draw/loss output, pondering, new game) change
    /// nothing here. The error
    /// says what could not be done (see [`Engine::set_hash_mb`]).
    pub fn apply_to(self, engine: &mut Engine) -> Result<(), String> {
        let n = self.value.max(0) as u64;
        let config = engine.config_mut();
        match self.id {
            OptionId::Hash => return engine.set_hash_mb(n as usize),
            OptionId::Threads => return engine.set_threads(n as usize),
            OptionId::ClearHash => return engine.clear_hash(),
            OptionId::MultiPv => config.multipv = n as usize,
            OptionId::MoveOverhead => config.move_overhead_ms = n,
            OptionId::Rule60 => config.rules.move_limit = n as u16,
            OptionId::RuleSet => config.rules.set = RuleSet::ALL.get(n as usize).copied().unwrap_or_default(),
            OptionId::OwnBook => return engine.book_mut().set_enabled(n != 0),
            OptionId::BookFile => return engine.book_mut().set_file(&self.text),
            OptionId::BookVariety => engine.book_mut().set_variety(n as u32),
            OptionId::UseNnue => engine.set_use_nnue(n != 0),
            OptionId::EvalFile => return engine.set_network_file(&self.text),
            OptionId::SkillLevel => config.strength.skill_level = n.min(u64::from(skill::MAX_LEVEL)) as u8,
            OptionId::LimitStrength => config.strength.limit_strength = n != 0,
            OptionId::Elo => {
                config.strength.elo = n.clamp(u64::from(skill::MIN_ELO), u64::from(skill::MAX_ELO)) as u16
            }
            OptionId::ShowWdl
            | OptionId::UseMillisec
            | OptionId::Batch
            | OptionId::Debug
            | OptionId::NewGame
            | OptionId::Ponder
            | OptionId::Variant
            | OptionId::Ignored => {}
            #[cfg(feature = "tune")]
            OptionId::Tunable(i) => tunables::set(i, self.value),
        }
        Ok(())
    }
}

const SEARCH_DEFAULTS: SearchConfig = SearchConfig::DEFAULT;

/// The `RuleSet` choices, in the order of [`RuleSet::ALL`].
const RULE_SETS: [&str; 2] = [RuleSet::ALL[0].name(), RuleSet::ALL[1].name()];

/// UCCI 3.0 options Chariot accepts and ignores (it has no tablebases or
/// style settings; `loadbook` is ElephantEye's), plus a few UCI ones GUIs
/// send blindly.
const IGNORED: [&str; 14] = [
    "useegtb",
    "egtbpaths",
    "evalapi",
    "idle",
    "promotion",
    "pruning",
    "knowledge",
    "randomness",
    "selectivity",
    "style",
    "usehash",
    "loadbook",
    "UCI_AnalyseMode",
    "UCI_Chess960",
];

/// The options; the `Hash` range depends on the machine (see [`max_hash_mb`]).
static OPTIONS: Lazy<Vec<OptionDef>> = Lazy::new(|| {
    let def = |id, uci, ucci, kind, in_uci, in_ucci| OptionDef { id, uci, ucci, kind, in_uci, in_ucci };
    let spin = |default: i64, min, max| Kind::Spin { default: default.clamp(min, max), min, max };
    let options = vec![
        def(OptionId::Hash, "Hash", "hashsize", spin(DEFAULT_HASH_MB as i64, 1, max_hash_mb()), true, true),
        def(OptionId::Threads, "Threads", "threads", spin(1, 1, MAX_THREADS as i64), true, true),
        def(OptionId::MultiPv, "MultiPV", "multipv", spin(1, 1, 128), true, false),
        def(OptionId::Ponder, "Ponder", "ponder", Kind::Check(false), true, true),
        def(
            OptionId::MoveOverhead,
            "Move Overhead",
            "moveoverhead",
            spin(SEARCH_DEFAULTS.move_overhead_ms as i64, 0, 5000),
            true,
            true,
        ),
        def(OptionId::ClearHash, "Clear Hash", "clearhash", Kind::Button, true, true),
        def(
            OptionId::Rule60,
            "Rule60",
            "rule60",
            spin(SEARCH_DEFAULTS.rules.move_limit as i64, 0, 1000),
            true,
            true,
        ),
        def(
            OptionId::RuleSet,
            "RuleSet",
            "ruleset",
            Kind::Combo { default: SEARCH_DEFAULTS.rules.set.name(), choices: &RULE_SETS },
            true,
            true,
        ),
        def(OptionId::OwnBook, "OwnBook", "usebook", Kind::Check(false), true, true),
        def(OptionId::BookFile, "BookFile", "bookfiles", Kind::Path, true, true),
        def(
            OptionId::BookVariety,
            "BookVariety",
            "bookvariety",
            spin(DEFAULT_VARIETY as i64, 0, MAX_VARIETY as i64),
            true,
            true,
        ),
        def(OptionId::UseNnue, "Use NNUE", "usennue", Kind::Check(true), true, true),
        def(OptionId::EvalFile, "EvalFile", "evalfile", Kind::Path, true, true),
        def(
            OptionId::SkillLevel,
            "Skill Level",
            "skilllevel",
            spin(skill::MAX_LEVEL as i64, 0, skill::MAX_LEVEL as i64),
            true,
            true,
        ),
        def(OptionId::LimitStrength, "UCI_LimitStrength", "limitstrength", Kind::Check(false), true, true),
        def(
            OptionId::Elo,
            "UCI_Elo",
            "elo",
            spin(SEARCH_DEFAULTS.strength.elo as i64, skill::MIN_ELO as i64, skill::MAX_ELO as i64),
            true,
            true,
        ),
        def(OptionId::ShowWdl, "UCI_ShowWDL", "showwdl", Kind::Check(false), true, false),
        def(OptionId::UseMillisec, "usemillisec", "usemillisec", Kind::Check(false), false, true),
        def(OptionId::Batch, "batch", "batch", Kind::Check(false), false, true),
        def(OptionId::Debug, "debug", "debug", Kind::Check(false), false, true),
        def(OptionId::NewGame, "newgame", "newgame", Kind::Button, false, true),
        def(OptionId::Variant, "UCI_Variant", "ucci_variant", Kind::Text, false, false),
    ];
    // The `tune` build adds the search's constants.
    #[cfg(feature = "tune")]
    let options = {
        let tunables = tunables::TUNABLES.iter().enumerate().map(|(i, t)| {
            let range = spin(i64::from(t.default), i64::from(t.min), i64::from(t.max));
            def(OptionId::Tunable(i), t.name, t.name, range, true, true)
        });
        options.into_iter().chain(tunables).collect()
    };
    options
});

/// The largest hash size offered: half the machine's memory (a larger table
/// would push the search into swap), never more than [`MAX_HASH_MB`].
fn max_hash_mb() -> i64 {
    let ram = physical_memory_mb().unwrap_or(MAX_HASH_MB);
    (ram / 2).clamp(DEFAULT_HASH_MB, MAX_HASH_MB) as i64
}

/// Total memory in MB, where the system tells (Linux).
fn physical_memory_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find_map(|l| l.strip_prefix("MemTotal:"))?;
    let kb: usize = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kb / 1024)
}

fn normalize(name: &str) -> String {
    name.chars().filter(|c| !matches!(c, ' ' | '_' | '-')).flat_map(char::to_lowercase).collect()
}

/// Finds an option by its UCI or UCCI name (any case; spaces, `_` and `-`
/// optional) or a known alias.
pub fn lookup(name: &str) -> Option<OptionDef> {
    let n = normalize(name);
    if let Some(def) = OPTIONS.iter().find(|d| normalize(d.uci) == n || normalize(d.ucci) == n) {
        return Some(def.clone());
    }
    let alias = |id| OPTIONS.iter().find(|d| d.id == id).cloned();
    match n.as_str() {
        "sixtymoverule" | "movelimit" => alias(OptionId::Rule60),
        "variant" | "uccivariant" => alias(OptionId::Variant),
        _ if IGNORED.iter().any(|i| normalize(i) == n) => Some(OptionDef {
            id: OptionId::Ignored,
            uci: "",
            ucci: "",
            kind: Kind::Text,
            in_uci: false,
            in_ucci: false,
        }),
        _ => None,
    }
}

/// Checks a `setoption`: the option must exist and the value must suit its
/// type. Numbers out of range are clamped, with a notice for the user; the
/// UCCI `hashsize 0` and `threads 0` mean "the engine decides" (the default).
/// Returns the setting and the notice.
pub fn resolve(name: &str, value: Option<&str>) -> Result<(Setting, Option<String>), String> {
    let def = lookup(name).ok_or_else(|| format!("unknown option '{}' (ignored)", shown(name)))?;
    let value = value.map(str::trim).filter(|v| !v.is_empty());
    let setting = |value| Setting { id: def.id, value, text: String::new() };
    match def.kind {
        Kind::Spin { default, min, max } => {
            let v = value.ok_or_else(|| format!("option '{}' needs a number", shown(name)))?;
            let n = parse_integer(v).ok_or_else(|| {
                format!("option '{}' needs a number from {min} to {max}, not '{}'", shown(name), shown(v))
            })?;
            let engine_decides = matches!(def.id, OptionId::Hash | OptionId::Threads);
            if n == 0 && engine_decides && normalize(name) == def.ucci {
                return Ok((setting(default), None));
            }
            let clamped = n.clamp(min as i128, max as i128) as i64;
            let notice = (clamped as i128 != n)
                .then(|| format!("option '{}' clamped to {clamped} (range {min} to {max})", shown(name)));
            Ok((setting(clamped), notice))
        }
        Kind::Check(_) => match value.map(parse_bool) {
            Some(Some(b)) => Ok((setting(b as i64), None)),
            _ => Err(format!(
                "option '{}' needs true or false, not '{}'",
                shown(name),
                shown(value.unwrap_or(""))
            )),
        },
        Kind::Combo { choices, .. } => {
            let v = value.unwrap_or("");
            match choices.iter().position(|c| c.eq_ignore_ascii_case(v)) {
                Some(i) => Ok((setting(i as i64), None)),
                None => Err(format!(
                    "option '{}' needs one of {}, not '{}'",
                    shown(name),
                    choices.join(", "),
                    shown(v)
                )),
            }
        }
        Kind::Button => Ok((setting(0), None)),
        Kind::Text if def.id == OptionId::Variant => match value {
            Some(v) if v.eq_ignore_ascii_case("xiangqi") => Ok((setting(0), None)),
            v => Err(format!("only the variant 'xiangqi' is supported, not '{}'", shown(v.unwrap_or("")))),
        },
        Kind::Text => Ok((setting(0), None)),
        Kind::Path => Ok((Setting { text: value.unwrap_or("").to_string(), ..setting(0) }, None)),
    }
}

/// An integer, written as one (`-12`) or as a finite decimal (`1e3`, `7.6`, rounded).
fn parse_integer(v: &str) -> Option<i128> {
    if let Ok(n) = v.parse::<i128>() {
        return Some(n);
    }
    let f = v.parse::<f64>().ok().filter(|f| f.is_finite())?;
    Some(f.round().clamp(i128::MIN as f64, i128::MAX as f64) as i128)
}

/// The `option …` lines a dialect prints at the handshake.
pub fn advertise(dialect: Dialect) -> Vec<String> {
    OPTIONS
        .iter()
        .filter(|d| if dialect == Dialect::Uci { d.in_uci } else { d.in_ucci })
        .map(|d| {
            let kind = match (d.kind, dialect) {
                (Kind::Spin { default, min, max }, Dialect::Uci) => {
                    format!("type spin default {default} min {min} max {max}")
                }
                // UCCI 3.0 lists min and max before the default.
                (Kind::Spin { default, min, max }, Dialect::Ucci) => {
                    format!("type spin min {min} max {max} default {default}")
                }
                (Kind::Check(b), _) => format!("type check default {b}"),
                (Kind::Combo { default, choices }, Dialect::Uci) => {
                    let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
                    format!("type combo default {default} {}", vars.join(" "))
                }
                // UCCI 3.0 lists the choices before the default.
                (Kind::Combo { default, choices }, Dialect::Ucci) => {
                    let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
                    format!("type combo {} default {default}", vars.join(" "))
                }
                (Kind::Button, _) => "type button".to_string(),
                (Kind::Text | Kind::Path, _) => "type string default <empty>".to_string(),
            };
            match dialect {
                Dialect::Uci => format!("option name {} {kind}", d.uci),
                Dialect::Ucci => format!("option {} {kind}", d.ucci),
            }
        })
        .collect()
}

/// Parses a check value (`true`/`on`/`1`/`yes` or `false`/`off`/`0`/`no`).
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
        let id = |n: &str| lookup(n).map(|d| d.id);
        assert_eq!(id("Hash"), Some(OptionId::Hash));
        assert_eq!(id("hashsize"), Some(OptionId::Hash));
        assert_eq!(id("move overhead"), Some(OptionId::MoveOverhead));
        assert_eq!(id("Move_Overhead"), Some(OptionId::MoveOverhead));
        assert_eq!(id("usebook"), Some(OptionId::OwnBook));
        assert_eq!(id("OwnBook"), Some(OptionId::OwnBook));
        assert_eq!(id("bookfiles"), Some(OptionId::BookFile));
        assert_eq!(id("Book Variety"), Some(OptionId::BookVariety));
        assert_eq!(id("loadbook"), Some(OptionId::Ignored));
        assert_eq!(id("UCCI_Variant"), Some(OptionId::Variant));
        assert_eq!(id("Use NNUE"), Some(OptionId::UseNnue));
        assert_eq!(id("usennue"), Some(OptionId::UseNnue));
        assert_eq!(id("EvalFile"), Some(OptionId::EvalFile));
        assert_eq!(id("evalfile"), Some(OptionId::EvalFile));
        assert_eq!(id("Frobnicate"), None);
    }

    #[test]
    fn advertised_forms() {
        let uci = advertise(Dialect::Uci);
        assert!(uci.iter().any(|l| l.starts_with("option name Hash type spin default 16 min 1 max ")));
        assert!(uci.iter().any(|l| l == "option name Clear Hash type button"));
        let ucci = advertise(Dialect::Ucci);
        assert!(ucci.iter().any(|l| l == "option usemillisec type check default false"));
        assert!(
            ucci.iter()
                .any(|l| l.starts_with("option hashsize type spin min 1 max ") && l.ends_with(" default 16"))
        );
        assert!(ucci.iter().all(|l| !l.contains(" name ")));
        assert!(
            uci.contains(&"option name RuleSet type combo default asian var asian var chinese".to_string())
        );
        assert!(ucci.contains(&"option ruleset type combo var asian var chinese default asian".to_string()));
        assert!(uci.contains(&"option name OwnBook type check default false".to_string()));
        assert!(uci.contains(&"option name BookFile type string default <empty>".to_string()));
        assert!(uci.contains(&"option name BookVariety type spin default 50 min 0 max 100".to_string()));
        assert!(ucci.contains(&"option usebook type check default false".to_string()));
        assert!(ucci.contains(&"option bookfiles type string default <empty>".to_string()));
        assert!(ucci.contains(&"option bookvariety type spin min 0 max 100 default 50".to_string()));
        assert!(uci.contains(&"option name Use NNUE type check default true".to_string()));
        assert!(uci.contains(&"option name EvalFile type string default <empty>".to_string()));
        assert!(ucci.contains(&"option usennue type check default true".to_string()));
        assert!(ucci.contains(&"option evalfile type string default <empty>".to_string()));
    }

    #[test]
    fn values() {
        let r = |n: &str, v: Option<&str>| resolve(n, v);
        assert_eq!(
            r("MultiPV", Some("3")).unwrap(),
            (Setting { id: OptionId::MultiPv, value: 3, text: String::new() }, None)
        );
        let (s, notice) = r("MultiPV", Some("99999999999999999999999999")).unwrap();
        assert_eq!(s.value, 128);
        assert!(notice.unwrap().contains("clamped to 128"));
        assert_eq!(r("Move Overhead", Some("-5")).unwrap().0.value, 0);
        assert_eq!(r("threads", Some("1.4")).unwrap().0.value, 1);
        assert_eq!(
            r("hashsize", Some("0")).unwrap(),
            (Setting { id: OptionId::Hash, value: 16, text: String::new() }, None)
        );
        assert_eq!(
            r("threads", Some("0")).unwrap(),
            (Setting { id: OptionId::Threads, value: 1, text: String::new() }, None)
        );
        assert!(r("Hash", Some("0")).unwrap().1.unwrap().contains("clamped to 1"));
        assert!(r("Hash", Some("lots")).unwrap_err().contains("needs a number"));
        assert!(r("Hash", None).is_err());
        assert!(r("Hash", Some("inf")).is_err());
        assert_eq!(r("usemillisec", Some("on")).unwrap().0.value, 1);
        assert!(r("usemillisec", None).is_err());
        assert!(r("batch", Some("maybe")).is_err());
        assert!(r("UCI_Variant", Some("xiangqi")).is_ok());
        assert!(r("UCI_Variant", Some("chess")).is_err());
        let book = r("bookfiles", Some(" C:\\my books\\book.dat ")).unwrap().0;
        assert_eq!((book.id, book.text.as_str()), (OptionId::BookFile, "C:\\my books\\book.dat"));
        assert_eq!(r("BookFile", None).unwrap().0.text, "");
        let on = Setting { id: OptionId::OwnBook, value: 1, text: String::new() };
        assert_eq!(r("usebook", Some("true")).unwrap().0, on);
        assert_eq!(r("BookVariety", Some("250")).unwrap().0.value, 100);
        assert!(r("nosuch", Some("1")).unwrap_err().contains("unknown option"));
        assert_eq!(
            r("RuleSet", Some("chinese")).unwrap(),
            (Setting { id: OptionId::RuleSet, value: 1, text: String::new() }, None)
        );
        assert_eq!(r("ruleset", Some(" Asian ")).unwrap().0.value, 0);
        assert!(r("RuleSet", Some("skyrule")).unwrap_err().contains("needs one of asian, chinese"));
        assert!(r("RuleSet", None).is_err());
    }

    #[test]
    fn rule_set_reaches_the_search_config() {
        let (tx, _rx) = crossbeam_channel::unbounded();
        let mut engine = Engine::new(tx);
        resolve("RuleSet", Some("chinese")).unwrap().0.apply_to(&mut engine).unwrap();
        assert_eq!(engine.config_mut().rules.set, RuleSet::Chinese);
        resolve("rule set", Some("asian")).unwrap().0.apply_to(&mut engine).unwrap();
        assert_eq!(engine.config_mut().rules.set, RuleSet::Asian);
    }

    #[test]
    #[cfg(feature = "tune")]
    fn tunables_are_advertised_and_reach_the_search() {
        use crate::search::tunables::{TUNABLES, see_quiet};
        assert!(
            advertise(Dialect::Uci)
                .iter()
                .any(|l| l == "option name tune_see_quiet type spin default 22 min 5 max 60")
        );
        let (tx, _rx) = crossbeam_channel::unbounded();
        let mut engine = Engine::new(tx);
        let (setting, notice) = resolve("tune_see_quiet", Some("31")).unwrap();
        assert!(notice.is_none());
        setting.apply_to(&mut engine).unwrap();
        assert_eq!(see_quiet(), 31);
        let (setting, notice) = resolve("tune_see_quiet", Some("500")).unwrap();
        assert!(notice.unwrap().contains("clamped to 60"));
        setting.apply_to(&mut engine).unwrap();
        assert_eq!(see_quiet(), 60);
        let default = TUNABLES.iter().find(|t| t.name == "tune_see_quiet").unwrap().default;
        resolve("tune_see_quiet", Some(&default.to_string())).unwrap().0.apply_to(&mut engine).unwrap();
        assert_eq!(see_quiet(), 22);
    }

    #[test]
    fn the_network_options_reach_the_engine() {
        let (tx, _rx) = crossbeam_channel::unbounded();
        let mut engine = Engine::new(tx);
        assert!(engine.uses_nnue(), "on by default");
        resolve("Use NNUE", Some("false")).unwrap().0.apply_to(&mut engine).unwrap();
        assert!(!engine.uses_nnue());
        resolve("Use NNUE", Some("true")).unwrap().0.apply_to(&mut engine).unwrap();
        assert!(engine.uses_nnue());
        let name = engine.network().name().to_string();
        let e = resolve("evalfile", Some("/no/such.nnue")).unwrap().0.apply_to(&mut engine).unwrap_err();
        assert!(e.contains("'/no/such.nnue'") && e.ends_with(&format!("keeping the network {name}")), "{e}");
        assert_eq!(engine.network().name(), name);
        assert!(engine.uses_nnue());
        resolve("EvalFile", Some("<default>")).unwrap().0.apply_to(&mut engine).unwrap();
        resolve("usennue", Some("false")).unwrap().0.apply_to(&mut engine).unwrap();
        assert!(!engine.uses_nnue());
    }
}
