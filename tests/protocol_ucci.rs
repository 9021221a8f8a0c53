//! The UCCI 3.0 dialect, driven through the built binary: the handshake,
//! options in both forms, `banmoves`, clock units, `nobestmove`, `probe`,
//! `quit`/`bye`, draw and resign flags, batch mode, and the quirks of the
//! GUIs that speak it (Fairyground, VinXiangQi, XQWizard, UCI2WB).

mod common;

use std::time::{Duration, Instant};

use chariot::board::{Position, START_FEN};
use chariot::engine::play_moves;
use common::engine::{EngineProcess, bestmove, check_timing, field, shared_cpu};

/// Black to move can only play `e9f9`, then is mated.
const LOST: &str = "4k4/R8/9/9/9/9/9/9/9/3K4R b - - 0 1";
/// Black to move, a rook down.
const BEHIND: &str = "4k4/9/9/9/9/9/9/9/9/3K4R b - - 0 1";
/// Bare kings: nobody can win.
const DEAD: &str = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
/// Black to move is checkmated.
const CHECKMATED: &str = "4k3R/R8/9/9/9/9/9/9/9/3K5 b - - 0 1";

fn legal_moves(fen: &str, moves: &[&str]) -> Vec<String> {
    let mut pos = Position::from_fen(fen).unwrap();
    play_moves(&mut pos, moves).unwrap();
    pos.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn is_legal(fen: &str, moves: &[&str], mv: &str) -> bool {
    legal_moves(fen, moves).iter().any(|m| m == mv)
}

fn ucci() -> EngineProcess {
    EngineProcess::with_handshake("ucci").0
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info message error")).collect()
}

/// The `search limits: …` line `debug` prints for a `go` (then stops the search).
fn limits_of(e: &mut EngineProcess, go: &str) -> String {
    e.send(go);
    let line = e.read_until_prefix("info message search limits:").pop().unwrap();
    e.send("stop");
    e.read_search();
    line
}

#[test]
fn handshake_in_ucci_form() {
    let _g = shared_cpu();
    let (e, lines) = EngineProcess::with_handshake("ucci");
    assert!(lines[0].starts_with("id name Chariot "), "{lines:?}");
    for id in ["id version ", "id copyright ", "id author "] {
        assert!(lines.iter().any(|l| l.starts_with(id)), "no {id}: {lines:?}");
    }
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    assert!(options.iter().all(|l| !l.starts_with("option name ")), "{options:?}");
    for want in [
        "option usemillisec type check default false",
        "option batch type check default false",
        "option debug type check default false",
        "option ponder type check default false",
        "option newgame type button",
        "option ruleset type combo var asian var chinese default asian",
    ] {
        assert!(options.iter().any(|l| *l == want), "no '{want}': {options:?}");
    }
    let hash = options.iter().find(|l| l.starts_with("option hashsize ")).expect("hashsize");
    assert!(
        hash.starts_with("option hashsize type spin min 1 max ") && hash.ends_with(" default 16"),
        "{hash}"
    );
    assert!(options.iter().any(|l| l.starts_with("option threads type spin min 1 max ")));
    let (status, after) = e.quit();
    assert!(status.success());
    assert_eq!(after, ["bye"]);
}

#[test]
fn setoption_in_both_forms_and_every_spec_option() {
    let _g = shared_cpu();
    let mut e = ucci();
    for line in [
        "setoption usemillisec true",
        "setoption batch false",
        "setoption debug false",
        "setoption ponder false",
        "setoption usebook false",
        "setoption useegtb false",
        "setoption egtbpaths C:\\EGTB",
        "setoption evalapi libeval.so",
        "setoption hashsize 32",
        "setoption threads 1",
        "setoption idle none",
        "setoption promotion false",
        "setoption pruning large",
        "setoption knowledge large",
        "setoption randomness none",
        "setoption selectivity large",
        "setoption style risky",
        "setoption loadbook",
        "setoption newgame",
        "setoption clearhash",
        "setoption UCCI_Variant xiangqi",
        "setoption ruleset chinese",
        "setoption ruleset asian",
        "setoption name Hash value 8",
        "setoption name Threads value 1",
        "setoption name Move Overhead value 20",
        "setoption Move Overhead 20",
        "setoption name usemillisec value off",
    ] {
        e.send(line);
        let lines = e.sync();
        assert!(lines.is_empty(), "{line}: {lines:?}");
    }
    // A book that is not Chariot's (or not there) is refused; the engine plays on.
    e.send("setoption bookfiles C:\\XQWizard\\BOOK.DAT;extra book.dat");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info message error: setoption: book file 'C:\\\\XQWizard\\\\BOOK.DAT;extra book.dat': cannot open it")
            && lines[0].ends_with("; keeping the built-in book"),
        "{lines:?}"
    );
    e.send("setoption frobnicate 7");
    assert_eq!(e.sync(), ["info message error: setoption: unknown option 'frobnicate' (ignored)"]);
    e.send("setoption hashsize 0");
    assert!(e.sync().is_empty(), "hashsize 0: the engine decides");
    e.send("setoption hashsize -5");
    assert!(e.sync()[0].starts_with("info message option 'hashsize' clamped to 1"));
    e.send("setoption threads many");
    assert!(errors(&e.sync())[0].contains("needs a number"));
    e.send("position startpos");
    e.send("go depth 3");
    assert!(is_legal(START_FEN, &[], &bestmove(&e.read_search())));
}

