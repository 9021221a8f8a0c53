//! Attack tables for every piece kind, computed by the compiler (a lookup
//! is a plain load, with no first-use check).
//!
//! Rooks and cannons are looked up by the occupancy of their rank and of their
//! file, each compressed to an index (a shift for the rank, a multiply-gather
//! for the file), so no ray is ever walked outside table construction.
//! Horses and elephants are indexed by which of their four legs/eyes are
//! occupied. Every table is built from the slow reference generators at the
//! bottom of this file, which the unit tests also compare against.

use crate::types::{Bitboard, Color, Square};

/// Interior ranks 1..7 of file `a` in the low 64 bits (bits 9, 18, …, 63).
const FILE_LO_INTERIOR: u64 =
    (1 << 9) | (1 << 18) | (1 << 27) | (1 << 36) | (1 << 45) | (1 << 54) | (1 << 63);
/// Rank 8 of file `a` is bit 72, i.e. bit 8 of the high word.
const FILE_HI_INTERIOR: u64 = 1 << 8;
/// Gathers the eight interior bits above into the top byte without collisions
/// (checked when the tables are built: a collision fails the build).
const FILE_MAGIC: u64 = 0x4008_3000_8200_1005;

/// Every precomputed table. See the module comment.
struct Tables {
    rook_rank: [[u16; 128]; 9],
    cannon_rank: [[u16; 128]; 9],
    rook_file: [[Bitboard; 256]; 10],
    cannon_file: [[Bitboard; 256]; 10],
    horse: [[Bitboard; 16]; 90],
    horse_sources: [[Bitboard; 16]; 90],
    elephant: [[Bitboard; 16]; 90],
    advisor: [Bitboard; 90],
    king: [Bitboard; 90],
    pawn: [[Bitboard; 90]; 2],
    pawn_sources: [[Bitboard; 90]; 2],
    horse_pseudo: [Bitboard; 90],
    line: [Bitboard; 90],
    check_zone: [Bitboard; 90],
    between: [[Bitboard; 90]; 90],
}

// Building every table takes the compiler a few million steps, past the
// point where it starts to suspect an endless loop.
#[allow(long_running_const_eval)]
static TABLES: Tables = Tables::build();

#[inline(always)]
fn tables() -> &'static Tables {
    &TABLES
}

#[inline(always)]
fn rank_index(sq: Square, occ: Bitboard) -> usize {
    ((occ.0 >> (sq.rank() as u32 * 9 + 1)) as usize) & 0x7F
}

#[inline(always)]
const fn file_index(sq: Square, occ: Bitboard) -> usize {
    let y = occ.0 >> sq.file();
    let gathered = (y as u64 & FILE_LO_INTERIOR) | ((y >> 64) as u64 & FILE_HI_INTERIOR);
    (gathered.wrapping_mul(FILE_MAGIC) >> 56) as usize
}

/// Index of the four orthogonal neighbours (down, left, right, up) of `sq`.
#[inline(always)]
fn orth_index(sq: Square, occ: Bitboard) -> usize {
    let w = ((occ.0 << 9) >> sq.index()) as u32;
    ((w & 1) | ((w >> 7) & 2) | ((w >> 8) & 4) | ((w >> 15) & 8)) as usize
}

/// Index of the four diagonal neighbours (down-left, down-right, up-left, up-right) of `sq`.
#[inline(always)]
fn diag_index(sq: Square, occ: Bitboard) -> usize {
    let w = ((occ.0 << 10) >> sq.index()) as u32;
    ((w & 1) | ((w >> 1) & 2) | ((w >> 16) & 4) | ((w >> 17) & 8)) as usize
}

/// Squares a rook on `sq` attacks (up to and including the first piece each way).
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let t = tables();
    let rank = (t.rook_rank[sq.file() as usize][rank_index(sq, occ)] as u128) << (sq.rank() as u32 * 9);
    let file = t.rook_file[sq.rank() as usize][file_index(sq, occ)].0 << sq.file();
    Bitboard(rank | file)
}

