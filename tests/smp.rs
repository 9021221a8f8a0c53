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

/// With two threads the main thread reports the depths the helper completes
/// (it takes the deeper result as its own): the `info` depths never go back,
/// the last one is the depth asked for, and the best move is legal.
#[test]
fn two_threads_report_depths_in_order() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (tx, rx) = unbounded();
    let mut engine = Engine::new(tx);
    engine.set_threads(2).unwrap();
    for fen in middlegames().into_iter().take(6) {
        engine.new_game().unwrap();
        engine.set_position::<&str>(fen, &[]).unwrap();
        engine.go(SearchLimits { depth: Some(13), ..Default::default() });
        let mut depths = Vec::new();
        let best = loop {
            match rx.recv_timeout(Duration::from_secs(30)).expect("search hangs") {
                SearchEvent::Info(i) => depths.push(i.depth),
                SearchEvent::BestMove { best, .. } => break best,
                SearchEvent::Message(_) => {}
            }
        };
        engine.wait();
        assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{fen}: depths {depths:?}");
        assert_eq!(depths.last(), Some(&13), "{fen}: depths {depths:?}");
        let pos = Position::from_fen(fen).unwrap();
        assert!(pos.is_pseudo_legal(best) && pos.is_legal(best), "{fen}: illegal best move {best}");
    }
}

/// The positions of `tests/data/middlegames.fen` (comment lines skipped).
fn middlegames() -> Vec<&'static str> {
    include_str!("data/middlegames.fen")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
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
    let positions = middlegames();
    let depth: u32 = std::env::var("SMP_DEPTH").ok().and_then(|d| d.parse().ok()).unwrap_or(21);
    let (tx1, rx1) = unbounded();
    let (tx2, rx2) = unbounded();
    let mut one = Engine::new(tx1);
    let mut two = Engine::new(tx2);
    for e in [&mut one, &mut two] {
        e.set_hash_mb(64).unwrap();
    }
    two.set_threads(2).unwrap();
    // Two threads do not search the same tree twice: each position is timed
    // SMP_RUNS times (default 3) with both, one run after the other, and the
    // medians are compared.
    let runs: usize = std::env::var("SMP_RUNS").ok().and_then(|d| d.parse().ok()).unwrap_or(3).max(1);
    let mut ratios = Vec::new();
    let mut log_sum = 0.0;
    for &fen in &positions {
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
/// at once (the helpers take turns for the cores, so the thread that reads
/// `stop` does not wait behind a thousand others for one), a timed search
/// keeps its time, a new game does not clear memory that was never used,
/// and a large table is cleared at once.
#[test]
fn many_more_threads_than_cores() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (tx, rx) = unbounded();
    let mut engine = Engine::new(tx);
    engine.set_threads(MAX_THREADS).unwrap();
    for _ in 0..3 {
        let t = Instant::now();
        engine.go(SearchLimits { movetime: Some(200), ..Default::default() });
        finish(&rx, &[]);
        assert!(t.elapsed() < Duration::from_millis(400), "a 200 ms search took {:?}", t.elapsed());
    }
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
        assert!(stop < Duration::from_millis(250), "round {round}: stop took {stop:?}");
        let t = Instant::now();
        engine.clear_hash().unwrap();
        assert!(t.elapsed() < Duration::from_millis(500), "clearing 2 GB took {:?}", t.elapsed());
    }
    let t = Instant::now();
    engine.new_game().unwrap();
    assert!(t.elapsed() < Duration::from_secs(5), "a new game took {:?}", t.elapsed());
}
