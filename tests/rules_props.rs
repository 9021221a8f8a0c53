//! Property tests of the rule arbiter over random games from the perft
//! positions (full and reduced material), under both rule sets:
//!
//! * threat sets equal a brute-force reading of rules.md §3.5 (Asian) and of
//!   rules-chinese.md §3.4 (Chinese) that makes every capture on the board
//!   and asks the move generator for recaptures, exchanges and mates;
//! * random games ending in forced shuffles: every window move's class and
//!   chase set equal the brute-force reading (with a brute-force kill test
//!   for the Chinese rules), the ruling is the same for the file-mirrored
//!   game and colour-swapped for the colour-mirrored game, the in-search
//!   ruling agrees at a third occurrence, and the position is left untouched.

mod common;

use chariot::board::{GenType, Position};
use chariot::rules::{self, MoveClass, Outcome, RuleSet, Rules, Ruling};
use chariot::types::{Bitboard, Color, Move, MoveList, Piece, PieceKind, Square};
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

/// A capture both threat sets consider (see [`brute_candidates`]).
struct Candidate {
    victim_square: Square,
    attacker: PieceKind,
    victim: Piece,
    after: Position,
    /// The victim could take the attacker back at once (an exchange offer).
    mutual: bool,
}

/// The captures both threat sets start from, by brute force: `side`'s
/// captures of a piece other than the king or an uncrossed pawn, by a piece
/// other than its king or a pawn, that do not expose its own king (checkers
/// excepted). None if `pos` cannot be set up with either side to move.
fn brute_candidates(pos: &Position, side: Color) -> Option<Vec<Candidate>> {
    use PieceKind::*;
    let mine = with_side(pos, side)?;
    let theirs = with_side(pos, !side)?;
    let checkers = mine.checkers();
    let mut caps = MoveList::new();
    mine.generate(GenType::Captures, &mut caps);
    let mut out = Vec::new();
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
        let mutual = attacker == victim.kind() && theirs.legal_moves().contains(&Move::new(v, a));
        out.push(Candidate { victim_square: v, attacker, victim, after, mutual });
    }
    Some(out)
}

/// Th(pos, side) by brute force: each capture is made on a copy, protection
/// is "the opponent's legal move list holds a capture on that square".
fn brute_threats(pos: &Position, side: Color) -> Option<Bitboard> {
    use PieceKind::*;
    let mut th = Bitboard::EMPTY;
    for Candidate { victim_square: v, attacker, victim, after, mutual } in brute_candidates(pos, side)? {
        let stronger = matches!((attacker, victim.kind()), (Horse | Cannon, Rook))
            || matches!((attacker, victim.kind()), (Advisor | Elephant, Rook | Horse | Cannon));
        let protected = after.legal_moves().iter().any(|r| r.to() == v);
        if stronger || !(protected || mutual) {
            th |= v;
        }
    }
    Some(th)
}

/// rules-chinese.md §3.3: R 4, N and C 2, A, B and a crossed pawn 1.
fn value(piece: Piece, sq: Square) -> i32 {
    use PieceKind::*;
    match piece.kind() {
        Rook => 4,
        Horse | Cannon => 2,
        Advisor | Elephant => 1,
        Pawn if !sq.on_own_half(piece.color()) => 1,
        Pawn | King => 0,
    }
}

/// The legal moves of the side to move that do not land on a king.
fn real_moves(pos: &Position) -> Vec<Move> {
    let kings = pos.kind_bb(PieceKind::King);
    pos.legal_moves().into_iter().filter(|m| !kings.has(m.to())).collect()
}

/// The exchange gain on `v` for the side to move: every legal capture on
/// `v` tried, either side free to stop.
fn brute_gain(pos: &Position, v: Square) -> i32 {
    let Some(target) = pos.piece_on(v) else { return 0 };
    let mut best = 0;
    for m in real_moves(pos).into_iter().filter(|m| m.to() == v) {
        let mut next = pos.clone();
        next.do_move(m);
        best = best.max(value(target, v) - brute_gain(&next, v));
    }
    best
}

