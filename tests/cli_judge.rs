//! `chariot judge` through the built binary: the verdict line and reason
//! under either rule set (`--rules asian|chinese`), exit status 0 for every
//! verdict, and exit status 2 with a message on stderr for bad input.

use std::process::Command;

/// Runs `chariot judge ARGS…`; returns (exit status, stdout, stderr).
fn judge(args: &[&str]) -> (i32, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_chariot")).arg("judge").args(args).output().expect("run chariot");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8 output");
    (out.status.code().expect("exit status"), text(out.stdout), text(out.stderr))
}

const CHASE_FEN: &str = "4k4/9/9/1c7/9/9/9/2R6/9/3K5 w - - 0 1";
const CHASE: [&str; 8] = ["c2b2", "b6c6", "b2c2", "c6b6", "c2b2", "b6c6", "b2c2", "c6b6"];

#[test]
fn perpetual_chase_verdict_and_reason() {
    let mut args = vec![CHASE_FEN];
    args.extend(CHASE);
    let (code, out, err) = judge(&args);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "verdict black_wins");
    assert_eq!(lines[1], "rule: perpetual chase of the black cannon on b6 by red");
    assert!(lines[2].starts_with("window: plies 0-8"), "{out}");
    assert!(out.contains("red: chases the black cannon on b6 on every move"), "{out}");
    assert!(out.contains("black: no perpetual check or chase"), "{out}");
    assert!(
        out.contains("ply   2 red   b2c2: chase of the black cannon on c6 (on b6 at the window start)"),
        "{out}"
    );
    assert!(out.contains("ply   7 black c6b6: idle"), "{out}");
    assert_eq!(out.lines().filter(|l| l.trim_start().starts_with("ply")).count(), 8, "{out}");
}

#[test]
fn fen_may_be_spread_over_arguments() {
    let mut args: Vec<&str> = CHASE_FEN.split(' ').collect();
    args.push("moves");
    args.extend(CHASE);
    let (code, out, _) = judge(&args);
    assert_eq!(code, 0);
    assert_eq!(out.lines().next(), Some("verdict black_wins"));
    let (code, out, _) = judge(&["4k4/9/9/1c7/9/9/9/2R6/9/3K5", "w", "c2b2"]);
    assert_eq!((code, out.lines().next()), (0, Some("verdict none")));
}

