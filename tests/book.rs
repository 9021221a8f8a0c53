//! The opening book: `chariot book build` and `dump` on a few games (the
//! entries, counts, weights and scores the input gives), the engine playing
//! from a book in UCI, UCCI and CECP (only legal moves, never a banned one,
//! no book for analysis, pondering waits), damaged book files refused with
//! a message while the engine plays on, and the built-in book.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use chariot::board::Position;
use chariot::book::{self, Book, Entry};
use chariot::types::Move;
use common::engine::{EngineProcess, bestmove, shared_cpu};

/// A fresh path in the temporary directory.
fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("chariot-book-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `chariot ARGS…`; returns (exit status, stdout, stderr).
fn chariot(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot")).args(args).output().expect("run chariot");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8 output");
    (out.status.code().expect("exit status"), text(out.stdout), text(out.stderr))
}

/// The key of the position after `moves` from the start.
fn key_after(moves: &[&str]) -> u64 {
    let mut pos = Position::startpos();
    for m in moves {
        pos.do_move(pos.parse_legal_move(m).unwrap_or_else(|| panic!("illegal {m}")));
    }
    pos.key()
}

fn entry(key: u64, mv: &str, weight: u16) -> Entry {
    Entry { key, mv: Move::parse(mv).unwrap(), weight, count: weight, score: 500 }
}

/// Writes a book of `entries` to a fresh file.
fn book_file(name: &str, entries: Vec<Entry>) -> PathBuf {
    let path = temp(name);
    std::fs::write(&path, Book::from_entries(entries).unwrap().to_bytes()).unwrap();
    path
}

/// A book whose start position has h2e2 (weight 30) and b2e2 (10), plus
/// two entries that are not legal there (a key collision or damage).
fn start_book(name: &str) -> PathBuf {
    let start = key_after(&[]);
    book_file(
        name,
        vec![
            entry(start, "h2e2", 30),
            entry(start, "b2e2", 10),
            entry(start, "h2h8", 60_000),
            entry(start, "a0a4", 60_000),
        ],
    )
}

