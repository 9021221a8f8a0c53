//! The rules inside the search: from the position before the violator's last
//! move of a losing cycle (every shared and extra rule game where one side
//! loses by perpetual check or chase under the Asian rules, or by perpetual
//! check or any forbidden pattern under the Chinese rules, each with its
//! rule set), the engine, playing the violator with the game history and
//! the rule set, chooses another move.

mod common;

use std::path::PathBuf;

use chariot::board::Position;
use chariot::engine::Engine;
use chariot::rules::{self, Rule, RuleSet, Rules};
use chariot::search::{SearchEvent, SearchLimits};
use chariot::types::Color;
use common::json::Json;
use crossbeam_channel::unbounded;

/// (id, FEN, moves) of every game in a rules data file.
fn games(name: &str) -> Vec<(String, String, Vec<String>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/rules").join(name);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let j = Json::parse(l).unwrap();
            let s = |k: &str| j.get(k).and_then(Json::as_str).unwrap().to_string();
            (s("id"), s("fen"), j.get("moves").and_then(Json::as_strings).unwrap())
        })
        .collect()
}

/// The side that loses the game by a repetition rule of `rules`, if any.
fn violator(fen: &str, moves: &[String], rules: Rules) -> Option<Color> {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves {
        let mv = pos.parse_legal_move(m).unwrap();
        pos.do_move(mv);
    }
    match rules::adjudicate(&mut pos, rules).rule {
        Rule::PerpetualCheck { by } | Rule::PerpetualChase { by, .. } | Rule::Forbidden { by, .. } => {
            Some(by)
        }
        _ => None,
    }
}

/// The games of `files` with a violator under `set`, searched with `limits`
/// at `Skill Level` `level`; at least `at_least` of them.
fn check(limits: SearchLimits, set: RuleSet, files: [&str; 2], at_least: usize, level: u8) {
    let rules = Rules::of(set);
    let (tx, rx) = unbounded();
    let mut engine = Engine::new(tx);
    engine.config_mut().rules = rules;
    engine.config_mut().strength.skill_level = level;
    let mut tested = 0;
    let mut failures = Vec::new();
    for file in files {
        for (id, fen, moves) in games(file) {
            let Some(loser) = violator(&fen, &moves, rules) else { continue };
            let side_at = |ply: usize| {
                let mut pos = Position::from_fen(&fen).unwrap();
                for m in &moves[..ply] {
                    let mv = pos.parse_legal_move(m).unwrap();
                    pos.do_move(mv);
                }
                pos.side_to_move()
            };
            // The violator's last move of the cycle.
            let Some(last) = (0..moves.len()).rev().find(|&i| side_at(i) == loser) else { continue };
            // A weak level searches as little as one ply: it must see a
            // loss that its own move completes, not one that the reply does.
            if level < 20 && last + 1 != moves.len() {
                continue;
            }
            engine.new_game().unwrap();
            engine.set_position(&fen, &moves[..last]).unwrap();
            engine.go(limits.clone());
            engine.wait();
            let (mut best, mut score) = (None, 0);
            while let Ok(ev) = rx.try_recv() {
                match ev {
                    SearchEvent::Info(i) if i.multipv == 1 && i.bound.is_none() => score = i.score,
                    SearchEvent::BestMove { best: b, .. } => best = Some(b.to_string()),
                    _ => {}
                }
            }
            tested += 1;
            let best = best.expect("a best move");
            if best == moves[last] {
                failures.push(format!("{id}: played the losing {best} again (score {score})"));
            }
        }
    }
    assert!(tested >= at_least, "only {tested} games with a violator");
    assert!(failures.is_empty(), "{} of {tested}:\n{}", failures.len(), failures.join("\n"));
}

const ASIAN: [&str; 2] = ["cases.jsonl", "extra.jsonl"];
const CHINESE: [&str; 2] = ["cases-chinese.jsonl", "extra-chinese.jsonl"];

#[test]
fn violator_deviates_at_fixed_depth() {
    check(SearchLimits { depth: Some(8), ..Default::default() }, RuleSet::Asian, ASIAN, 40, 20);
}

#[test]
fn chinese_violator_deviates_at_fixed_depth() {
    check(SearchLimits { depth: Some(8), ..Default::default() }, RuleSet::Chinese, CHINESE, 60, 20);
}

#[test]
#[ignore = "one second per game (minutes): the maintainers' check"]
fn violator_deviates_in_one_second() {
    check(SearchLimits { movetime: Some(1000), ..Default::default() }, RuleSet::Asian, ASIAN, 40, 20);
}

#[test]
#[ignore = "one second per game (minutes): the maintainers' check"]
fn chinese_violator_deviates_in_one_second() {
    check(SearchLimits { movetime: Some(1000), ..Default::default() }, RuleSet::Chinese, CHINESE, 60, 20);
}

/// A weak level picks among several moves at random, but never the one
/// that loses by the rules at once, i.e. whose own repetition the arbiter
/// rules lost (the games whose last move is the violator's; each is tried
/// with five seeds).
#[test]
fn violator_deviates_at_the_lowest_levels() {
    for game in 0..5 {
        let limits = SearchLimits { depth: Some(8), ..Default::default() };
        // 5 Asian and 12 Chinese games end with the violator's move.
        check(limits.clone(), RuleSet::Asian, ASIAN, 5, game % 2);
        check(limits, RuleSet::Chinese, CHINESE, 12, game % 2);
    }
}
