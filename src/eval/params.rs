//! Every evaluation weight, in one place, so that a tuner can find them.
//! Values are in centipawns; an `S` is a (middlegame, endgame) pair. Square
//! tables come in pairs (`_MG` for the middlegame, `_EG` for the endgame),
//! written from Red's side, rank 9 (the enemy back rank) in the first row, as
//! a player sees the board; Black uses the same tables mirrored.
//!
//! Every weight enters the evaluation linearly (value × a count of some
//! feature), which is what lets `chariot tune` fit them exactly; only
//! [`PHASE`], [`PHASE_MAX`] and the `ATTACK_WEIGHT_*` counts (which pick a
//! table entry) are structural and left alone by the tuner. The tuner
//! rewrites this file in this layout.

use super::S;

/// Material value of each kind, in `PieceKind` order:
/// rook, advisor, cannon, pawn, horse, elephant, king.
pub const MATERIAL: [S; 7] =
    [S(1000, 1060), S(110, 105), S(470, 420), S(45, 70), S(430, 460), S(105, 100), S(0, 0)];

/// Game phase contributed by each kind (full board = [`PHASE_MAX`]).
pub const PHASE: [i32; 7] = [6, 0, 3, 0, 3, 0, 0];
/// Phase of the start position.
pub const PHASE_MAX: i32 = 48;

/// Bonus for the side to move.
pub const TEMPO: S = S(12, 6);

/// Rook square table, middlegame.
pub const ROOK_PST_MG: [[i32; 9]; 10] = [
    [6, 10, 8, 20, 22, 20, 8, 10, 6],
    [10, 22, 16, 32, 34, 32, 16, 22, 10],
    [6, 14, 12, 24, 26, 24, 12, 14, 6],
    [6, 14, 12, 20, 22, 20, 12, 14, 6],
    [8, 16, 14, 20, 22, 20, 14, 16, 8],
    [6, 14, 12, 18, 20, 18, 12, 14, 6],
    [0, 8, 4, 14, 14, 14, 4, 8, 0],
    [-4, 6, 0, 12, 8, 12, 0, 6, -4],
    [-6, 6, 2, 12, 0, 12, 2, 6, -6],
    [-12, 4, -2, 10, 0, 10, -2, 4, -12],
];
/// Rook square table, endgame.
pub const ROOK_PST_EG: [[i32; 9]; 10] = [
    [6, 10, 8, 20, 22, 20, 8, 10, 6],
    [10, 22, 16, 32, 34, 32, 16, 22, 10],
    [6, 14, 12, 24, 26, 24, 12, 14, 6],
    [6, 14, 12, 20, 22, 20, 12, 14, 6],
    [8, 16, 14, 20, 22, 20, 14, 16, 8],
    [6, 14, 12, 18, 20, 18, 12, 14, 6],
    [0, 8, 4, 14, 14, 14, 4, 8, 0],
    [-4, 6, 0, 12, 8, 12, 0, 6, -4],
    [-6, 6, 2, 12, 0, 12, 2, 6, -6],
    [-12, 4, -2, 10, 0, 10, -2, 4, -12],
];

/// Horse square table, middlegame.
pub const HORSE_PST_MG: [[i32; 9]; 10] = [
    [-8, 0, 8, 16, 0, 16, 8, 0, -8],
    [0, 14, 28, 46, 20, 46, 28, 14, 0],
    [4, 26, 36, 42, 36, 42, 36, 26, 4],
    [4, 22, 30, 36, 34, 36, 30, 22, 4],
    [0, 16, 24, 28, 28, 28, 24, 16, 0],
    [-4, 10, 18, 18, 20, 18, 18, 10, -4],
    [-8, 4, 10, 12, 8, 12, 10, 4, -8],
    [-10, 0, 8, 4, 8, 4, 8, 0, -10],
    [-14, -8, 0, -6, -16, -6, 0, -8, -14],
    [-20, -14, -10, -10, -24, -10, -10, -14, -20],
];
/// Horse square table, endgame.
pub const HORSE_PST_EG: [[i32; 9]; 10] = [
    [-8, 0, 8, 16, 0, 16, 8, 0, -8],
    [0, 14, 28, 46, 20, 46, 28, 14, 0],
    [4, 26, 36, 42, 36, 42, 36, 26, 4],
    [4, 22, 30, 36, 34, 36, 30, 22, 4],
    [0, 16, 24, 28, 28, 28, 24, 16, 0],
    [-4, 10, 18, 18, 20, 18, 18, 10, -4],
    [-8, 4, 10, 12, 8, 12, 10, 4, -8],
    [-10, 0, 8, 4, 8, 4, 8, 0, -10],
    [-14, -8, 0, -6, -16, -6, 0, -8, -14],
    [-20, -14, -10, -10, -24, -10, -10, -14, -20],
];

