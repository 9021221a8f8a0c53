//! The rule arbiter against the verified games in `tests/data/rules/`:
//! `cases.jsonl` (the shared catalogue, rules.md §10) and `extra.jsonl`
//! (mirrored and reinforced copies and random games, verdicts from the
//! reference implementation) under the Asian rules; `cases-chinese.jsonl`
//! (the shared Chinese catalogue, rules-chinese.md §10) and
//! `extra-chinese.jsonl` (the same kinds of extra games) under the Chinese
//! rules, and their recorded Asian verdicts under the Asian rules; see the
//! README there.
//!
//! For every game: each move is legal; the game-level verdict, rule, window,
//! per-side pattern and per-move trace (class, new-chase squares, victim ids)
//! match; the in-search ruling matches `search_ruling` with every earlier
//! occurrence strictly inside the tree, and with the game's first position
//! as the root; both rulings leave the position untouched;
//! `illegal_next`/`legal_next` hold.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use chariot::board::Position;
use chariot::rules::{self, DEFAULT_MOVE_LIMIT, MoveClass, Outcome, Rule, RuleSet, Rules};
use common::json::Json;

/// One move of a `trace`.
struct TraceMove {
    mv: String,
    side: String,
    /// `check`, `kill`, `chase` or `idle` (the Asian files give a check flag
    /// and imply the rest from the chases).
    class: String,
    new_chases: Vec<String>,
    victim_ids: Vec<String>,
}

/// One test game.
struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    expected: String,
    /// The Chinese files' Asian verdict.
    asian: Option<String>,
    /// The Chinese files' `kill_depth`, if given.
    kill_depth: Option<u8>,
    /// `search_ruling`: `None` when the field is `null` (no repetition).
    search: Option<String>,
    window: Option<(usize, usize)>,
    trace: Option<Vec<TraceMove>>,
    /// The Chinese files' `patterns`: (pattern, name) of Red and of Black.
    patterns: Option<[(String, String); 2]>,
    /// `ruling_rule` if the field is present (`Some(None)` for `null`).
    rule: Option<Option<String>>,
    illegal_next: Vec<String>,
    legal_next: Option<Vec<String>>,
}

fn field<'a>(obj: &'a Json, key: &str) -> &'a Json {
    obj.get(key).unwrap_or_else(|| panic!("missing field '{key}'"))
}

fn text(obj: &Json, key: &str) -> String {
    field(obj, key).as_str().unwrap_or_else(|| panic!("'{key}' is not a string")).to_string()
}

fn parse_case(obj: &Json) -> Case {
    let strings = |key: &str| obj.get(key).map(|v| v.as_strings().expect("array of strings"));
    let trace = obj.get("trace").map(|t| {
        t.as_array()
            .expect("trace is an array")
            .iter()
            .map(|m| {
                let new_chases = field(m, "new_chases").as_strings().expect("new_chases");
                let class = match m.get("class") {
                    Some(c) => c.as_str().expect("class is a string").to_string(),
                    None if field(m, "check").as_bool().expect("check is a bool") => "check".into(),
                    None if new_chases.is_empty() => "idle".into(),
                    None => "chase".into(),
                };
                TraceMove {
                    mv: text(m, "move"),
                    side: text(m, "side"),
                    class,
                    new_chases,
                    victim_ids: field(m, "victim_ids").as_strings().expect("victim_ids"),
                }
            })
            .collect()
    });
    let patterns = obj.get("patterns").map(|p| {
        ["red", "black"].map(|side| {
            let s = field(p, side);
            (text(s, "pattern"), text(s, "name"))
        })
    });
    let window = obj.get("ruling_window_plies").map(|w| {
        let w = w.as_array().expect("window is an array");
        (w[0].as_usize().expect("start"), w[1].as_usize().expect("end"))
    });
    Case {
        id: text(obj, "id"),
        fen: text(obj, "fen"),
        moves: strings("moves").expect("moves"),
        expected: text(obj, "expected"),
        asian: obj.get("asian").map(|a| a.as_str().expect("asian is a string").to_string()),
        kill_depth: obj.get("kill_depth").map(|d| d.as_usize().expect("kill_depth") as u8),
        search: obj.get("search_ruling").and_then(|s| s.as_str().map(str::to_string)),
        window,
        trace,
        patterns,
        rule: obj.get("ruling_rule").map(|r| r.as_str().map(str::to_string)),
        illegal_next: strings("illegal_next").unwrap_or_default(),
        legal_next: strings("legal_next"),
    }
}

