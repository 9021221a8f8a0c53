//! Fuzzing the protocol loop through the built binary: valid command lines
//! of each dialect (UCI, UCCI, CECP), mutated with a fixed seed (tokens
//! swapped, deleted or repeated; random and invalid UTF-8 bytes; huge and
//! negative numbers; long lines; CR, tabs and runs of spaces; truncation),
//! with an `isready` (CECP: `?` then `ping`) every few lines. The engine
//! must stay alive, answer every `isready` with `readyok` (`ping N` with
//! `pong N`), print only well-formed lines, and quit cleanly at the end.
//!
//! CI runs a few thousand lines per dialect; the ignored tests run 20,000
//! (`cargo test --release --test protocol_fuzz -- --ignored`).

mod common;

use std::time::{Duration, Instant};

use common::Rng;
use common::engine::EngineProcess;

/// Lines common to both dialects.
const COMMON: &[&str] = &[
    "isready",
    "position startpos",
    "position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7",
    "position fen r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1 moves f3f9",
    "position fen 4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1",
    "position fen 4k3R/R8/9/9/9/9/9/9/9/3K5 b - - 0 1",
    "position fen 3k5/9/9/9/9/9/9/9/9/4K4 r",
    "go depth 3",
    "go nodes 3000",
    "go movetime 15",
    "go infinite",
    "go mate 2",
    "go perft 2",
    "stop",
    "ponderhit",
    "d",
    "eval",
    "bench 1",
];

const UCI: &[&str] = &[
    "uci",
    "debug on",
    "debug off",
    "ucinewgame",
    "setoption name Hash value 8",
    "setoption name Threads value 1",
    "setoption name MultiPV value 2",
    "setoption name MultiPV value 1",
    "setoption name Ponder value true",
    "setoption name Move Overhead value 30",
    "setoption name Clear Hash",
    "setoption name UCI_Variant value xiangqi",
    "setoption name Use NNUE value true",
    "setoption name Use NNUE value false",
    "setoption name EvalFile value nets/none.nnue",
    "setoption name EvalFile value <default>",
    "startpos moves c3c4 c6c5",
    "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b2e2",
    "go wtime 300 btime 300 winc 10 binc 10",
    "go wtime 500 btime 400 movestogo 20",
    "go ponder wtime 300 btime 300",
    "go searchmoves h2e2 b2e2 c3c4 depth 3",
];

const UCCI: &[&str] = &[
    "ucci",
    "uccinewgame",
    "setoption usemillisec true",
    "setoption usemillisec false",
    "setoption batch true",
    "setoption batch false",
    "setoption debug true",
    "setoption debug false",
    "setoption ponder false",
    "setoption hashsize 8",
    "setoption threads 1",
    "setoption usebook false",
    "setoption bookfiles BOOK.DAT",
    "setoption usennue true",
    "setoption usennue false",
    "setoption evalfile /dev/null",
    "setoption idle none",
    "setoption promotion false",
    "setoption pruning large",
    "setoption randomness none",
    "setoption style normal",
    "setoption newgame",
    "banmoves h2e2 b2e2",
    "banmoves h6i4",
    "go time 1 increment 0",
    "go time 300 opptime 300 increment 10 oppincrement 10",
    "go time 500 movestogo 10 opptime 500 oppmovestogo 10",
    "go draw depth 2",
    "go ponder time 1 opptime 1",
    "go time 200 increment 0 oppotime 200 oppoincrement 0",
    "go depth infinite",
    "ponderhit draw",
    "probe",
    "probe startpos moves h2e2",
    "probe fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
];

/// CECP, after `xboard` and `protover 2` (no `quit`: the fuzz ends with it).
const XBOARD: &[&str] = &[
    "new",
    "variant xiangqi",
    "force",
    "go",
    "playother",
    "usermove h2e2",
    "usermove h9g7",
    "h0g2",
    "b9c7",
    "setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
    "setboard 4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1",
    "setboard 4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1",
    "setboard 3k5/9/9/9/9/9/9/9/9/4K4 b - - 119 80",
    "level 40 0:02 0",
    "level 0 0:01 0.1",
    "st 0.05",
    "sd 3",
    "time 100",
    "otim 100",
    "?",
    "ping 5",
    "draw",
    "result 1-0 {Red mates}",
    "undo",
    "remove",
    "hard",
    "easy",
    "post",
    "nopost",
    "analyze",
    "exit",
    ".",
    "bk",
    "hint",
    "memory 8",
    "cores 1",
    "option Hash=8",
    "option Clear Hash",
    "option MultiPV=2",
    "option MultiPV=1",
    "option Rule60=120",
    "option Use NNUE=1",
    "option Use NNUE=0",
    "option EvalFile=Cargo.toml",
    "exclude h2e2",
    "exclude all",
    "include all",
    "include h2e2",
    "accepted usermove",
    "rejected debug",
    "protover 2",
    "computer",
    "name Fairy-Stockfish",
];

