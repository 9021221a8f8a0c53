//! `chariot bench`: a fixed set of positions searched to a fixed depth with
//! one thread and a 16 MB table cleared before each position. The total node
//! count is a signature of the search: the same on every run and machine,
//! and changed only by commits that change what the search does. With a
//! network the bench has another signature, which also changes with the
//! network.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::unbounded;

use crate::engine::Engine;
use crate::eval::nnue::Network;
use crate::rules::Rules;
use crate::search::SearchLimits;

/// Default search depth of the bench.
pub const DEFAULT_DEPTH: u32 = 10;

/// The bench positions: the start position, published test positions,
/// positions from random games and classic endgame studies.
pub const POSITIONS: [&str; 40] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "rnbk2b2/9/9/p1p1p3p/6p2/6PR1/P1P1P3P/1C4N2/9/R1B2KB2 b - - 2 9",
    "4kab1r/4a3C/4b4/p1p1p1p1p/9/P8/2P1P1P1P/3cB4/9/1r1AKABN1 w - - 0 12",
    "1Cbakabnr/9/2c4c1/r1p1p1p2/8p/9/P1P1P1P1P/9/9/RNBAKABNR w - - 0 4",
    "rnbakabnr/9/7C1/p1p1p1p1p/1C7/9/P1P1P1P1P/9/9/1RBAKcB1R b - - 1 4",
    "rnbakabCr/9/7c1/p3p1p1p/2p6/9/PCP1P1P1P/9/9/1RBAKABNR b - - 0 3",
    "1nbakab2/1r7/8R/p1p1P1n2/9/2P6/P5P2/4B4/9/RN1AKA1N1 b - - 0 13",
    "rnbakCb1r/9/9/p1p1p1p1p/9/9/P1P1P1P1P/3C3c1/1c7/R1BAKABNR b - - 0 4",
    "rn1akCb2/8r/4b1cc1/p1p1p1p1p/9/9/P1P1P1P1P/N4C3/9/R1BAKABNR b - - 2 4",
    "rnbakabnr/9/7c1/p3p1C1p/2C6/9/P1c1P3P/9/9/RNBAKABNR w - - 0 5",
    "2baka1nR/9/r3b4/p1C1p4/6p2/6c2/PCP1P4/9/4K4/1N4B2 w - - 3 14",
    "9/4k4/3a1n2b/2p6/p5p2/2p5P/2P6/4B4/4A2N1/3AK4 b - - 1 27",
    "1rbaka1nr/9/6c1b/p3C1p1p/P1p6/9/2P1P1P1P/9/9/RNBAKABcR w - - 5 6",
    "2bakabnr/9/9/pr2p1C1p/9/1c7/P1c1P1P1P/9/R8/1NBAKABNR w - - 1 6",
    "2b6/4a4/5k2P/2p6/4P4/2B5p/9/B8/4A4/3K5 w - - 1 41",
    "4kC3/9/b3b4/9/2pP2p2/P7p/6N1P/9/9/RNnA1K2R b - - 9 27",
    "2baka1nr/1r7/1c2b4/p1p1p1p1p/9/3c2P2/P1P1P2CP/8B/4A4/RNBAK2NR w - - 10 9",
    "r1bCkabnr/9/6c2/p1p1p1p1p/9/4P4/P1P3P1P/1c5C1/9/RNBAKABNR w - - 1 4",
    "rn1ak1b1r/9/b8/p3p1pcp/1Cp6/5R3/P1P1P1P1P/9/4A4/2BAK1BNR w - - 4 8",
    "rCba1ab1r/4k4/8n/p1p1p1p1p/9/6B2/P1P1P1P1P/7C1/1c2K4/RNBA1A1cR w - - 4 5",
    "2b2kbnr/9/9/r5p1p/2p6/4p4/P1P3P1P/4K4/9/1NcA1cB2 w - - 0 15",
    "2bak1b2/9/4r4/p1p1p1p1p/9/9/PCP1P1P1P/B3B4/7r1/1R1AKA3 w - - 2 10",
    "r2k2b2/4a4/4bC1r1/p1p1p3p/6p2/6c2/c1P3P1P/BC7/9/RN1AKABNR w - - 2 12",
    "2b2kb2/6R2/4c4/p2r2p2/9/2c6/P1P1P1P2/4B4/9/RN1AKABN1 w - - 4 16",
    "6b1r/9/r2kb4/p1p5p/4p1p2/9/P1P1P1P1P/4B4/4NN3/2BAKA2R w - - 0 20",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "3aka3/4n4/9/9/9/9/9/7C1/7r1/3AK4 w - - 0 1",
    "5R3/4k4/9/4r4/9/9/5p3/5A3/5K3/9 b - - 0 1",
];

/// Result of a bench run.
pub struct BenchResult {
    /// Total nodes over all positions (the signature).
    pub nodes: u64,
    /// Nodes per second over the whole run.
    pub nps: u64,
}

/// Runs the bench to `depth` with the game rules `rules` (the signature is
/// that of [`Rules::DEFAULT`]), evaluating with `network` (classically if
/// `None`), calling `progress(index, fen, nodes)` after
/// each position. Returns `None` if `stop` is set before the end (the
/// running search is stopped within a millisecond), or if the 16 MB table
/// cannot be allocated.
pub fn run(
    depth: u32,
    rules: Rules,
    network: Option<Arc<Network>>,
    stop: &AtomicBool,
    mut progress: impl FnMut(usize, &str, u64),
) -> Option<BenchResult> {
    let (tx, rx) = unbounded();
    let mut engine = Engine::new(tx);
    engine.set_hash_mb(16).ok()?;
    engine.set_threads(1).ok()?;
    engine.config_mut().rules = rules;
    engine.config_mut().network = network;
    let start = Instant::now();
    let mut total = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        engine.new_game().ok()?;
        engine.set_position::<&str>(fen, &[]).expect("bench positions are valid");
        engine.go(SearchLimits { depth: Some(depth), ..Default::default() });
        while !engine.wait_for(Duration::from_millis(1)) {
            if stop.load(Ordering::Relaxed) {
                engine.stop();
            }
        }
        while rx.try_recv().is_ok() {}
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        total += engine.last_nodes();
        progress(i, fen, engine.last_nodes());
    }
    let secs = start.elapsed().as_secs_f64().max(1e-6);
    Some(BenchResult { nodes: total, nps: (total as f64 / secs) as u64 })
}
