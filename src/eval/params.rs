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
    [S(1047, 1095), S(162, 65), S(536, 436), S(90, 82), S(460, 447), S(147, 69), S(0, 0)];

/// Game phase contributed by each kind (full board = [`PHASE_MAX`]).
pub const PHASE: [i32; 7] = [6, 0, 3, 0, 3, 0, 0];
/// Phase of the start position.
pub const PHASE_MAX: i32 = 48;

/// Bonus for the side to move.
pub const TEMPO: S = S(17, -4);

/// Rook square table, middlegame.
pub const ROOK_PST_MG: [[i32; 9]; 10] = [
    [6, 15, 9, 23, 24, 23, 9, 15, 6],
    [10, 19, 17, 31, 37, 31, 17, 19, 10],
    [6, 12, 10, 27, 26, 27, 10, 12, 6],
    [9, 19, 20, 23, 29, 23, 20, 19, 9],
    [9, 15, 22, 18, 20, 18, 22, 15, 9],
    [7, 22, 20, 14, 31, 14, 20, 22, 7],
    [1, 11, 3, 14, 19, 14, 3, 11, 1],
    [-9, 9, -3, 2, 4, 2, -3, 9, -9],
    [-2, -10, 0, -3, 0, -3, 0, -10, -2],
    [-25, 26, -4, 14, 0, 14, -4, 26, -25],
];
/// Rook square table, endgame.
pub const ROOK_PST_EG: [[i32; 9]; 10] = [
    [7, 6, 11, 21, 24, 21, 11, 6, 7],
    [11, 19, 16, 33, 36, 33, 16, 19, 11],
    [6, 10, 13, 26, 25, 26, 13, 10, 6],
    [11, 14, 16, 19, 36, 19, 16, 14, 11],
    [10, 10, 19, 22, 26, 22, 19, 10, 10],
    [8, 20, 16, 21, 32, 21, 16, 20, 8],
    [3, 9, 1, 13, 18, 13, 1, 9, 3],
    [-5, 5, -1, 7, 5, 7, -1, 5, -5],
    [-7, 3, -2, 9, 0, 9, -2, 3, -7],
    [-18, 4, -3, 11, 0, 11, -3, 4, -18],
];

/// Horse square table, middlegame.
pub const HORSE_PST_MG: [[i32; 9]; 10] = [
    [-7, -1, 10, 16, 1, 16, 10, -1, -7],
    [-1, 21, 34, 48, 21, 48, 34, 21, -1],
    [7, 23, 30, 46, 41, 46, 30, 23, 7],
    [2, 29, 39, 44, 30, 44, 39, 29, 2],
    [1, 16, 28, 37, 41, 37, 28, 16, 1],
    [-5, 14, 22, 29, 27, 29, 22, 14, -5],
    [-11, 2, 10, 6, 1, 6, 10, 2, -11],
    [-9, 1, 7, 6, 15, 6, 7, 1, -9],
    [-13, -9, -10, -17, -19, -17, -10, -9, -13],
    [-20, -45, -15, -11, -24, -11, -15, -45, -20],
];
/// Horse square table, endgame.
pub const HORSE_PST_EG: [[i32; 9]; 10] = [
    [-8, 0, 12, 17, 1, 17, 12, 0, -8],
    [0, 19, 32, 46, 19, 46, 32, 19, 0],
    [11, 20, 27, 36, 45, 36, 27, 20, 11],
    [1, 29, 39, 26, 24, 26, 39, 29, 1],
    [1, 16, 28, 30, 33, 30, 28, 16, 1],
    [-4, 11, 23, 28, 34, 28, 23, 11, -4],
    [-10, 3, 11, 4, 25, 4, 11, 3, -10],
    [-14, 0, 0, 7, 8, 7, 0, 0, -14],
    [-16, -9, -2, -11, -24, -11, -2, -9, -16],
    [-20, -24, -17, -11, -24, -11, -17, -24, -20],
];

/// Cannon square table, middlegame.
pub const CANNON_PST_MG: [[i32; 9]; 10] = [
    [30, 10, 2, -3, 0, -3, 2, 10, 30],
    [5, 1, -4, -14, -11, -14, -4, 1, 5],
    [0, -2, -4, -8, -4, -8, -4, -2, 0],
    [4, -8, 3, -2, 20, -2, 3, -8, 4],
    [1, 3, -1, -2, 33, -2, -1, 3, 1],
    [2, 3, 6, -1, 24, -1, 6, 3, 2],
    [2, -5, 1, 3, 23, 3, 1, -5, 2],
    [15, 8, 21, 6, 41, 6, 21, 8, 15],
    [-1, -1, 11, 11, 21, 11, 11, -1, -1],
    [0, 0, 4, 3, 8, 3, 4, 0, 0],
];
/// Cannon square table, endgame.
pub const CANNON_PST_EG: [[i32; 9]; 10] = [
    [17, 8, -1, -3, -1, -3, -1, 8, 17],
    [0, 6, -7, -10, -4, -10, -7, 6, 0],
    [1, 0, -5, -3, -6, -3, -5, 0, 1],
    [3, 3, 5, 11, 5, 11, 5, 3, 3],
    [2, 1, 1, 0, 7, 0, 1, 1, 2],
    [-2, 1, 1, 4, 7, 4, 1, 1, -2],
    [1, 0, 0, 3, 14, 3, 0, 0, 1],
    [0, 3, 2, 11, 12, 11, 2, 3, 0],
    [0, 3, 2, 5, 7, 5, 2, 3, 0],
    [-3, -2, -1, -3, 0, -3, -1, -2, -3],
];