/// Squares a cannon on `sq` could capture on: the first piece beyond exactly
/// one screen in each direction. The set may also hold empty points at the
/// board's edge, so callers always mask it with a set of pieces.
#[inline(always)]
pub fn cannon_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let t = tables();
    let rank = (t.cannon_rank[sq.file() as usize][rank_index(sq, occ)] as u128) << (sq.rank() as u32 * 9);
    let file = t.cannon_file[sq.rank() as usize][file_index(sq, occ)].0 << sq.file();
    Bitboard(rank | file)
}

/// Squares a horse on `sq` attacks, given which legs are blocked.
#[inline(always)]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    tables().horse[sq.index()][orth_index(sq, occ)]
}

/// Squares from which a horse would attack `sq` (legs taken from `occ`).
#[inline(always)]
pub fn horse_sources(sq: Square, occ: Bitboard) -> Bitboard {
    tables().horse_sources[sq.index()][diag_index(sq, occ)]
}

/// Squares an elephant on `sq` reaches (eyes from `occ`, own half only).
#[inline(always)]
pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    tables().elephant[sq.index()][diag_index(sq, occ)]
}

/// Squares an advisor on `sq` reaches (inside the palace of `sq`).
#[inline(always)]
pub fn advisor_attacks(sq: Square) -> Bitboard {
    tables().advisor[sq.index()]
}

/// Squares a king on `sq` reaches (inside the palace of `sq`).
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    tables().king[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    tables().pawn[color.index()][sq.index()]
}

/// Squares from which a pawn of `color` attacks `sq`.
#[inline(always)]
pub fn pawn_sources(color: Color, sq: Square) -> Bitboard {
    tables().pawn_sources[color.index()][sq.index()]
}

/// The up to eight squares a horse's jump away from `sq`, legs ignored.
#[inline(always)]
pub fn horse_pseudo(sq: Square) -> Bitboard {
    tables().horse_pseudo[sq.index()]
}

/// The rank and file of `sq`, without `sq` itself.
#[inline(always)]
pub fn line(sq: Square) -> Bitboard {
    tables().line[sq.index()]
}

/// The rank and file of a king on `sq` and the four squares diagonally
/// next to it (the legs of every horse that could check it): only a piece
/// that leaves or enters one of these squares can open or close a line or
/// a leg onto that king.
#[inline(always)]
pub fn check_zone(sq: Square) -> Bitboard {
    tables().check_zone[sq.index()]
}

/// Squares strictly between `a` and `b` if they share a rank or file, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    tables().between[a.index()][b.index()]
}

/// The leg a horse on `from` needs empty to jump to `to` (a horse's jump apart).
#[inline(always)]
pub fn horse_leg(from: Square, to: Square) -> Square {
    let (df, dr) = (to.file() as i32 - from.file() as i32, to.rank() as i32 - from.rank() as i32);
    let leg =
        if dr.abs() == 2 { from.index() as i32 + 9 * dr.signum() } else { from.index() as i32 + df.signum() };
    Square::new(leg as u8)
}

