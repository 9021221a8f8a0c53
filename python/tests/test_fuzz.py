"""Fuzzing: random strings into every function that reads text, and random
call sequences on boards and an engine. Every failure must be a ValueError
(or a subclass); the interpreter must survive. FUZZ_CALLS sets the count."""

import os
import random
import string

import pytest

import chariot

CALLS = int(os.environ.get("FUZZ_CALLS", "30000"))
ALPHABET = string.printable + "帥仕相傌俥炮兵將士象馬車砲卒１２進退平\x00\udcff"
FEN_PIECES = "rnbakcpRNBAKCPEH123456789/ wb-"


def random_text(rng):
    kind = rng.random()
    if kind < 0.3:
        return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 12)))
    if kind < 0.6:
        return "".join(rng.choice("abcdefghij0123456789") for _ in range(rng.randrange(0, 6)))
    if kind < 0.9:
        fen = list(chariot.STARTING_FEN)
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(fen))
            op = rng.random()
            if op < 0.4:
                fen[i] = rng.choice(FEN_PIECES)
            elif op < 0.7:
                del fen[i]
            else:
                fen.insert(i, rng.choice(FEN_PIECES))
        return "".join(fen)
    return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(0, 40)))


def call(f, *args, **kwargs):
    """Runs f; only ValueError may escape it (TypeError for wrong argument
    types, which Python itself raises before any Chariot code runs)."""
    try:
        return f(*args, **kwargs)
    except (ValueError, TypeError):
        return None


def test_random_strings():
    rng = random.Random(11)
    board = chariot.Board()
    survived = 0
    for _ in range(CALLS):
        text = random_text(rng)
        b = call(chariot.Board, text)
        if b is not None:
            # Any FEN accepted gives a consistent board.
            assert chariot.Board(b.fen()).fen() == b.fen()
            b.legal_moves, b.outcome(), b.is_check(), str(b)
        call(board.push, text)
        if board.move_stack:
            board.pop()
        call(board.is_legal, text)
        call(board.piece_at, text)
        call(chariot.Move.from_uci, text)
        call(chariot.parse_square, text)
        call(chariot.Piece.from_symbol, text)
        call(board.outcome, rules=text)
        survived += 8
    assert board.fen() == chariot.STARTING_FEN
    print(f"\nfuzz: {survived} calls with random strings survived")


def test_random_call_sequences():
    rng = random.Random(12)
    boards = [chariot.Board()]
    survived = 0
    for _ in range(CALLS):
        b = rng.choice(boards)
        op = rng.randrange(12)
        if op < 4:
            moves = b.legal_moves
            if moves:
                b.push(rng.choice(moves))
        elif op == 4:
            call(lambda: b.push(chariot.Move(rng.randrange(90), rng.randrange(90))))
        elif op == 5:
            call(b.pop)
        elif op == 6 and len(boards) < 8:
            boards.append(b.copy())
        elif op == 7:
            call(b.outcome, rules=rng.choice(["asian", "chinese", "bad"]), kill_depth=rng.randrange(-1, 8),
                 move_limit=rng.randrange(-5, 300))
        elif op == 8:
            call(b.perft, rng.randrange(-2, 3))
        elif op == 9:
            call(b.piece_at, rng.randrange(-5, 100))
        elif op == 10:
            b.zobrist_hash(), b.fen(), b.turn, b.is_check(), b.move_stack, repr(b)
        else:
            call(lambda: b.gives_check(chariot.Move(rng.randrange(90), rng.randrange(90))))
        if b.outcome() is not None or len(b.move_stack) > 300:
            boards[boards.index(b)] = chariot.Board()
        survived += 1
    for b in boards:
        assert chariot.Board(b.fen()).fen() == b.fen()
    print(f"\nfuzz: {survived} random calls on boards survived")


def test_random_engine_calls():
    rng = random.Random(13)
    engine = chariot.Engine(hash_mb=2)
    board = chariot.Board()
    survived = 0
    for _ in range(200):
        kwargs = {}
        for key in ("depth", "nodes", "movetime", "multipv"):
            if rng.random() < 0.4:
                kwargs[key] = rng.choice([-1, 0, 1, 2, 3, 10**12, 0.001, float("inf")])
        if not (isinstance(kwargs.get("nodes"), int) and 0 < kwargs["nodes"] <= 3):
            kwargs["nodes"] = rng.choice([-1, 0, 1, 500, 2000, 0.5, "x"])  # every search stays short
        call(engine.analyse, board, **kwargs)
        moves = board.legal_moves
        if moves and rng.random() < 0.5:
            board.push(rng.choice(moves))
        if board.outcome() is not None:
            board = chariot.Board()
        survived += 1
    for _ in range(30):
        options = {k: rng.choice(v) for k, v in {
            "threads": [-1, 0, 1, 2, 2000], "hash_mb": [-1, 0, 1, 2, 10**9], "rules": ["asian", "chinese", "", "x"],
            "eval": ["nnue", "classical", "NNUE", "?"], "skill": [None, -1, 0, 20, 21, 300],
            "elo": [None, 0, 800, 2800, 3000],
        }.items() if rng.random() < 0.5}
        e = call(chariot.Engine, **options)
        if e is not None:
            assert board.is_legal(e.play(board, nodes=300)) or not board.legal_moves
        survived += 1
    print(f"\nfuzz: {survived} random engine calls survived")
