//! `Board`: a xiangqi position with the game history since the FEN it was
//! set up from (the arbiter needs it to rule on repetitions), modelled on
//! python-chess's `chess.Board`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use chariot::board::{Position, START_FEN};
use chariot::diagram::{self, Diagram};
use chariot::rules::{self, DEFAULT_KILL_DEPTH, DEFAULT_MOVE_LIMIT, MAX_KILL_DEPTH, RuleSet, Rules};
use chariot::tools::perft;
use chariot::types::{self, Color, Square};

use crate::args::{int_in, opt_int_in};
use crate::errors::{IllegalMoveError, InvalidFenError, InvalidMoveError};
use crate::moves::{Move, Piece, square_arg};
use crate::notation::{self, MoveTextError};
use crate::outcome::Outcome;

/// The deepest perft accepted (depth 7 from the start already takes minutes).
const MAX_PERFT_DEPTH: u64 = 12;

/// What `__reduce__` returns for pickling: a callable and its arguments.
pub type Reduced<'py, A> = (Bound<'py, PyAny>, A);

/// The rule set named `name` (`asian` or `chinese`).
pub fn rule_set(name: &str) -> PyResult<RuleSet> {
    name.parse().map_err(PyValueError::new_err)
}

/// A xiangqi position and the moves that led to it.
#[pyclass(module = "chariot")]
#[derive(Clone)]
pub struct Board {
    /// The position, with its history.
    pub pos: Position,
}

impl Board {
    /// The legal move `value` (a `Move` or text) of the position.
    fn legal_move(&self, value: &Bound<'_, PyAny>) -> PyResult<types::Move> {
        if let Ok(m) = value.cast::<Move>() {
            let m = m.get().mv;
            return if self.pos.is_pseudo_legal(m) && self.pos.is_legal(m) {
                Ok(m)
            } else {
                Err(IllegalMoveError::new_err(format!("illegal move '{m}' in {}", self.pos.fen())))
            };
        }
        let Ok(text) = value.extract::<String>() else {
            return Err(InvalidMoveError::new_err("a move is a chariot.Move or a string like 'h2e2'"));
        };
        notation::parse_move(&self.pos, &text).map_err(|e| match e {
            MoveTextError::Invalid(msg) => InvalidMoveError::new_err(msg),
            MoveTextError::Illegal(msg) => IllegalMoveError::new_err(msg),
        })
    }
}

#[pymethods]
impl Board {
    /// `Board(fen=None)`: the start position, or the position of `fen`.
    #[new]
    #[pyo3(signature = (fen = None))]
    fn new(fen: Option<&str>) -> PyResult<Board> {
        let fen = fen.unwrap_or(START_FEN);
        let fen = if fen.trim() == "startpos" { START_FEN } else { fen };
        Position::from_fen(fen)
            .map(|pos| Board { pos })
            .map_err(|e| InvalidFenError::new_err(format!("invalid FEN '{}': {e}", notation::quote(fen))))
    }

    /// The FEN of the current position.
    fn fen(&self) -> String {
        self.pos.fen()
    }

    /// The side to move: `RED` (True) or `BLACK` (False).
    #[getter]
    fn turn(&self) -> bool {
        self.pos.side_to_move() == Color::Red
    }

    /// The legal moves of the position, as a list of `Move`s.
    #[getter]
    fn legal_moves(&self) -> Vec<Move> {
        self.pos.legal_moves().into_iter().map(Move::of).collect()
    }

    /// The number of legal moves (faster than `len(board.legal_moves)`).
    fn legal_move_count(&self) -> usize {
        self.pos.legal_move_count()
    }

    /// True if `move` (a `Move` or text) is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> bool {
        self.legal_move(r#move).is_ok()
    }

    /// The legal move written as `text` in any notation (`h2e2`, `h2-e2`,
    /// `C2=5`, `炮二平五`).
    /// Raises `InvalidMoveError` or `IllegalMoveError` (both `ValueError`s).
    fn parse_move(&self, text: &Bound<'_, PyAny>) -> PyResult<Move> {
        self.legal_move(text).map(Move::of)
    }

