//! The UCI dialect, driven through the built binary: a GUI session, the
//! non-standard commands, the UCI-cyclone form, bad input, and the timing
//! figures (start-up, `stop` latency, clock and `movetime` handling).

mod common;

use std::time::{Duration, Instant};

use chariot::board::{Position, START_FEN};
use chariot::engine::play_moves;
use common::engine::{EngineProcess, bestmove, check_timing, field, shared_cpu};

/// Red mates in one with `i0i9` (rook a8 guards rank 8).
const MATE_IN_ONE: &str = "4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1";
/// Black to move is checkmated.
const CHECKMATED: &str = "4k3R/R8/9/9/9/9/9/9/9/3K5 b - - 0 1";
/// Black to move has no legal move but is not in check (a loss in xiangqi).
const STALEMATED: &str = "4k4/R4P3/9/9/9/9/9/9/9/3K5 b - - 0 1";

/// The position `fen` + `moves`, built by the library.
fn position(fen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    play_moves(&mut pos, moves).unwrap();
    pos
}

fn is_legal(fen: &str, moves: &[&str], mv: &str) -> bool {
    position(fen, moves).parse_legal_move(mv).is_some()
}

fn uci() -> EngineProcess {
    EngineProcess::with_handshake("uci").0
}

/// The FEN the engine reports with `d`.
fn shown_fen(e: &mut EngineProcess) -> String {
    e.send("d");
    let lines = e.read_until_prefix("Checkers:");
    let fen = lines.iter().find_map(|l| l.strip_prefix("Fen: ")).expect("a Fen: line");
    fen.to_string()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string error")).collect()
}

#[test]
fn handshake_lists_the_options() {
    let _g = shared_cpu();
    let (e, lines) = EngineProcess::with_handshake("uci");
    assert!(lines[0].starts_with("id name Chariot "), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for name in ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "Clear Hash", "Rule60", "RuleSet"] {
        let prefix = format!("option name {name} type ");
        assert!(lines.iter().any(|l| l.starts_with(&prefix)), "no option {name}: {lines:?}");
    }
    assert!(lines.iter().any(|l| l.starts_with("option name Hash type spin default 16 min 1 max ")));
    assert!(lines.iter().any(|l| l == "option name Ponder type check default false"));
    assert!(lines.iter().any(|l| l == "option name Clear Hash type button"));
    assert!(lines.iter().any(|l| l == "option name RuleSet type combo default asian var asian var chinese"));
    assert!(lines.iter().all(|l| l.starts_with("id ") || l.starts_with("option name ")), "{lines:?}");
    let (status, after) = e.quit();
    assert!(status.success());
    assert!(after.is_empty(), "UCI quit prints nothing: {after:?}");
}

#[test]
fn search_gives_a_legal_move_with_info() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("setoption name Hash value 8");
    e.send("setoption name Threads value 2");
    e.send("ucinewgame");
    assert!(errors(&e.sync()).is_empty());
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 5");
    let lines = e.read_search();
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty(), "{lines:?}");
    let last = infos.last().unwrap();
    assert_eq!(field(last, "depth"), Some("5"), "{last}");
    assert_eq!(field(last, "score"), Some("cp"), "{last}");
    assert!(field(last, "nodes").unwrap().parse::<u64>().unwrap() > 0);
    let pv = last.split(" pv ").nth(1).expect("a pv");
    assert!(is_legal(START_FEN, &["h2e2", "h9g7"], pv.split(' ').next().unwrap()));
    let best = bestmove(&lines);
    assert!(is_legal(START_FEN, &["h2e2", "h9g7"], &best), "{best}");
    let ponder = field(lines.last().unwrap(), "ponder").expect("a ponder move");
    assert!(is_legal(START_FEN, &["h2e2", "h9g7", &best], ponder));
}

#[test]
fn perft_counts() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.read_until_prefix("Nodes searched:");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 79666");
    let moves: Vec<&String> = lines.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).collect();
    assert_eq!(moves.len(), 44);
    let sum: u64 = moves.iter().map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 79666);
    e.send("position fen r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1");
    e.send("go perft 2");
    assert_eq!(e.read_until_prefix("Nodes searched:").last().unwrap(), "Nodes searched: 1128");
}

