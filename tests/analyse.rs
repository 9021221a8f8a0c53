//! `chariot analyse` through the built binary: marks on real blunders,
//! rulings in words, the JSON fields, annotated PGN that reads back to the
//! same moves in every notation, a self-contained HTML page, progress on
//! stderr, and bad input as an error with exit status 2.

use std::path::PathBuf;
use std::process::Command;

use chariot::gamefile;

/// Runs `chariot analyse ARGS…`; returns (exit status, stdout, stderr).
fn analyse(args: &[&str]) -> (i32, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_chariot")).arg("analyse").args(args).output().expect("run chariot");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8 output");
    (out.status.code().expect("exit status"), text(out.stdout), text(out.stderr))
}

fn temp(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("chariot-analyse-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// Two games as a move list: Red leaves a rook to the cannon on b7 (ply 3);
/// Red chases the cannon until the repetition rules against it (ply 7 walks
/// into it, ply 8 completes it).
const GAMES: &str = "startpos moves a0a1 h9g7 a1b1 b7b1 h2e2\n\
4k4/9/9/1c7/9/9/9/2R6/9/3K5 w - - 0 1 moves c2b2 b6c6 b2c2 c6b6 c2b2 b6c6 b2c2 c6b6\n";

/// The value of `"key":` in a JSON line, as text up to the next `,` or `}`.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let start =
        line.find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("{key} in {line}")) + key.len() + 3;
    let rest = &line[start..];
    match rest.strip_prefix('"') {
        Some(inner) => &rest[..inner.find('"').unwrap() + 2],
        None => &rest[..rest.find([',', '}']).unwrap()],
    }
}

