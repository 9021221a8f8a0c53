//! Strength levels and win/draw/loss output, through the built binary: the
//! options parse and clamp in every dialect; a weak level plays legal moves
//! quickly; at full strength (the defaults, or the options set to full
//! strength) the search is exactly the one without the options; the `wdl`
//! numbers are off by default, sum to 1000 and follow the score.

mod common;

use std::time::{Duration, Instant};

use chariot::board::{Position, START_FEN};
use chariot::engine::play_moves;
use common::engine::{EngineProcess, bestmove, exclusive_cpu, field, median, shared_cpu};

/// Some positions of one game (moves from the start).
const GAME: [&str; 12] =
    ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "c6c5", "c3c4", "b7b3", "a0b0", "h7h3"];

fn uci() -> EngineProcess {
    EngineProcess::with_handshake("uci").0
}

fn legal(moves: &[&str], mv: &str) -> bool {
    let mut pos = Position::from_fen(START_FEN).unwrap();
    play_moves(&mut pos, moves).unwrap();
    pos.parse_legal_move(mv).is_some()
}

/// Searches `go` at every position of [`GAME`]; returns the `info` lines with
/// their timing fields (`nps`, `time`) removed, and the moves.
fn search_game(e: &mut EngineProcess, go: &str) -> Vec<String> {
    let mut out = Vec::new();
    e.send("ucinewgame");
    for ply in 0..=GAME.len() {
        e.send(&format!("position startpos moves {}", GAME[..ply].join(" ")));
        e.send(go);
        for line in e.read_search() {
            let kept: Vec<&str> = line.split_whitespace().collect();
            let mut cleaned = Vec::new();
            let mut i = 0;
            while i < kept.len() {
                if matches!(kept[i], "nps" | "time") && line.starts_with("info") {
                    i += 2;
                    continue;
                }
                cleaned.push(kept[i]);
                i += 1;
            }
            out.push(cleaned.join(" "));
        }
    }
    out
}

#[test]
fn options_are_advertised_in_every_dialect() {
    let _g = shared_cpu();
    let (_, uci) = EngineProcess::with_handshake("uci");
    for line in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1800 min 800 max 2800",
        "option name UCI_ShowWDL type check default false",
    ] {
        assert!(uci.iter().any(|l| l == line), "no '{line}' in {uci:?}");
    }
    let (_, ucci) = EngineProcess::with_handshake("ucci");
    for line in [
        "option skilllevel type spin min 0 max 20 default 20",
        "option limitstrength type check default false",
        "option elo type spin min 800 max 2800 default 1800",
    ] {
        assert!(ucci.iter().any(|l| l == line), "no '{line}' in {ucci:?}");
    }
    let (_x, xboard) = EngineProcess::with_handshake("xboard");
    for line in [
        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"UCI_LimitStrength -check 0\"",
        "feature option=\"UCI_Elo -spin 1800 800 2800\"",
    ] {
        assert!(xboard.iter().any(|l| l == line), "no '{line}' in {xboard:?}");
    }
}

