//! Lazy SMP under stress: many short searches with several threads, stopped
//! at random moments, with `Threads` and `Hash` changed between them. Every
//! search must end with a legal best move and a legal principal variation.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use chariot::board::{Position, START_FEN};
use chariot::engine::{Engine, MAX_THREADS};
use chariot::search::{SearchEvent, SearchLimits};
use crossbeam_channel::{Receiver, unbounded};

/// The tests here time their searches: one at a time (a thousand threads
/// searching beside them would make any timing meaningless).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn legal_line(fen: &str, moves: &[String], line: &[chariot::types::Move]) -> bool {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves {
        let mv = pos.parse_legal_move(m).unwrap();
        pos.do_move(mv);
    }
    for &m in line {
        if !(pos.is_pseudo_legal(m) && pos.is_legal(m)) {
            return false;
        }
        pos.do_move(m);
    }
    true
}

/// Collects events until the best move; checks every line is legal.
fn finish(rx: &Receiver<SearchEvent>, moves: &[String]) -> chariot::types::Move {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let ev = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("search hangs");
        match ev {
            SearchEvent::Info(i) => assert!(legal_line(START_FEN, moves, &i.pv), "illegal pv {:?}", i.pv),
            SearchEvent::BestMove { best, ponder, .. } => {
                let line: Vec<_> = std::iter::once(best).chain(ponder).collect();
                assert!(legal_line(START_FEN, moves, &line), "illegal best/ponder {line:?}");
                return best;
            }
            SearchEvent::Message(_) => {}
        }
    }
}

#[test]
fn many_short_multithreaded_searches() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (tx, rx) = unbounded();
    let mut engine = Engine::new(tx);
    let mut seed = 0x9E37_79B9u64;
    let mut rand = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut game: Vec<String> = Vec::new();
    for round in 0..60 {
        if round % 10 == 0 {
            engine.set_threads(1 + rand(4) as usize).unwrap();
            engine.set_hash_mb(1 + rand(32) as usize).unwrap();
        }
        if round % 20 == 0 {
            engine.new_game().unwrap();
            game.clear();
        }
        engine.set_position(START_FEN, &game).unwrap();
        let limits = match rand(4) {
            0 => SearchLimits { depth: Some(1 + rand(8) as u32), ..Default::default() },
            1 => SearchLimits { nodes: Some(1 + rand(50_000)), ..Default::default() },
            2 => SearchLimits { movetime: Some(1 + rand(40)), ..Default::default() },
            _ => SearchLimits { infinite: true, ..Default::default() },
        };
        let infinite = limits.infinite;
        engine.go(limits);
        if infinite || rand(2) == 0 {
            std::thread::sleep(Duration::from_millis(rand(15)));
            let t = Instant::now();
            engine.stop();
            let best = finish(&rx, &game);
            assert!(t.elapsed() < Duration::from_millis(500), "stop took {:?}", t.elapsed());
            game.push(best.to_string());
        } else {
            let best = finish(&rx, &game);
            game.push(best.to_string());
        }
        engine.wait();
        let mut after = engine.position().clone();
        after.do_move(after.parse_legal_move(game.last().unwrap()).unwrap());
        if after.legal_moves().is_empty() {
            game.clear();
        }
    }
    engine.set_threads(1).unwrap();
}

/// Time for `go depth` from a new game.
fn time_to_depth(engine: &mut Engine, rx: &Receiver<SearchEvent>, fen: &str, depth: u32) -> f64 {
    engine.new_game().unwrap();
    engine.set_position::<&str>(fen, &[]).unwrap();
    let start = Instant::now();
    engine.go(SearchLimits { depth: Some(depth), ..Default::default() });
    engine.wait();
    while rx.try_recv().is_ok() {}
    start.elapsed().as_secs_f64()
}

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 }
}