fn load(name: &str) -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/rules").join(name);
    let data = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    data.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_case(&Json::parse(l).unwrap_or_else(|e| panic!("{name}:{}: {e}", i + 1))))
        .collect()
}

fn verdict(o: Option<Outcome>) -> &'static str {
    o.map_or("none", Outcome::as_str)
}

/// The in-search answer when no repetition rules: the move limit (rules.md §7).
fn limit_fallback(pos: &Position) -> &'static str {
    if pos.rule60() < DEFAULT_MOVE_LIMIT {
        "none"
    } else if pos.has_legal_move() {
        "draw"
    } else {
        verdict(Some(Outcome::win_for(!pos.side_to_move())))
    }
}

/// Checks one game under `rules`; returns every mismatch found.
fn check_case(case: &Case, rules: Rules) -> Vec<String> {
    let mut errs = Vec::new();
    let mut pos = match Position::from_fen(&case.fen) {
        Ok(p) => p,
        Err(e) => return vec![format!("bad FEN: {e}")],
    };
    // Keys and capture flags of every position, for the independent
    // occurrence count below.
    let mut keys = vec![pos.key()];
    let mut last_capture = 0;
    for (i, m) in case.moves.iter().enumerate() {
        let Some(mv) = pos.parse_legal_move(m) else {
            return vec![format!("move {i} '{m}' is illegal in {}", pos.fen())];
        };
        pos.do_move(mv);
        keys.push(pos.key());
        if pos.captured_piece().is_some() {
            last_capture = i + 1;
        }
    }
    let original = pos.clone();

    let ruling = rules::adjudicate(&mut pos, rules);
    if pos != original {
        errs.push("adjudicate changed the position".into());
    }
    if ruling.verdict() != case.expected {
        errs.push(format!("verdict {} != expected {}\n{ruling}", ruling.verdict(), case.expected));
    }
    let window = ruling.window.as_ref().map(|w| (w.start_ply, w.end_ply));
    if window != case.window {
        errs.push(format!("window {window:?} != {:?}", case.window));
    }
    if let Some(Some(rule)) = &case.rule {
        let ok = match rule.as_str() {
            "checkmate" => matches!(ruling.rule, Rule::Checkmate { .. }),
            "stalemate" => matches!(ruling.rule, Rule::Stalemate { .. }),
            "move_limit" => matches!(ruling.rule, Rule::MoveLimit { .. }),
            "repetition" => ruling.window.is_some(),
            other => {
                errs.push(format!("unknown ruling_rule '{other}'"));
                true
            }
        };
        if !ok {
            errs.push(format!("rule {:?} is not {rule}", ruling.rule));
        }
    } else if let Some(None) = &case.rule
        && !matches!(ruling.rule, Rule::Ongoing { .. })
    {
        errs.push(format!("rule {:?}, expected no ruling", ruling.rule));
    }
    if let (Some(trace), Some(w)) = (&case.trace, &ruling.window) {
        if trace.len() != w.moves.len() {
            errs.push(format!("trace has {} moves, window {}", trace.len(), w.moves.len()));
        }
        for (t, m) in trace.iter().zip(&w.moves) {
            let (class, squares, ids) = match &m.class {
                MoveClass::Check => ("check", vec![], vec![]),
                MoveClass::Kill(_) => ("kill", vec![], vec![]),
                MoveClass::Idle => ("idle", vec![], vec![]),
                MoveClass::Chase(v) => (
                    "chase",
                    v.iter().map(|v| v.square.to_string()).collect(),
                    v.iter().map(|v| v.id.to_string()).collect::<BTreeSet<_>>().into_iter().collect(),
                ),
            };
            let mut squares: Vec<String> = squares;
            squares.sort();
            // The chase squares are compared for chase moves; the Chinese
            // files also list them for checks and kills, where they do not count.
            let (want_squares, want_ids) = if t.class == "chase" || rules.set == RuleSet::Asian {
                (t.new_chases.clone(), t.victim_ids.clone())
            } else {
                (vec![], vec![])
            };
            let got = (m.mv.to_string(), m.side.name().to_string(), class.to_string(), squares, ids);
            let want = (t.mv.clone(), t.side.clone(), t.class.clone(), want_squares, want_ids);
            if got != want {
                errs.push(format!("ply {}: got {got:?}, trace says {want:?}", m.ply));
            }
        }
    }
    if let (Some(patterns), Some(w)) = (&case.patterns, &ruling.window) {
        let got = [&w.red, &w.black].map(|c| (c.pattern().to_string(), c.name()));
        if &got != patterns {
            errs.push(format!("patterns {got:?} != {patterns:?}"));
        }
    }

    // In search, every earlier occurrence strictly inside the tree: the root
    // lies before the game's first position.
    let n = case.moves.len();
    let want = case.search.as_deref().unwrap_or_else(|| limit_fallback(&pos));
    let got = verdict(rules::search_ruling(&mut pos, n + 1, rules));
    if got != want {
        errs.push(format!("search_ruling {got} != {want}"));
    }
    // With the game's first position as the root, a second occurrence of it
    // is not ruled (it is not strictly inside the tree).
    let earlier: Vec<usize> = (last_capture..n.saturating_sub(3))
        .filter(|j| (n - j).is_multiple_of(2) && keys[*j] == keys[n])
        .collect();
    let want = match earlier.as_slice() {
        [0] => limit_fallback(&pos),
        _ => want,
    };
    let got = verdict(rules::search_ruling(&mut pos, n, rules));
    if got != want {
        errs.push(format!("search_ruling with the first position as root: {got} != {want}"));
    }
    if pos != original {
        errs.push("search_ruling changed the position".into());
    }

    for m in &case.illegal_next {
        if pos.parse_legal_move(m).is_some() {
            errs.push(format!("{m} should be illegal"));
        }
    }
    if let Some(legal) = &case.legal_next {
        let got: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        let want: BTreeSet<String> = legal.iter().cloned().collect();
        if got != want {
            errs.push(format!("legal moves {got:?} != {want:?}"));
        }
    }
    errs
}