#[test]
fn build_counts_games_and_dump_prints_them() {
    let games = temp("games.txt");
    std::fs::write(
        &games,
        "\
# move lists: red wins, a draw, black wins
startpos moves h2e2 h9g7 h0g2 1-0
h2e2 h9g7 b0c2 1/2-1/2
startpos moves h2e2 b9c7 0-1
startpos moves b2e2 *
",
    )
    .unwrap();
    // The PGN tools/match.py writes, with ranks 1-10 (b2e2 h9g7 in Chariot's ranks).
    let pgn = temp("games.pgn");
    std::fs::write(
        &pgn,
        "[Red \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Termination \"x\"]\n[Variant \"xiangqi\"]\n\
         [FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\nb3e3 h10g8 1-0\n\n",
    )
    .unwrap();
    let out = temp("built.book");
    let (o, g, p) = (out.to_str().unwrap(), games.to_str().unwrap(), pgn.to_str().unwrap());
    let (code, _, err) = chariot(&["book", "build", "--out", o, "--max-ply", "2", g, p]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(":5: game skipped: no result (*)"), "{err}");
    assert!(err.contains("4 games (1 skipped)"), "{err}");
    assert!(err.contains("kept 2 positions, 4 moves"), "{err}");
    let book = Book::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let rows = |moves: &[&str]| -> Vec<(String, u16, u16, u16)> {
        book.moves(key_after(moves)).iter().map(|e| (e.mv.to_string(), e.weight, e.count, e.score)).collect()
    };
    // Red's h2e2: a win, a draw, a loss (weight 2 + 1, score 500); b2e2: a win.
    assert_eq!(rows(&[]), [("b2e2".into(), 2, 1, 1000), ("h2e2".into(), 3, 3, 500)]);
    // Black after h2e2: h9g7 lost one and drew one; b9c7 won.
    assert_eq!(rows(&["h2e2"]), [("b9c7".into(), 2, 1, 1000), ("h9g7".into(), 1, 2, 250)]);
    // Black's h9g7 after b2e2 lost its only game: no weight, left out.
    assert!(rows(&["b2e2"]).is_empty());
    assert_eq!(book.entries().len(), 4, "{:?}", book.entries());

    let (code, dump, err) = chariot(&["book", "dump", o]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = dump.lines().collect();
    assert!(lines[0].starts_with("# key | position"), "{dump}");
    let start =
        format!("{:016x} | rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", key_after(&[]));
    assert_eq!(lines[1], format!("{start} | h2e2 | 3 | 60.0% | 3 | 0.500"));
    assert_eq!(lines[2], format!("{start} | b2e2 | 2 | 40.0% | 1 | 1.000"));
    assert!(lines[3].ends_with("| b9c7 | 2 | 66.7% | 1 | 1.000"), "{dump}");
    assert_eq!(lines.len(), 5, "{dump}");
    assert!(err.contains("2 positions (2 reached from the start position), 4 moves"), "{err}");

    // At least 2 games: only h2e2 and Black's h9g7 after it.
    let (code, _, err) = chariot(&["book", "build", "--out", o, "--max-ply", "2", "--min-count", "2", g, p]);
    assert_eq!(code, 0, "{err}");
    let book = Book::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let kept: Vec<String> = book.entries().iter().map(|e| e.mv.to_string()).collect();
    assert_eq!(kept.len(), 2);
    assert!(kept.contains(&"h2e2".to_string()) && kept.contains(&"h9g7".to_string()));
    // A score of at least 0.6: b2e2 and b9c7.
    let (code, _, err) =
        chariot(&["book", "build", "--out", o, "--max-ply", "2", "--min-score", "0.6", g, p]);
    assert_eq!(code, 0, "{err}");
    let book = Book::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let mut kept: Vec<String> = book.entries().iter().map(|e| e.mv.to_string()).collect();
    kept.sort();
    assert_eq!(kept, ["b2e2", "b9c7"]);
    for f in [games, pgn, out] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn bad_arguments_and_files_are_errors_with_status_2() {
    let garbage = temp("garbage.book");
    std::fs::write(&garbage, b"not a book at all, just some text of some length......").unwrap();
    let no_games = temp("no-games.txt");
    std::fs::write(&no_games, "# nothing\nstartpos moves h2e2 *\n").unwrap();
    let out = temp("never.book");
    let (gb, ng, o) = (garbage.to_str().unwrap(), no_games.to_str().unwrap(), out.to_str().unwrap());
    let cases: &[(&[&str], &str)] = &[
        (&["book"], "requires a subcommand"),
        (&["book", "open"], "unrecognized subcommand 'open'"),
        (&["book", "build", ng], "--out <FILE>"),
        (&["book", "build", "--out", o], "<INPUT>..."),
        (&["book", "build", "--out"], "a value is required for '--out <FILE>'"),
        (&["book", "build", "--out", o, "--min-count", "0", ng], "invalid value '0' for '--min-count"),
        (&["book", "build", "--out", o, "--min-score", "1.5", ng], "invalid value '1.5' for '--min-score"),
        (&["book", "build", "--out", o, "--max-ply", "x", ng], "invalid value 'x' for '--max-ply"),
        (&["book", "build", "--out", o, "--colour", "red", ng], "unexpected argument '--colour'"),
        (&["book", "build", "--out", o, "/nonexistent-games"], "cannot open /nonexistent-games"),
        (&["book", "build", "--out", o, ng], "no game to build a book from (1 skipped)"),
        (&["book", "dump", gb], "not a Chariot book (wrong magic)"),
        (&["book", "dump", "/nonexistent-book"], "cannot open it"),
        (&["book", "dump", gb, gb], "unexpected argument"),
    ];
    for (args, needle) in cases {
        let (code, _, err) = chariot(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        let said = err.lines().any(|l| l.starts_with("error: "));
        assert!(said && err.contains(needle), "{args:?}: {err}");
    }
    assert!(!out.exists());
    let (code, help, _) = chariot(&["book", "build", "--help"]);
    assert_eq!(code, 0);
    assert!(help.contains("Usage: chariot book build") && help.contains("--min-count"), "{help}");
    for f in [garbage, no_games] {
        let _ = std::fs::remove_file(f);
    }
}

/// Starts a UCI engine with the book on and `file` as its book, variety `variety`.
fn uci_with_book(file: &str, variety: u32) -> EngineProcess {
    let mut e = EngineProcess::with_handshake("uci").0;
    e.send("setoption name OwnBook value true");
    e.send(&format!("setoption name BookFile value {file}"));
    e.send(&format!("setoption name BookVariety value {variety}"));
    assert!(e.sync().is_empty());
    e
}

#[test]
fn uci_plays_legal_book_moves_at_once_by_their_weights() {
    let _g = shared_cpu();
    let book = start_book("start.book");
    let mut e = uci_with_book(book.to_str().unwrap(), 50);
    let mut h2e2 = 0;
    for _ in 0..40 {
        e.send("position startpos");
        let t = Instant::now();
        // Ten minutes on the clock: a search would take some 20 s.
        e.send("go wtime 600000 btime 600000");
        let lines = e.read_search();
        assert!(t.elapsed() < Duration::from_secs(2), "not at once: {:?}", t.elapsed());
        let m = bestmove(&lines);
        assert!(m == "h2e2" || m == "b2e2", "{lines:?}");
        assert!(lines.iter().any(|l| l.starts_with(&format!("info string book move {m} ("))), "{lines:?}");
        h2e2 += usize::from(m == "h2e2");
    }
    // Chances 75% and 25%: 40 draws give 20..40 h2e2 but for 1 in 10^4.
    assert!((20..40).contains(&h2e2), "{h2e2} of 40");
    // Variety 0: always the heaviest legal move.
    e.send("setoption name BookVariety value 0");
    for _ in 0..5 {
        e.send("position startpos");
        e.send("go depth 12");
        assert_eq!(bestmove(&e.read_search()), "h2e2");
    }
    // Out of the book: a search.
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    let lines = e.read_search();
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")), "{lines:?}");
    // Analysis and mate searches are searched, not answered from the book.
    e.send("position startpos");
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth 4 "));
    e.send("stop");
    let lines = e.read_search();
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    e.send("go mate 1 depth 4");
    let lines = e.read_search();
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    // searchmoves limits the book too.
    e.send("go depth 5 searchmoves b2e2 c3c4");
    let lines = e.read_search();
    assert_eq!(bestmove(&lines), "b2e2", "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info string book move b2e2 (100% of 1 book move;")));
    // Off again: searched.
    e.send("setoption name OwnBook value false");
    e.send("go depth 2");
    let lines = e.read_search();
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    let _ = std::fs::remove_file(book);
}

#[test]
fn a_book_of_illegal_moves_only_is_no_book() {
    let _g = shared_cpu();
    let start = key_after(&[]);
    let book = book_file("illegal.book", vec![entry(start, "h2h8", 5), entry(start, "e0e2", 5)]);
    let mut e = uci_with_book(book.to_str().unwrap(), 100);
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.read_search();
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    let m = bestmove(&lines);
    assert!(m != "h2h8" && m != "e0e2" && Position::startpos().parse_legal_move(&m).is_some(), "{m}");
    let _ = std::fs::remove_file(book);
}

#[test]
fn pondering_on_a_book_move_waits_for_ponderhit() {
    let _g = shared_cpu();
    let book = start_book("ponder.book");
    let mut e = uci_with_book(book.to_str().unwrap(), 0);
    e.send("position startpos");
    e.send("go ponder wtime 600000 btime 600000");
    assert_eq!(e.search_end_within(Duration::from_millis(300)), None, "bestmove before ponderhit");
    let t = Instant::now();
    e.send("ponderhit");
    let line = e.search_end_within(Duration::from_secs(5)).expect("bestmove after ponderhit");
    assert!(line.starts_with("bestmove h2e2"), "{line}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    let _ = std::fs::remove_file(book);
}

#[test]
fn ucci_banmoves_ban_book_moves_too() {
    let _g = shared_cpu();
    let book = start_book("ucci.book");
    let mut e = EngineProcess::with_handshake("ucci").0;
    e.send("setoption usebook true");
    e.send(&format!("setoption bookfiles {}", book.display()));
    e.send("setoption bookvariety 0");
    assert!(e.sync().is_empty());
    for _ in 0..5 {
        e.send("position startpos");
        e.send("banmoves h2e2");
        e.send("go depth 8");
        let lines = e.read_search();
        assert_eq!(bestmove(&lines), "b2e2", "{lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("info message book move b2e2 (100% of 1 book move;")));
    }
    e.send("setoption bookvariety 100");
    for _ in 0..10 {
        e.send("position startpos");
        e.send("banmoves b2e2");
        e.send("go depth 8");
        assert_eq!(bestmove(&e.read_search()), "h2e2");
    }
    // Both banned: the search chooses among the others.
    e.send("position startpos");
    e.send("banmoves h2e2 b2e2");
    e.send("go depth 3");
    let lines = e.read_search();
    let m = bestmove(&lines);
    assert!(m != "h2e2" && m != "b2e2", "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    // A new position lifts the ban.
    e.send("position startpos");
    e.send("setoption bookvariety 0");
    e.send("go depth 3");
    assert_eq!(bestmove(&e.read_search()), "h2e2");
    let _ = std::fs::remove_file(book);
}

#[test]
fn damaged_book_files_are_refused_and_the_engine_plays_on() {
    let _g = shared_cpu();
    let good = start_book("good.book");
    let bytes = std::fs::read(&good).unwrap();
    let truncated = temp("truncated.book");
    std::fs::write(&truncated, &bytes[..bytes.len() - 5]).unwrap();
    let flipped = temp("flipped.book");
    let mut damaged = bytes.clone();
    damaged[40] ^= 1;
    std::fs::write(&flipped, &damaged).unwrap();
    let text = temp("text.book");
    std::fs::write(&text, "startpos moves h2e2 1-0\n").unwrap();
    let cases = [
        (truncated.to_str().unwrap().to_string(), "truncated or padded"),
        (flipped.to_str().unwrap().to_string(), "corrupt (the checksum does not match)"),
        (text.to_str().unwrap().to_string(), "not a Chariot book (only 24 bytes, no header)"),
        ("/nonexistent/dir/x.book".to_string(), "cannot open it"),
        (std::env::temp_dir().to_str().unwrap().to_string(), "cannot read it"),
    ];
    for dialect in ["uci", "ucci"] {
        let mut e = EngineProcess::with_handshake(dialect).0;
        let (set, error) = if dialect == "uci" {
            ("setoption name BookFile value ", "info string error: setoption: book file '")
        } else {
            ("setoption bookfiles ", "info message error: setoption: book file '")
        };
        e.send(&format!("{}{}", set, good.display()));
        e.send(if dialect == "uci" {
            "setoption name BookVariety value 0"
        } else {
            "setoption bookvariety 0"
        });
        assert!(e.sync().is_empty());
        for (file, why) in &cases {
            e.send(&format!("{set}{file}"));
            let lines = e.sync();
            assert_eq!(lines.len(), 1, "{lines:?}");
            assert!(lines[0].starts_with(error) && lines[0].contains(why), "{file}: {lines:?}");
            assert!(lines[0].ends_with(&format!("; keeping '{}'", good.display())), "{lines:?}");
        }
        // The book in use stays: on, it plays h2e2 from it.
        e.send(if dialect == "uci" { "setoption name OwnBook value true" } else { "setoption usebook true" });
        e.send("position startpos");
        e.send("go depth 5");
        assert_eq!(bestmove(&e.read_search()), "h2e2");
        let (status, _) = e.quit();
        assert!(status.success());
    }
    // A damaged book set before any other: the built-in book stays; the engine plays.
    let mut e = EngineProcess::with_handshake("uci").0;
    e.send(&format!("setoption name BookFile value {}", truncated.display()));
    let lines = e.sync();
    assert!(lines[0].ends_with("; keeping the built-in book"), "{lines:?}");
    e.send("position startpos moves h2e2");
    e.send("go depth 4");
    let m = bestmove(&e.read_search());
    assert!(
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")
            .unwrap()
            .parse_legal_move(&m)
            .is_some()
    );
    for f in [good, truncated, flipped, text] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn off_by_default_and_the_built_in_book_is_used_when_on() {
    let _g = shared_cpu();
    let builtin = book::builtin().unwrap();
    assert!(builtin.positions() >= 100, "{} positions", builtin.positions());
    let start: Vec<Move> = builtin.moves(key_after(&[])).iter().map(|e| e.mv).collect();
    assert!(start.len() >= 2, "{start:?}");
    let mut e = EngineProcess::with_handshake("uci").0;
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.read_search();
    assert!(!lines.iter().any(|l| l.contains("book")), "off by default: {lines:?}");
    e.send("setoption name OwnBook value true");
    assert!(e.sync().is_empty());
    for _ in 0..10 {
        e.send("position startpos");
        e.send("go depth 20");
        let m = bestmove(&e.read_search());
        assert!(start.iter().any(|b| b.to_string() == m), "{m} not in {start:?}");
    }
    // An empty name or <default> is the built-in book again.
    e.send("setoption name BookFile value <default>");
    e.send("setoption name BookFile value");
    assert!(e.sync().is_empty());
}

#[test]
fn xboard_lists_and_plays_book_moves() {
    let _g = shared_cpu();
    let book = start_book("xboard.book");
    let (mut e, features) = EngineProcess::with_handshake("xboard");
    for want in ["OwnBook -check 0", "BookFile -file ", "BookVariety -spin 50 0 100"] {
        assert!(features.iter().any(|l| *l == format!("feature option=\"{want}\"")), "{want}: {features:?}");
    }
    e.send("bk");
    assert_eq!(e.read_until(str::is_empty), [" The opening book is off (option OwnBook).", ""]);
    e.send("option OwnBook=1");
    e.send(&format!("option BookFile={}", book.display()));
    e.send("option BookVariety=50");
    e.send("new");
    e.send("bk");
    assert_eq!(
        e.read_until(str::is_empty),
        [" h2e2 75% (30 games, scored 50%)", " b2e2 25% (10 games, scored 50%)", ""]
    );
    e.send("exclude h2e2");
    e.send("bk");
    assert_eq!(
        e.read_until(str::is_empty),
        [" h2e2 75% (30 games, scored 50%)", " b2e2 25% (10 games, scored 50%)", ""]
    );
    e.send("new");
    e.send("force");
    e.send("exclude h2e2");
    e.send("go");
    let lines = e.read_until(|l| l.starts_with("move "));
    assert_eq!(lines.last().unwrap(), "move b2e2", "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("# book move b2e2")), "{lines:?}");
    e.send("bk");
    assert_eq!(e.read_until(str::is_empty), [" No book move in this position.", ""]);
    let _ = std::fs::remove_file(book);
}