#[test]
fn perft_is_stopped_and_isready_answered_meanwhile() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("position startpos");
    e.send("go perft 12");
    std::thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    e.sync();
    assert!(t.elapsed() < Duration::from_secs(1), "isready waited for perft");
    e.send("stop");
    let lines = e.read_until_prefix("info string perft 12 stopped");
    assert!(!lines.iter().any(|l| l.starts_with("Nodes searched")));
    e.sync();
}

#[test]
fn display_shows_board_fen_key_and_checkers() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("position startpos moves h2e2 h9g7");
    e.send("d");
    let lines = e.read_until_prefix("Checkers:");
    let expected = position(START_FEN, &["h2e2", "h9g7"]);
    assert!(lines.iter().any(|l| l == " 9 | r n b a k a b . r |"), "{lines:?}");
    assert!(lines.contains(&format!("Fen: {}", expected.fen())));
    assert!(lines.contains(&format!("Key: {:016X}", expected.key())));
    assert_eq!(lines.last().unwrap().trim_end(), "Checkers:");
    e.send(&format!("position fen {MATE_IN_ONE} moves i0i9"));
    e.send("d");
    assert_eq!(e.read_until_prefix("Checkers:").last().unwrap(), "Checkers: i9");
    e.send("eval");
    let lines = e.read_until_prefix("Final evaluation");
    assert!(lines.last().unwrap().contains("side to move"), "{lines:?}");
}

#[test]
fn display_prints_the_game_and_the_legal_moves_in_a_notation() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("position startpos moves h2e2 h9g7");
    e.send("d zh");
    let lines = e.read_until_prefix("Legal:");
    assert!(lines.contains(&"Moves: 1. 炮二平五 马８进７".to_string()), "{lines:?}");
    let legal = lines.last().unwrap();
    let expected = position(START_FEN, &["h2e2", "h9g7"]).legal_moves().len();
    assert_eq!(expected, 35);
    assert_eq!(legal.split_whitespace().count(), 1 + expected, "{legal}");
    assert!(legal.contains(" 炮五进四 ") && legal.contains(" 车九进一 "), "{legal}");
    e.send("d wxf");
    let lines = e.read_until_prefix("Legal:");
    assert!(lines.contains(&"Moves: 1. C2=5 H8+7".to_string()), "{lines:?}");
    e.send("d morse");
    assert!(e.sync().iter().any(|l| l.contains("unknown notation 'morse'")));
}

#[test]
fn multipv_reports_distinct_lines() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.read_search();
    let last_depth: Vec<&String> =
        lines.iter().filter(|l| l.starts_with("info depth 4 ") && l.contains(" multipv ")).collect();
    let pvs: Vec<&str> = last_depth.iter().map(|l| field(l, "pv").unwrap()).collect();
    let ids: Vec<&str> = last_depth.iter().map(|l| field(l, "multipv").unwrap()).collect();
    assert_eq!(ids, ["1", "2", "3"], "{lines:?}");
    assert!(pvs[0] != pvs[1] && pvs[1] != pvs[2] && pvs[0] != pvs[2], "{pvs:?}");
    assert_eq!(bestmove(&lines), pvs[0]);
}

#[test]
fn mate_search_and_searchmoves() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send(&format!("position fen {MATE_IN_ONE}"));
    e.send("go mate 1");
    let lines = e.read_search();
    assert_eq!(bestmove(&lines), "i0i9");
    assert!(lines.iter().any(|l| l.contains(" score mate 1 ")), "{lines:?}");
    e.send("position startpos");
    e.send("go depth 4 searchmoves a3a4 i3i4");
    let best = bestmove(&e.read_search());
    assert!(best == "a3a4" || best == "i3i4", "{best}");
    e.send("go depth 2 searchmoves a3a4 h2h8");
    let lines = e.read_search();
    assert_eq!(bestmove(&lines), "a3a4");
    assert!(lines[0].starts_with("info string error: searchmoves: ignored 1 move"), "{lines:?}");
}

