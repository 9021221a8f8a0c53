"""Chariot: a xiangqi (Chinese chess) board, rule arbiter and engine.

The board, the moves and the arbiter follow python-chess's design::

    import chariot
    board = chariot.Board()
    board.push("h2e2")                 # or a chariot.Move
    print(board.legal_moves[:3], board.is_check(), board.outcome())

    engine = chariot.Engine(threads=1, hash_mb=16)
    print(engine.analyse(board, depth=10)[0]["score"])
    print(engine.play(board, movetime=0.5))

Squares are numbered 0-89 rank by rank from Red's side (``a0`` = 0,
``i9`` = 89); every function taking a square also takes its name. Every error
is a ``ValueError`` (or one of its subclasses below) saying why.
"""

from ._chariot import (
    BLACK,
    RED,
    STARTING_FEN,
    VERSION,
    Board,
    Engine,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    Outcome,
    Piece,
    TrainingReader,
    TrainingRecord,
    parse_square,
    read_training_data,
    square_name,
    training_columns,
)

__version__ = VERSION

#: The piece kinds in the order of their codes in ``read_training_arrays``'s
#: ``board`` column (code 1 = rook, …, 7 = king; negative for Black).
PIECE_KINDS = ("rook", "advisor", "cannon", "pawn", "horse", "elephant", "king")

#: The names of the 90 squares, by index.
SQUARE_NAMES = tuple(square_name(i) for i in range(90))


def read_training_arrays(path, limit=None):
    """The records of a ``chariot datagen`` file as numpy arrays (numpy must
    be installed), at most ``limit`` of them, in a dict:

    * ``board``: ``(N, 90)`` int8, the piece on each square (index 0 = a0):
      0 empty, 1-7 a Red piece in the order of ``PIECE_KINDS``, -1 to -7 Black;
    * ``turn``: uint8, 1 with Red to move;
    * ``score``: int16, the search score in centipawns for the side to move;
    * ``result``: float32, the game's result for the side to move (1, 0.5, 0);
    * ``best_from``, ``best_to``: uint8, the squares of the chosen move;
    * ``ply``: uint16; ``halfmove_clock``: uint8.
    """
    try:
        import numpy as np
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("read_training_arrays needs numpy (pip install numpy)") from e
    columns = training_columns(path, limit)
    return {
        name: np.frombuffer(data, dtype=np.dtype(dtype)).reshape(shape)
        for name, (data, dtype, shape) in columns.items()
    }


__all__ = [
    "BLACK",
    "RED",
    "STARTING_FEN",
    "PIECE_KINDS",
    "SQUARE_NAMES",
    "Board",
    "Engine",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "Move",
    "Outcome",
    "Piece",
    "TrainingReader",
    "TrainingRecord",
    "parse_square",
    "read_training_arrays",
    "read_training_data",
    "square_name",
]
