//! Property tests of the notations: over random games from the perft
//! positions, and over random positions crowded with pawns (three to five on
//! a file, two files with several: the rare forms), every legal move printed
//! in each notation parses back to itself (as that notation and detected),
//! no two moves of a position print the same, and the other spellings a
//! reader meets (traditional characters, half-width digits, WXF's `.` and
//! `C+`) read as the same move.
//!
//! `cargo test --release --test notation -- --ignored --nocapture` measures
//! the speed (moves printed and parsed per second).

mod common;

use std::collections::HashSet;
use std::time::Instant;

use chariot::board::Position;
use chariot::notation::{self, Notation};
use chariot::types::Move;
use common::{Rng, perft_cases};

/// The other spellings of a printed move that must read the same.
fn variants(text: &str, n: Notation) -> Vec<String> {
    match n {
        Notation::Chinese => {
            let trad: String = text
                .chars()
                .map(|c| match c {
                    '车' => '車',
                    '马' => '馬',
                    '炮' => '砲',
                    '帅' => '帥',
                    '将' => '將',
                    '进' => '進',
                    '后' => '後',
                    c @ '１'..='９' => char::from_u32(c as u32 - '１' as u32 + '1' as u32).unwrap_or(c),
                    c => c,
                })
                .collect();
            vec![trad, format!(" {text} ")]
        }
        Notation::Wxf => {
            let b: Vec<char> = text.chars().collect();
            let mut v = vec![text.replace('=', "."), text.to_ascii_lowercase()];
            if (b[0] == '+' || b[0] == '-') && b[1].is_ascii_alphabetic() {
                v.push([b[1], b[0], b[2], b[3]].iter().collect());
            }
            v
        }
        Notation::Iccs => vec![text.to_ascii_uppercase()],
        Notation::Coordinate => vec![text.to_ascii_uppercase()],
    }
}

/// Checks every legal move of `pos` in every notation; returns the moves checked.
fn check_position(pos: &Position) -> usize {
    let moves = pos.legal_moves();
    for n in Notation::ALL {
        let mut seen = HashSet::new();
        for &m in &moves {
            let text = notation::write(pos, m, n);
            assert!(seen.insert(text.clone()), "{text} ({n}) printed twice in {}", pos.fen());
            assert_eq!(notation::parse_as(pos, &text, n), Ok(m), "{text} ({n}) in {}", pos.fen());
            assert_eq!(notation::parse(pos, &text), Ok(m), "{text} detected in {}", pos.fen());
            for v in variants(&text, n) {
                assert_eq!(notation::parse_as(pos, &v, n), Ok(m), "{v} for {text} in {}", pos.fen());
            }
        }
    }
    moves.len()
}

/// A random legal position with many pawns: both kings, Red's five pawns
/// on few files past the river, Black's pawns likewise, a few other pieces.
fn crowded_position(rng: &mut Rng) -> Option<Position> {
    let mut board = [['.'; 9]; 10];
    board[rng.below(3)][3 + rng.below(3)] = 'K';
    board[9 - rng.below(3)][3 + rng.below(3)] = 'k';
    let files = [rng.below(9), rng.below(9)];
    for (color, lo) in [('P', 5), ('p', 0)] {
        for _ in 0..5 {
            let f = files[rng.below(2)];
            let r = lo + rng.below(5);
            if board[r][f] == '.' {
                board[r][f] = color;
            }
        }
    }
    for piece in ['R', 'r', 'C', 'c', 'N', 'n', 'R', 'c'] {
        let (f, r) = (rng.below(9), rng.below(10));
        if board[r][f] == '.' && rng.below(2) == 0 {
            board[r][f] = piece;
        }
    }
    let rows: Vec<String> = (0..10)
        .rev()
        .map(|r| {
            let mut s = String::new();
            let mut empty = 0;
            for c in board[r] {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s += &empty.to_string();
                    }
                    empty = 0;
                    s.push(c);
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            s
        })
        .collect();
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    Position::from_fen(&format!("{} {side} - - 0 1", rows.join("/"))).ok()
}

