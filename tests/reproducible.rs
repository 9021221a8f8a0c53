//! With one thread, a search is a pure function of the position, the limits
//! and the engine state: after a new game, the same `go nodes N` reports the
//! same lines (apart from the clock), and `bench` the same node count.

use chariot::engine::Engine;
use chariot::rules::{RuleSet, Rules};
use chariot::search::{SearchEvent, SearchLimits};
use chariot::tools::bench;
use crossbeam_channel::unbounded;

/// Runs `go nodes` on a short game and returns every event with timing fields zeroed.
fn run_game_search(engine: &mut Engine, rx: &crossbeam_channel::Receiver<SearchEvent>) -> Vec<SearchEvent> {
    let mut out = Vec::new();
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"];
    for ply in 0..=moves.len() {
        engine.set_position(chariot::board::START_FEN, &moves[..ply]).unwrap();
        engine.go(SearchLimits { nodes: Some(20_000), ..Default::default() });
        engine.wait();
        while let Ok(ev) = rx.try_recv() {
            out.push(match ev {
                SearchEvent::Info(mut i) => {
                    i.time_ms = 0;
                    i.nps = 0;
                    SearchEvent::Info(i)
                }
                other => other,
            });
        }
    }
    out
}

#[test]
fn go_nodes_is_reproducible_after_new_game() {
    let (tx, rx) = unbounded();
    let mut engine = Engine::new(tx);
    engine.new_game().unwrap();
    let first = run_game_search(&mut engine, &rx);
    engine.new_game().unwrap();
    let second = run_game_search(&mut engine, &rx);
    assert!(first.iter().filter(|e| matches!(e, SearchEvent::BestMove { .. })).count() == 6);
    assert!(first.len() > 20, "{first:?}");
    assert_eq!(first, second);
    // Node limits are exact with one thread.
    assert_eq!(engine.last_nodes(), 20_000);
}

#[test]
fn bench_signature_is_stable() {
    let never = std::sync::atomic::AtomicBool::new(false);
    for rules in [Rules::DEFAULT, Rules::of(RuleSet::Chinese)] {
        let a = bench::run(5, rules, None, &never, |_, _, _| {}).unwrap();
        let b = bench::run(5, rules, None, &never, |_, _, _| {}).unwrap();
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 10_000);
    }
    // With the network: its own signature, as stable.
    let net = || Some(chariot::eval::nnue::Network::embedded());
    let classical = bench::run(5, Rules::DEFAULT, None, &never, |_, _, _| {}).unwrap();
    let a = bench::run(5, Rules::DEFAULT, net(), &never, |_, _, _| {}).unwrap();
    let b = bench::run(5, Rules::DEFAULT, net(), &never, |_, _, _| {}).unwrap();
    assert_eq!(a.nodes, b.nodes);
    assert_ne!(a.nodes, classical.nodes, "the network is not used");
}