#[test]
fn other_verdicts() {
    let (code, out, _) = judge(&["startpos"]);
    assert_eq!((code, out.lines().next()), (0, Some("verdict none")));
    let (code, out, _) = judge(&["startpos", "h2e2", "h9g7"]);
    assert_eq!((code, out.lines().next()), (0, Some("verdict none")));
    let (code, out, _) = judge(&["3k5/1R7/9/9/9/9/9/9/R8/4K4 w - - 0 1", "a1a9"]);
    assert_eq!(code, 0);
    assert_eq!(out, "verdict red_wins\nrule: checkmate: black is mated\n");
    let (code, out, _) = judge(&[
        "4k4/R8/9/9/9/9/9/9/9/3K5 w",
        "a8a9",
        "e9e8",
        "a9a8",
        "e8e9",
        "a8a9",
        "e9e8",
        "a9a8",
        "e8e9",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("verdict black_wins\nrule: perpetual check by red\n"), "{out}");
    let (code, out, _) = judge(&["4k4/9/9/9/9/9/9/9/9/3K4R w - - 119 1", "d0d1"]);
    assert_eq!(code, 0);
    assert_eq!(out, "verdict draw\nrule: 60-round limit: 120 plies without a capture\n");
}

/// The Chinese catalogue's perpetual mate threat (长杀) by Red.
const KILL_FEN: &str = "3a5/5k3/4b4/9/9/8R/9/9/4K4/4C4 w - - 0 1";
const KILL: [&str; 8] = ["e1d1", "e7g5", "d1e1", "g5e7", "e1d1", "e7g5", "d1e1", "g5e7"];

#[test]
fn chinese_rules_verdict_and_reason() {
    let mut args = vec!["--rules", "chinese", KILL_FEN];
    args.extend(KILL);
    let (code, out, err) = judge(&args);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "verdict black_wins");
    assert_eq!(lines[1], "rule: perpetual mate threat by red");
    assert!(lines[2].starts_with("window: plies 0-8"), "{out}");
    assert!(out.contains("red: every move attacks: perpetual mate threat, forbidden (chang_sha)"), "{out}");
    assert!(out.contains("black: not every move attacks: allowed (xian)"), "{out}");
    assert!(out.contains("ply   0 red   e1d1: kill: threatens mate in 1 by checks, starting i4f4"), "{out}");
    assert!(out.contains("ply   7 black g5e7: idle"), "{out}");
    // The same game by the default (Asian) rules, and with the rule set
    // named after the FEN and with '='.
    let (_, out, _) = judge(&[&[KILL_FEN][..], &KILL].concat());
    assert!(out.starts_with("verdict draw\nrule: plain repetition"), "{out}");
    let (_, out, _) = judge(&[&[KILL_FEN][..], &KILL, &["--rules=CHINESE", "--kill-depth", "1"]].concat());
    assert_eq!(out.lines().next(), Some("verdict black_wins"));
    // One check one chase, and both sides forbidden.
    let chase = ["a2a1", "e1e0", "a1a2", "e0e1", "a2a1", "e1e0", "a1a2", "e0e1"];
    let (_, out, _) =
        judge(&[&["--rules", "chinese", "5k3/9/9/9/9/9/9/r5C2/4K4/9 b - - 0 1"][..], &chase].concat());
    assert!(out.starts_with(
        "verdict red_wins\nrule: one check one chase by black (chasing the red cannon on g2)\n"
    ));
    let mutual = ["h6h7", "b3b2", "h7h6", "b2b3", "h6h7", "b3b2", "h7h6", "b2b3"];
    let fen = "4k4/4a4/8c/7Rn/9/9/Cr7/N8/4A4/4K4 w - - 0 1";
    let (_, out, _) = judge(&[&["--rules", "chinese", fen][..], &mutual].concat());
    assert!(out.starts_with("verdict draw\nrule: mutual forbidden: draw"), "{out}");
}

#[test]
fn bad_input_exits_with_status_2() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "<FEN|startpos [MOVE]>"),
        (&["rnbakabnr/9 w"], "bad FEN"),
        (&["4k4/9/9/9/9/9/9/9/9/4K4 w"], "bad FEN"),
        (&["startpos", "h2e3"], "illegal move 'h2e3'"),
        (&["startpos", "h2e2", "h2e2"], "illegal move 'h2e2' (move 2)"),
        (&["startpos", "h2e"], "malformed move 'h2e'"),
        (&["startpos", "z9z9"], "malformed move"),
        (&[CHASE_FEN, "c2b2", "b6b6"], "malformed move"),
        (&["--rules", "skyrule", "startpos"], "unknown rule set 'skyrule' (asian or chinese)"),
        (&["startpos", "--rules"], "a value is required for '--rules <RULES>'"),
        (&["--kill-depth", "9", "startpos"], "invalid value '9' for '--kill-depth"),
        (&["--frobnicate", "startpos"], "unexpected argument '--frobnicate'"),
        (&["--rules", "chinese"], "<FEN|startpos [MOVE]>"),
    ];
    for (args, needle) in cases {
        let (code, out, err) = judge(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn moves_are_read_and_printed_in_any_notation() {
    // The chase of perpetual_chase_verdict_and_reason, given in WXF and the
    // Chinese notation, printed in the Chinese notation.
    let given = ["R7=8", "炮２平３", "車八平七", "C3=2", "c2-b2", "b6c6", "车八平七", "炮3平2"];
    let mut args = vec!["--notation", "zh", CHASE_FEN];
    args.extend(given);
    let (code, out, err) = judge(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("verdict black_wins\nrule: perpetual chase of the black cannon on b6 by red"),
        "{out}"
    );
    assert!(out.contains("ply   0 red   车七平八: chase of the black cannon on b6"), "{out}");
    assert!(out.contains("ply   7 black 炮３平２: idle"), "{out}");
    let mut args = vec!["--notation", "wxf", CHASE_FEN];
    args.extend(CHASE);
    let (_, out, _) = judge(&args);
    assert!(out.contains("ply   1 black C2=3: idle"), "{out}");
}