/// Black's rook has shuttled a0-a2 for two cycles, chasing the red horse on
/// i2 and the red elephant on c0 in turn: allowed under the Asian rules (no
/// piece is chased on every move), a forbidden perpetual chase (长捉) under
/// the Chinese rules. With the option the engine leaves the cycle.
#[test]
fn rule_set_option_reaches_the_search() {
    let _g = shared_cpu();
    let mut e = uci();
    let game = "position fen 2b1k4/9/8b/p1p1p3p/6pC1/1R7/P1P3P2/4B4/6r2/3AKA1N1 b - - 10 21 moves \
                g1a1 h5i5 c9a7 h0i2 a7c5 b4b3 e9e8 b3b4 e8e9 e2c0 a1a3 b4c4 a3a0 c4f4 a0a2 f4c4 a2a0 c4f4 \
                a0a2 f4c4";
    for (rules, repeats) in [("asian", true), ("chinese", false), ("asian", true)] {
        e.send(&format!("setoption name RuleSet value {rules}"));
        e.send("ucinewgame");
        e.send(game);
        e.send("go depth 8");
        let best = bestmove(&e.read_search());
        assert_eq!(best == "a2a0", repeats, "{rules}: {best}");
    }
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let _g = shared_cpu();
    let mut e = uci();
    for fen in [CHECKMATED, STALEMATED] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 3");
        let lines = e.read_search();
        assert_eq!(lines.last().unwrap(), "bestmove (none)", "{fen}");
        assert!(lines.iter().any(|l| l.starts_with("info depth 0 ") && l.contains("score mate 0")));
    }
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves h2e2");
    e.send("go ponder wtime 2000 btime 2000");
    // The clock does not run while pondering: no move comes by itself.
    assert!(e.search_end_within(Duration::from_millis(600)).is_none());
    let t = Instant::now();
    e.send("ponderhit");
    let lines = e.read_search();
    assert!(t.elapsed() < Duration::from_millis(1500), "{:?}", t.elapsed());
    assert!(is_legal(START_FEN, &["h2e2"], &bestmove(&lines)));
    e.send("go ponder depth 3");
    assert!(e.search_end_within(Duration::from_millis(300)).is_none(), "a ponder search waits for the GUI");
    e.send("stop");
    assert!(is_legal(START_FEN, &["h2e2"], &bestmove(&e.read_search())));
}

#[test]
fn infinite_waits_for_stop_whatever_the_clock_says() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite movetime 100 wtime 200 btime 200");
    assert!(e.search_end_within(Duration::from_millis(600)).is_none(), "infinite ends only with stop");
    e.send("stop");
    assert!(is_legal(START_FEN, &[], &bestmove(&e.read_search())));
}

#[test]
fn isready_and_position_while_thinking() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    e.read_until_prefix("info depth");
    let t = Instant::now();
    let before = e.sync();
    assert!(t.elapsed() < Duration::from_millis(500));
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "isready must not end the search");
    e.send("position startpos moves c3c4");
    e.send("stop");
    let best = bestmove(&e.read_search());
    assert!(is_legal(START_FEN, &[], &best), "the move is for the position searched");
    assert_eq!(shown_fen(&mut e), position(START_FEN, &["c3c4"]).fen());
}

#[test]
fn illegal_move_keeps_the_position_before_it() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("position startpos moves h2e2 h9g7 h0h9 b0c2");
    let lines = e.sync();
    assert_eq!(
        errors(&lines),
        [
            "info string error: position: illegal move 'h0h9' (move 3 of the list); kept the position before it"
        ]
    );
    assert_eq!(shown_fen(&mut e), position(START_FEN, &["h2e2", "h9g7"]).fen());
    e.send("position startpos moves h2e2 e2");
    assert_eq!(errors(&e.sync()).len(), 1);
    assert_eq!(shown_fen(&mut e), position(START_FEN, &["h2e2"]).fen());
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1");
    let lines = e.sync();
    assert!(errors(&lines)[0].contains("invalid FEN") && errors(&lines)[0].contains("position unchanged"));
    assert_eq!(shown_fen(&mut e), position(START_FEN, &["h2e2"]).fen());
}

#[test]
fn ten_thousand_moves_with_repetitions() {
    let _g = shared_cpu();
    let cycle = ["b0c2", "b9c7", "c2b0", "c7b9"];
    let moves: Vec<&str> = cycle.iter().copied().cycle().take(10_000).collect();
    let mut e = uci();
    let t = Instant::now();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_eq!(shown_fen(&mut e), position(START_FEN, &moves).fen());
    e.send("go depth 4");
    assert!(is_legal(START_FEN, &moves, &bestmove(&e.read_search())));
    e.send("go movetime 100");
    assert!(is_legal(START_FEN, &moves, &bestmove(&e.read_search())));
}