/// Cannon square table, middlegame.
pub const CANNON_PST_MG: [[i32; 9]; 10] = [
    [14, 10, 4, 0, 0, 0, 4, 10, 14],
    [6, 6, 0, -8, -12, -8, 0, 6, 6],
    [4, 4, 0, -4, 0, -4, 0, 4, 4],
    [0, 4, 4, 4, 14, 4, 4, 4, 0],
    [0, 0, 0, 4, 18, 4, 0, 0, 0],
    [-4, 0, 4, 0, 18, 0, 4, 0, -4],
    [0, 0, 0, 0, 14, 0, 0, 0, 0],
    [4, 4, 8, 4, 22, 4, 8, 4, 4],
    [0, 4, 4, 4, 8, 4, 4, 4, 0],
    [0, 0, 4, 8, 8, 8, 4, 0, 0],
];
/// Cannon square table, endgame.
pub const CANNON_PST_EG: [[i32; 9]; 10] = [
    [7, 5, 2, 0, 0, 0, 2, 5, 7],
    [3, 3, 0, -4, -6, -4, 0, 3, 3],
    [2, 2, 0, -2, 0, -2, 0, 2, 2],
    [0, 2, 2, 2, 7, 2, 2, 2, 0],
    [0, 0, 0, 2, 9, 2, 0, 0, 0],
    [-2, 0, 2, 0, 9, 0, 2, 0, -2],
    [0, 0, 0, 0, 7, 0, 0, 0, 0],
    [2, 2, 4, 2, 11, 2, 4, 2, 2],
    [0, 2, 2, 2, 4, 2, 2, 2, 0],
    [0, 0, 2, 4, 4, 4, 2, 0, 0],
];

/// Pawn (the river lies between the fifth and sixth rows) square table, middlegame.
pub const PAWN_PST_MG: [[i32; 9]; 10] = [
    [4, 8, 16, 30, 40, 30, 16, 8, 4],
    [50, 72, 100, 130, 140, 130, 100, 72, 50],
    [52, 76, 96, 120, 126, 120, 96, 76, 52],
    [46, 66, 80, 96, 102, 96, 80, 66, 46],
    [32, 48, 62, 78, 86, 78, 62, 48, 32],
    [4, 0, 14, 0, 22, 0, 14, 0, 4],
    [0, 0, -4, 0, 8, 0, -4, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];
/// Pawn square table, endgame.
pub const PAWN_PST_EG: [[i32; 9]; 10] = [
    [4, 9, 19, 36, 48, 36, 19, 9, 4],
    [60, 86, 120, 156, 168, 156, 120, 86, 60],
    [62, 91, 115, 144, 151, 144, 115, 91, 62],
    [55, 79, 96, 115, 122, 115, 96, 79, 55],
    [38, 57, 74, 93, 103, 93, 74, 57, 38],
    [4, 0, 16, 0, 26, 0, 16, 0, 4],
    [0, 0, -4, 0, 9, 0, -4, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];

/// Advisor square table, middlegame.
pub const ADVISOR_PST_MG: [[i32; 9]; 10] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 8, 0, 0, 0, 0],
    [0, 0, 0, 2, 0, 2, 0, 0, 0],
];
/// Advisor square table, endgame.
pub const ADVISOR_PST_EG: [[i32; 9]; 10] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];

/// Elephant square table, middlegame.
pub const ELEPHANT_PST_MG: [[i32; 9]; 10] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -2, 0, 0, 0, -2, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [-4, 0, 0, 0, 8, 0, 0, 0, -4],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 2, 0, 0, 0, 2, 0, 0],
];
/// Elephant square table, endgame.
pub const ELEPHANT_PST_EG: [[i32; 9]; 10] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];