#[test]
fn search_output_in_ucci_form() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send("position startpos moves h2e2");
    e.send("go depth 5");
    let lines = e.read_search();
    let depths: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth ")).collect();
    let times: Vec<&String> = lines.iter().filter(|l| l.starts_with("info time ")).collect();
    assert!(!depths.is_empty() && depths.len() == times.len(), "{lines:?}");
    for l in &depths {
        let score = field(l, "score").expect("a score");
        assert!(score.parse::<i32>().is_ok(), "UCCI scores are bare integers: {l}");
        assert!(l.contains(" pv "), "{l}");
        assert!(!l.contains("seldepth") && !l.contains("multipv"), "{l}");
    }
    assert_eq!(field(depths.last().unwrap(), "depth"), Some("5"));
    for l in &times {
        assert!(field(l, "time").unwrap().parse::<u64>().is_ok() && field(l, "nodes").is_some(), "{l}");
    }
    let best = bestmove(&lines);
    assert!(is_legal(START_FEN, &["h2e2"], &best));
    let ponder = field(lines.last().unwrap(), "ponder").expect("a ponder move");
    assert!(is_legal(START_FEN, &["h2e2", &best], ponder));
}

#[test]
fn banmoves_are_honoured_until_the_next_position() {
    let _g = shared_cpu();
    let mut e = ucci();
    // Ban every legal move but one: the engine must play that one.
    let all = legal_moves(START_FEN, &[]);
    let keep = "e0e1";
    let banned: Vec<&str> = all.iter().map(String::as_str).filter(|m| *m != keep).collect();
    e.send("position startpos");
    e.send(&format!("banmoves {}", banned.join(" ")));
    e.send("go depth 4");
    assert_eq!(bestmove(&e.read_search()), keep);
    // Banning the engine's choice makes it choose another move.
    e.send("position startpos");
    e.send("go depth 4");
    let first = bestmove(&e.read_search());
    assert_ne!(first, keep, "a new position clears the bans");
    e.send("position startpos");
    e.send(&format!("banmoves {first}"));
    e.send("go depth 4");
    let second = bestmove(&e.read_search());
    assert_ne!(second, first);
    assert!(is_legal(START_FEN, &[], &second));
    // Banning every move is reported; the engine still moves.
    e.send("position startpos");
    e.send(&format!("banmoves {}", all.join(" ")));
    assert_eq!(
        e.sync(),
        ["info message banmoves: every legal move is banned; the search will choose among them all"]
    );
    e.send("go depth 2");
    assert!(is_legal(START_FEN, &[], &bestmove(&e.read_search())));
    // The UCCI spec's example; bans of illegal moves are reported.
    e.send(
        "position fen 1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1 \
         moves h6i4 i9h9 i4h6 h9i9",
    );
    e.send("banmoves h6i4 a0a9");
    let lines = e.sync();
    assert_eq!(
        errors(&lines),
        ["info message error: banmoves: ignored 1 move that is not legal here: 'a0a9'"]
    );
    e.send("go depth 5");
    assert_ne!(bestmove(&e.read_search()), "h6i4");
}