#[test]
fn every_move_of_random_games_round_trips_in_every_notation() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut positions, mut moves) = (0, 0);
    for case in perft_cases() {
        for _game in 0..2 {
            let mut pos = Position::from_fen(&case.fen).unwrap();
            for _ply in 0..80 {
                moves += check_position(&pos);
                positions += 1;
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                pos.do_move(legal[rng.below(legal.len())]);
            }
        }
    }
    eprintln!("{positions} positions, {moves} moves, 4 notations");
    assert!(positions > 3000 && moves > 60_000, "{positions} positions, {moves} moves");
}

#[test]
fn every_move_round_trips_with_crowded_pawns() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let (mut positions, mut moves, mut five, mut two_files) = (0, 0, 0, 0);
    while positions < 3000 {
        let Some(pos) = crowded_position(&mut rng) else { continue };
        moves += check_position(&pos);
        positions += 1;
        let texts: Vec<String> =
            pos.legal_moves().iter().map(|&m| notation::write(&pos, m, Notation::Wxf)).collect();
        five += texts.iter().any(|t| t.starts_with("++")) as usize;
        two_files += texts.iter().any(|t| t.as_bytes()[0].is_ascii_digit()) as usize;
    }
    eprintln!(
        "{positions} positions, {moves} moves; {five} with four or five pawns on a file, {two_files} with two files"
    );
    assert!(five > 50 && two_files > 300, "rare forms: {five} and {two_files}");
}

#[test]
fn readable_errors() {
    let pos = Position::startpos();
    for (text, says) in [
        ("炮二平", "not a move"),
        ("王五进一", "unknown piece '王'"),
        ("炮三平五", "no red cannon on file 3"),
        ("马二平三", "cannot move so"),
        ("X2=5", "unknown piece 'X'"),
        ("h2-h7", "cannot go to h7"),
        ("e5e6", "no piece on e5"),
    ] {
        let e = notation::parse(&pos, text).unwrap_err().to_string();
        assert!(e.contains(says), "{text}: {e}");
    }
    // Ambiguous: two red rooks on one file, both can reach the same rank sideways.
    let pos = Position::from_fen("3k5/9/9/9/9/9/R8/9/R8/4K4 w - - 0 1").unwrap();
    let e = notation::parse(&pos, "车九平八").unwrap_err().to_string();
    assert!(e.contains("ambiguous") && e.contains("a3") && e.contains("a1"), "{e}");
    assert_eq!(notation::write(&pos, Move::parse("a3b3").unwrap(), Notation::Chinese), "前车平八");
}

#[test]
#[ignore = "a speed figure: cargo test --release --test notation -- --ignored --nocapture"]
fn speed() {
    let mut rng = Rng(7);
    let mut samples = Vec::new();
    for case in perft_cases() {
        let mut pos = Position::from_fen(&case.fen).unwrap();
        for _ in 0..40 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            samples.push((pos.clone(), legal.to_vec()));
            pos.do_move(legal[rng.below(legal.len())]);
        }
    }
    let total: usize = samples.iter().map(|(_, m)| m.len()).sum();
    for n in Notation::ALL {
        let t = Instant::now();
        let mut texts = Vec::with_capacity(total);
        for (pos, moves) in &samples {
            for &m in moves {
                texts.push(notation::write(pos, m, n));
            }
        }
        let write_rate = total as f64 / t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut i = 0;
        for (pos, moves) in &samples {
            for _ in moves {
                assert!(notation::parse_as(pos, &texts[i], n).is_ok());
                i += 1;
            }
        }
        let parse_rate = total as f64 / t.elapsed().as_secs_f64();
        println!("{n:>4}: {total} moves, printed {write_rate:.0}/s, parsed {parse_rate:.0}/s");
    }
}
