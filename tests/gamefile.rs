//! The game-file readers on real files (tests/data/games, see its README),
//! on files written in every notation, and under corruption: random byte
//! changes, insertions, deletions and truncations of every file of each
//! format give games or errors, never a panic, and an error names the file.

mod common;

use std::path::{Path, PathBuf};

use chariot::gamefile::{self, Game, GameError};
use chariot::notation::{self, Notation};
use common::Rng;

fn games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/games")
}

fn read(name: &str) -> Vec<Result<Game, GameError>> {
    gamefile::read_file(&games_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn one(name: &str) -> Game {
    let mut games = read(name);
    assert_eq!(games.len(), 1, "{name}");
    games.remove(0).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn xqf_every_version() {
    let g = one("test.xqf");
    assert_eq!(g.moves.len(), 110);
    assert_eq!(g.tag("Red"), Some("柳大华"));
    assert_eq!(g.tag("Event"), Some("\"中立杯\"象棋电视快棋赛"));
    assert_eq!(g.result.as_deref(), Some("0-1"));
    assert_eq!(&g.move_texts(Notation::Chinese)[..4], ["兵七进一", "马８进７", "兵三进一", "炮２平３"]);
    assert_eq!(one("test1.xqf").moves.len(), 110);
    assert_eq!(one("BadMoveTest2.xqf").moves.len(), 35);
    let g = one("ucci_test1.xqf");
    assert_eq!(g.moves.len(), 43);
    assert_eq!(g.start.fen(), "2b1kabn1/4aR3/3R2N2/4p1p2/5P3/4P4/3N2Pr1/4C1n2/3pAr3/4K3c w - - 0 1");
    assert_eq!(one("game_varations.xqf").moves.len(), 8);
    let g = one("pawn_move.xqf");
    assert_eq!(g.move_texts(Notation::Chinese)[7], "中７平６");
    let e = read("BadMoveTest3.xqf").remove(0).unwrap_err();
    assert_eq!(e.at_move.as_ref().map(|m| (m.ply, m.text.as_str())), Some((10, "e1f0")));
    assert_eq!(e.partial.as_ref().map(|g| g.moves.len()), Some(9));
    assert!(e.to_string().contains("move 5... 'e1f0'"), "{e}");
}

#[test]
fn pgn_and_move_lists() {
    let g = one("test.pgn");
    assert_eq!(g.moves.len(), 25);
    assert_eq!(g.tag("Red"), Some("象棋巫师(大师)"));
    assert_eq!(g.result, None);
    let g = one("test2.pgn");
    assert_eq!((g.moves.len(), g.result.as_deref()), (102, Some("1/2-1/2")));
    let g = one("endgame_test.pgn");
    assert_eq!(g.moves.len(), 25);
    assert_eq!(g.start.fen(), "3aka3/2c1n4/4bP3/9/4N4/9/9/9/9/4K4 w - - 0 1");
    let games = read("longhua1989.pgn");
    assert_eq!(games.len(), 12);
    let plies: usize = games.iter().map(|g| g.as_ref().unwrap().moves.len()).sum();
    assert_eq!(plies, 1199);
    assert_eq!(one("uci_test_move.txt").result.as_deref(), Some("1-0"));
    let g = one("ucci_test1_move.txt");
    assert_eq!((g.moves.len(), g.result.as_deref()), (43, Some("1-0")));
}

/// The real games written as PGN in each notation read back the same, and a
/// broken game among them leaves the others read.
#[test]
fn pgn_in_every_notation_and_a_broken_game() {
    let games: Vec<Game> = read("longhua1989.pgn").into_iter().map(|g| g.unwrap()).collect();
    for n in Notation::ALL {
        let mut text = String::new();
        for (i, g) in games.iter().enumerate() {
            text += &format!("[Event \"{i}\"]\n[Red \"R{i}\"]\n\n");
            for (j, t) in g.move_texts(n).iter().enumerate() {
                if j % 2 == 0 {
                    text += &format!("{}. ", j / 2 + 1);
                }
                // Game 3 gets a wrong 20th ply.
                text += if i == 3 && j == 19 { "h9h9" } else { t };
                text += if j % 7 == 6 { "\n" } else { " " };
            }
            text += "*\n\n";
        }
        let back = gamefile::read_bytes(text.as_bytes(), "x.pgn").unwrap();
        assert_eq!(back.len(), games.len());
        for (i, (b, g)) in back.iter().zip(&games).enumerate() {
            if i == 3 {
                let e = b.as_ref().unwrap_err();
                assert_eq!(e.at_move.as_ref().map(|m| m.ply), Some(20), "{n}");
                assert!(e.to_string().contains("game 4 (Red: R3, Event: 3), move 10..."), "{e}");
            } else {
                assert_eq!(b.as_ref().unwrap().moves, g.moves, "{n} game {i}");
            }
        }
    }
}

/// One corruption of `bytes`.
fn mutate(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut b = bytes.to_vec();
    let n = b.len().max(1);
    for _ in 0..1 + rng.below(4) {
        match rng.below(6) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = rng.next() as u8;
            }
            1 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            2 => {
                let i = rng.below(b.len() + 1);
                const JUNK: &[u8] = b"{}()[]\";$%1.-+=\n\xe7\x82\xae\xff\x00";
                let junk: Vec<u8> = (0..1 + rng.below(8)).map(|_| JUNK[rng.below(JUNK.len())]).collect();
                b.splice(i..i, junk);
            }
            3 if !b.is_empty() => {
                let i = rng.below(b.len());
                let j = (i + 1 + rng.below(16)).min(b.len());
                b.drain(i..j);
            }
            4 => b.truncate(rng.below(n)),
            _ => {
                // Copy a run of bytes elsewhere (a duplicated record or line).
                if b.len() > 8 {
                    let i = rng.below(b.len() - 8);
                    let run = b[i..i + 8].to_vec();
                    let at = rng.below(b.len());
                    b.splice(at..at, run);
                }
            }
        }
    }
    b
}

#[test]
fn corrupted_files_give_errors_never_a_panic() {
    let mut rng = Rng(0xC0FF_EE12_3456_789B);
    let mut files = Vec::new();
    for entry in std::fs::read_dir(games_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e != "md") {
            files.push(path);
        }
    }
    files.sort();
    let (mut fuzzed, mut games, mut errors, mut whole) = (0, 0, 0, 0);
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(path).unwrap();
        for _ in 0..400 {
            let bad = mutate(&bytes, &mut rng);
            fuzzed += 1;
            match gamefile::read_bytes(&bad, &name) {
                Err(e) => {
                    whole += 1;
                    assert!(e.to_string().starts_with(&name), "{e}");
                }
                Ok(list) => {
                    for g in list {
                        match g {
                            Ok(g) => {
                                games += 1;
                                // Every move read is legal and prints.
                                let mut pos = g.start.clone();
                                for &m in &g.moves {
                                    assert!(!notation::write(&pos, m, Notation::Chinese).is_empty());
                                    pos.do_move(m);
                                }
                            }
                            Err(e) => {
                                errors += 1;
                                assert!(e.to_string().starts_with(&name) && e.game.is_some(), "{e}");
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "{} files, {fuzzed} corrupted copies: {games} games read, {errors} game errors, {whole} whole-file errors",
        files.len()
    );
    assert!(files.len() >= 13 && errors > 1000 && whole > 100, "{errors} {whole}");
}

#[test]
fn hostile_inputs() {
    for (bytes, name) in [
        (&b""[..], "empty.pgn"),
        (b"XQ", "short.xqf"),
        (b"\xff\xfe\x00", "utf16.pgn"),
        (b"[FEN \"", "cut.pgn"),
        (b"{{{{((((", "open.pgn"),
        (b"startpos moves", "list.txt"),
        (
            b"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18",
            "bin.dat",
        ),
        (b"junk", "x.cbl"),
    ] {
        match gamefile::read_bytes(bytes, name) {
            Ok(games) => {
                for g in games.iter().filter_map(|g| g.as_ref().ok()) {
                    assert!(g.moves.is_empty(), "{name}");
                }
            }
            Err(e) => assert!(e.to_string().starts_with(name), "{e}"),
        }
    }
    let mut big = vec![b'('; 100_000];
    big.extend_from_slice(b" h2e2 ");
    assert!(gamefile::read_bytes(&big, "deep.pgn").is_ok());
}