/// King square table, middlegame.
pub const KING_PST_MG: [[i32; 9]; 10] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, -24, -30, -24, 0, 0, 0],
    [0, 0, 0, -12, -14, -12, 0, 0, 0],
    [0, 0, 0, -4, 4, -4, 0, 0, 0],
];
/// King square table, endgame.
pub const KING_PST_EG: [[i32; 9]; 10] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, -7, -9, -7, 0, 0, 0],
    [0, 0, 0, -3, -4, -3, 0, 0, 0],
    [0, 0, 0, -1, 1, -1, 0, 0, 0],
];

/// Per reachable point of a rook.
pub const ROOK_MOBILITY: S = S(4, 5);
/// Per reachable point of a horse (blocked legs show up here).
pub const HORSE_MOBILITY: S = S(9, 10);
/// Per reachable point of a cannon (slides plus captures).
pub const CANNON_MOBILITY: S = S(3, 2);
/// Penalty when a horse can move to at most one point.
pub const HORSE_TRAPPED: S = S(-30, -30);

/// Rook on a file with no pawn of either side.
pub const ROOK_OPEN_FILE: S = S(18, 10);
/// Rook on a file with only enemy pawns.
pub const ROOK_HALF_OPEN_FILE: S = S(8, 4);

/// Cannon on the enemy king's file with exactly one screen ("central cannon").
pub const CANNON_AIMED: S = S(30, 10);
/// Cannon on the enemy king's file with nothing between ("empty-head cannon").
pub const CANNON_EMPTY_HEAD: S = S(70, 20);
/// Cannon on the enemy king's file behind two screens.
pub const CANNON_BEHIND_TWO: S = S(10, 0);

/// King-zone attack weight of each attacking kind (rook, horse, cannon, pawn).
pub const ATTACK_WEIGHT_ROOK: i32 = 4;
/// See [`ATTACK_WEIGHT_ROOK`].
pub const ATTACK_WEIGHT_HORSE: i32 = 3;
/// See [`ATTACK_WEIGHT_ROOK`].
pub const ATTACK_WEIGHT_CANNON: i32 = 3;
/// See [`ATTACK_WEIGHT_ROOK`].
pub const ATTACK_WEIGHT_PAWN: i32 = 2;
/// King danger (middlegame) by the number of the defending side's missing
/// advisors and elephants (rows 0–4), then attack units (capped at the last column).
pub const KING_DANGER_MG: [[i32; 16]; 5] = [
    [0, 0, 4, 10, 20, 34, 52, 74, 100, 130, 162, 198, 236, 276, 318, 360],
    [0, 0, 4, 11, 23, 40, 61, 87, 118, 153, 191, 233, 278, 325, 375, 424],
    [0, 0, 5, 13, 27, 46, 70, 100, 136, 176, 220, 269, 320, 375, 432, 489],
    [0, 0, 6, 15, 30, 52, 80, 113, 154, 200, 249, 304, 363, 425, 489, 554],
    [0, 0, 6, 17, 34, 58, 89, 127, 172, 223, 278, 340, 405, 474, 546, 619],
];
/// King danger (endgame), indexed as [`KING_DANGER_MG`].
pub const KING_DANGER_EG: [[i32; 16]; 5] = [
    [0, 0, 1, 2, 5, 8, 13, 18, 25, 32, 40, 49, 59, 69, 79, 90],
    [0, 0, 1, 2, 5, 8, 13, 18, 25, 32, 40, 49, 59, 69, 79, 90],
    [0, 0, 1, 2, 5, 8, 13, 18, 25, 32, 40, 49, 59, 69, 79, 90],
    [0, 0, 1, 2, 5, 8, 13, 18, 25, 32, 40, 49, 59, 69, 79, 90],
    [0, 0, 1, 2, 5, 8, 13, 18, 25, 32, 40, 49, 59, 69, 79, 90],
];

/// Bonus per pair of connected advisors / elephants (both still at home).
pub const DEFENDER_PAIR: S = S(12, 6);
