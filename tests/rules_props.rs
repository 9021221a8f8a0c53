//! Property tests of the rule arbiter over random games from the perft
//! positions (full and reduced material):
//!
//! * threat sets equal a brute-force reading of rules.md §3.5 that makes
//!   every capture on the board and asks the move generator for recaptures;
//! * random games ending in forced shuffles: every window move's chase set
//!   equals the brute-force difference, the ruling is the same for the
//!   file-mirrored game and colour-swapped for the colour-mirrored game, the
//!   in-search ruling agrees at a third occurrence, and the position is left
//!   untouched.

mod common;

use chariot::board::{GenType, Position};
use chariot::rules::{self, DEFAULT_MOVE_LIMIT, MoveClass, Outcome, Ruling};
use chariot::types::{Bitboard, Color, Move, MoveList, PieceKind, Square};
use common::{Rng, perft_cases};

/// `pos` with `side` to move (through its FEN), if that is a legal setup.
fn with_side(pos: &Position, side: Color) -> Option<Position> {
    if pos.side_to_move() == side {
        return Some(pos.clone());
    }
    let fen = pos.fen();
    let mut fields: Vec<&str> = fen.split(' ').collect();
    let letter = side.fen_char().to_string();
    fields[1] = &letter;
    Position::from_fen(&fields.join(" ")).ok()
}

/// Th(pos, side) by brute force: each capture is made on a copy, protection
/// is "the opponent's legal move list holds a capture on that square".
fn brute_threats(pos: &Position, side: Color) -> Option<Bitboard> {
    use PieceKind::*;
    let mine = with_side(pos, side)?;
    let theirs = with_side(pos, !side)?;
    let checkers = mine.checkers();
    let mut caps = MoveList::new();
    mine.generate(GenType::Captures, &mut caps);
    let mut th = Bitboard::EMPTY;
    for m in caps {
        let (a, v) = (m.from(), m.to());
        let attacker = mine.piece_on(a)?.kind();
        let victim = mine.piece_on(v)?;
        let uncrossed_pawn = victim.kind() == Pawn && v.on_own_half(victim.color());
        if matches!(attacker, King | Pawn) || victim.kind() == King || uncrossed_pawn {
            continue;
        }
        let mut after = mine.clone();
        after.do_move(m);
        let king = after.king_square(side);
        if after.attacked(side, king, after.occupied(), after.pieces(!side) & !checkers) {
            continue; // not feasible (checkers excepted)
        }
        let stronger = matches!((attacker, victim.kind()), (Horse | Cannon, Rook))
            || matches!((attacker, victim.kind()), (Advisor | Elephant, Rook | Horse | Cannon));
        let protected = after.legal_moves().iter().any(|r| r.to() == v);
        let mutual = attacker == victim.kind() && theirs.legal_moves().contains(&Move::new(v, a));
        if stronger || !(protected || mutual) {
            th |= v;
        }
    }
    Some(th)
}

/// A random legal game of up to `plies` plies from `fen`.
fn random_game(fen: &str, plies: usize, rng: &mut Rng) -> (Position, Vec<Move>) {
    let mut pos = Position::from_fen(fen).unwrap();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        pos.do_move(m);
        moves.push(m);
    }
    (pos, moves)
}

#[test]
fn threat_sets_equal_brute_force() {
    let mut rng = Rng(0x05EE_D0FC_4A5E);
    let mut compared = 0;
    for case in perft_cases() {
        for _ in 0..3 {
            let (mut pos, moves) = random_game(&case.fen, 40, &mut rng);
            for _ in &moves {
                for side in Color::ALL {
                    if let Some(brute) = brute_threats(&pos, side) {
                        assert_eq!(rules::threats(&pos, side), brute, "{side:?} in {}", pos.fen());
                        compared += 1;
                    }
                }
                pos.undo_move();
            }
        }
    }
    assert!(compared > 10_000, "only {compared} threat sets compared");
}

/// A random non-capturing legal move.
fn quiet_move(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let quiet: Vec<Move> = pos.legal_moves().into_iter().filter(|m| pos.piece_on(m.to()).is_none()).collect();
    (!quiet.is_empty()).then(|| quiet[rng.below(quiet.len())])
}

/// A random game that ends with `cycles` repetitions of a 4-ply shuffle (each
/// side moves a piece without capturing, then both move back). With
/// `decisive`, a shuffle whose two-cycle ruling is a win is preferred (the
/// arbiter only picks the game here; the checks below do not rely on it).
fn shuffle_game(fen: &str, rng: &mut Rng, cycles: usize, decisive: bool) -> Option<Vec<Move>> {
    let (mut pos, mut moves) = random_game(fen, rng.below(30), rng);
    let mut chosen = None;
    for _ in 0..if decisive { 200 } else { 50 } {
        let mut cycle: Vec<Move> = Vec::new();
        while cycle.len() < 4 {
            let m = match cycle.len() {
                0 | 1 => quiet_move(&pos, rng),
                n => Some(Move::new(cycle[n - 2].to(), cycle[n - 2].from()))
                    .filter(|m| pos.legal_moves().contains(m)),
            };
            let Some(m) = m else { break };
            pos.do_move(m);
            cycle.push(m);
        }
        let complete = cycle.len() == 4;
        // The cycle has been played once; play it again for a third occurrence.
        let wins = complete && decisive && {
            cycle.iter().for_each(|&m| pos.do_move(m));
            let o = rules::adjudicate(&mut pos, DEFAULT_MOVE_LIMIT).outcome;
            cycle.iter().for_each(|_| pos.undo_move());
            o.is_some_and(|o| o != Outcome::Draw)
        };
        cycle.iter().for_each(|_| pos.undo_move());
        if complete {
            chosen = Some(cycle);
            if wins || !decisive {
                break;
            }
        }
    }
    let cycle = chosen?;
    moves.extend(cycle.iter().cycle().take(4 * cycles));
    Some(moves)
}

