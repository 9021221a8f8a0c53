//! `chariot._chariot`: the native half of the `chariot` Python package, the
//! Chariot engine's board, rule arbiter, search and training-data reader
//! seen from Python. The pure-Python half (`chariot/__init__.py`) re-exports
//! it and adds the numpy conversion.
//!
//! | module | what it holds |
//! |---|---|
//! | [`args`] | numbers from Python arguments, checked into `ValueError`s |
//! | [`errors`] | the exception classes (all `ValueError` subclasses) |
//! | [`notation`] | moves as text, both ways, through the engine's notation module |
//! | [`moves`] | `Move` and `Piece`, and square names |
//! | [`board`] | `Board`: a position with its game history |
//! | [`outcome`] | `Outcome`: the arbiter's ruling on a game |
//! | [`engine`] | `Engine`: searches with the GIL released, stoppable by Ctrl-C |
//! | [`training`] | `read_training_data`: the records of a `chariot datagen` file |

#![deny(missing_docs)]

pub mod args;
pub mod board;
pub mod engine;
pub mod errors;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod training;

use pyo3::prelude::*;

/// The native module `chariot._chariot`.
#[pymodule]
fn _chariot(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidMoveError", py.get_type::<errors::InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<errors::IllegalMoveError>())?;
    m.add("InvalidFenError", py.get_type::<errors::InvalidFenError>())?;
    m.add("STARTING_FEN", chariot::board::START_FEN)?;
    m.add("RED", true)?;
    m.add("BLACK", false)?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<moves::Move>()?;
    m.add_class::<moves::Piece>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<outcome::Outcome>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<training::TrainingRecord>()?;
    m.add_class::<training::TrainingReader>()?;
    m.add_function(wrap_pyfunction!(moves::square_name, m)?)?;
    m.add_function(wrap_pyfunction!(moves::parse_square, m)?)?;
    m.add_function(wrap_pyfunction!(training::read_training_data, m)?)?;
    m.add_function(wrap_pyfunction!(training::training_columns, m)?)?;
    Ok(())
}
