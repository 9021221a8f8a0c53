"""The board: moves, FEN, history, squares, pieces, perft against perft-data/."""

import copy

import pytest

import chariot
from conftest import perft_cases

CASES = perft_cases()


def test_start_position():
    b = chariot.Board()
    assert b.fen() == chariot.STARTING_FEN
    assert b.turn == chariot.RED
    assert len(b.legal_moves) == 44
    assert b.legal_move_count() == 44
    assert not b.is_check()
    assert b.outcome() is None
    assert str(b.piece_at("e0")) == "K"
    assert b.piece_at(4).kind == "king" and b.piece_at(4).color == chariot.RED
    assert b.piece_at("e9").color == chariot.BLACK
    assert b.piece_at("e5") is None
    assert b.king(chariot.RED) == 4 and b.king(chariot.BLACK) == 85
    assert chariot.Board("startpos") == b


def test_push_pop_and_history():
    b = chariot.Board()
    start_hash = b.zobrist_hash()
    b.push("h2e2")
    b.push(chariot.Move.from_uci("h9g7"))
    b.push(chariot.Move(chariot.parse_square("h0"), chariot.parse_square("g2")))
    assert [str(m) for m in b.move_stack] == ["h2e2", "h9g7", "h0g2"]
    assert b.peek() == chariot.Move.from_uci("h0g2")
    assert b.turn == chariot.BLACK
    assert b.fen() == "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2"
    assert str(b.pop()) == "h0g2"
    assert str(b.pop()) == "h9g7"
    assert str(b.pop()) == "h2e2"
    assert b.zobrist_hash() == start_hash
    assert b.move_stack == [] and b.peek() is None
    with pytest.raises(ValueError):
        b.pop()


def test_moves_are_values():
    m = chariot.Move.from_uci("h2e2")
    assert str(m) == "h2e2" and m.uci() == "h2e2"
    assert m.from_square == chariot.parse_square("h2") == 25
    assert m.to_square == 22
    assert m == chariot.Move("h2", "e2") and hash(m) == hash(chariot.Move(25, 22))
    assert len({m, chariot.Move.from_uci("h2e2"), chariot.Move.from_uci("b2e2")}) == 2
    assert chariot.square_name(89) == "i9" and chariot.SQUARE_NAMES[0] == "a0"


def test_copy_is_independent():
    b = chariot.Board()
    b.push("h2e2")
    for c in (b.copy(), copy.copy(b), copy.deepcopy(b)):
        c.push("h9g7")
        assert len(c.move_stack) == 2
    assert len(b.move_stack) == 1


def test_check_mate_and_capture():
    # A rook checks along the back rank; two rooks mate there.
    b = chariot.Board("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
    assert b.gives_check("a0a9")
    b.push("a0a9")
    assert b.is_check() and not b.is_checkmate()
    b = chariot.Board("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1")
    assert not b.is_capture("b0b9")
    b.push("b0b9")
    assert b.is_checkmate() and not b.is_stalemate()
    assert b.outcome().result == "1-0"
    assert b.outcome().reason == "checkmate: black is mated"


def test_text_board():
    text = str(chariot.Board())
    lines = text.splitlines()
    assert lines[0] == "9 r n b a k a b n r"
    assert lines[-2] == "0 R N B A K A B N R"
    assert lines[-1] == "  a b c d e f g h i"
    assert repr(chariot.Board()).startswith("Board('rnbakabnr/")


def python_perft(board, depth):
    """Perft through the Python API: legal_moves, push, pop."""
    if depth == 1:
        return len(board.legal_moves)
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += python_perft(board, depth - 1)
        board.pop()
    return n


@pytest.mark.parametrize("fen,counts", CASES, ids=[str(i) for i in range(len(CASES))])
def test_perft_data(fen, counts):
    board = chariot.Board(fen)
    for depth, expected in counts.items():
        if expected <= 3000:
            assert python_perft(board, depth) == expected, (fen, depth)
        if expected <= 500_000:
            assert board.perft(depth) == expected, (fen, depth)
    assert board.fen() == chariot.Board(fen).fen()


def test_errors_are_value_errors():
    b = chariot.Board()
    for bad in ["", "xyz", "rnbakabnr/9/9 w", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x"]:
        with pytest.raises(chariot.InvalidFenError):
            chariot.Board(bad)
    with pytest.raises(chariot.InvalidMoveError):
        b.push("h2x2")
    with pytest.raises(chariot.IllegalMoveError):
        b.push("h2h8")
    with pytest.raises(ValueError):
        b.push(42)
    with pytest.raises(ValueError):
        b.piece_at(90)
    with pytest.raises(ValueError):
        b.piece_at("j1")
    with pytest.raises(ValueError):
        b.outcome(rules="western")
    with pytest.raises(ValueError):
        b.perft(99)
    with pytest.raises(ValueError):
        chariot.Move("a0", "a0")
    assert issubclass(chariot.IllegalMoveError, ValueError)
    assert b.fen() == chariot.STARTING_FEN


def test_pickle_and_root():
    import pickle
    b = chariot.Board()
    for m in ["h2e2", "h9g7", "h0g2"]:
        b.push(m)
    c = pickle.loads(pickle.dumps(b))
    assert c == b and c.move_stack == b.move_stack
    assert b.root().fen() == chariot.STARTING_FEN and len(b.move_stack) == 3
    m = chariot.Move.from_uci("h2e2")
    assert pickle.loads(pickle.dumps(m)) == m
    p = chariot.Piece.from_symbol("c")
    assert pickle.loads(pickle.dumps(p)) == p and p.kind == "cannon" and p.color == chariot.BLACK


def test_every_notation_round_trips():
    import random
    rng = random.Random(5)
    board = chariot.Board()
    checked = 0
    for _ in range(120):
        moves = board.legal_moves
        if not moves or board.outcome() is not None:
            break
        for m in moves:
            for notation in ("zh", "wxf", "iccs", "uci"):
                text = board.move_text(m, notation)
                assert board.parse_move(text) == m, (board.fen(), str(m), notation, text)
                checked += 1
        board.push(rng.choice(moves))
    assert checked > 5000
    b = chariot.Board()
    assert [b.move_text("h2e2", n) for n in ("zh", "wxf", "iccs", "uci")] == ["炮二平五", "C2=5", "h2-e2", "h2e2"]
    b.push("炮二平五")
    b.push("h9g7")
    b.push("H2+3")  # WXF: the horse on file 2 advances to file 3
    assert [str(m) for m in b.move_stack] == ["h2e2", "h9g7", "h0g2"]
    with pytest.raises(ValueError):
        b.move_text("a3a4", "klingon")


def test_svg():
    b = chariot.Board()
    b.push("h2e2")
    svg = b.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>") and "炮" in svg
    assert b._repr_svg_().startswith("<svg") and b.svg(size=20, flipped=True) != svg
    with pytest.raises(ValueError):
        b.svg(size=5)
