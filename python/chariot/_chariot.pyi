"""Type stubs of the native module chariot._chariot (see chariot/__init__.py)."""

import os
from typing import Iterator, Literal, Optional, Union

STARTING_FEN: str
RED: bool
BLACK: bool
VERSION: str

Square = Union[int, str]
"""A square: an index 0-89 (a0 = 0, i0 = 8, a1 = 9, ..., i9 = 89) or a name like 'e0'."""

RuleSetName = Literal["asian", "chinese"]

class InvalidMoveError(ValueError):
    """A move written in no notation the package reads (e.g. 'h2x2')."""

class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the position."""

class InvalidFenError(ValueError):
    """A FEN the board cannot be set up from."""

def square_name(square: Square) -> str:
    """The name of a square, like 'e0'."""

def parse_square(name: str) -> int:
    """The index (0-89) of the square named `name` ('a0'-'i9')."""

class Move:
    """A move from one square to another; str(move) is the coordinate form 'h2e2'."""

    def __init__(self, from_square: Square, to_square: Square) -> None: ...
    @staticmethod
    def from_uci(text: str) -> Move:
        """Reads the coordinate form 'h2e2' (no legality check)."""
    @property
    def from_square(self) -> int: ...
    @property
    def to_square(self) -> int: ...
    def uci(self) -> str:
        """The coordinate form, 'h2e2'."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Piece:
    """A piece: its colour (RED = True) and kind."""

    @staticmethod
    def from_symbol(symbol: str) -> Piece:
        """The piece with FEN letter `symbol` (upper case Red: K A B N R C P, also E and H)."""
    @property
    def color(self) -> bool: ...
    @property
    def kind(self) -> Literal["king", "advisor", "elephant", "horse", "rook", "cannon", "pawn"]: ...
    def symbol(self) -> str:
        """The FEN letter (upper case for Red)."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Outcome:
    """The arbiter's ruling on a finished game."""

    result: Literal["1-0", "0-1", "1/2-1/2"]
    """The PGN result."""
    winner: Optional[bool]
    """True if Red won, False if Black won, None for a draw."""
    verdict: Literal["red_wins", "black_wins", "draw"]
    reason: str
    """The rule that ended the game, in words, e.g. 'perpetual check by red'."""
    explanation: str
    """What `chariot judge` prints: the verdict line, the rule, and for a
    repetition the window, each side's class and every window move."""

class Board:
    """A xiangqi position with the moves that led to it."""

    def __init__(self, fen: Optional[str] = None) -> None: ...
    def fen(self) -> str: ...
    @property
    def turn(self) -> bool:
        """RED (True) or BLACK (False)."""
    @property
    def legal_moves(self) -> list[Move]: ...
    def legal_move_count(self) -> int: ...
    def is_legal(self, move: Union[Move, str]) -> bool: ...
    def parse_move(self, text: Union[Move, str]) -> Move:
        """The legal move written as `text`; InvalidMoveError or IllegalMoveError otherwise."""
    def push(self, move: Union[Move, str]) -> None:
        """Plays a Move or a move written as text in any notation ('h2e2', 'h2-e2', 'C2=5', '炮二平五');
        InvalidMoveError or IllegalMoveError otherwise."""
    def move_text(self, move: Union[Move, str], notation: Literal["zh", "chinese", "wxf", "iccs", "uci"] = "wxf") -> str:
        """The legal move written in `notation`."""
    def pop(self) -> Move:
        """Takes back the last move; ValueError if none was played since the FEN."""
    def peek(self) -> Optional[Move]: ...
    @property
    def move_stack(self) -> list[Move]: ...
    @property
    def halfmove_clock(self) -> int: ...
    @property
    def fullmove_number(self) -> int: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def gives_check(self, move: Union[Move, str]) -> bool: ...
    def is_capture(self, move: Union[Move, str]) -> bool: ...
    def piece_at(self, square: Square) -> Optional[Piece]: ...
    def king(self, color: bool) -> int: ...
    def root(self) -> Board:
        """The board at the FEN it was set up from."""
    @staticmethod
    def from_game(fen: str, moves: list[Union[Move, str]]) -> Board:
        """The board of `fen` after `moves`."""
    def copy(self) -> Board: ...
    def __copy__(self) -> Board: ...
    def __deepcopy__(self, memo: object) -> Board: ...
    def zobrist_hash(self) -> int: ...
    def perft(self, depth: int) -> int:
        """Legal move sequences of `depth` plies (0-12), counted with the GIL released."""
    def outcome(
        self, rules: RuleSetName = "asian", *, move_limit: Optional[int] = None, kill_depth: Optional[int] = None
    ) -> Optional[Outcome]:
        """The arbiter's ruling on the game so far, or None while it goes on."""
    def is_game_over(self, rules: RuleSetName = "asian") -> bool: ...
    def svg(self, size: int = 50, flipped: bool = False) -> str:
        """The board drawn as an SVG document, the last move marked."""
    def _repr_svg_(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...

class Engine:
    """A Chariot engine in the process; searches release the GIL and stop on Ctrl-C."""

    def __init__(
        self,
        threads: Optional[int] = 1,
        hash_mb: Optional[int] = 16,
        rules: RuleSetName = "asian",
        eval: Literal["nnue", "classical"] = "nnue",
        skill: Optional[int] = None,
        elo: Optional[int] = None,
        network: Optional[str] = None,
    ) -> None: ...
    def analyse(
        self,
        board: Board,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime: Optional[float] = None,
        multipv: Optional[int] = 1,
    ) -> list[dict]:
        """One dict per line, best first: score (cp, None for a mate), mate, wdl,
        depth, seldepth, nodes, nps, time (s), hashfull, multipv, pv (Moves)."""
    def play(
        self,
        board: Board,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime: Optional[float] = None,
    ) -> Move: ...
    def new_game(self) -> None: ...
    @property
    def threads(self) -> int: ...
    @property
    def hash_mb(self) -> int: ...
    @property
    def rules(self) -> RuleSetName: ...
    @property
    def eval(self) -> Literal["nnue", "classical"]: ...

class TrainingRecord:
    """One position of a `chariot datagen` file."""

    @property
    def fen(self) -> str: ...
    def board(self) -> Board: ...
    @property
    def turn(self) -> bool: ...
    @property
    def score(self) -> int: ...
    @property
    def result(self) -> Literal["1-0", "0-1", "1/2-1/2"]: ...
    @property
    def result_for_side_to_move(self) -> float: ...
    @property
    def best_move(self) -> Move: ...
    @property
    def end(self) -> str: ...
    @property
    def ply(self) -> int: ...
    @property
    def halfmove_clock(self) -> int: ...

class TrainingReader(Iterator[TrainingRecord]):
    def __iter__(self) -> TrainingReader: ...
    def __next__(self) -> TrainingRecord: ...

def read_training_data(path: Union[str, os.PathLike[str]]) -> TrainingReader:
    """The records of a `chariot datagen` file, one at a time."""

def training_columns(path: Union[str, os.PathLike[str]], limit: Optional[int] = None) -> dict[str, tuple[bytes, str, list[int]]]: ...