const HUGE: &[&str] = &[
    "99999999999999999999999999",
    "18446744073709551615",
    "18446744073709551616",
    "4294967296",
    "1e308",
    "inf",
    "NaN",
    "9223372036854775807",
];

const NEGATIVE: &[&str] = &["-1", "-0", "-999999999999", "-2147483648", "-1e9"];

/// One mutation of `line`.
fn mutate(rng: &mut Rng, line: &mut Vec<u8>) {
    let text = String::from_utf8_lossy(line).into_owned();
    let mut tokens: Vec<String> = text.split(' ').map(String::from).collect();
    let n = tokens.len();
    match rng.below(12) {
        0 if n > 1 => {
            let (a, b) = (rng.below(n), rng.below(n));
            tokens.swap(a, b);
        }
        1 if n > 1 => {
            tokens.remove(rng.below(n));
        }
        2 => {
            let i = rng.below(n);
            for _ in 0..1 + rng.below(3) {
                tokens.insert(i, tokens[i].clone());
            }
        }
        3 => {
            let i = rng.below(n);
            tokens[i] = HUGE[rng.below(HUGE.len())].to_string();
        }
        4 => {
            let i = rng.below(n);
            tokens[i] = NEGATIVE[rng.below(NEGATIVE.len())].to_string();
        }
        5 => {
            // A long line: one token repeated thousands of times, or junk.
            let i = rng.below(n);
            let times = 1 + rng.below(20_000);
            let junk = if rng.below(2) == 0 { tokens[i].clone() } else { "h2e2".to_string() };
            tokens.extend(std::iter::repeat_n(junk, times));
        }
        6 => {
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(line.len() + 1);
                line.insert(at, rng.next() as u8);
            }
            return;
        }
        7 => {
            let bad: [&[u8]; 5] = [b"\xff", b"\xc3", b"\x80\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"];
            let at = rng.below(line.len() + 1);
            let b = bad[rng.below(bad.len())];
            line.splice(at..at, b.iter().copied());
            return;
        }
        8 => {
            let seps: [&[u8]; 4] = [b"\t", b"  ", b" \t ", b"\r"];
            let mut out = Vec::new();
            for &c in line.iter() {
                if c == b' ' {
                    out.extend_from_slice(seps[rng.below(seps.len())]);
                } else {
                    out.push(c);
                }
            }
            out.extend_from_slice(b"\r");
            *line = out;
            return;
        }
        9 => {
            line.truncate(rng.below(line.len() + 1));
            return;
        }
        10 => {
            line.make_ascii_uppercase();
            return;
        }
        _ => {
            let i = rng.below(n);
            tokens[i] = ["0", "1", "64", "255", "256", "65536", "0.5", "x", ""][rng.below(9)].to_string();
        }
    }
    *line = tokens.join(" ").into_bytes();
}

/// A command line: valid now and then, mostly mutated once to three times.
fn fuzzed_line(rng: &mut Rng, corpus: &[&str]) -> Vec<u8> {
    let mut line = corpus[rng.below(corpus.len())].as_bytes().to_vec();
    if rng.below(5) != 0 {
        for _ in 0..1 + rng.below(3) {
            mutate(rng, &mut line);
        }
    }
    if rng.below(400) == 0 {
        // Now and then a line over a megabyte.
        line.extend(std::iter::repeat_n(b'z', (1 << 20) + rng.below(1 << 20)));
    }
    line.retain(|&b| b != b'\n');
    line
}

/// How each dialect is driven.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Protocol {
    Uci,
    Ucci,
    Xboard,
}