/// The Chinese rules with a case's kill depth.
fn chinese(case: &Case) -> Rules {
    Rules { kill_depth: case.kill_depth.unwrap_or(rules::DEFAULT_KILL_DEPTH), ..Rules::of(RuleSet::Chinese) }
}

/// The Asian verdict a Chinese file records for a game.
fn check_asian_verdict(case: &Case) -> Vec<String> {
    let mut pos = Position::from_fen(&case.fen).unwrap();
    for m in &case.moves {
        let mv = pos.parse_legal_move(m).unwrap();
        pos.do_move(mv);
    }
    let got = rules::adjudicate(&mut pos, Rules::DEFAULT).verdict();
    let want = case.asian.as_deref().unwrap_or("(missing)");
    if got == want { vec![] } else { vec![format!("Asian verdict {got} != recorded {want}")] }
}

fn check_all(cases: &[Case], check: impl Fn(&Case) -> Vec<String>) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let errs = check(c);
            (!errs.is_empty())
                .then(|| format!("{} ({} {}):\n  {}", c.id, c.fen, c.moves.join(" "), errs.join("\n  ")))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} games fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn shared_catalogue() {
    let cases = load("cases.jsonl");
    assert_eq!(cases.len(), 67);
    check_all(&cases, |c| check_case(c, Rules::DEFAULT));
}

#[test]
fn extra_games() {
    let cases = load("extra.jsonl");
    assert!(cases.len() >= 30, "only {} extra games", cases.len());
    let ids: BTreeSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), cases.len(), "duplicate ids");
    check_all(&cases, |c| check_case(c, Rules::DEFAULT));
}

