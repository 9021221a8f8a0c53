//! The CECP (XBoard/WinBoard) dialect, driven through the built binary:
//! the handshake and features, games in force mode and played by the
//! engine, `setboard` with XBoard's letters, `undo`/`remove`, `ping`
//! ordering, analysis, `?`, time controls, pondering, draw offers,
//! resignation, result claims by the rule arbiter, and bad input (which
//! never changes the position).

mod common;

use std::time::{Duration, Instant};

use chariot::board::{Position, START_FEN};
use chariot::engine::play_moves;
use common::engine::{EngineProcess, exclusive_cpu, shared_cpu};

/// Red mates with `i0i9`.
const MATE_IN_ONE: &str = "4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1";
/// Black to move can only play `e9f9`, then is mated.
const LOST: &str = "4k4/R8/9/9/9/9/9/9/9/3K4R b - - 0 1";
/// Black to move, a rook down.
const BEHIND: &str = "4k4/9/9/9/9/9/9/9/9/3K4R b - - 0 1";
/// The shared rule catalogue's `perpetual_check_red_loses`: every red move
/// checks; after these moves the start position occurs a third time.
const PERPETUAL: (&str, [&str; 8]) =
    ("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1", ["a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9"]);

fn legal_moves(fen: &str, moves: &[&str]) -> Vec<String> {
    let mut pos = Position::from_fen(fen).unwrap();
    play_moves(&mut pos, moves).unwrap();
    pos.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn assert_legal(fen: &str, moves: &[&str], mv: &str) {
    assert!(legal_moves(fen, moves).iter().any(|m| m == mv), "{mv} is not legal after {moves:?} from {fen}");
}

/// An engine after `xboard` + `protover 2`; returns the feature lines too.
fn start() -> (EngineProcess, Vec<String>) {
    let mut e = EngineProcess::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.read_until(|l| l == "feature done=1");
    (e, features)
}

fn xboard() -> EngineProcess {
    start().0
}

/// `ping n`; the lines printed before `pong n`.
fn sync(e: &mut EngineProcess, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let pong = format!("pong {n}");
    let mut lines = e.read_until(|l| l == pong);
    lines.pop();
    lines
}

/// `ping n` during an analysis that a command just restarted, then the
/// first line, before or after `pong n`, that `new` says belongs to the
/// new analysis: lines of the old one may still come before the pong.
fn restarted_line(e: &mut EngineProcess, n: u32, new: impl Fn(&str) -> bool) -> String {
    match sync(e, n).into_iter().find(|l| new(l)) {
        Some(line) => line,
        None => e.read_until(|l| new(l)).pop().unwrap(),
    }
}

/// Reads up to the engine's move; returns the move and the lines before it.
fn read_move(e: &mut EngineProcess) -> (String, Vec<String>) {
    let mut lines = e.read_until(|l| l.starts_with("move ") || l == "resign");
    let last = lines.pop().unwrap();
    (last.strip_prefix("move ").unwrap_or(&last).to_string(), lines)
}

/// The pv of a thinking line (`ply score time nodes pv`), or "".
fn pv_of(line: &str) -> &str {
    let mut fields = line.splitn(5, ' ');
    let numbers = fields.by_ref().take(4).filter(|f| f.parse::<i64>().is_ok()).count();
    if numbers == 4 { fields.next().unwrap_or("") } else { "" }
}

#[test]
fn handshake_and_features() {
    let _g = shared_cpu();
    let (mut e, features) = start();
    let all = features.join(" ");
    for want in [
        "myname=\"Chariot ",
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "playother=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "analyze=1",
        "memory=1",
        "smp=1",
        "exclude=1",
    ] {
        assert!(all.contains(want), "no {want}: {features:?}");
    }
    assert!(features.iter().all(|l| l.starts_with("feature ")), "{features:?}");
    for option in [
        "Hash -spin 16 1 ",
        "Threads -spin 1 1 1024",
        "Rule60 -spin 120 0 1000",
        "Clear Hash -button",
        "RuleSet -combo *asian /// chinese",
    ] {
        assert!(features.iter().any(|l| l.starts_with(&format!("feature option=\"{option}"))), "{option}");
    }
    assert_eq!(features.last().unwrap(), "feature done=1");
    // XBoard's replies and its settings before a game need no answer.
    for line in [
        "accepted setboard",
        "accepted done",
        "rejected nps",
        "memory 32",
        "cores 1",
        "new",
        "random",
        "variant xiangqi",
        "level 40 5 0",
        "post",
        "hard",
        "easy",
        "computer",
        "name Fairy-Stockfish",
        "option Move Overhead=40",
        "option Clear Hash",
        "option Rule60=120",
    ] {
        e.send(line);
    }
    assert!(sync(&mut e, 1).is_empty());
    let (status, after) = e.quit();
    assert!(status.success() && after.is_empty(), "{after:?}");
}

#[test]
fn a_game_in_force_mode_then_go() {
    let _g = shared_cpu();
    let mut e = xboard();
    e.send("new");
    e.send("variant xiangqi");
    e.send("force");
    e.send("usermove h2e2");
    e.send("usermove h9g7");
    e.send("h0g2"); // a bare move, as when usermove=1 is refused
    assert!(sync(&mut e, 1).is_empty(), "force mode only checks and plays the moves");
    e.send("sd 5");
    e.send("go");
    let (mv, _) = read_move(&mut e);
    assert_legal(START_FEN, &["h2e2", "h9g7", "h0g2"], &mv);
    // The engine plays Black now: after Red's reply it moves again.
    let reply = legal_moves(START_FEN, &["h2e2", "h9g7", "h0g2", &mv])[0].clone();
    e.send(&format!("usermove {reply}"));
    let (second, _) = read_move(&mut e);
    assert_legal(START_FEN, &["h2e2", "h9g7", "h0g2", &mv, &reply], &second);
    // `new`: the engine plays Black and waits for Red's move.
    e.send("new");
    e.send("sd 4");
    e.send("usermove c3c4");
    let (mv, _) = read_move(&mut e);
    assert_legal(START_FEN, &["c3c4"], &mv);
}

#[test]
fn setboard_takes_xboard_letters_and_usermove_follows() {
    let _g = shared_cpu();
    let mut e = xboard();
    e.send("new");
    e.send("force");
    // XBoard writes horses as H and elephants as E.
    e.send("setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1");
    e.send("usermove b0c2");
    assert!(sync(&mut e, 1).is_empty());
    e.send("sd 4");
    e.send("go");
    let (mv, _) = read_move(&mut e);
    assert_legal(START_FEN, &["b0c2"], &mv);
    e.send("force");
    e.send(&format!("setboard {BEHIND}"));
    e.send("usermove e9e8");
    e.send("go");
    let (mv, _) = read_move(&mut e);
    assert_legal(BEHIND, &["e9e8"], &mv);
}

#[test]
fn undo_and_remove() {
    let _g = shared_cpu();
    let mut e = xboard();
    e.send("new");
    e.send("force");
    e.send("usermove h2e2");
    e.send("usermove h9g7");
    e.send("undo");
    // The position after h2e2 again: Black's h9g7 is legal once more.
    e.send("usermove h9g7");
    e.send("remove");
    e.send("usermove h2e2");
    assert!(sync(&mut e, 1).is_empty());
    e.send("undo");
    e.send("undo");
    assert_eq!(sync(&mut e, 2), ["Error (no move to take back): undo"]);
    e.send("remove");
    assert_eq!(sync(&mut e, 3), ["Error (no move to take back): remove"]);
    // At the start position Red moves first.
    e.send("usermove h9g7");
    assert_eq!(sync(&mut e, 4), ["Illegal move: h9g7"]);
    e.send("sd 3");
    e.send("go");
    let (mv, _) = read_move(&mut e);
    assert_legal(START_FEN, &[], &mv);
    // The engine plays Red: `remove` takes back its move and the reply,
    // and it is Red's turn again (the user's, in XBoard's eyes).
    let reply = legal_moves(START_FEN, &[&mv])[0].clone();
    e.send("force");
    e.send(&format!("usermove {reply}"));
    e.send("remove");
    e.send(&format!("usermove {mv}"));
    assert!(sync(&mut e, 5).is_empty());
}

#[test]
fn pong_comes_after_the_move_thought_about() {
    let _g = shared_cpu();
    let mut e = xboard();
    e.send("new");
    e.send("level 0 0:04 0");
    e.send("time 400");
    e.send("otim 400");
    e.send("go");
    e.send("ping 7");
    e.send("force");
    e.send("ping 8");
    let lines = e.read_until(|l| l == "pong 8");
    let mv = lines.iter().position(|l| l.starts_with("move ")).expect("a move");
    let pong = lines.iter().position(|l| l == "pong 7").expect("pong 7");
    assert!(mv < pong, "pong before the move: {lines:?}");
    // A ping while pondering or analysing is answered at once.
    e.send("hard");
    e.send("new");
    e.send("go");
    let (mv, _) = read_move(&mut e);
    let hint = e.read_until(|l| l.starts_with("Hint: "));
    assert_legal(START_FEN, &[&mv], hint.last().unwrap().strip_prefix("Hint: ").unwrap());
    let t = Instant::now();
    sync(&mut e, 9);
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
}

#[test]
fn analyze_then_exit() {
    let _g = shared_cpu();
    let mut e = xboard();
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {MATE_IN_ONE}"));
    e.send("post");
    e.send("analyze");
    let lines = e.read_until(|l| pv_of(l).starts_with("i0i9"));
    let line = lines.last().unwrap();
    let fields: Vec<&str> = line.split(' ').collect();
    assert_eq!(fields[1], "100001", "mate in one move: {line}");
    assert!(fields[..4].iter().all(|f| f.parse::<u64>().is_ok()), "ply score time nodes pv: {line}");
    e.send(".");
    let stat = e.read_until(|l| l.starts_with("stat01: ")).pop().unwrap();
    let stat: Vec<u64> = stat["stat01: ".len()..].split(' ').map(|f| f.parse().unwrap()).collect();
    assert_eq!(stat.len(), 5);
    assert_eq!(stat[4], legal_moves(MATE_IN_ONE, &[]).len() as u64);
    // Without the mate, the analysis finds something else.
    e.send("exclude i0i9");
    // (Lines of the old analysis, all with the mate, may come first.)
    let line = restarted_line(&mut e, 1, |l| l.starts_with("5 ") && !pv_of(l).starts_with("i0i9"));
    assert!(!pv_of(&line).is_empty(), "{line}");
    e.send("include all");
    // A move during the analysis: the new position is analysed.
    e.send("usermove a8a9");
    // (Old lines analyse the position before it, with Red to move.)
    let black_moves = legal_moves(MATE_IN_ONE, &["a8a9"]);
    let line = restarted_line(&mut e, 2, |l| {
        l.starts_with("3 ") && black_moves.iter().any(|m| pv_of(l).split(' ').next() == Some(m))
    });
    let score: i32 = line.split(' ').nth(1).unwrap().parse().unwrap();
    assert!(score < -1000, "Black, two rooks down, is lost: {line}");
    e.send("exit");
    sync(&mut e, 3);
    std::thread::sleep(Duration::from_millis(300));
    assert!(sync(&mut e, 4).is_empty(), "no thinking lines after exit");
}

#[test]
fn move_now() {
    let _g = shared_cpu();
    let mut e = xboard();
    e.send("new");
    e.send("st 60");
    e.send("post");
    e.send("go");
    e.read_until(|l| l.starts_with("6 "));
    let t = Instant::now();
    e.send("?");
    let (mv, _) = read_move(&mut e);
    assert!(t.elapsed() < Duration::from_millis(500), "{:?}", t.elapsed());
    assert_legal(START_FEN, &[], &mv);
    // `?` while idle does nothing.
    e.send("?");
    assert!(sync(&mut e, 1).is_empty());
}

#[test]
fn clocks_from_level_st_and_time() {
    let _g = exclusive_cpu();
    let mut e = xboard();
    // Two seconds left on a sudden-death clock: a quick move.
    e.send("new");
    e.send("level 0 0:02 0");
    e.send("time 200");
    e.send("otim 200");
    let t = Instant::now();
    e.send("go");
    read_move(&mut e);
    assert!(t.elapsed() < Duration::from_millis(400), "{:?}", t.elapsed());
    // `st 1`: about a second per move, never more.
    e.send("new");
    e.send("st 1");
    let t = Instant::now();
    e.send("go");
    read_move(&mut e);
    let took = t.elapsed();
    assert!(took > Duration::from_millis(600) && took < Duration::from_millis(1100), "{took:?}");
    // Forty moves in five minutes, conventional: nowhere near the whole clock.
    e.send("new");
    e.send("level 40 0:30 0");
    e.send("time 3000");
    e.send("otim 3000");
    let t = Instant::now();
    e.send("go");
    read_move(&mut e);
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

#[test]
fn pondering_hit_and_miss() {
    let _g = shared_cpu();
    let mut e = xboard();
    e.send("new");
    e.send("hard");
    e.send("level 0 0:20 0.1");
    e.send("go");
    let (first, _) = read_move(&mut e);
    let guess = e.read_until(|l| l.starts_with("Hint: ")).pop().unwrap()["Hint: ".len()..].to_string();
    // A hit: the engine goes on with the guess on the board.
    e.send("time 1900");
    e.send("otim 2000");
    e.send(&format!("usermove {guess}"));
    let (second, _) = read_move(&mut e);
    assert_legal(START_FEN, &[&first, &guess], &second);
    let guess2 = e.read_until(|l| l.starts_with("Hint: ")).pop().unwrap()["Hint: ".len()..].to_string();
    // A miss: the guess comes off the board before the real move is played.
    let played = [first.as_str(), guess.as_str(), second.as_str()];
    let other = legal_moves(START_FEN, &played).into_iter().find(|m| *m != guess2).unwrap();
    e.send(&format!("usermove {other}"));
    let (third, _) = read_move(&mut e);
    assert_legal(START_FEN, &[played[0], played[1], played[2], &other], &third);
    // `easy` stops pondering; the game goes on as before.
    e.send("easy");
    e.send("force");
    assert!(sync(&mut e, 1).iter().all(|l| !l.starts_with("move")));
}

#[test]
fn draw_offers_and_resignation() {
    let _g = shared_cpu();
    let mut e = xboard();
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {BEHIND}"));
    e.send("sd 3");
    e.send("draw");
    e.send("go");
    let (_, before) = read_move(&mut e);
    assert_eq!(before.last().map(String::as_str), Some("offer draw"), "the side behind accepts: {before:?}");
    // The side ahead declines (says nothing).
    e.send("force");
    e.send(&format!("setboard {}", BEHIND.replace(" b ", " w ")));
    e.send("draw");
    e.send("go");
    let (_, before) = read_move(&mut e);
    assert!(!before.iter().any(|l| l == "offer draw"), "{before:?}");
    // A proven loss resigns instead of moving.
    e.send("force");
    e.send(&format!("setboard {LOST}"));
    e.send("sd 4");
    e.send("go");
    let (last, _) = read_move(&mut e);
    assert_eq!(last, "resign");
    // The engine no longer plays: Black's move is only played.
    e.send("usermove e9f9");
    assert!(sync(&mut e, 1).is_empty());
}

/// A perpetual mate threat (长杀) by Red, played out in force mode: the
/// option decides the ruling. The Asian draw is claimed; the Chinese win
/// is not (XBoard would refuse it, see `the_arbiter_claims_results`): the
/// debug log gives it and the engine plays on.
#[test]
fn the_rule_set_option_decides_the_ruling() {
    let _g = shared_cpu();
    let mut e = xboard();
    let fen = "3a5/5k3/4b4/9/9/8R/9/9/4K4/4C4 w - - 0 1";
    let moves = ["e1d1", "e7g5", "d1e1", "g5e7", "e1d1", "e7g5", "d1e1", "g5e7"];
    let setup = |e: &mut EngineProcess, rules: &str| {
        e.send(&format!("option RuleSet={rules}"));
        e.send("force");
        e.send("sd 3");
        e.send(&format!("setboard {fen}"));
        for m in moves {
            e.send(&format!("usermove {m}"));
        }
        e.send("go");
    };
    setup(&mut e, "asian");
    assert_eq!(sync(&mut e, 1), ["1/2-1/2 {Plain repetition (no perpetual check or chase)}"]);
    setup(&mut e, "chinese");
    let (mv, before) = read_move(&mut e);
    assert_legal(fen, &moves, &mv);
    assert_eq!(
        before[0],
        "# the rules give 0-1 {Perpetual mate threat by Red}; not claimed: XBoard rules repetitions itself"
    );
    assert!(!before.iter().any(|l| l.starts_with("0-1")), "{before:?}");
    e.send("option RuleSet=skyrule");
    assert!(
        sync(&mut e, 2)[0].starts_with("Error (bad option: option 'RuleSet' needs one of asian, chinese")
    );
}

#[test]
fn the_arbiter_claims_results() {
    let _g = shared_cpu();
    let mut e = xboard();
    // The engine mates, then claims.
    e.send("new");
    e.send("sd 4");
    e.send("force");
    e.send(&format!("setboard {MATE_IN_ONE}"));
    e.send("go");
    let (mv, _) = read_move(&mut e);
    assert_eq!(mv, "i0i9");
    assert_eq!(e.read_until(|l| l.starts_with("1-0")).pop().unwrap(), "1-0 {Checkmate: Black is mated}");
    // A perpetual check, played out in force mode. A win by a repetition
    // rule is not claimed: XBoard checks an engine's win claims against its
    // own judgement (`-testClaims`, on in its default configuration), which
    // knows no such win and would forfeit the claimer; it rules perpetual
    // check and chase itself when the position repeats further. So the
    // engine, on move as Red, the violator, says the ruling in its debug
    // log and plays on.
    let (fen, moves) = PERPETUAL;
    e.send("force");
    e.send(&format!("setboard {fen}"));
    for m in moves {
        e.send(&format!("usermove {m}"));
    }
    e.send("go");
    let (mv, before) = read_move(&mut e);
    assert_legal(fen, &moves, &mv);
    let note = "# the rules give 0-1 {Perpetual check by Red}; not claimed: XBoard rules repetitions itself";
    assert_eq!(before[0], note);
    // The engine as Black: Red checks for the third time and the engine
    // repeats, which wins by rule (no claim: the note, then it ponders on).
    e.send("force");
    e.send(&format!("setboard {fen}"));
    for m in &moves[..6] {
        e.send(&format!("usermove {m}"));
    }
    e.send("playother");
    e.send(&format!("usermove {}", moves[6]));
    let (mv, _) = read_move(&mut e);
    assert_eq!(mv, moves[7]);
    let after = sync(&mut e, 3);
    assert!(after.contains(&note.to_string()) && !after.iter().any(|l| l.starts_with("0-1")), "{after:?}");
    // The 60-round limit: the move that reaches it draws.
    e.send("force");
    e.send(&format!("setboard {}", BEHIND.replace(" b - - 0 1", " w - - 119 60")));
    e.send("go");
    read_move(&mut e);
    let claim = e.read_until(|l| l.starts_with("1/2-1/2")).pop().unwrap();
    assert_eq!(claim, "1/2-1/2 {60-round limit: 120 plies without a capture}");
    // A game that is over is claimed, not played on.
    e.send("go");
    assert_eq!(sync(&mut e, 2), [claim]);
}

#[test]
fn the_move_limit_is_claimed_only_when_xboard_would_accept_it() {
    // XBoard restarts its count at a pawn move and refuses (forfeits) a
    // claim of the move limit below 100 plies of its count. Here the
    // Asian rules' limit is reached 9 plies after a pawn move: the engine
    // says so in the debug log and plays on.
    let _g = shared_cpu();
    let mut e = xboard();
    e.send("new");
    e.send("sd 3");
    e.send("force");
    e.send("setboard 3k5/9/9/9/p8/8P/9/9/9/R3K4 w - - 110 60");
    for m in ["i4i5", "d9d8", "a0a1", "d8d7", "a1a2", "d7d8", "a2a3", "d8d9", "a3a4", "d9d8"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("go");
    let (_, before) = read_move(&mut e);
    let note = "# the rules give 1/2-1/2 {60-round limit: 120 plies without a capture}; not claimed: XBoard counts 9 plies";
    assert!(before.iter().any(|l| l.starts_with(note)), "{before:?}");
    assert!(!before.iter().any(|l| l.starts_with("1/2-1/2")), "{before:?}");
    // No pawn move since the FEN: XBoard counts the same 120 plies, and
    // the claim is made.
    e.send("force");
    e.send("setboard 3k5/9/9/9/p8/8P/9/9/9/R3K4 w - - 111 60");
    for m in ["a0a1", "d9d8", "a1a2", "d8d7", "a2a3", "d7d8", "a3a4", "d8d9", "a4b4"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("go");
    let claim = e.read_until(|l| l.starts_with("1/2-1/2")).pop().unwrap();
    assert_eq!(claim, "1/2-1/2 {60-round limit: 120 plies without a capture}");
}

#[test]
fn bad_input_changes_nothing() {
    let _g = shared_cpu();
    let mut e = xboard();
    e.send("new");
    e.send("force");
    e.send("usermove h2e2");
    for (line, reply) in [
        ("usermove h2e2", "Illegal move: h2e2"),
        ("usermove zz", "Illegal move: zz"),
        ("a9a5", "Illegal move: a9a5"),
        ("usermove", "Error (missing argument): usermove"),
        ("frobnicate 3", "Error (unknown command): frobnicate 3"),
        ("level 40 x 0", "Error (bad time control): level 40 x 0"),
        ("sd -1", "Error (bad depth): sd -1"),
        ("time soon", "Error (bad clock): time soon"),
        ("ping", "Error (missing argument): ping"),
        ("variant chess", "Error (only xiangqi is played): variant chess"),
        ("option Frob=1", "Error (bad option: unknown option 'Frob' (ignored)): option Frob"),
        ("option Hash=lots", "Error (bad option: option 'Hash' needs a number from 1 to "),
        ("exclude a0a9", "Error (no such move here): exclude a0a9"),
        ("undo", ""),
    ] {
        e.send(line);
        let lines = sync(&mut e, 1);
        if reply.is_empty() {
            assert!(lines.is_empty(), "{line}: {lines:?}");
        } else {
            assert_eq!(lines.len(), 1, "{line}: {lines:?}");
            assert!(lines[0].starts_with(reply), "{line}: expected {reply}, got {lines:?}");
        }
    }
    // `undo` took h2e2 back: Red is on move at the start position.
    e.send("setboard 9/9/9 w");
    let lines = sync(&mut e, 2);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("tellusererror Illegal position: invalid FEN"), "{lines:?}");
    assert!(
        lines[1].starts_with("Error (invalid position; kept the old one): setboard 9/9/9 w"),
        "{lines:?}"
    );
    e.send_raw(b"usermove \xff\xfe\r\n");
    assert_eq!(sync(&mut e, 3), ["Illegal move: \\u{fffd}\\u{fffd}"]);
    e.send("sd 2");
    e.send("go");
    let (mv, _) = read_move(&mut e);
    assert_legal(START_FEN, &[], &mv);
    // A wrong move while the engine thinks does not disturb the search.
    e.send("force");
    e.send("new");
    e.send("st 1");
    e.send("usermove h2e2");
    e.send("usermove h2e2");
    let (mv, before) = read_move(&mut e);
    assert!(before.contains(&"Illegal move: h2e2".to_string()), "{before:?}");
    assert_legal(START_FEN, &["h2e2"], &mv);
}

#[test]
fn end_of_input_finishes_the_move() {
    let _g = shared_cpu();
    let mut e = xboard();
    e.send("new");
    e.send("sd 6");
    e.send("go");
    e.close_input();
    let (status, lines) = e.wait_exit();
    assert!(status.success());
    let mv = lines.iter().find_map(|l| l.strip_prefix("move ")).expect("a move");
    assert_legal(START_FEN, &[], mv);
    // An analysis is stopped at the end of the input.
    let mut e = xboard();
    e.send("analyze");
    e.close_input();
    let t = Instant::now();
    let (status, _) = e.wait_exit();
    assert!(status.success() && t.elapsed() < Duration::from_secs(2));
}
