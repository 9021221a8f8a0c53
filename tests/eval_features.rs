//! The evaluation as weight × feature count: for random positions, the
//! features summed with the weights of `params.rs` give exactly `evaluate`,
//! and changing one weight changes the sum by that weight's count; a
//! position mirrored left-right has the mirrored features.

mod common;

use chariot::board::Position;
use chariot::eval::features::Features;
use chariot::eval::weights::{TUNED, at, mirrors, values};
use chariot::eval::{Taper, evaluate, is_dead_draw};
use chariot::tools::bench::POSITIONS;
use common::Rng;

/// Positions of random games from the start and from the bench positions.
fn random_positions(count: usize) -> Vec<Position> {
    let mut rng = Rng(0x5EED_F00D_1234_5678);
    let mut out = Vec::new();
    let starts: Vec<Position> = POSITIONS.iter().map(|f| Position::from_fen(f).unwrap()).collect();
    while out.len() < count {
        let mut pos = starts[rng.below(starts.len())].clone();
        for _ in 0..rng.below(200) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves[rng.below(moves.len())]);
            out.push(pos.clone());
        }
    }
    out
}

/// Endgames where one side cannot mate (its advantage is divided by 16),
/// and a dead draw.
const ENDGAMES: [&str; 5] = [
    "4k4/9/9/9/9/9/4p4/9/9/2BAKAB2 w",
    "4k4/9/9/9/9/9/4p4/9/9/2BAKAB2 b",
    "2bakab2/9/9/4P4/9/9/9/9/9/4K4 w",
    "2bakab2/9/9/4P4/9/9/9/9/9/4K4 b",
    "3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w",
];

#[test]
fn features_reproduce_the_evaluation_exactly() {
    let w = values();
    assert_eq!(w.len(), at::COUNT);
    let mut positions = random_positions(20_000);
    positions.extend(ENDGAMES.iter().map(|f| Position::from_fen(f).unwrap()));
    let mut scaled = 0;
    for pos in &positions {
        let expected = evaluate(pos);
        match Features::of(pos) {
            None => {
                assert!(is_dead_draw(pos), "{}", pos.fen());
                assert_eq!(expected, 0);
            }
            Some((f, taper)) => {
                assert_eq!(f.evaluate(taper, &w), expected, "{}", pos.fen());
                let unscaled = Taper { red_can_mate: true, black_can_mate: true, ..taper };
                scaled += (unscaled.apply(f.sums(&w)) != expected) as usize;
            }
        }
    }
    assert!(scaled >= 4, "the divided-by-16 case is covered ({scaled})");
}

#[test]
fn a_weight_moves_the_sums_by_its_count() {
    let w = values();
    let pos = Position::startpos();
    let (f, taper) = Features::of(&pos).unwrap();
    assert_eq!(taper, Taper { phase: 48, red_can_mate: true, black_can_mate: true, red_to_move: true });
    // The start position is symmetric: only the tempo bonus is left.
    let tempo: Vec<(usize, usize, i32)> = f.list.iter().map(|x| (x.mg, x.eg, x.count)).collect();
    assert_eq!(tempo, vec![(at::TEMPO, at::TEMPO + 1, 1)]);
    // One red rook fewer: the rook's material counts -1 in both sums.
    let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w").unwrap();
    let (f, taper) = Features::of(&pos).unwrap();
    let mut more = w.clone();
    more[at::MATERIAL] += 100;
    more[at::MATERIAL + 1] += 100;
    assert_eq!(f.sums(&more).0 - f.sums(&w).0, -100);
    assert_eq!(f.sums(&more).1 - f.sums(&w).1, -100);
    assert_eq!(f.evaluate(taper, &more), f.evaluate(taper, &w) - 100);
}

#[test]
fn the_parameter_vector_covers_every_tuned_constant_once() {
    let mut next = 0;
    for item in TUNED {
        assert_eq!(item.start, next, "{}", item.name);
        next += item.len;
    }
    assert_eq!(next, at::COUNT);
    assert_eq!(values().len(), at::COUNT);
}

/// `pos` mirrored left-right (files a↔i).
fn mirrored(pos: &Position) -> Position {
    let fen = pos.fen();
    let (board, rest) = fen.split_once(' ').unwrap();
    let board: Vec<String> = board.split('/').map(|rank| rank.chars().rev().collect()).collect();
    Position::from_fen(&format!("{} {rest}", board.join("/"))).unwrap()
}

#[test]
fn a_mirrored_position_has_the_mirrored_features() {
    let m = mirrors();
    assert_eq!(m.len(), at::COUNT);
    let moved = (0..at::COUNT).filter(|&i| m[i] != i).count();
    assert_eq!(moved, 14 * 10 * 8, "14 square tables, 8 files off the centre");
    assert!((0..at::COUNT).all(|i| m[m[i]] == i));
    let mut positions = random_positions(3_000);
    positions.extend(ENDGAMES.iter().map(|f| Position::from_fen(f).unwrap()));
    let mut differ = 0;
    for pos in &positions {
        let (Some((f, taper)), Some((g, mirror_taper))) = (Features::of(pos), Features::of(&mirrored(pos)))
        else {
            assert!(is_dead_draw(pos));
            continue;
        };
        assert_eq!(taper, mirror_taper);
        let mut expected: Vec<(usize, usize, i32)> =
            f.list.iter().map(|x| (m[x.mg], m[x.eg], x.count)).collect();
        expected.sort_unstable();
        let mut got: Vec<(usize, usize, i32)> = g.list.iter().map(|x| (x.mg, x.eg, x.count)).collect();
        got.sort_unstable();
        assert_eq!(got, expected, "{}", pos.fen());
        differ += (got != f.list.iter().map(|x| (x.mg, x.eg, x.count)).collect::<Vec<_>>()) as usize;
    }
    assert!(differ > 1000, "most positions are not symmetric ({differ})");
}