#[test]
fn clock_is_in_seconds_unless_usemillisec() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send("setoption debug on");
    e.send("position startpos");
    assert_eq!(
        limits_of(&mut e, "go time 3 increment 1 opptime 4 oppincrement 2"),
        "info message search limits: clock red 3000ms +1000ms black 4000ms +2000ms"
    );
    assert_eq!(
        limits_of(&mut e, "go time 300 movestogo 20 opptime 250"),
        "info message search limits: clock red 300000ms +0ms black 250000ms +0ms, movestogo 20"
    );
    e.send("position startpos moves h2e2");
    assert_eq!(
        limits_of(&mut e, "go time 0.5 opptime 4"),
        "info message search limits: clock red 4000ms +0ms black 500ms +0ms",
        "time is the side to move's clock (Black here)"
    );
    e.send("setoption usemillisec true");
    assert_eq!(
        limits_of(&mut e, "go time 3000 increment 1000 opptime 4000"),
        "info message search limits: clock red 4000ms +0ms black 3000ms +1000ms"
    );
    assert_eq!(
        limits_of(&mut e, "go movetime 300"),
        "info message search limits: clock red - +0ms black - +0ms, movetime 300ms"
    );
    e.send("setoption debug off");
    e.sync();
}

#[test]
fn stop_when_idle_is_answered_with_nobestmove() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send("stop");
    assert_eq!(e.read_search(), ["nobestmove"]);
    e.send("position startpos");
    e.send("go depth infinite");
    e.read_until_prefix("info depth");
    e.send("stop");
    let lines = e.read_search();
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    e.send("stop");
    assert_eq!(e.read_search(), ["nobestmove"]);
    assert!(e.sync().is_empty());
}

#[test]
fn no_legal_move_gives_nobestmove() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send(&format!("position fen {CHECKMATED}"));
    e.send("go depth 3");
    let lines = e.read_search();
    assert_eq!(lines.last().unwrap(), "nobestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth 0 score -10000")), "{lines:?}");
}

#[test]
fn depth_zero_is_a_static_evaluation() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send("position startpos");
    e.send("go depth 0");
    let lines = e.read_search();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        field(&lines[0], "score").unwrap().parse::<i32>().is_ok() && lines[0].starts_with("info depth 0 ")
    );
    assert_eq!(lines[1], "nobestmove");
}

#[test]
fn probe_answers_with_pophash() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send("position startpos");
    e.send("go depth 6");
    let best = bestmove(&e.read_search());
    e.send("probe");
    let line = e.read_until_prefix("pophash").pop().unwrap();
    assert!(line.starts_with(&format!("pophash bestmove {best} ")), "{line}");
    // The last search of the root may have been up to 3 plies shallower
    // than the iteration (an aspiration window that failed high is
    // searched again with the depth reduced, at most by 3).
    assert!(field(&line, "depth").unwrap().parse::<u32>().unwrap() >= 3, "{line}");
    assert!(line.contains("lowerbound") || line.contains("upperbound"), "{line}");
    e.send("probe startpos");
    assert!(e.read_until_prefix("pophash").pop().unwrap().starts_with(&format!("pophash bestmove {best}")));
    e.send("probe fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(e.read_until_prefix("pophash").pop().unwrap(), "pophash");
    e.send("probe startpos moves h0h9");
    assert!(errors(&e.sync())[0].starts_with("info message error: probe: illegal move 'h0h9'"));
    // probe is answered while thinking too.
    e.send("go infinite");
    e.read_until_prefix("info depth");
    e.send("probe");
    assert!(e.read_until_prefix("pophash").pop().unwrap().starts_with("pophash"));
    e.send("stop");
    e.read_search();
}

#[test]
fn quit_says_bye_even_while_thinking() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send("position startpos");
    e.send("go infinite");
    e.read_until_prefix("info depth");
    let (status, lines) = e.quit();
    assert!(status.success());
    assert!(lines.len() >= 2, "{lines:?}");
    assert!(lines[lines.len() - 2].starts_with("bestmove "), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bye");
}