    /// Plays `move`: a `Move` or text in any notation: coordinates (`h2e2`),
    /// ICCS (`h2-e2`), WXF (`C2=5`) or Chinese (`炮二平五`).
    /// Raises `InvalidMoveError` or `IllegalMoveError` (both `ValueError`s)
    /// and leaves the board as it was.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = self.legal_move(r#move)?;
        self.pos.do_move(m);
        Ok(())
    }

    /// The legal move `move` written in `notation`: `"zh"` (Chinese,
    /// `炮二平五`), `"wxf"` (`C2=5`), `"iccs"` (`h2-e2`) or `"uci"` (`h2e2`).
    #[pyo3(signature = (r#move, notation = "wxf"))]
    fn move_text(&self, r#move: &Bound<'_, PyAny>, notation: &str) -> PyResult<String> {
        let m = self.legal_move(r#move)?;
        notation::write_move(&self.pos, m, notation).map_err(PyValueError::new_err)
    }

    /// Takes back the last move and returns it; `ValueError` if no move was
    /// played since the FEN.
    fn pop(&mut self) -> PyResult<Move> {
        if self.pos.game_ply() == 0 {
            return Err(PyValueError::new_err("pop from a board with no move played"));
        }
        let m = self.pos.last_move();
        self.pos.undo_move();
        Ok(Move::of(m))
    }

    /// The last move played, or None.
    fn peek(&self) -> Option<Move> {
        (self.pos.game_ply() > 0).then(|| Move::of(self.pos.last_move()))
    }

    /// The moves played since the FEN, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        let mut moves: Vec<Move> =
            self.pos.history().iter().skip(1).map(|st| Move::of(st.last_move)).collect();
        if self.pos.game_ply() > 0 {
            moves.push(Move::of(self.pos.last_move()));
        }
        moves
    }

    /// Plies played since the last capture (the 60-round rule counter).
    #[getter]
    fn halfmove_clock(&self) -> u16 {
        self.pos.rule60()
    }

    /// The full-move number, as in the FEN.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos.fullmove()
    }

    /// True if the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.in_check()
    }

    /// True if the side to move is in check with no legal move.
    fn is_checkmate(&self) -> bool {
        self.pos.in_check() && !self.pos.has_legal_move()
    }

    /// True if the side to move is not in check and has no legal move (a
    /// loss in xiangqi).
    fn is_stalemate(&self) -> bool {
        !self.pos.in_check() && !self.pos.has_legal_move()
    }

    /// True if `move` (legal here) gives check.
    fn gives_check(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = self.legal_move(r#move)?;
        Ok(self.pos.gives_check(m))
    }

    /// True if `move` (legal here) captures a piece.
    fn is_capture(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = self.legal_move(r#move)?;
        Ok(self.pos.piece_on(m.to()).is_some())
    }

    /// The piece on `square` (an index 0–89 or a name like `e0`), or None.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<Piece>> {
        let sq = square_arg(square)?;
        Ok(self.pos.piece_on(sq).map(|piece| Piece { piece }))
    }

    /// The square of `color`'s king (True: Red).
    fn king(&self, color: bool) -> usize {
        self.pos.king_square(if color { Color::Red } else { Color::Black }).index()
    }

    /// The board at the FEN it was set up from (before every move of
    /// `move_stack`).
    fn root(&self) -> Board {
        let mut pos = self.pos.clone();
        while pos.game_ply() > 0 {
            pos.undo_move();
        }
        Board { pos }
    }

    /// The board of the FEN `fen` after `moves` (for pickling).
    #[staticmethod]
    fn from_game(fen: &str, moves: Vec<Bound<'_, PyAny>>) -> PyResult<Board> {
        let mut board = Board::new(Some(fen))?;
        for m in &moves {
            board.push(m)?;
        }
        Ok(board)
    }

    /// Pickles as the root FEN and the moves (the history survives).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, (String, Vec<Move>)>> {
        let board = slf.borrow();
        let make = slf.get_type().getattr("from_game")?;
        Ok((make, (board.root().pos.fen(), board.move_stack())))
    }

    /// An independent copy, history included.
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// The 64-bit Zobrist key of the position (placement and side to move).
    fn zobrist_hash(&self) -> u64 {
        self.pos.key()
    }

    /// The number of legal move sequences of `depth` plies (0–12) from here,
    /// counted with the GIL released.
    fn perft(slf: &Bound<'_, Self>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = int_in(depth, "depth", 0..=MAX_PERFT_DEPTH)? as u32;
        // A copy: the board stays free for other threads meanwhile.
        let mut pos = slf.try_borrow().map_err(|e| PyValueError::new_err(e.to_string()))?.pos.clone();
        let py = slf.py();
        Ok(py.detach(move || perft::perft(&mut pos, depth)))
    }

    /// The arbiter's ruling on the game so far, or None while it goes on:
    /// mate and stalemate, repetitions (perpetual check or chase, …) at the
    /// third occurrence of a position, and the no-capture limit.
    /// `rules`: `"asian"` (default) or `"chinese"`; `move_limit`: the
    /// no-capture limit in plies (default 120, 0 = none); `kill_depth`: the
    /// Chinese rules' mate-threat depth (1–5, default 3).
    #[pyo3(signature = (rules = "asian", *, move_limit = None, kill_depth = None))]
    fn outcome(
        &mut self,
        rules: &str,
        move_limit: Option<&Bound<'_, PyAny>>,
        kill_depth: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Outcome>> {
        let move_limit = opt_int_in(move_limit, "move_limit", 0..=u16::MAX as u64)?
            .map_or(DEFAULT_MOVE_LIMIT, |v| v as u16);
        let kill_depth = opt_int_in(kill_depth, "kill_depth", 1..=MAX_KILL_DEPTH as u64)?
            .map_or(DEFAULT_KILL_DEPTH, |v| v as u8);
        let rules = Rules { set: rule_set(rules)?, move_limit, kill_depth };
        let ruling = rules::adjudicate(&mut self.pos, rules);
        Ok(ruling.outcome.is_some().then(|| Outcome::of(&ruling)))
    }

    /// True if `outcome(rules)` is not None.
    #[pyo3(signature = (rules = "asian"))]
    fn is_game_over(&mut self, rules: &str) -> PyResult<bool> {
        let rules = Rules::of(rule_set(rules)?);
        Ok(rules::adjudicate(&mut self.pos, rules).outcome.is_some())
    }

    /// The board as text, Black at the top: FEN letters, `.` for an empty
    /// point, ranks 9–0 on the left and files a–i below.
    fn __str__(&self) -> String {
        let mut out = String::new();
        for rank in (0..10u8).rev() {
            out.push(char::from(b'0' + rank));
            for file in 0..9u8 {
                out.push(' ');
                out.push(self.pos.piece_on(Square::from_coords(file, rank)).map_or('.', |p| p.fen_char()));
            }
            out.push('\n');
        }
        out.push_str("  a b c d e f g h i");
        out
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.pos.fen())
    }

    /// The board drawn as an SVG document (the engine's diagram): `size`
    /// pixels a square (10–400), Black at the bottom when `flipped`, the
    /// last move marked.
    #[pyo3(signature = (size = None, flipped = false))]
    fn svg(&self, size: Option<&Bound<'_, PyAny>>, flipped: bool) -> PyResult<String> {
        let square = opt_int_in(size, "size", 10..=400)?.map_or(50, |s| s as u32);
        let how = Diagram {
            bottom: if flipped { Color::Black } else { Color::Red },
            last_move: (self.pos.game_ply() > 0).then(|| self.pos.last_move()),
            square,
            ..Diagram::default()
        };
        Ok(diagram::svg(&self.pos, &how))
    }

    /// The picture Jupyter shows for a board.
    fn _repr_svg_(&self) -> String {
        let last_move = (self.pos.game_ply() > 0).then(|| self.pos.last_move());
        diagram::svg(&self.pos, &Diagram { last_move, square: 40, ..Diagram::default() })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Board>().is_ok_and(|o| o.borrow().pos.fen() == self.pos.fen())
    }
}