#[test]
fn chinese_catalogue() {
    let cases = load("cases-chinese.jsonl");
    assert_eq!(cases.len(), 33);
    assert_eq!(cases.iter().filter(|c| c.asian.as_ref() != Some(&c.expected)).count(), 11);
    check_all(&cases, |c| check_case(c, chinese(c)));
    check_all(&cases, check_asian_verdict);
}

#[test]
fn chinese_extra_games() {
    let cases = load("extra-chinese.jsonl");
    assert!(cases.len() >= 100, "only {} extra games", cases.len());
    let ids: BTreeSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), cases.len(), "duplicate ids");
    check_all(&cases, |c| check_case(c, chinese(c)));
    check_all(&cases, check_asian_verdict);
}

/// rules-chinese.md §10: every repetition verdict of the catalogue is the
/// same for kill depths 1, 2 and 3.
#[test]
fn chinese_verdicts_for_every_kill_depth() {
    for case in load("cases-chinese.jsonl") {
        let mut pos = Position::from_fen(&case.fen).unwrap();
        for m in &case.moves {
            let mv = pos.parse_legal_move(m).unwrap();
            pos.do_move(mv);
        }
        for kill_depth in 1..=3 {
            let rules = Rules { kill_depth, ..Rules::of(RuleSet::Chinese) };
            assert_eq!(
                rules::adjudicate(&mut pos, rules).verdict(),
                case.expected,
                "{} D={kill_depth}",
                case.id
            );
        }
    }
}

#[test]
fn json_reader_handles_the_grammar() {
    let v = Json::parse(
        r#" {"a": [1, -2.5e1, true, false, null], "s": "x\"\\\/\n\u00e9\ud83d\ude00", "o": {}} "#,
    )
    .unwrap();
    assert_eq!(v.get("a").unwrap().as_array().unwrap()[1], Json::Num(-25.0));
    assert_eq!(v.get("a").unwrap().as_array().unwrap()[4], Json::Null);
    assert_eq!(v.get("s").unwrap().as_str(), Some("x\"\\/\n\u{e9}\u{1F600}"));
    assert_eq!(v.get("o"), Some(&Json::Obj(vec![])));
    for bad in ["", "[1,]", "{\"a\" 1}", "\"abc", "tru", "[1] x", "{\"a\":1,}", "\"\\q\""] {
        assert!(Json::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn summary_line_for_info_string() {
    let summary_by = |rules: Rules, fen: &str, moves: &[&str]| {
        let mut pos = Position::from_fen(fen).unwrap();
        for m in moves {
            let m = pos.parse_legal_move(m).unwrap();
            pos.do_move(m);
        }
        rules::adjudicate(&mut pos, rules).summary()
    };
    let summary = |fen: &str, moves: &[&str]| summary_by(Rules::DEFAULT, fen, moves);
    let chase = ["c2b2", "b6c6", "b2c2", "c6b6", "c2b2", "b6c6", "b2c2", "c6b6"];
    assert_eq!(
        summary("4k4/9/9/1c7/9/9/9/2R6/9/3K5 w - - 0 1", &chase),
        "black_wins: perpetual chase of the black cannon on b6 by red (plies 0-8)"
    );
    assert_eq!(
        summary("3k5/1R7/9/9/9/9/9/9/R8/4K4 w - - 0 1", &["a1a9"]),
        "red_wins: checkmate: black is mated"
    );
    assert_eq!(
        summary("3k5/9/9/9/9/9/9/9/8R/4K4 w - - 0 1", &["i1i8"]),
        "red_wins: stalemate: black has no legal move, which loses"
    );
    assert_eq!(
        summary("4k4/9/9/9/9/9/9/9/9/3K4R w - - 7 1", &[]),
        "none: no ruling yet (7 plies without a capture)"
    );
    let kill = ["e1d1", "e7g5", "d1e1", "g5e7", "e1d1", "e7g5", "d1e1", "g5e7"];
    assert_eq!(
        summary_by(Rules::of(RuleSet::Chinese), "3a5/5k3/4b4/9/9/8R/9/9/4K4/4C4 w - - 0 1", &kill),
        "black_wins: perpetual mate threat by red (plies 0-8)"
    );
}