impl Tables {
    /// Every table, computed by the compiler from the reference generators.
    const fn build() -> Tables {
        let mut t = Tables {
            rook_rank: [[0; 128]; 9],
            cannon_rank: [[0; 128]; 9],
            rook_file: [[Bitboard::EMPTY; 256]; 10],
            cannon_file: [[Bitboard::EMPTY; 256]; 10],
            horse: [[Bitboard::EMPTY; 16]; 90],
            horse_sources: [[Bitboard::EMPTY; 16]; 90],
            elephant: [[Bitboard::EMPTY; 16]; 90],
            advisor: [Bitboard::EMPTY; 90],
            king: [Bitboard::EMPTY; 90],
            pawn: [[Bitboard::EMPTY; 90]; 2],
            pawn_sources: [[Bitboard::EMPTY; 90]; 2],
            horse_pseudo: [Bitboard::EMPTY; 90],
            line: [Bitboard::EMPTY; 90],
            check_zone: [Bitboard::EMPTY; 90],
            between: [[Bitboard::EMPTY; 90]; 90],
        };
        // Ranks: index bit i = file i + 1 occupied; the end files count as occupied.
        let mut file = 0;
        while file < 9 {
            let sq = Square::from_coords(file, 0);
            let mut idx = 0;
            while idx < 128 {
                let occ = Bitboard(((idx as u128) << 1) | 1 | (1 << 8));
                t.rook_rank[file as usize][idx] = (reference::rook(sq, occ).0 & Bitboard::RANK_0.0) as u16;
                t.cannon_rank[file as usize][idx] =
                    (reference::cannon(sq, occ).0 & Bitboard::RANK_0.0) as u16;
                idx += 1;
            }
            file += 1;
        }
        // Files: enumerate the 256 interior occupancies of file a (ranks 1..9,
        // the end ranks count as occupied).
        let edges = Bitboard(1 | (1 << 81));
        let mut rank = 0;
        while rank < 10 {
            let sq = Square::from_coords(0, rank);
            let mut seen = [false; 256];
            let mut subset = 0;
            while subset < 256 {
                let mut occ = edges;
                let mut i = 0;
                while i < 8 {
                    if subset >> i & 1 != 0 {
                        occ = occ.with(Square::from_coords(0, i + 1));
                    }
                    i += 1;
                }
                let idx = file_index(sq, occ);
                assert!(!seen[idx], "FILE_MAGIC collides");
                seen[idx] = true;
                t.rook_file[rank as usize][idx] = Bitboard(reference::rook(sq, occ).0 & Bitboard::FILE_A.0);
                t.cannon_file[rank as usize][idx] =
                    Bitboard(reference::cannon(sq, occ).0 & Bitboard::FILE_A.0);
                subset += 1;
            }
            rank += 1;
        }
        let mut i = 0;
        while i < Square::COUNT {
            let sq = Square::new(i as u8);
            let mut idx = 0;
            while idx < 16 {
                t.horse[i][idx] = reference::horse(sq, neighbours_from_index(sq, idx, ORTH));
                t.horse_sources[i][idx] = reference::horse_sources(sq, neighbours_from_index(sq, idx, DIAG));
                t.elephant[i][idx] = reference::elephant(sq, neighbours_from_index(sq, idx, DIAG));
                idx += 1;
            }
            t.advisor[i] = reference::advisor(sq);
            t.king[i] = reference::king(sq);
            t.pawn[0][i] = reference::pawn(Color::ALL[0], sq);
            t.pawn[1][i] = reference::pawn(Color::ALL[1], sq);
            t.horse_pseudo[i] = reference::horse(sq, Bitboard::EMPTY);
            t.line[i] = Bitboard(Bitboard::file(sq.file()).0 | Bitboard::rank(sq.rank()).0).without(sq);
            t.check_zone[i] = Bitboard(t.line[i].0 | neighbours_from_index(sq, 15, DIAG).0);
            i += 1;
        }
        let mut c = 0;
        while c < 2 {
            let mut from = 0;
            while from < Square::COUNT {
                let mut targets = t.pawn[c][from].0;
                while targets != 0 {
                    let to = targets.trailing_zeros() as usize;
                    targets &= targets - 1;
                    t.pawn_sources[c][to] = t.pawn_sources[c][to].with(Square::new(from as u8));
                }
                from += 1;
            }
            c += 1;
        }
        let mut a = 0;
        while a < Square::COUNT {
            let mut b = 0;
            while b < Square::COUNT {
                let (sa, sb) = (Square::new(a as u8), Square::new(b as u8));
                if t.line[a].has(sb) {
                    let ray = reference::rook(sa, Bitboard::from_square(sb)).0
                        & reference::rook(sb, Bitboard::from_square(sa)).0;
                    t.between[a][b] = Bitboard(ray);
                }
                b += 1;
            }
            a += 1;
        }
        t
    }
}