#[test]
fn draw_and_resign_flags() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send(&format!("position fen {LOST}"));
    e.send("go depth 4");
    assert_eq!(e.read_search().last().unwrap(), "bestmove e9f9 ponder i0e0 resign");
    e.send(&format!("position fen {BEHIND}"));
    e.send("go draw depth 2");
    let line = e.read_search().pop().unwrap();
    assert!(line.ends_with(" draw"), "a losing side accepts a draw offer: {line}");
    e.send("go depth 2");
    let line = e.read_search().pop().unwrap();
    assert!(!line.contains("draw") && !line.contains("resign"), "{line}");
    e.send(&format!("position fen {}", BEHIND.replace(" b ", " w ")));
    e.send("go draw depth 2");
    let line = e.read_search().pop().unwrap();
    assert!(!line.ends_with(" draw"), "the side a rook up declines: {line}");
    e.send(&format!("position fen {DEAD}"));
    e.send("go depth 2");
    assert!(e.read_search().pop().unwrap().ends_with(" draw"), "a dead position offers a draw");
    // A game the arbiter rules drawn (here the 60-round limit) is said to be
    // over, and the engine offers a draw with its move.
    e.send(&format!("position fen {}", BEHIND.replace(" b ", " w ").replace(" 0 1", " 130 1")));
    e.send("go depth 2");
    let lines = e.read_search();
    assert!(lines.iter().any(|l| l.starts_with("info message game over: draw: 60-round limit")), "{lines:?}");
    assert!(lines.last().unwrap().ends_with(" draw"), "{lines:?}");
    // The opponent offers a draw on ponderhit.
    e.send(&format!("position fen {BEHIND}"));
    e.send("go ponder depth 2");
    e.read_until_prefix("info depth 2");
    e.send("ponderhit draw");
    let line = e.read_search().pop().unwrap();
    assert!(line.ends_with(" draw"), "{line}");
}

#[test]
fn ponder_and_ponderhit_with_a_clock() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send("setoption usemillisec true");
    e.send("position startpos moves h2e2");
    e.send("go ponder time 2000 increment 0 opptime 2000 oppincrement 0");
    assert!(e.search_end_within(Duration::from_millis(500)).is_none(), "pondering waits for ponderhit");
    let t = Instant::now();
    e.send("ponderhit");
    let lines = e.read_search();
    assert!(t.elapsed() < Duration::from_millis(1500), "{:?}", t.elapsed());
    assert!(is_legal(START_FEN, &["h2e2"], &bestmove(&lines)));
    // A ponder miss: stop, then the real position.
    e.send("go ponder time 2000 opptime 2000");
    e.read_until_prefix("info depth");
    e.send("stop");
    e.read_search();
    e.send("position startpos moves h2e2 h9g7");
    e.send("go time 500 opptime 2000");
    assert!(is_legal(START_FEN, &["h2e2", "h9g7"], &bestmove(&e.read_search())));
}

#[test]
fn batch_mode_runs_a_script_in_order() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send("setoption batch on");
    // As from a script file: everything at once, quit included.
    e.send("position startpos");
    e.send("go depth 6");
    e.send("position startpos moves h2e2");
    e.send("go depth 5");
    e.send("isready");
    e.send("quit");
    let (status, lines) = e.wait_exit();
    assert!(status.success());
    let ends: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("bestmove")).collect();
    assert_eq!(ends.len(), 2, "{lines:?}");
    let last_depth = |range: &[String]| {
        let l = range.iter().rev().find(|l| l.starts_with("info depth")).unwrap().clone();
        field(&l, "depth").unwrap().to_string()
    };
    assert_eq!(last_depth(&lines[..ends[0]]), "6", "the first search was not cut short");
    assert_eq!(last_depth(&lines[ends[0]..ends[1]]), "5");
    assert!(is_legal(START_FEN, &["h2e2"], &bestmove(&lines[..=ends[1]])));
    assert!(lines.contains(&"readyok".to_string()));
    assert_eq!(lines.last().unwrap(), "bye");
}

#[test]
fn batch_mode_quit_waits_for_a_clean_script() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send("setoption batch true");
    e.send("position startpos");
    e.send("go movetime 2300");
    let t = Instant::now();
    let (status, lines) = e.quit();
    assert!(status.success());
    assert!(t.elapsed() > Duration::from_millis(2200), "quit waited for the search: {:?}", t.elapsed());
    assert!(lines[lines.len() - 2].starts_with("bestmove "), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bye");
}

#[test]
fn batch_mode_still_answers_isready_stop_and_quit() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send("setoption batch true");
    e.send("position startpos");
    e.send("go depth 200");
    e.send("go depth 199");
    e.send("no such command");
    let t = Instant::now();
    e.sync();
    assert!(t.elapsed() < Duration::from_millis(500));
    e.send("stop");
    e.read_search();
    // The queued `go depth 199` runs now. The queue holds a malformed line,
    // so it is no script to wait for: quit ends it after a short grace.
    let t = Instant::now();
    let (status, lines) = e.quit();
    assert!(status.success() && lines.last().unwrap() == "bye", "{lines:?}");
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    // A search that would never end does not hold quit back at all.
    let mut e = ucci();
    e.send("setoption batch true");
    e.send("go infinite");
    let t = Instant::now();
    let (status, lines) = e.quit();
    assert!(status.success() && lines.last().unwrap() == "bye");
    assert!(t.elapsed() < Duration::from_secs(1));
}