/// The side to move has a move after which the opponent is in check with no
/// legal move.
fn brute_mate_in_one(pos: &Position) -> bool {
    real_moves(pos).into_iter().any(|m| {
        let mut next = pos.clone();
        next.do_move(m);
        next.in_check() && next.legal_moves().is_empty()
    })
}

/// Th_cn(pos, side) by brute force: each capture is made on a copy, the
/// exchange on the square is searched over the legal move lists, and the
/// capture is dropped if the opponent then mates in one.
fn brute_value_threats(pos: &Position, side: Color) -> Option<Bitboard> {
    let mut th = Bitboard::EMPTY;
    for Candidate { victim_square: v, victim, after, mutual, .. } in brute_candidates(pos, side)? {
        if mutual {
            continue; // an exchange offer
        }
        if value(victim, v) - brute_gain(&after, v) > 0 && !brute_mate_in_one(&after) {
            th |= v;
        }
    }
    Some(th)
}

/// The side to move mates by at most `depth` consecutive checks against
/// every defence (rules-chinese.md §3.2), from the legal move lists.
fn brute_mate_by_checks(pos: &Position, depth: u8) -> bool {
    depth > 0
        && pos.legal_moves().into_iter().any(|m| {
            let mut next = pos.clone();
            next.do_move(m);
            if !next.in_check() {
                return false;
            }
            let replies = next.legal_moves();
            replies.is_empty()
                || replies.into_iter().all(|r| {
                    let mut after = next.clone();
                    after.do_move(r);
                    brute_mate_by_checks(&after, depth - 1)
                })
        })
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

#[test]
fn value_threat_sets_equal_brute_force() {
    let mut rng = Rng(0x7A1E_C4A5_E000);
    let (mut compared, mut nonempty) = (0, 0);
    for case in perft_cases() {
        let (mut pos, moves) = random_game(&case.fen, 30, &mut rng);
        for _ in &moves {
            for side in Color::ALL {
                if let Some(brute) = brute_value_threats(&pos, side) {
                    let before = pos.clone();
                    assert_eq!(
                        rules::value_threats(&mut pos, side),
                        Some(brute),
                        "{side:?} in {}",
                        pos.fen()
                    );
                    assert!(pos == before, "value_threats changed the position");
                    compared += 1;
                    nonempty += usize::from(brute.any());
                }
            }
            pos.undo_move();
        }
    }
    assert!(compared > 2_000 && nonempty > 300, "{compared} threat sets compared, {nonempty} not empty");
}

/// A random non-capturing legal move.
fn quiet_move(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let quiet: Vec<Move> = pos.legal_moves().into_iter().filter(|m| pos.piece_on(m.to()).is_none()).collect();
    (!quiet.is_empty()).then(|| quiet[rng.below(quiet.len())])
}

/// A random game that ends with `cycles` repetitions of a 4-ply shuffle (each
/// side moves a piece without capturing, then both move back). With
/// `decisive`, a shuffle whose two-cycle ruling under `rules` is a win is
/// preferred (the arbiter only picks the game here; the checks below do not
/// rely on it).
fn shuffle_game(fen: &str, rng: &mut Rng, cycles: usize, decisive: bool, rules: Rules) -> Option<Vec<Move>> {
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
            let o = rules::adjudicate(&mut pos, rules).outcome;
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

/// Each window move as (class, sorted chase squares), squares mapped by `f`.
fn classes(r: &Ruling, f: impl Fn(Square) -> Square) -> Vec<(&'static str, Vec<Square>)> {
    let Some(w) = &r.window else { return vec![] };
    w.moves
        .iter()
        .map(|m| match &m.class {
            MoveClass::Check => ("check", vec![]),
            MoveClass::Kill(_) => ("kill", vec![]),
            MoveClass::Idle => ("idle", vec![]),
            MoveClass::Chase(v) => {
                let mut s: Vec<Square> = v.iter().map(|v| f(v.square)).collect();
                s.sort();
                ("chase", s)
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

/// The class and chase squares of the move `m` of the side to move in `p`
/// by brute force (`None` where a threat set has no legal setup), then `m`
/// is played on `p`.
fn brute_class(p: &mut Position, m: Move, rules: Rules) -> Option<(&'static str, Vec<Square>)> {
    let side = p.side_to_move();
    let th = |p: &Position| match rules.set {
        RuleSet::Asian => brute_threats(p, side),
        RuleSet::Chinese => brute_value_threats(p, side),
    };
    let old = th(p);
    p.do_move(m);
    if p.in_check() {
        return Some(("check", vec![]));
    }
    let new: Vec<Square> = (th(p)? & !old?).collect();
    let kill = rules.set == RuleSet::Chinese && brute_mate_by_checks(&with_side(p, side)?, rules.kill_depth);
    Some(match (kill, new.is_empty()) {
        (true, _) => ("kill", vec![]),
        (false, true) => ("idle", vec![]),
        (false, false) => ("chase", new),
    })
}

/// Random shuffle games ruled under `rules`: see the module comment.
fn shuffle_games_are_ruled_consistently(rules: Rules, games: usize, seed: u64) {
    let mut rng = Rng(seed);
    let fens: Vec<String> = perft_cases().into_iter().map(|c| c.fen).collect();
    let (mut played, mut decisive, mut attacks) = (0, 0, 0);
    while played < games {
        let fen = &fens[rng.below(fens.len())];
        let cycles = 1 + rng.below(2);
        let Some(moves) = shuffle_game(fen, &mut rng, cycles, played % 2 == 0, rules) else { continue };
        played += 1;
        let mut pos = play(fen, &moves);
        let before = pos.clone();
        let ruling = rules::adjudicate(&mut pos, rules);
        assert_eq!(pos, before, "adjudicate changed the position");
        let search = rules::search_ruling(&mut pos, moves.len() + 1, rules);
        assert_eq!(pos, before, "search_ruling changed the position");
        let context = format!("{fen} moves {moves:?}\n{ruling}");
        if cycles == 2 {
            assert!(ruling.window.is_some(), "{context}");
            assert_eq!(search, ruling.outcome, "{context}");
        } else {
            assert!(search.is_some(), "the second occurrence rules in search: {context}");
        }
        decisive += usize::from(ruling.outcome.is_some_and(|o| o != Outcome::Draw));

        // Every window move against the brute-force reading.
        if let Some(w) = &ruling.window {
            let mut p = Position::from_fen(fen).unwrap();
            for &m in &moves[..w.start_ply] {
                p.do_move(m);
            }
            for (wm, got) in w.moves.iter().zip(classes(&ruling, |s| s)) {
                if let Some(want) = brute_class(&mut p, wm.mv, rules) {
                    assert_eq!(got, want, "ply {}: {context}", wm.ply);
                }
                attacks += usize::from(matches!(got.0, "kill" | "chase"));
            }
        }

        // The mirrored games are ruled the same way (colours swapped).
        for colours in [false, true] {
            let f = if colours { mirror_colours } else { mirror_files };
            let mfen = mirrored_fen(fen, colours);
            let mmoves: Vec<Move> = moves.iter().map(|m| Move::new(f(m.from()), f(m.to()))).collect();
            let mruling = rules::adjudicate(&mut play(&mfen, &mmoves), rules);
            let want = if colours { swap_outcome(ruling.outcome) } else { ruling.outcome };
            assert_eq!(mruling.outcome, want, "mirror (colours: {colours}) of {context}\n{mruling}");
            assert_eq!(
                classes(&mruling, f),
                classes(&ruling, |s| s),
                "mirror (colours: {colours}) of {context}"
            );
        }
    }
    assert!(decisive >= games / 60 && attacks >= games / 15, "{decisive} decisive games, {attacks} attacks");
}

#[test]
fn asian_shuffle_games_are_ruled_consistently() {
    shuffle_games_are_ruled_consistently(Rules::DEFAULT, 300, 0xC0FF_EE00_1234);
}

#[test]
fn chinese_shuffle_games_are_ruled_consistently() {
    shuffle_games_are_ruled_consistently(Rules::of(RuleSet::Chinese), 300, 0xC41E_5E00_5678);
}