const ORTH: [(i32, i32); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
const DIAG: [(i32, i32); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];

/// The occupancy whose neighbour index (see `orth_index`/`diag_index`) is `idx`.
const fn neighbours_from_index(sq: Square, idx: usize, dirs: [(i32, i32); 4]) -> Bitboard {
    let mut occ = Bitboard::EMPTY;
    let mut bit = 0;
    while bit < 4 {
        let (df, dr) = dirs[bit];
        if idx >> bit & 1 != 0
            && let Some(n) = Square::try_from_coords(sq.file() as i32 + df, sq.rank() as i32 + dr)
        {
            occ = occ.with(n);
        }
        bit += 1;
    }
    occ
}

/// Slow, obviously correct generators: used to build the tables (at compile
/// time, hence the `while` loops) and to test them.
pub mod reference {
    use crate::types::{Bitboard, Color, Square};

    const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

    const fn step(sq: Square, df: i32, dr: i32) -> Option<Square> {
        Square::try_from_coords(sq.file() as i32 + df, sq.rank() as i32 + dr)
    }

    /// Rook attacks by walking the four rays.
    pub const fn rook(sq: Square, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHOGONAL[d];
            let mut s = sq;
            while let Some(n) = step(s, df, dr) {
                out = out.with(n);
                if occ.has(n) {
                    break;
                }
                s = n;
            }
            d += 1;
        }
        out
    }

    /// Cannon capture squares by walking the rays: the first piece after the screen.
    pub const fn cannon(sq: Square, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHOGONAL[d];
            let mut s = sq;
            let mut screened = false;
            while let Some(n) = step(s, df, dr) {
                if occ.has(n) {
                    if screened {
                        out = out.with(n);
                        break;
                    }
                    screened = true;
                }
                s = n;
            }
            d += 1;
        }
        out
    }

    /// Horse jumps whose leg is empty.
    pub const fn horse(sq: Square, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let mut d = 0;
        while d < 4 {
            let (lf, lr) = ORTHOGONAL[d];
            d += 1;
            let Some(leg) = step(sq, lf, lr) else { continue };
            if occ.has(leg) {
                continue;
            }
            let jumps = if lf == 0 { [(1, 2 * lr), (-1, 2 * lr)] } else { [(2 * lf, 1), (2 * lf, -1)] };
            let mut j = 0;
            while j < 2 {
                if let Some(t) = step(sq, jumps[j].0, jumps[j].1) {
                    out = out.with(t);
                }
                j += 1;
            }
        }
        out
    }

    /// Squares from which a horse attacks `sq`.
    pub const fn horse_sources(sq: Square, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let mut candidates = horse(sq, Bitboard::EMPTY).0;
        while candidates != 0 {
            let from = Square::new(candidates.trailing_zeros() as u8);
            candidates &= candidates - 1;
            if horse(from, occ).has(sq) {
                out = out.with(from);
            }
        }
        out
    }

    /// Elephant steps with an empty eye, staying on the elephant's half.
    pub const fn elephant(sq: Square, occ: Bitboard) -> Bitboard {
        let half = if sq.rank() <= 4 { Bitboard::RED_HALF } else { Bitboard::BLACK_HALF };
        let mut out = Bitboard::EMPTY;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAGONAL[d];
            if let (Some(eye), Some(t)) = (step(sq, df, dr), step(sq, 2 * df, 2 * dr))
                && !occ.has(eye)
            {
                out = out.with(t);
            }
            d += 1;
        }
        Bitboard(out.0 & half.0)
    }

    /// The steps in `dirs` from `sq` that stay inside the palace `sq` is in.
    const fn palace_steps(sq: Square, dirs: [(i32, i32); 4]) -> Bitboard {
        let c = if sq.in_palace(Color::Red) {
            Color::Red
        } else if sq.in_palace(Color::Black) {
            Color::Black
        } else {
            return Bitboard::EMPTY;
        };
        let mut out = Bitboard::EMPTY;
        let mut d = 0;
        while d < 4 {
            if let Some(t) = step(sq, dirs[d].0, dirs[d].1)
                && t.in_palace(c)
            {
                out = out.with(t);
            }
            d += 1;
        }
        out
    }

    /// Advisor steps inside the palace.
    pub const fn advisor(sq: Square) -> Bitboard {
        palace_steps(sq, DIAGONAL)
    }

    /// King steps inside the palace.
    pub const fn king(sq: Square) -> Bitboard {
        palace_steps(sq, ORTHOGONAL)
    }

    /// Pawn steps: forward, and sideways once across the river.
    pub const fn pawn(color: Color, sq: Square) -> Bitboard {
        let fwd = match color {
            Color::Red => 1,
            Color::Black => -1,
        };
        let mut out = Bitboard::EMPTY;
        if let Some(t) = step(sq, 0, fwd) {
            out = out.with(t);
        }
        if !sq.on_own_half(color) {
            if let Some(t) = step(sq, -1, 0) {
                out = out.with(t);
            }
            if let Some(t) = step(sq, 1, 0) {
                out = out.with(t);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*, enough for test occupancies.
    fn rng(state: &mut u64) -> u64 {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn random_occupancy(state: &mut u64) -> Bitboard {
        let density = rng(state) % 4;
        let mut b = (rng(state) as u128) | ((rng(state) as u128) << 64);
        for _ in 0..density {
            b &= (rng(state) as u128) | ((rng(state) as u128) << 64);
        }
        Bitboard(b) & Bitboard::FULL
    }

    #[test]
    fn lookups_match_reference_generators() {
        let mut state = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..3000 {
            let occ = random_occupancy(&mut state);
            for sq in Square::all() {
                assert_eq!(rook_attacks(sq, occ), reference::rook(sq, occ), "rook {sq} {occ:?}");
                assert_eq!(cannon_attacks(sq, occ) & occ, reference::cannon(sq, occ), "cannon {sq} {occ:?}");
                assert_eq!(horse_attacks(sq, occ), reference::horse(sq, occ), "horse {sq}");
                assert_eq!(elephant_attacks(sq, occ), reference::elephant(sq, occ), "elephant {sq}");
            }
        }
        for _ in 0..50 {
            let occ = random_occupancy(&mut state);
            for sq in Square::all() {
                assert_eq!(horse_sources(sq, occ), reference::horse_sources(sq, occ), "horse_sources {sq}");
            }
        }
    }

    #[test]
    fn fixed_geometry() {
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(king_attacks(sq("e0")).count(), 3);
        assert_eq!(king_attacks(sq("e1")).count(), 4);
        assert_eq!(advisor_attacks(sq("e8")).count(), 4);
        assert_eq!(advisor_attacks(sq("d7")), Bitboard::from_square(sq("e8")));
        assert_eq!(pawn_attacks(Color::Red, sq("e3")), Bitboard::from_square(sq("e4")));
        assert_eq!(pawn_attacks(Color::Red, sq("e5")).count(), 3);
        assert_eq!(pawn_attacks(Color::Black, sq("a4")).count(), 2);
        assert_eq!(pawn_attacks(Color::Red, sq("a9")), Bitboard::from_square(sq("b9")));
        assert_eq!(elephant_attacks(sq("c4"), Bitboard::EMPTY).count(), 2, "no river crossing");
        assert_eq!(between(sq("e0"), sq("e9")).count(), 8);
        assert!(between(sq("e0"), sq("f1")).is_empty());
        assert_eq!(horse_leg(sq("b0"), sq("c2")), sq("b1"));
        assert_eq!(horse_leg(sq("b0"), sq("d1")), sq("c0"));
        assert_eq!(horse_pseudo(sq("e4")).count(), 8);
    }
}