#[test]
fn uci_cyclone_position_without_keyword() {
    let _g = shared_cpu();
    let mut e = EngineProcess::start();
    e.send("startpos moves h2e2 h9g7");
    assert_eq!(shown_fen(&mut e), position(START_FEN, &["h2e2", "h9g7"]).fen());
    e.send("fen 4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1 moves i0i1");
    assert_eq!(shown_fen(&mut e), position(MATE_IN_ONE, &["i0i1"]).fen());
    e.send("4k4/R8/9/9/9/9/9/9/9/3K4R w");
    assert_eq!(shown_fen(&mut e), position(MATE_IN_ONE, &[]).fen());
    e.send("go depth 3");
    // No handshake yet: the engine speaks UCI.
    let lines = e.read_search();
    assert_eq!(bestmove(&lines), "i0i9");
    assert!(lines.iter().any(|l| l.contains("score mate 1")));
}

#[test]
fn options_are_clamped_and_errors_reported() {
    let _g = shared_cpu();
    let mut e = uci();
    let cases: [(&str, &str); 10] = [
        ("setoption name MultiPV value 500", "info string option 'MultiPV' clamped to 128"),
        ("setoption name Move Overhead value -20", "info string option 'Move Overhead' clamped to 0"),
        ("setoption name Hash value lots", "info string error: setoption: option 'Hash' needs a number"),
        (
            "setoption name Ponder value maybe",
            "info string error: setoption: option 'Ponder' needs true or false",
        ),
        (
            "setoption name NoSuchOption value 1",
            "info string error: setoption: unknown option 'NoSuchOption'",
        ),
        (
            "setoption name UCI_Variant value chess",
            "info string error: setoption: only the variant 'xiangqi'",
        ),
        (
            "setoption name RuleSet value skyrule",
            "info string error: setoption: option 'RuleSet' needs one of asian, chinese, not 'skyrule'",
        ),
        ("go depth -3", "info string error: go: value '-3' for 'depth' must not be negative"),
        ("go nodes 123456789012345678901234567890", "info string error: go: value '1234567890"),
        ("go sideways", "info string error: go: unknown parameter 'sideways'"),
    ];
    for (line, reply) in cases {
        e.send(line);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{line}: {lines:?}");
        assert!(lines[0].starts_with(reply), "{line}: {lines:?}");
    }
    for ok in [
        "setoption name UCI_Variant value xiangqi",
        "setoption name Clear Hash",
        "setoption name Hash value 1",
        "setoption name Threads value 1",
        "setoption name MultiPV value 1",
        "setoption name Ponder value false",
        "setoption name Move Overhead value 30",
        "setoption name RuleSet value chinese",
        "setoption name RuleSet value Asian",
        "debug on",
        "debug off",
    ] {
        e.send(ok);
        assert!(e.sync().is_empty(), "{ok}");
    }
    e.send("setoption name Threads value 100000");
    let lines = e.sync();
    assert!(lines[0].starts_with("info string option 'Threads' clamped to "), "{lines:?}");
    e.send("position startpos");
    e.send("go depth 3");
    assert!(is_legal(START_FEN, &[], &bestmove(&e.read_search())));
}

#[test]
fn bad_input_gets_a_short_error_and_the_engine_goes_on() {
    let _g = shared_cpu();
    let mut e = uci();
    let mut huge = b"position startpos moves ".to_vec();
    huge.extend(std::iter::repeat_n(b'x', 1 << 20));
    huge.push(b'\n');
    let mut long_line = vec![b'y'; 5 << 20];
    long_line.push(b'\n');
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"frobnicate 1 2 3\n".to_vec(), "info string error: unknown command 'frobnicate'"),
        (b"isready\x00\x07\n".to_vec(), "info string error: unknown command 'isready\\u{0}\\u{7}'"),
        (b"go depth \xff\xfe\n".to_vec(), "info string error: go: value '\\u{fffd}\\u{fffd}' for 'depth'"),
        (b"\xc3\x28\x80 \n".to_vec(), "info string error: unknown command '\\u{fffd}(\\u{fffd}'"),
        (huge, "info string error: position: illegal move 'xxxxxxxx"),
        (long_line, "info string error: input line of 5242880 bytes is longer than"),
        (b"position fen\n".to_vec(), "info string error: position: missing FEN after 'fen'"),
        (b"position fen 9/9/9 w\n".to_vec(), "info string error: position: invalid FEN"),
        (b"position startpos moves h2e2 zz9\n".to_vec(), "info string error: position: illegal move 'zz9'"),
        (b"bench 0\n".to_vec(), "info string error: bench: bad depth '0'"),
    ];
    for (bytes, reply) in cases {
        e.send_raw(&bytes);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with(reply), "expected {reply}, got {lines:?}");
        assert!(lines[0].len() < 400, "errors quote little: {} bytes", lines[0].len());
    }
    e.send("position startpos");
    e.send("go depth 2");
    assert!(is_legal(START_FEN, &[], &bestmove(&e.read_search())));
}

