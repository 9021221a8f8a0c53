//! The exception classes. Every error the package raises is a `ValueError`
//! (or one of these subclasses of it) carrying the reason in words.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;

create_exception!(
    chariot,
    InvalidMoveError,
    PyValueError,
    "A move written in no notation the package reads (e.g. 'h2x2')."
);
create_exception!(
    chariot,
    IllegalMoveError,
    PyValueError,
    "A well-formed move that is not legal in the position."
);
create_exception!(chariot, InvalidFenError, PyValueError, "A FEN the board cannot be set up from.");
