//! `Move` and `Piece`, and the square names: squares are numbered 0–89
//! rank by rank from Red's side (`a0` = 0, `i0` = 8, `a1` = 9, …, `i9` = 89),
//! and every function taking a square also takes its name.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use chariot::types::{self, Color, Square};

use crate::board::Reduced;
use crate::errors::InvalidMoveError;
use crate::notation::{self, MoveTextError};

/// A square from a Python value: an index 0–89 or a name `a0`–`i9`.
pub fn square_arg(value: &Bound<'_, PyAny>) -> PyResult<Square> {
    if let Ok(i) = value.extract::<i64>() {
        return u8::try_from(i)
            .ok()
            .filter(|&i| i < 90)
            .map(Square::new)
            .ok_or_else(|| PyValueError::new_err(format!("square {i} is off the board (0-89)")));
    }
    if let Ok(name) = value.extract::<String>() {
        return Square::parse(name.trim()).ok_or_else(|| {
            PyValueError::new_err(format!("invalid square '{}' (a0-i9)", notation::quote(&name)))
        });
    }
    Err(PyValueError::new_err("a square is an int 0-89 or a name like 'e0'"))
}

/// The name of square `square` (0–89), like `e0`.
#[pyfunction]
pub fn square_name(square: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(square_arg(square)?.to_string())
}

/// The index (0–89) of the square named `name` (`a0`–`i9`).
#[pyfunction]
pub fn parse_square(name: &str) -> PyResult<usize> {
    Square::parse(name.trim())
        .map(Square::index)
        .ok_or_else(|| PyValueError::new_err(format!("invalid square '{}' (a0-i9)", notation::quote(name))))
}

/// A move from one square to another. `str(move)` is the coordinate form
/// `h2e2`; moves compare and hash by their squares.
#[pyclass(module = "chariot", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The engine's move.
    pub mv: types::Move,
}

impl Move {
    /// The Python object of the engine's move `mv`.
    pub fn of(mv: types::Move) -> Move {
        Move { mv }
    }
}

#[pymethods]
impl Move {
    /// `Move(from_square, to_square)`: squares as indices 0–89 or names.
    #[new]
    fn new(from_square: &Bound<'_, PyAny>, to_square: &Bound<'_, PyAny>) -> PyResult<Move> {
        let (from, to) = (square_arg(from_square)?, square_arg(to_square)?);
        if from == to {
            return Err(InvalidMoveError::new_err(format!(
                "a move needs two different squares, not {from}{to}"
            )));
        }
        Ok(Move::of(types::Move::new(from, to)))
    }

    /// Reads the coordinate form `h2e2` (no legality check).
    #[staticmethod]
    fn from_uci(text: &str) -> PyResult<Move> {
        notation::parse_coordinates(text).map(Move::of).map_err(|e| match e {
            MoveTextError::Invalid(msg) | MoveTextError::Illegal(msg) => InvalidMoveError::new_err(msg),
        })
    }

    /// The origin square (0–89).
    #[getter(from_square)]
    fn origin(&self) -> usize {
        self.mv.from().index()
    }

    /// The destination square (0–89).
    #[getter(to_square)]
    fn destination(&self) -> usize {
        self.mv.to().index()
    }

    /// The coordinate form, `h2e2`.
    fn uci(&self) -> String {
        self.mv.to_string()
    }

    fn __str__(&self) -> String {
        self.mv.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.mv)
    }

    /// Pickles as the coordinate form.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, (String,)>> {
        Ok((slf.get_type().getattr("from_uci")?, (slf.get().mv.to_string(),)))
    }
}

/// A piece: its colour (`RED` = True, `BLACK` = False) and kind.
#[pyclass(module = "chariot", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The engine's piece.
    pub piece: types::Piece,
}

#[pymethods]
impl Piece {
    /// The piece with FEN letter `symbol` (upper case Red, lower case Black;
    /// `K A B N R C P`, also `E` for the elephant and `H` for the horse).
    #[staticmethod]
    fn from_symbol(symbol: &str) -> PyResult<Piece> {
        let mut chars = symbol.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => types::Piece::from_fen_char(c).map(|piece| Piece { piece }),
            _ => None,
        }
        .ok_or_else(|| PyValueError::new_err(format!("invalid piece symbol '{}'", notation::quote(symbol))))
    }

    /// True for Red, False for Black.
    #[getter]
    fn color(&self) -> bool {
        self.piece.color() == Color::Red
    }

    /// `king`, `advisor`, `elephant`, `horse`, `rook`, `cannon` or `pawn`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.piece.kind().name()
    }

    /// The FEN letter (upper case for Red).
    fn symbol(&self) -> String {
        self.piece.fen_char().to_string()
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.piece.fen_char())
    }

    /// Pickles as the FEN letter.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, (String,)>> {
        Ok((slf.get_type().getattr("from_symbol")?, (slf.get().piece.fen_char().to_string(),)))
    }
}
