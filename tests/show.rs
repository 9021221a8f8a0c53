//! `chariot show` through the built binary: the position as text or as an
//! SVG picture (to a file or standard output), the engine's line as arrows,
//! and bad input as an error with exit status 2.

use std::process::Command;

/// Runs `chariot show ARGS…`; returns (exit status, stdout, stderr).
fn show(args: &[&str]) -> (i32, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_chariot")).arg("show").args(args).output().expect("run chariot");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8 output");
    (out.status.code().expect("exit status"), text(out.stdout), text(out.stderr))
}

#[test]
fn text_shows_the_board_the_fen_and_the_last_move() {
    let (code, out, err) = show(&["startpos", "moves", "h2e2", "h9g7"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(" 2 | . C . . C . . . . |"), "{out}");
    assert!(out.contains("Fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"));
    assert!(out.contains("Last move: h9g7"), "{out}");
}

#[test]
fn svg_goes_to_a_file_or_to_standard_output() {
    let file = std::env::temp_dir().join(format!("chariot-show-{}.svg", std::process::id()));
    let path = file.to_str().unwrap();
    let (code, _, err) = show(&["--svg", path, "--flip", "startpos", "h2e2"]);
    assert_eq!(code, 0, "{err}");
    let picture = std::fs::read_to_string(&file).unwrap();
    let _ = std::fs::remove_file(&file);
    assert!(picture.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(picture.matches("class=\"piece\"").count(), 32);
    assert_eq!(picture.matches("class=\"last-move\"").count(), 2);
    // Flipped: Red's king (e0) at the top, under the top margin of 1.2
    // squares of 50 pixels (the file numbers above it clear of the disc).
    assert!(picture.contains(r#"data-square="e0"><circle cx="250.0" cy="60.0""#));
    let (code, out, _) = show(&["--svg", "-", "--flip", "startpos", "h2e2"]);
    assert_eq!(code, 0);
    assert_eq!(out, picture, "the same picture either way");
}

#[test]
fn best_draws_the_engines_line() {
    let (code, out, err) = show(&["--svg", "-", "--best", "--depth", "5", "--arrows", "3", "startpos"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("class=\"arrow best\"").count(), 3, "{out}");
    let (code, out, _) = show(&["--best", "--depth", "5", "startpos"]);
    assert_eq!(code, 0);
    let line = out.lines().find(|l| l.starts_with("best ")).expect("a best line");
    assert!(line.contains(" depth 5 pv "), "{line}");
    // A mate in one is seen: the rook to the king's file, the kings holding the e file.
    let (_, out, _) = show(&["--best", "--depth", "3", "3k5/9/9/9/9/9/9/9/R8/4K4", "w"]);
    assert!(out.contains("best a1d1 score mate 1"), "{out}");
}

#[test]
fn bad_input_is_an_error_with_status_2() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "<FEN|startpos [MOVE]>"),
        (&["startpos", "h2e3"], "illegal move 'h2e3'"),
        (&["rnbakabnr/9 w"], "bad FEN"),
        (&["--size", "5", "startpos"], "invalid value '5' for '--size"),
        (&["--svg", "/nonexistent-dir/x.svg", "startpos"], "cannot write /nonexistent-dir/x.svg"),
    ];
    for (args, needle) in cases {
        let (code, out, err) = show(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
