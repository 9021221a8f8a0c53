//! The records of a `chariot datagen` file (`src/tools/datagen/format.rs`):
//! one at a time as `TrainingRecord`s, or all at once as columns of bytes
//! that the Python side turns into numpy arrays.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use chariot::tools::datagen::format::{Reader, Record};
use chariot::types::Color;

use crate::board::Board;
use crate::moves::Move;

/// Opens the data file `path` for reading.
fn open(path: &Path) -> PyResult<Reader<BufReader<File>>> {
    let file = File::open(path)
        .map_err(|e| PyValueError::new_err(format!("cannot read '{}': {e}", path.display())))?;
    Ok(Reader::new(BufReader::with_capacity(1 << 16, file)))
}

/// The next record of `reader`, the error naming `path`.
fn next(reader: &mut Reader<BufReader<File>>, path: &Path) -> PyResult<Option<Record>> {
    reader.next_record().map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))
}

/// A piece as a signed code: 1 rook, 2 advisor, 3 cannon, 4 pawn, 5 horse,
/// 6 elephant, 7 king for Red, negated for Black, 0 for an empty point.
fn piece_code(piece: Option<chariot::types::Piece>) -> i8 {
    piece.map_or(0, |p| {
        let code = p.kind().index() as i8 + 1;
        if p.color() == Color::Red { code } else { -code }
    })
}

/// One position of a `chariot datagen` file.
#[pyclass(module = "chariot", frozen)]
pub struct TrainingRecord {
    record: Record,
}

#[pymethods]
impl TrainingRecord {
    /// The position's FEN.
    #[getter]
    fn fen(&self) -> PyResult<String> {
        Ok(self.board()?.pos.fen())
    }

    /// The position as a `Board` (no history).
    fn board(&self) -> PyResult<Board> {
        self.record
            .position()
            .map(|pos| Board { pos })
            .map_err(|e| PyValueError::new_err(format!("a record holds an impossible position: {e}")))
    }

    /// The side to move: True for Red.
    #[getter]
    fn turn(&self) -> bool {
        self.record.side == Color::Red
    }

    /// The search score in centipawns, from the side to move's view.
    #[getter]
    fn score(&self) -> i16 {
        self.record.score
    }

    /// The game's result in PGN form: `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    #[getter]
    fn result(&self) -> &'static str {
        self.record.result.pgn()
    }

    /// The game's result from the side to move's view: 1, 0.5 or 0.
    #[getter]
    fn result_for_side_to_move(&self) -> f64 {
        self.record.result_for_side_to_move()
    }

    /// The move the search chose.
    #[getter]
    fn best_move(&self) -> Move {
        Move::of(self.record.best)
    }

    /// How the game ended: `mate`, `stalemate`, `perpetual-check`, `perpetual-chase`,
    /// `mutual-perpetual`, `repetition`, `60-round`, `dead-draw` or `adjudicated`.
    #[getter]
    fn end(&self) -> &'static str {
        self.record.end.name()
    }

    /// Plies since the game's start.
    #[getter]
    fn ply(&self) -> u16 {
        self.record.ply
    }

    /// Plies since the last capture.
    #[getter]
    fn halfmove_clock(&self) -> u8 {
        self.record.rule60
    }

    fn __repr__(&self) -> String {
        let fen = self.record.position().map_or_else(|e| format!("<{e}>"), |p| p.fen());
        format!(
            "<TrainingRecord {fen} score={} result={} best={}>",
            self.record.score,
            self.record.result.pgn(),
            self.record.best
        )
    }
}

/// An iterator over the records of a data file.
#[pyclass(module = "chariot", frozen)]
pub struct TrainingReader {
    path: PathBuf,
    reader: Mutex<Reader<BufReader<File>>>,
}

#[pymethods]
impl TrainingReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self) -> PyResult<Option<TrainingRecord>> {
        let mut reader = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        Ok(next(&mut reader, &self.path)?.map(|record| TrainingRecord { record }))
    }
}

/// The records of the `chariot datagen` file `path` (a `str` or any
/// `os.PathLike`), one at a time.
#[pyfunction]
pub fn read_training_data(path: PathBuf) -> PyResult<TrainingReader> {
    Ok(TrainingReader { reader: Mutex::new(open(&path)?), path })
}

/// The records of `path` (at most `limit`) as columns: a dict from name to
/// `(bytes, dtype, shape)`, read with the GIL released (see
/// `chariot.read_training_arrays`).
#[pyfunction]
#[pyo3(signature = (path, limit = None))]
pub fn training_columns<'py>(
    py: Python<'py>,
    path: PathBuf,
    limit: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut reader = open(&path)?;
    let columns = py.detach(|| -> PyResult<Columns> {
        let mut c = Columns::default();
        while limit.is_none_or(|l| c.len < l) {
            let Some(r) = next(&mut reader, &path)? else { break };
            c.push(&r);
        }
        Ok(c)
    })?;
    let d = PyDict::new(py);
    let n = columns.len as usize;
    let add = |name: &str, bytes: &[u8], dtype: &str, shape: Vec<usize>| {
        d.set_item(name, (PyBytes::new(py, bytes), dtype, shape))
    };
    add("board", &columns.board, "i1", vec![n, 90])?;
    add("turn", &columns.turn, "u1", vec![n])?;
    add("score", &columns.score, "<i2", vec![n])?;
    add("result", &columns.result, "<f4", vec![n])?;
    add("best_from", &columns.best_from, "u1", vec![n])?;
    add("best_to", &columns.best_to, "u1", vec![n])?;
    add("ply", &columns.ply, "<u2", vec![n])?;
    add("halfmove_clock", &columns.rule60, "u1", vec![n])?;
    Ok(d)
}

/// The columns of [`training_columns`], as little-endian bytes.
#[derive(Default)]
struct Columns {
    len: u64,
    board: Vec<u8>,
    turn: Vec<u8>,
    score: Vec<u8>,
    result: Vec<u8>,
    best_from: Vec<u8>,
    best_to: Vec<u8>,
    ply: Vec<u8>,
    rule60: Vec<u8>,
}

impl Columns {
    fn push(&mut self, r: &Record) {
        self.len += 1;
        self.board.extend(r.board.iter().map(|&p| piece_code(p) as u8));
        self.turn.push((r.side == Color::Red) as u8);
        self.score.extend(r.score.to_le_bytes());
        self.result.extend((r.result_for_side_to_move() as f32).to_le_bytes());
        self.best_from.push(r.best.from().index() as u8);
        self.best_to.push(r.best.to().index() as u8);
        self.ply.extend(r.ply.to_le_bytes());
        self.rule60.push(r.rule60);
    }
}