#[test]
fn crlf_tabs_and_spaces() {
    let _g = shared_cpu();
    let mut e = EngineProcess::start();
    e.send_raw(b"uci\r\n");
    e.read_until(|l| l == "uciok");
    e.send_raw(b"  position \t startpos   moves\th2e2    h9g7 \r\n");
    e.send_raw(b"isready\r\n");
    assert!(e.read_until(|l| l == "readyok").len() == 1);
    assert_eq!(shown_fen(&mut e), position(START_FEN, &["h2e2", "h9g7"]).fen());
    e.send_raw(b"go\tdepth  3\r\n");
    e.read_search();
}

#[test]
fn bench_runs_and_stops() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("bench 1");
    let lines = e.read_until(|l| l.ends_with(" nps") && !l.starts_with("position"));
    assert_eq!(lines.iter().filter(|l| l.starts_with("position ")).count(), 40);
    assert!(lines[0].starts_with("position 1/40: "));
    e.send("bench 60");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    e.read_until_prefix("info string bench stopped after");
    e.sync();
}

/// `bench` in a session searches by the session's rule set, as `chariot
/// bench --rules` does (the two rule sets already differ at depth 5).
#[test]
fn bench_follows_the_rule_set() {
    let _g = shared_cpu();
    let cli = |rules: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
            .args(["bench", "5", "--rules", rules])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines().last().unwrap().split(' ').next().unwrap().to_string()
    };
    let (asian, chinese) = (cli("asian"), cli("chinese"));
    assert_ne!(asian, chinese);
    let mut e = uci();
    for (set, want) in [("chinese", &chinese), ("asian", &asian)] {
        e.send(&format!("setoption name RuleSet value {set}"));
        e.send("bench 5");
        let lines = e.read_until(|l| l.ends_with(" nps") && !l.starts_with("position"));
        let total = lines.last().unwrap().split(' ').next().unwrap();
        assert_eq!(total, want, "{set}");
    }
    e.sync();
}

#[test]
fn end_of_input_finishes_the_search_and_exits() {
    let _g = shared_cpu();
    let mut e = EngineProcess::start();
    e.send("position startpos");
    e.send("go depth 6");
    e.close_input();
    let (status, lines) = e.wait_exit();
    assert!(status.success());
    let last_info = lines.iter().rev().find(|l| l.starts_with("info depth")).unwrap();
    assert_eq!(field(last_info, "depth"), Some("6"), "the search ran to its depth");
    assert!(lines.last().unwrap().starts_with("bestmove "));
    // A search that would never end is stopped at the end of the input.
    let mut e = EngineProcess::start();
    e.send("go infinite");
    e.close_input();
    let (status, lines) = e.wait_exit();
    assert!(status.success());
    assert!(lines.last().unwrap().starts_with("bestmove "));
    // After malformed input a long search gets a short grace only.
    let mut e = EngineProcess::start();
    e.send("go depth 1 2 3");
    e.send("go depth 200");
    e.close_input();
    let t = Instant::now();
    let (status, lines) = e.wait_exit();
    assert!(status.success());
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    assert!(lines[0].starts_with("info string error: go: unknown parameter '2'"), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("bestmove "));
}

#[test]
fn quit_while_searching() {
    let _g = shared_cpu();
    let mut e = uci();
    e.send("go infinite");
    e.read_until_prefix("info depth");
    let t = Instant::now();
    let (status, _) = e.quit();
    assert!(status.success());
    assert!(t.elapsed() < Duration::from_secs(1));
}

/// The figures of the issue, measured through the pipe.
#[test]
fn timing_startup_stop_clock_movetime() {
    check_timing("uci", "go infinite", "go wtime 1000 btime 1000");
}
