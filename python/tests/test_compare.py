"""Random games compared move by move with pyffish (Fairy-Stockfish's
binding) and cchess (pure Python): at every position the legal move sets
agree. pyffish writes ranks 1-10 (h3e3), chariot and cchess 0-9 (h2e2)."""

import random

import pytest

import chariot
from conftest import REPO, from_ffish, to_ffish

pyffish = pytest.importorskip("pyffish")
cchess = pytest.importorskip("cchess")

RANDOM_FENS = [l.split(";")[0].strip() for l in (REPO / "perft-data" / "random.epd").read_text().splitlines()
               if l.strip() and not l.startswith("#")]


def cchess_moves(fen):
    board = cchess.ChessBoard(fen)
    moves = set()
    for (fx, fy), (tx, ty) in board.create_moves():
        if board.is_valid_move((fx, fy), (tx, ty)) and not board.is_checked_move((fx, fy), (tx, ty)):
            moves.add(f"{'abcdefghi'[fx]}{fy}{'abcdefghi'[tx]}{ty}")
    return moves


def random_game(rng, fen, plies):
    """The FENs of a random game of at most `plies` plies from `fen`."""
    board = chariot.Board(fen)
    fens = [board.fen()]
    for _ in range(plies):
        moves = board.legal_moves
        if not moves or board.outcome() is not None:
            break
        board.push(rng.choice(moves))
        fens.append(board.fen())
    return fens


def test_pyffish_legal_moves_agree():
    rng = random.Random(1)
    starts = [chariot.STARTING_FEN] * 6 + RANDOM_FENS[::6]
    positions = 0
    for fen in starts:
        for pos in random_game(rng, fen, 150):
            ours = {str(m) for m in chariot.Board(pos).legal_moves}
            theirs = {from_ffish(m) for m in pyffish.legal_moves("xiangqi", pos, [])}
            assert ours == theirs, pos
            positions += 1
    assert positions > 1000


def test_pyffish_move_notation_round_trips():
    b = chariot.Board()
    assert {to_ffish(m) for m in b.legal_moves} == set(pyffish.legal_moves("xiangqi", b.fen(), []))


def test_pyffish_check_agrees():
    rng = random.Random(2)
    for fen in [chariot.STARTING_FEN] * 4:
        for pos in random_game(rng, fen, 150):
            assert chariot.Board(pos).is_check() == pyffish.gives_check("xiangqi", pos, []), pos


def test_cchess_legal_moves_agree():
    rng = random.Random(3)
    positions = 0
    for fen in [chariot.STARTING_FEN] * 3 + RANDOM_FENS[:3]:
        for pos in random_game(rng, fen, 100):
            ours = {str(m) for m in chariot.Board(pos).legal_moves}
            assert ours == cchess_moves(pos), pos
            positions += 1
    assert positions > 200