impl Protocol {
    fn handshake(self) -> &'static [&'static str] {
        match self {
            Protocol::Uci => &["uci"],
            Protocol::Ucci => &["ucci"],
            Protocol::Xboard => &["xboard", "protover 2"],
        }
    }

    fn corpus(self) -> Vec<&'static str> {
        match self {
            Protocol::Uci => COMMON.iter().chain(UCI).copied().collect(),
            Protocol::Ucci => COMMON.iter().chain(UCCI).copied().collect(),
            Protocol::Xboard => XBOARD.to_vec(),
        }
    }

    /// True if the line would end the session (such lines are left out).
    fn is_quit(self, line: &[u8]) -> bool {
        let text = String::from_utf8_lossy(line);
        let first = text.split_ascii_whitespace().next().unwrap_or("").to_ascii_lowercase();
        // In CECP `exit` only leaves analyze mode.
        first == "quit" || (first == "exit" && self != Protocol::Xboard)
    }

    /// Asks for a sign of life: `isready`, or in CECP `?` (so that the
    /// engine is not thinking about its move, when `ping` would wait for
    /// it) then `ping n`. Returns the reply to wait for.
    fn sync(self, e: &mut EngineProcess, n: usize) -> String {
        if self == Protocol::Xboard {
            e.send("?");
            e.send(&format!("ping {n}"));
            format!("pong {n}")
        } else {
            e.send("isready");
            "readyok".to_string()
        }
    }

    /// True for every kind of line the engine prints in this dialect.
    fn well_formed(self, line: &str) -> bool {
        if self != Protocol::Xboard {
            return well_formed_uci(line);
        }
        const PREFIXES: [&str; 17] = [
            "feature ",
            "pong ",
            "move ",
            "Hint: ",
            "Illegal move: ",
            "Error (",
            "tellusererror Illegal position: ",
            "# ",
            "1-0 {",
            "0-1 {",
            "1/2-1/2 {",
            "stat01: ",
            " The opening book is off (option OwnBook).",
            " No book move in this position.",
            "offer draw",
            "resign",
            "",
        ];
        // ply score time nodes pv
        let numbers = line.split(' ').take(4).filter(|f| f.parse::<i64>().is_ok()).count();
        let thinking = numbers == 4;
        // `bk`: " h2e2 45% (640 games, scored 52%)".
        let book_move = line.starts_with(' ') && line.split(' ').nth(2).is_some_and(|w| w.ends_with('%'));
        thinking
            || book_move
            || PREFIXES.iter().any(|p| if p.is_empty() { line.is_empty() } else { line.starts_with(p) })
    }

    /// The move of a line that plays one (`bestmove m`, `move m`).
    fn played_move(self, line: &str) -> Option<&str> {
        let word = if self == Protocol::Xboard { "move" } else { "bestmove" };
        let mut tokens = line.split_whitespace();
        (tokens.next() == Some(word)).then(|| tokens.next().unwrap_or(""))
    }

    fn is_error(self, line: &str) -> bool {
        if self == Protocol::Xboard {
            line.starts_with("Error (") || line.starts_with("Illegal move: ")
        } else {
            line.contains(" error: ")
        }
    }
}

/// True for every kind of line the engine prints in UCI and UCCI.
fn well_formed_uci(line: &str) -> bool {
    const PREFIXES: [&str; 23] = [
        "id name ",
        "id author ",
        "id version ",
        "id copyright ",
        "option ",
        "uciok",
        "ucciok",
        "readyok",
        "info ",
        "bestmove ",
        "nobestmove",
        "pophash",
        "Nodes searched: ",
        "position ",
        "Fen: ",
        "Key: ",
        "Checkers:",
        "   +",
        "   |~",
        "     a b c",
        "phase ",
        "Final evaluation: ",
        "NNUE evaluation (",
    ];
    let move_count = line.len() > 6 && line.as_bytes()[4] == b':' && line[6..].parse::<u64>().is_ok();
    let board_row = line.len() > 3 && line.as_bytes()[1].is_ascii_digit() && line[2..].starts_with(" | ");
    let eval_row = line.contains(" | ");
    let bench_total = line.ends_with(" nps");
    line.is_empty()
        || move_count
        || board_row
        || eval_row
        || bench_total
        || PREFIXES.iter().any(|p| line.starts_with(p))
}

fn is_move(mv: &str) -> bool {
    let b = mv.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'i').contains(&f) && r.is_ascii_digit();
    b.len() == 4 && square(b[0], b[1]) && square(b[2], b[3])
}

#[derive(Default)]
struct Tally {
    lines: usize,
    errors: usize,
    bestmoves: usize,
    readyok: usize,
    /// The longest wait for a `readyok`, and the line sent before it.
    slowest: (Duration, String),
}

impl Tally {
    /// Checks one output line and counts it.
    fn check(&mut self, protocol: Protocol, line: &str) -> Result<(), String> {
        if !protocol.well_formed(line) || line.len() > 8192 {
            return Err(format!("unexpected output line: {:?}", line.chars().take(300).collect::<String>()));
        }
        if let Some(mv) = protocol.played_move(line) {
            if mv != "(none)" && !is_move(mv) {
                return Err(format!("malformed move line: {line}"));
            }
            self.bestmoves += 1;
        }
        self.errors += protocol.is_error(line) as usize;
        Ok(())
    }
}