#[test]
fn bad_values_are_clamped_or_refused() {
    let _g = shared_cpu();
    let mut e = uci();
    for (command, reply) in [
        (
            "setoption name Skill Level value 25",
            "info string option 'Skill Level' clamped to 20 (range 0 to 20)",
        ),
        (
            "setoption name Skill Level value -3",
            "info string option 'Skill Level' clamped to 0 (range 0 to 20)",
        ),
        (
            "setoption name UCI_Elo value 100",
            "info string option 'UCI_Elo' clamped to 800 (range 800 to 2800)",
        ),
        (
            "setoption name UCI_Elo value 1e9",
            "info string option 'UCI_Elo' clamped to 2800 (range 800 to 2800)",
        ),
        (
            "setoption name Skill Level value strong",
            "info string error: setoption: option 'Skill Level' needs a number from 0 to 20, not 'strong'",
        ),
        (
            "setoption name UCI_LimitStrength value maybe",
            "info string error: setoption: option 'UCI_LimitStrength' needs true or false, not 'maybe'",
        ),
        (
            "setoption name UCI_ShowWDL",
            "info string error: setoption: option 'UCI_ShowWDL' needs true or false, not ''",
        ),
    ] {
        e.send(command);
        assert_eq!(e.sync(), vec![reply.to_string()], "{command}");
    }
    // Clamped to level 0 and Elo 800: the engine keeps serving, weak.
    e.send("setoption name UCI_Elo value -1");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("position startpos");
    e.send("go depth 30");
    let lines = e.read_search();
    assert!(legal(&[], &bestmove(&lines)));
    let depth: u32 = lines.iter().filter_map(|l| field(l, "depth")?.parse().ok()).max().unwrap();
    assert!(depth <= 3, "level 0 searched to depth {depth}");
    let mut u = EngineProcess::with_handshake("ucci").0;
    u.send("setoption elo 5000");
    assert_eq!(u.sync(), vec!["info message option 'elo' clamped to 2800 (range 800 to 2800)".to_string()]);
    u.send("setoption skilllevel 0");
    u.send("position startpos moves h2e2");
    u.send("go time 60000");
    let lines = u.read_search();
    assert!(legal(&["h2e2"], &bestmove(&lines)));
}

/// Level 0, and the lowest Elo: every move legal, and quick on a long clock
/// (the node budget ends the search, not the clock).
#[test]
fn level_zero_moves_are_legal_and_quick() {
    let _g = exclusive_cpu();
    for options in [
        &["setoption name Skill Level value 0"][..],
        &["setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 800"][..],
        &[
            "setoption name Skill Level value 0",
            "setoption name Threads value 2",
            "setoption name MultiPV value 2",
        ][..],
    ] {
        let mut e = uci();
        for o in options {
            e.send(o);
        }
        e.sync();
        let mut times = Vec::new();
        let mut moves = Vec::new();
        for ply in 0..=GAME.len() {
            e.send(&format!("position startpos moves {}", GAME[..ply].join(" ")));
            let t = Instant::now();
            e.send("go wtime 600000 btime 600000 winc 5000 binc 5000");
            let lines = e.read_search();
            times.push(t.elapsed());
            let mv = bestmove(&lines);
            assert!(legal(&GAME[..ply], &mv), "{options:?}: {mv} after {:?}", &GAME[..ply]);
            // Only the lines the GUI asked for are reported.
            let most = if options.len() == 3 { 2 } else { 1 };
            for l in lines.iter().filter(|l| l.starts_with("info depth")) {
                assert!(field(l, "multipv").unwrap().parse::<usize>().unwrap() <= most, "{l}");
            }
            moves.push(mv);
        }
        // A full-strength search on this clock takes seconds; level 0 a few
        // milliseconds (the limits allow for a loaded machine).
        let slowest = *times.iter().max().unwrap();
        let typical = median(&mut times);
        assert!(typical < Duration::from_millis(50), "{options:?}: median {typical:?} of {times:?}");
        assert!(slowest < Duration::from_secs(1), "{options:?}: slowest move {slowest:?}");
        println!("{options:?}: {moves:?}, median {typical:?}, slowest {slowest:?}");
    }
}

/// A weak level plays different moves than full strength, and varies
/// between games.
#[test]
fn a_weak_level_chooses_among_moves() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("setoption name Skill Level value 2");
    let mut seen = Vec::new();
    // The network rates two first moves well above the rest at this level,
    // so a third comes in about one game in nine: 48 games make a run
    // without it a chance of about 1 in 300.
    for _ in 0..48 {
        e.send("ucinewgame");
        e.send("position startpos");
        e.send("go nodes 100000");
        let mv = bestmove(&e.read_search());
        assert!(legal(&[], &mv));
        if !seen.contains(&mv) {
            seen.push(mv);
        }
    }
    assert!(seen.len() >= 3, "level 2 played only {seen:?} from the start");
}