/// Pawn (the river lies between the fifth and sixth rows) square table, middlegame.
pub const PAWN_PST_MG: [[i32; 9]; 10] = [
    [4, 9, 14, 28, 35, 28, 14, 9, 4],
    [51, 72, 99, 134, 144, 134, 99, 72, 51],
    [52, 80, 100, 126, 132, 126, 100, 80, 52],
    [41, 67, 80, 100, 106, 100, 80, 67, 41],
    [29, 49, 67, 88, 91, 88, 67, 49, 29],
    [3, 0, 12, 0, 21, 0, 12, 0, 3],
    [5, 0, -22, 0, 38, 0, -22, 0, 5],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];
/// Pawn square table, endgame.
pub const PAWN_PST_EG: [[i32; 9]; 10] = [
    [5, 14, 9, 18, 7, 18, 9, 14, 5],
    [61, 93, 102, 125, 157, 125, 102, 93, 61],
    [62, 100, 125, 159, 152, 159, 125, 100, 62],
    [50, 89, 102, 112, 113, 112, 102, 89, 50],
    [44, 65, 77, 106, 117, 106, 77, 65, 44],
    [-2, 0, 6, 0, 47, 0, 6, 0, -2],
    [18, 0, -10, 0, 34, 0, -10, 0, 18],
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
    [0, 0, 0, 1, 0, 1, 0, 0, 0],
    [0, 0, 0, 0, 59, 0, 0, 0, 0],
    [0, 0, 0, -4, 0, -4, 0, 0, 0],
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
    [0, 0, 0, -14, 0, -14, 0, 0, 0],
    [0, 0, 0, 0, -5, 0, 0, 0, 0],
    [0, 0, 0, -20, 0, -20, 0, 0, 0],
];

/// Elephant square table, middlegame.
pub const ELEPHANT_PST_MG: [[i32; 9]; 10] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -17, 0, 0, 0, -17, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [-9, 0, 0, 0, 44, 0, 0, 0, -9],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 25, 0, 0, 0, 25, 0, 0],
];
/// Elephant square table, endgame.
pub const ELEPHANT_PST_EG: [[i32; 9]; 10] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -1, 0, 0, 0, -1, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [-7, 0, 0, 0, -5, 0, 0, 0, -7],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -8, 0, 0, 0, -8, 0, 0],
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
    [0, 0, 0, -32, -36, -32, 0, 0, 0],
    [0, 0, 0, -18, -30, -18, 0, 0, 0],
    [0, 0, 0, -4, 53, -4, 0, 0, 0],
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
    [0, 0, 0, -11, -14, -11, 0, 0, 0],
    [0, 0, 0, 4, -1, 4, 0, 0, 0],
    [0, 0, 0, 5, -15, 5, 0, 0, 0],
];

/// Per reachable point of a rook.
pub const ROOK_MOBILITY: S = S(7, 5);
/// Per reachable point of a horse (blocked legs show up here).
pub const HORSE_MOBILITY: S = S(29, -1);
/// Per reachable point of a cannon (slides plus captures).
pub const CANNON_MOBILITY: S = S(4, -3);
/// Penalty when a horse can move to at most one point.
pub const HORSE_TRAPPED: S = S(-3, -50);

/// Rook on a file with no pawn of either side.
pub const ROOK_OPEN_FILE: S = S(34, -4);
/// Rook on a file with only enemy pawns.
pub const ROOK_HALF_OPEN_FILE: S = S(3, 18);

/// Cannon on the enemy king's file with exactly one screen ("central cannon").
pub const CANNON_AIMED: S = S(30, 10);
/// Cannon on the enemy king's file with nothing between ("empty-head cannon").
pub const CANNON_EMPTY_HEAD: S = S(89, 1);
/// Cannon on the enemy king's file behind two screens.
pub const CANNON_BEHIND_TWO: S = S(28, 22);

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
    [0, 0, 4, 10, 17, 33, 51, 48, 96, 134, 144, 183, 239, 276, 311, 360],
    [0, 0, 4, 11, 24, 39, 67, 89, 118, 155, 194, 233, 280, 327, 375, 424],
    [0, 0, 5, 13, 25, 47, 66, 96, 139, 184, 220, 276, 321, 376, 433, 489],
    [0, 0, 6, 15, 30, 50, 87, 113, 159, 205, 252, 307, 364, 426, 489, 554],
    [0, 0, 6, 17, 34, 58, 95, 127, 176, 228, 276, 341, 405, 474, 546, 619],
];
/// King danger (endgame), indexed as [`KING_DANGER_MG`].
pub const KING_DANGER_EG: [[i32; 16]; 5] = [
    [0, 0, 1, 2, -23, -34, -2, -5, 14, 35, 37, 44, 62, 70, 78, 90],
    [0, 0, 1, 2, 6, -17, 17, 8, 29, 41, 48, 52, 62, 70, 80, 90],
    [0, 0, 1, 2, 10, -22, 9, 17, 41, 48, 45, 56, 61, 70, 79, 90],
    [0, 0, 1, 2, 2, -17, 32, 15, 40, 42, 44, 52, 60, 69, 79, 90],
    [0, 0, 1, 2, 5, -8, 33, 12, 38, 42, 38, 50, 59, 69, 79, 90],
];

/// Bonus per pair of connected advisors / elephants (both still at home).
pub const DEFENDER_PAIR: S = S(72, -2);