#[test]
fn blunders_and_rulings_are_marked_in_json() {
    let file = temp("games.txt", GAMES);
    let (code, out, err) = analyse(&["--depth", "6", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5 + 1 + 8 + 1, "{out}");
    let rook = lines[2];
    assert_eq!(field(rook, "move"), "\"a1b1\"");
    assert_eq!(field(rook, "text"), "\"车九平八\"");
    assert_eq!(field(rook, "mark"), "\"??\"");
    assert_ne!(field(rook, "best"), "\"a1b1\"");
    assert!(field(rook, "score").parse::<i32>().unwrap() < -500, "a rook down: {rook}");
    assert!(field(rook, "loss").parse::<f64>().unwrap() >= 0.2);
    // The capture that follows is the engine's own move: no loss, no mark.
    assert_eq!(field(lines[3], "best"), "\"b7b1\"");
    assert_eq!(field(lines[3], "loss"), "0.0000");
    assert_eq!(field(lines[3], "mark"), "null");
    // The first move is one too: the rook leaves the knight on b0 to the
    // cannon on b7 (over the screen on b2), which Black's answer misses.
    assert_eq!((field(lines[0], "move"), field(lines[0], "mark")), ("\"a0a1\"", "\"??\""), "{}", lines[0]);
    assert_eq!(field(lines[1], "best"), "\"b7b0\"", "{}", lines[1]);
    assert_ne!(field(lines[1], "mark"), "null", "{}", lines[1]);
    let game1 = lines[5];
    assert_eq!(field(game1, "type"), "\"game\"");
    assert!(game1.contains("\"blunders\":2"), "{game1}");
    // Game 2: the move that walks into the ruling is the blunder; the last
    // move carries the ruling.
    let walked = lines[12];
    assert_eq!((field(walked, "ply"), field(walked, "mark")), ("7", "\"??\""), "{walked}");
    assert_eq!(field(walked, "mate"), "-1", "Black wins by the rules at once: {walked}");
    let last = lines[13];
    assert_eq!(field(last, "ruling"), "\"perpetual chase of the black cannon on b6 by red: black wins\"");
    assert!(lines[14].contains("\"turning_points\":[7]"), "{}", lines[14]);
    assert!(err.contains("analyse: 15/15 positions"), "{err}");
    let _ = std::fs::remove_file(file);
}

#[test]
fn annotated_pgn_reads_back_to_the_same_moves_in_every_notation() {
    let file = temp("roundtrip.txt", GAMES);
    let games = gamefile::read_file(&file).unwrap();
    for notation in ["zh", "wxf", "iccs", "uci"] {
        let (code, out, err) = analyse(&["--depth", "3", "--notation", notation, file.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("[Annotator \"chariot "), "{out}");
        assert!(out.contains("$4"), "the blunder's NAG: {out}");
        assert!(out.contains("[%eval "), "{out}");
        let back = gamefile::read_bytes(out.as_bytes(), "back.pgn").unwrap();
        assert_eq!(back.len(), games.len());
        for (a, b) in games.iter().zip(&back) {
            let (a, b) = (a.as_ref().unwrap(), b.as_ref().expect("the PGN reads back"));
            assert_eq!(a.moves, b.moves, "{notation}");
            assert_eq!(a.start.fen(), b.start.fen());
        }
    }
    let _ = std::fs::remove_file(file);
}

#[test]
fn html_is_one_self_contained_page() {
    let file = temp("page.txt", GAMES);
    let out = std::env::temp_dir().join(format!("chariot-analyse-{}.html", std::process::id()));
    let (code, _, err) = analyse(&["--depth", "4", "--out", out.to_str().unwrap(), file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
    assert!(!page.contains("<script") && !page.contains("src=") && !page.contains("<link"));
    assert_eq!(page.matches("http").count(), page.matches("xmlns=\"http://www.w3.org/2000/svg\"").count());
    assert_eq!(page.matches("class=\"graph\"").count(), 2, "one graph a game");
    // Turning points: game 1 has its mistakes and blunder, game 2 its blunder.
    assert!(page.matches("<figure>").count() >= 2);
    assert!(page.contains("车九平八??"));
    assert!(page.contains("perpetual chase of the black cannon on b6 by red: black wins"));
    let _ = std::fs::remove_file(out);
    let _ = std::fs::remove_file(file);
}

#[test]
fn bad_games_are_skipped_and_bad_input_is_an_error() {
    let mixed = temp("mixed.txt", "startpos moves h2e2 h2e2\nstartpos moves h2e2 h9g7\n");
    let (code, out, err) = analyse(&["--depth", "2", "--format", "json", mixed.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("skipped") && err.contains("game 1"), "{err}");
    assert_eq!(out.lines().filter(|l| l.contains("\"type\":\"move\"")).count(), 2);
    let bad = temp("bad.txt", "startpos moves h2h2\n");
    let cases: &[(&[&str], &str)] = &[
        (&[], "<GAMEFILE>"),
        (&["/nonexistent-games.pgn"], "/nonexistent-games.pgn"),
        (&[bad.to_str().unwrap()], "no game to analyse (1 skipped)"),
        (&["--notation", "morse", mixed.to_str().unwrap()], "invalid value 'morse' for '--notation"),
        (&["--depth", "3", "--movetime", "5", mixed.to_str().unwrap()], "cannot be used with"),
        (&["--side", "green", mixed.to_str().unwrap()], "invalid value 'green'"),
    ];
    for (args, needle) in cases {
        let (code, _, err) = analyse(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let (code, out, _) =
        analyse(&["--depth", "2", "--format", "json", "--game", "2", mixed.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        out.lines()
            .next()
            .unwrap()
            .starts_with(r#"{"type":"move","game":2,"ply":1,"side":"red","move":"h2e2""#),
        "game 2 only: {out}"
    );
    assert_eq!(out.lines().count(), 3);
    let _ = std::fs::remove_file(mixed);
    let _ = std::fs::remove_file(bad);
}

#[test]
fn side_and_from_limit_what_is_marked() {
    let file = temp("side.txt", GAMES);
    let (code, out, err) = analyse(&[
        "--depth",
        "4",
        "--format",
        "json",
        "--side",
        "black",
        "--from",
        "2",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let moves: Vec<&str> = out.lines().filter(|l| l.contains("\"type\":\"move\"")).collect();
    for m in &moves {
        let reviewed = field(m, "reviewed") == "true";
        let black = field(m, "side") == "\"black\"";
        let ply: usize = field(m, "ply").parse().unwrap();
        assert_eq!(reviewed, black && ply > 2, "{m}");
        if !reviewed {
            assert_eq!(field(m, "mark"), "null");
        }
    }
    let _ = std::fs::remove_file(file);
}