/// The defaults are full strength; so are level 20 and Elo 2800 (`Skill
/// Level` is ignored while the strength is limited): the same lines,
/// nodes included, as an engine never given the options; and `UCI_ShowWDL`
/// off prints exactly that too.
#[test]
fn full_strength_is_the_unlimited_search() {
    let _g = shared_cpu();
    let go = "go nodes 30000";
    let plain = search_game(&mut uci(), go);
    assert!(plain.len() > 40 && plain.iter().any(|l| l.contains(" nodes 30000 ")), "{plain:?}");
    for options in [
        &["setoption name Skill Level value 20", "setoption name UCI_ShowWDL value false"][..],
        &[
            "setoption name Skill Level value 3",
            "setoption name UCI_Elo value 2800",
            "setoption name UCI_LimitStrength value true",
        ][..],
        &[
            "setoption name Skill Level value 0",
            "setoption name Skill Level value 20",
            "setoption name UCI_LimitStrength value false",
        ][..],
    ] {
        let mut e = uci();
        for o in options {
            e.send(o);
        }
        assert_eq!(search_game(&mut e, go), plain, "{options:?}");
    }
}

/// `UCI_ShowWDL`: the same lines with ` wdl W D L` after the score; the
/// numbers sum to 1000, and in one search (one material count) the win
/// share never falls and the loss share never rises as the score rises.
#[test]
fn wdl_follows_the_score() {
    let _g = shared_cpu();
    let go = "go depth 7";
    let plain = search_game(&mut uci(), go);
    let mut e = uci();
    e.send("setoption name UCI_ShowWDL value true");
    let shown = search_game(&mut e, go);
    assert_eq!(shown.len(), plain.len());
    for (with, without) in shown.iter().zip(&plain) {
        if !without.starts_with("info depth") {
            assert_eq!(with, without);
            continue;
        }
        let wdl = wdl_of(with);
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{with}");
        assert_eq!(&with.replacen(&format!(" wdl {} {} {}", wdl[0], wdl[1], wdl[2]), "", 1), without);
        assert!(
            with.contains(&format!("score cp {} wdl ", field(with, "cp").unwrap_or("?")))
                || with.contains(" mate ")
        );
    }
    // Many lines of one position, a wide range of scores (Red's cannon can
    // take a pawn or a horse, or lose itself).
    e.send("setoption name MultiPV value 40");
    e.send("position startpos moves h2e2 h9g7 e2e6 g7e6");
    e.send("go depth 4");
    let lines = e.read_search();
    let last: Vec<(i32, [u32; 3])> = lines
        .iter()
        .filter(|l| field(l, "depth") == Some("4") && field(l, "cp").is_some())
        .map(|l| (field(l, "cp").unwrap().parse().unwrap(), wdl_of(l)))
        .collect();
    let (lo, hi) = (last.iter().map(|p| p.0).min().unwrap(), last.iter().map(|p| p.0).max().unwrap());
    assert!(last.len() > 20 && hi - lo > 300, "{last:?}");
    for &(cp1, w1) in &last {
        for &(cp2, w2) in &last {
            if cp1 < cp2 {
                assert!(w1[0] <= w2[0] && w1[2] >= w2[2], "{cp1}: {w1:?} against {cp2}: {w2:?}");
            }
        }
    }
    assert!(last.iter().any(|p| p.1[0] > last[last.len() - 1].1[0]), "{last:?}");
}

/// The three numbers after `wdl`.
fn wdl_of(line: &str) -> [u32; 3] {
    let at = line.find(" wdl ").unwrap_or_else(|| panic!("no wdl in {line}"));
    let n: Vec<u32> = line[at + 5..].split_whitespace().take(3).map(|n| n.parse().unwrap()).collect();
    [n[0], n[1], n[2]]
}