/// Lazy SMP speed-up: median over middlegame positions of the time to reach
/// a fixed depth with one thread divided by the time with two.
/// `make smp-speedup` (needs an otherwise idle machine with two cores).
#[test]
#[ignore = "timing measurement: make smp-speedup"]
fn time_to_depth_speedup_with_two_threads() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let positions = [
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        "1nbakab2/1r7/8R/p1p1P1n2/9/2P6/P5P2/4B4/9/RN1AKA1N1 b - - 0 13",
        "2baka1nr/1r7/1c2b4/p1p1p1p1p/9/3c2P2/P1P1P2CP/8B/4A4/RNBAK2NR w - - 10 9",
        "rn1ak1b1r/9/b8/p3p1pcp/1Cp6/5R3/P1P1P1P1P/9/4A4/2BAK1BNR w - - 4 8",
        "2bak1b2/9/4r4/p1p1p1p1p/9/9/PCP1P1P1P/B3B4/7r1/1R1AKA3 w - - 2 10",
        "r2k2b2/4a4/4bC1r1/p1p1p3p/6p2/6c2/c1P3P1P/BC7/9/RN1AKABNR w - - 2 12",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "1rbaka1nr/9/6c1b/p3C1p1p/P1p6/9/2P1P1P1P/9/9/RNBAKABcR w - - 5 6",
        "2bakabnr/9/9/pr2p1C1p/9/1c7/P1c1P1P1P/9/R8/1NBAKABNR w - - 1 6",
        "r1bCkabnr/9/6c2/p1p1p1p1p/9/4P4/P1P3P1P/1c5C1/9/RNBAKABNR w - - 1 4",
        "2b2kb2/6R2/4c4/p2r2p2/9/2c6/P1P1P1P2/4B4/9/RN1AKABN1 w - - 4 16",
    ];
    let depth: u32 = std::env::var("SMP_DEPTH").ok().and_then(|d| d.parse().ok()).unwrap_or(18);
    let (tx1, rx1) = unbounded();
    let (tx2, rx2) = unbounded();
    let mut one = Engine::new(tx1);
    let mut two = Engine::new(tx2);
    for e in [&mut one, &mut two] {
        e.set_hash_mb(64).unwrap();
    }
    two.set_threads(2).unwrap();
    // Two threads do not search the same tree twice: SMP_RUNS > 1 times
    // each position that many times with both and takes the medians.
    let runs: usize = std::env::var("SMP_RUNS").ok().and_then(|d| d.parse().ok()).unwrap_or(1).max(1);
    let mut ratios = Vec::new();
    let mut log_sum = 0.0;
    for fen in positions {
        let (mut t1, mut t2): (Vec<f64>, Vec<f64>) = (0..runs)
            .map(|_| (time_to_depth(&mut one, &rx1, fen, depth), time_to_depth(&mut two, &rx2, fen, depth)))
            .unzip();
        if runs > 1 {
            println!("  1 thread {t1:.2?}, 2 threads {t2:.2?}");
        }
        let (t1, t2) = (median(&mut t1), median(&mut t2));
        println!("depth {depth}: 1 thread {t1:.2} s, 2 threads {t2:.2} s, speed-up {:.2}  {fen}", t1 / t2);
        ratios.push(t1 / t2);
        log_sum += (t1 / t2).ln();
    }
    let median = median(&mut ratios);
    println!("median speed-up {median:.2} (geometric mean {:.2})", (log_sum / positions.len() as f64).exp());
    assert!(median > 1.0, "two threads slower than one: {median:.2}");
}

/// The most threads, likely far more than cores: `stop` is still answered
/// at once (the move does not wait for every thread to get a core), a new
/// game does not clear memory that was never used, and a large table is
/// cleared at once.
#[test]
fn many_more_threads_than_cores() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (tx, rx) = unbounded();
    let mut engine = Engine::new(tx);
    engine.set_threads(MAX_THREADS).unwrap();
    engine.set_hash_mb(2048).unwrap();
    for round in 0..3 {
        engine.new_game().unwrap();
        engine.set_position::<&str>(START_FEN, &[]).unwrap();
        engine.go(SearchLimits { infinite: true, ..Default::default() });
        std::thread::sleep(Duration::from_millis(300));
        let t = Instant::now();
        engine.stop();
        finish(&rx, &[]);
        let stop = t.elapsed();
        assert!(stop < Duration::from_secs(1), "round {round}: stop took {stop:?}");
        let t = Instant::now();
        engine.clear_hash().unwrap();
        assert!(t.elapsed() < Duration::from_millis(500), "clearing 2 GB took {:?}", t.elapsed());
    }
    let t = Instant::now();
    engine.new_game().unwrap();
    assert!(t.elapsed() < Duration::from_secs(5), "a new game took {:?}", t.elapsed());
}
