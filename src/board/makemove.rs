//! Making and taking back moves: bitboards, mailbox, Zobrist key and the
//! per-ply state record, all updated incrementally. Nothing here allocates
//! once the undo stack has room (see [`Position::reserve`]).

use super::{Position, zobrist};
use crate::types::{Move, Piece, PieceKind, Square};

impl Position {
    #[inline(always)]
    fn remove_piece(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = None;
        self.by_color[p.color().index()] ^= sq;
        self.by_kind[p.kind().index()] ^= sq;
    }

    #[inline(always)]
    fn add_piece(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = Some(p);
        self.by_color[p.color().index()] ^= sq;
        self.by_kind[p.kind().index()] ^= sq;
    }

    /// Plays `m`, which must be legal in this position.
    pub fn do_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let pc = self.board[from.index()].expect("do_move: no piece on the origin square");
        let captured = self.board[to.index()];
        self.history.push(self.st);
        let st = &mut self.st;
        st.key ^= zobrist::piece_square(pc, from) ^ zobrist::piece_square(pc, to) ^ zobrist::side();
        st.captured = captured;
        st.last_move = m;
        st.plies_from_null = st.plies_from_null.saturating_add(1);
        if let Some(cap) = captured {
            st.key ^= zobrist::piece_square(cap, to);
            st.rule60 = 0;
            self.remove_piece(cap, to);
        } else {
            st.rule60 = st.rule60.saturating_add(1);
        }
        self.remove_piece(pc, from);
        self.add_piece(pc, to);
        if pc.kind() == PieceKind::King {
            self.king_sq[pc.color().index()] = to;
        }
        self.side = !self.side;
        self.compute_check_info();
        self.filter_add();
        debug_assert_eq!(self.validate(), Ok(()));
    }

    /// Takes back the last move made with [`Position::do_move`].
    pub fn undo_move(&mut self) {
        self.filter_remove();
        let m = self.st.last_move;
        let captured = self.st.captured;
        let (from, to) = (m.from(), m.to());
        let pc = self.board[to.index()].expect("undo_move: no piece on the destination square");
        self.remove_piece(pc, to);
        self.add_piece(pc, from);
        if let Some(cap) = captured {
            self.add_piece(cap, to);
        }
        if pc.kind() == PieceKind::King {
            self.king_sq[pc.color().index()] = from;
        }
        self.side = !self.side;
        self.st = self.history.pop().expect("undo_move: no move to take back");
    }

    /// Passes the turn (null-move pruning). Must not be called in check.
    pub fn do_null_move(&mut self) {
        debug_assert!(!self.in_check());
        self.history.push(self.st);
        self.st.key ^= zobrist::side();
        self.st.captured = None;
        self.st.last_move = Move::NULL;
        self.st.plies_from_null = 0;
        self.st.rule60 = self.st.rule60.saturating_add(1);
        self.side = !self.side;
        self.compute_check_info();
        self.filter_add();
    }

    /// Takes back a null move.
    pub fn undo_null_move(&mut self) {
        self.filter_remove();
        self.side = !self.side;
        self.st = self.history.pop().expect("undo_null_move: nothing to take back");
    }

    /// The key the position would have after `m` (for prefetching the hash table).
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let mut key = self.st.key ^ zobrist::side();
        if let Some(pc) = self.board[from.index()] {
            key ^= zobrist::piece_square(pc, from) ^ zobrist::piece_square(pc, to);
        }
        if let Some(cap) = self.board[to.index()] {
            key ^= zobrist::piece_square(cap, to);
        }
        key
    }
}