/// The longest wait for a reply that still counts as responsive. The fuzz
/// sets `Threads` to 1024 and back to 1 now and then: on a two-core machine,
/// starting a thousand threads while a thousand others end, with searches
/// in between, takes the system itself a few seconds.
const PATIENCE: Duration = Duration::from_secs(10);

fn fuzz(protocol: Protocol, seed: u64, count: usize) {
    let corpus = protocol.corpus();
    let name = protocol.handshake()[0];
    let mut rng = Rng(seed);
    let mut e = EngineProcess::start();
    for line in protocol.handshake() {
        e.send(line);
    }
    let mut tally = Tally::default();
    let start = Instant::now();
    let mut next_sync = 1 + rng.below(15);
    for i in 0..count {
        let mut line = fuzzed_line(&mut rng, &corpus);
        if protocol.is_quit(&line) {
            continue;
        }
        line.push(b'\n');
        e.send_raw(&line);
        tally.lines += 1;
        if i + 1 >= next_sync || i + 1 == count {
            next_sync = i + 2 + rng.below(15);
            let reply = protocol.sync(&mut e, i);
            let t = Instant::now();
            for l in e.read_until_within(2 * PATIENCE, |l| l == reply) {
                if let Err(why) = tally.check(protocol, &l) {
                    e.fail(&why);
                }
            }
            tally.readyok += 1;
            if t.elapsed() > tally.slowest.0 {
                tally.slowest =
                    (t.elapsed(), String::from_utf8_lossy(&line).trim_end().chars().take(80).collect());
            }
            if t.elapsed() > PATIENCE {
                e.fail(&format!("{reply} took {:?}", t.elapsed()));
            }
        }
        if !e.is_alive() {
            e.fail("the engine died");
        }
    }
    // Quit: at once, or after the batch-mode grace if commands are queued.
    e.send(if protocol == Protocol::Xboard { "force" } else { "stop" });
    let t = Instant::now();
    let (status, mut lines) = e.quit();
    if lines.last().is_some_and(|l| l == "bye") {
        lines.pop();
    }
    for l in &lines {
        tally.check(protocol, l).unwrap();
    }
    assert!(status.success(), "exit status {status:?}");
    assert!(
        t.elapsed() < PATIENCE,
        "quit took {:?}; the engine's last lines:\n{}",
        t.elapsed(),
        lines.join("\n")
    );
    println!(
        "{name}: {} lines, {} replies to syncs, {} moves, {} errors in {:.1} s; slowest reply {:?} after {:?}",
        tally.lines,
        tally.readyok,
        tally.bestmoves,
        tally.errors,
        start.elapsed().as_secs_f64(),
        tally.slowest.0,
        tally.slowest.1,
    );
    assert!(tally.readyok >= tally.lines / 16);
    // How many errors are printed depends on the machine's load in UCCI:
    // batch mode queues the lines behind a long search, and at the end the
    // queue is dropped after the quit grace (250 to 670 of 3,000 lines seen).
    assert!(tally.bestmoves > 0 && tally.errors > tally.lines / 20, "the fuzz reached searches and errors");
}

#[test]
fn fuzz_uci() {
    fuzz(Protocol::Uci, 0x5EED_0001, 3000);
}

#[test]
fn fuzz_ucci() {
    fuzz(Protocol::Ucci, 0x5EED_0002, 3000);
}

#[test]
fn fuzz_xboard() {
    fuzz(Protocol::Xboard, 0x5EED_0003, 3000);
}

#[test]
#[ignore = "20,000 lines per dialect: run with --ignored"]
fn fuzz_uci_long() {
    fuzz(Protocol::Uci, 0xC0FF_EE01, 20_000);
}

#[test]
#[ignore = "20,000 lines per dialect: run with --ignored"]
fn fuzz_ucci_long() {
    fuzz(Protocol::Ucci, 0xC0FF_EE02, 20_000);
}

#[test]
#[ignore = "20,000 lines per dialect: run with --ignored"]
fn fuzz_xboard_long() {
    fuzz(Protocol::Xboard, 0xC0FF_EE03, 20_000);
}

#[test]
fn mutations_are_reproducible() {
    let corpus = Protocol::Ucci.corpus();
    let run = || {
        let mut rng = Rng(42);
        (0..200).map(|_| fuzzed_line(&mut rng, &corpus)).collect::<Vec<_>>()
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b);
    assert!(a.iter().any(|l| std::str::from_utf8(l).is_err()), "some lines are not UTF-8");
    assert!(a.iter().any(|l| l.len() > 10_000), "some lines are long");
}