#[test]
fn batch_mode_switched_off_keeps_the_order() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send("setoption batch on");
    e.send("go infinite");
    e.send("setoption batch off");
    e.send("position startpos moves h2e2");
    e.send("position startpos moves h2e2 h9g7");
    e.send("stop");
    e.read_search();
    e.send("d");
    let fen = e.read_until_prefix("Fen: ").pop().unwrap();
    let mut pos = Position::startpos();
    play_moves(&mut pos, &["h2e2", "h9g7"]).unwrap();
    assert_eq!(fen, format!("Fen: {}", pos.fen()));
    // Batch mode is off: a new search is stopped by the next go.
    e.send("go infinite");
    e.send("go depth 1");
    assert_eq!(e.read_search().iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    e.read_search();
}

#[test]
fn fairyground_quirks() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send("uccinewgame");
    e.send("setoption debug true");
    e.send("position startpos moves h2e2");
    // Fairyground spells opptime/oppoincrement its own way and sends milliseconds.
    let line = limits_of(&mut e, "go time 60000 increment 1000 oppotime 50000 oppoincrement 500");
    assert_eq!(line, "info message search limits: clock red 50000ms +500ms black 60000ms +1000ms");
    e.send("setoption debug false");
    e.send("go time 1000 increment 0 oppotime 1000 oppoincrement 0");
    let lines = e.read_search();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(is_legal(START_FEN, &["h2e2"], &bestmove(&lines)));
    e.send("go time 1000 oppotime 1000 byoyomi 1000");
    assert!(is_legal(START_FEN, &["h2e2"], &bestmove(&e.read_search())));
}

#[test]
fn vinxiangqi_quirks() {
    let _g = shared_cpu();
    let mut e = EngineProcess::start();
    // VinXiangQi sends both handshakes; the last one wins.
    e.send("uci");
    e.send("ucci");
    let lines = e.read_until(|l| l == "ucciok");
    assert!(lines.contains(&"uciok".to_string()));
    e.send("setoption hashsize 16");
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r");
    e.send("go movetime 200");
    let lines = e.read_search();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let depth = lines.iter().rev().find(|l| l.starts_with("info depth")).unwrap();
    assert!(field(depth, "score").unwrap().parse::<i32>().is_ok(), "UCCI form after uci+ucci: {depth}");
    assert!(is_legal(START_FEN, &[], &bestmove(&lines)));
    e.send("go infinite");
    e.read_until_prefix("info depth");
    e.send("stop");
    assert!(is_legal(START_FEN, &[], &bestmove(&e.read_search())));
}

#[test]
fn uci_forms_and_sloppy_input_in_ucci() {
    let _g = shared_cpu();
    let mut e = ucci();
    e.send_raw(b"setoption name hashsize value 8\r\n");
    e.send_raw(b"setoption\tname Clear Hash\r\n");
    e.send_raw(b"ucinewgame\r\n");
    e.send_raw(b"  position\t\tstartpos    moves  h2e2\t h9g7 \r\n");
    assert!(e.sync().is_empty());
    e.send_raw(b"go  depth\t3 \r\n");
    assert!(is_legal(START_FEN, &["h2e2", "h9g7"], &bestmove(&e.read_search())));
    e.send("fen 4k4/9/9/9/9/9/9/9/9/3K4R r");
    e.send("go depth 1");
    assert!(is_legal(BEHIND.replace(" b ", " w ").as_str(), &[], &bestmove(&e.read_search())));
}

#[test]
fn errors_are_info_messages() {
    let _g = shared_cpu();
    let mut e = ucci();
    for (line, reply) in [
        (&b"bogus\n"[..], "info message error: unknown command 'bogus'"),
        (b"position fen x\n", "info message error: position: invalid FEN"),
        (b"go time abc\n", "info message error: go: value 'abc' for 'time' is not a number"),
        (
            b"banmoves \xff\n",
            "info message error: banmoves: ignored 1 move that is not legal here: '\\u{fffd}'",
        ),
        (b"probe fen\n", "info message error: position: missing FEN"),
        (b"ponderhit now\n", "info message error: ponderhit: expected nothing or 'draw'"),
    ] {
        e.send_raw(line);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with(reply), "expected {reply}: {lines:?}");
    }
}

/// The issue's figures in UCCI (clock in seconds).
#[test]
fn timing_in_ucci() {
    check_timing("ucci", "go depth infinite", "go time 1 opptime 1");
}