fn mirror_files(sq: Square) -> Square {
    Square::from_coords(8 - sq.file(), sq.rank())
}

fn mirror_colours(sq: Square) -> Square {
    sq.flip_rank()
}

fn mirrored_fen(fen: &str, colours: bool) -> String {
    let fields: Vec<&str> = fen.split(' ').collect();
    let rows: Vec<String> = fields[0].split('/').map(|r| r.to_string()).collect();
    let placement = if colours {
        rows.iter().rev().map(|r| r.chars().map(swap_case).collect::<String>()).collect::<Vec<_>>().join("/")
    } else {
        rows.iter().map(|r| r.chars().rev().collect::<String>()).collect::<Vec<_>>().join("/")
    };
    let side = match (fields[1], colours) {
        ("w", true) => "b",
        ("b", true) => "w",
        (s, _) => s,
    };
    let mut out = vec![placement.as_str(), side];
    out.extend(&fields[2..]);
    out.join(" ")
}

fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() }
}

fn swap_outcome(o: Option<Outcome>) -> Option<Outcome> {
    o.map(|o| match o {
        Outcome::RedWins => Outcome::BlackWins,
        Outcome::BlackWins => Outcome::RedWins,
        Outcome::Draw => Outcome::Draw,
    })
}

/// Each window move as (check, sorted chase squares), squares mapped by `f`.
fn classes(r: &Ruling, f: impl Fn(Square) -> Square) -> Vec<(bool, Vec<Square>)> {
    let Some(w) = &r.window else { return vec![] };
    w.moves
        .iter()
        .map(|m| match &m.class {
            MoveClass::Check => (true, vec![]),
            MoveClass::Idle => (false, vec![]),
            MoveClass::Chase(v) => {
                let mut s: Vec<Square> = v.iter().map(|v| f(v.square)).collect();
                s.sort();
                (false, s)
            }
        })
        .collect()
}

fn play(fen: &str, moves: &[Move]) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for &m in moves {
        assert!(pos.legal_moves().contains(&m), "{m} in {}", pos.fen());
        pos.do_move(m);
    }
    pos
}

#[test]
fn shuffle_games_are_ruled_consistently() {
    let mut rng = Rng(0xC0FF_EE00_1234);
    let fens: Vec<String> = perft_cases().into_iter().map(|c| c.fen).collect();
    let (mut games, mut decisive, mut chase_moves) = (0, 0, 0);
    while games < 300 {
        let fen = &fens[rng.below(fens.len())];
        let cycles = 1 + rng.below(2);
        let Some(moves) = shuffle_game(fen, &mut rng, cycles, games % 2 == 0) else { continue };
        games += 1;
        let mut pos = play(fen, &moves);
        let before = pos.clone();
        let ruling = rules::adjudicate(&mut pos, DEFAULT_MOVE_LIMIT);
        assert_eq!(pos, before, "adjudicate changed the position");
        let search = rules::search_ruling(&mut pos, moves.len() + 1, DEFAULT_MOVE_LIMIT);
        assert_eq!(pos, before, "search_ruling changed the position");
        let context = format!("{fen} moves {moves:?}\n{ruling}");
        if cycles == 2 {
            assert!(ruling.window.is_some(), "{context}");
            assert_eq!(search, ruling.outcome, "{context}");
        } else {
            assert!(search.is_some(), "the second occurrence rules in search: {context}");
        }
        decisive += usize::from(ruling.outcome.is_some_and(|o| o != Outcome::Draw));

        // Every window move against the brute-force threat sets.
        if let Some(w) = &ruling.window {
            let mut p = Position::from_fen(fen).unwrap();
            for &m in &moves[..w.start_ply] {
                p.do_move(m);
            }
            for (wm, (check, squares)) in w.moves.iter().zip(classes(&ruling, |s| s)) {
                let side = p.side_to_move();
                let old = brute_threats(&p, side);
                p.do_move(wm.mv);
                assert_eq!(check, p.in_check(), "{context}");
                if let (Some(old), Some(new), false) = (old, brute_threats(&p, side), check) {
                    let want: Vec<Square> = (new & !old).collect();
                    assert_eq!(squares, want, "ply {}: {context}", wm.ply);
                }
                chase_moves += usize::from(!squares.is_empty());
            }
        }

        // The mirrored games are ruled the same way (colours swapped).
        for colours in [false, true] {
            let f = if colours { mirror_colours } else { mirror_files };
            let mfen = mirrored_fen(fen, colours);
            let mmoves: Vec<Move> = moves.iter().map(|m| Move::new(f(m.from()), f(m.to()))).collect();
            let mruling = rules::adjudicate(&mut play(&mfen, &mmoves), DEFAULT_MOVE_LIMIT);
            let want = if colours { swap_outcome(ruling.outcome) } else { ruling.outcome };
            assert_eq!(mruling.outcome, want, "mirror (colours: {colours}) of {context}\n{mruling}");
            assert_eq!(
                classes(&mruling, f),
                classes(&ruling, |s| s),
                "mirror (colours: {colours}) of {context}"
            );
        }
    }
    assert!(decisive >= 5 && chase_moves >= 20, "{decisive} decisive games, {chase_moves} chase moves");
}
