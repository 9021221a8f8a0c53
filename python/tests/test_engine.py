"""The engine: each limit, MultiPV, mates, options, errors, two engines in two
threads at once (the GIL is released), Ctrl-C stopping a search."""

import os
import signal
import threading
import time

import pytest

import chariot
from conftest import REPO

MIDDLEGAME = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3"
MATE_IN_ONE = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"  # b0b9 mates


@pytest.fixture(scope="module")
def engine():
    return chariot.Engine(hash_mb=8)


def check_line(board, line):
    assert set(line) >= {"score", "mate", "wdl", "depth", "nodes", "pv", "multipv", "time"}
    assert (line["score"] is None) != (line["mate"] is None)
    assert sum(line["wdl"]) == 1000
    b = board.copy()
    for m in line["pv"]:
        assert isinstance(m, chariot.Move)
        b.push(m)  # every move of the PV is legal in turn


def test_analyse_depth(engine):
    board = chariot.Board(MIDDLEGAME)
    lines = engine.analyse(board, depth=6)
    assert len(lines) == 1 and lines[0]["depth"] == 6
    check_line(board, lines[0])
    assert board.fen() == MIDDLEGAME


def test_analyse_nodes(engine):
    board = chariot.Board()
    line = engine.analyse(board, nodes=3000)[0]
    check_line(board, line)
    assert 0 < line["nodes"] <= 3000 + 2000  # a node limit is checked every few nodes


def test_a_tiny_node_limit_still_gives_a_line(engine):
    board = chariot.Board()
    lines = engine.analyse(board, nodes=1)
    assert len(lines) == 1 and lines[0]["depth"] >= 0 and len(lines[0]["pv"]) >= 1
    check_line(board, lines[0])


def test_analyse_movetime(engine):
    board = chariot.Board(MIDDLEGAME)
    t = time.monotonic()
    line = engine.analyse(board, movetime=0.3)[0]
    elapsed = time.monotonic() - t
    check_line(board, line)
    assert 0.2 < elapsed < 3.0


def test_multipv(engine):
    board = chariot.Board()
    lines = engine.analyse(board, depth=5, multipv=3)
    assert [l["multipv"] for l in lines] == [1, 2, 3]
    assert len({str(l["pv"][0]) for l in lines}) == 3
    for line in lines:
        check_line(board, line)


def test_mate_is_found(engine):
    board = chariot.Board(MATE_IN_ONE)
    line = engine.analyse(board, depth=4)[0]
    assert line["mate"] == 1 and line["score"] is None
    assert str(line["pv"][0]) == "b0b9"
    assert str(engine.play(board, depth=4)) == "b0b9"
    board.push("b0b9")
    assert engine.analyse(board, depth=3) == []
    with pytest.raises(ValueError):
        engine.play(board, depth=3)


def test_play_each_limit(engine):
    board = chariot.Board()
    for kwargs in ({"depth": 4}, {"nodes": 1000}, {"movetime": 0.05}, {}):
        assert board.is_legal(engine.play(board, **kwargs)), kwargs


@pytest.mark.parametrize("kwargs", [
    {"eval": "classical"}, {"rules": "chinese"}, {"skill": 3}, {"elo": 1200}, {"threads": 2},
    {"network": str(REPO / "nets" / "default.nnue")},
])
def test_options(kwargs):
    e = chariot.Engine(hash_mb=4, **kwargs)
    board = chariot.Board(MIDDLEGAME)
    assert board.is_legal(e.play(board, depth=5))
    if "eval" in kwargs:
        assert e.eval == "classical"
    if "rules" in kwargs:
        assert e.rules == "chinese"
    if "threads" in kwargs:
        assert e.threads == 2


@pytest.mark.parametrize("kwargs", [
    {"threads": 0}, {"threads": 5000}, {"hash_mb": 0}, {"rules": "x"}, {"eval": "magic"},
    {"skill": 21}, {"elo": 100}, {"elo": 9999}, {"network": "/no/such/file.nnue"},
])
def test_bad_options(kwargs):
    with pytest.raises(ValueError):
        chariot.Engine(**kwargs)


@pytest.mark.parametrize("kwargs", [
    {"depth": 0}, {"depth": 1000}, {"nodes": 0}, {"movetime": 0}, {"movetime": -1},
    {"movetime": float("nan")}, {"multipv": 0},
])
def test_bad_limits(engine, kwargs):
    with pytest.raises(ValueError):
        engine.analyse(chariot.Board(), **kwargs)


def test_two_engines_in_two_threads_at_once():
    engines = [chariot.Engine(hash_mb=4), chariot.Engine(hash_mb=4, eval="classical")]
    spans, moves, errors = [None, None], [None, None], []
    barrier = threading.Barrier(2)

    def run(i):
        try:
            board = chariot.Board(MIDDLEGAME)
            barrier.wait()
            t = time.monotonic()
            moves[i] = engines[i].play(board, movetime=0.5)
            spans[i] = (t, time.monotonic())
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    board = chariot.Board(MIDDLEGAME)
    assert all(board.is_legal(m) for m in moves)
    # The searches overlapped: each started before the other ended (with the
    # GIL held they would have run one after the other).
    (a0, a1), (b0, b1) = spans
    assert a0 < b1 and b0 < a1


def test_one_engine_shared_by_two_threads(engine):
    results = []

    def run():
        results.append(engine.play(chariot.Board(), nodes=2000))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 3


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_stops_the_search(engine):
    board = chariot.Board(MIDDLEGAME)
    # Python's own Ctrl-C handler, which a process started in the background
    # by a shell lacks (SIGINT ignored from the start, so no KeyboardInterrupt).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    t = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            engine.analyse(board, movetime=60)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - t < 10
    # The engine is usable afterwards.
    assert board.is_legal(engine.play(board, depth=3))


def test_new_game_and_repr(engine):
    engine.new_game()
    assert repr(engine).startswith("Engine(threads=1, hash_mb=8")


def test_the_board_stays_free_during_a_search(engine):
    board = chariot.Board(MIDDLEGAME)
    result = []
    t = threading.Thread(target=lambda: result.append(engine.play(board, movetime=0.3)))
    t.start()
    time.sleep(0.1)
    board.push("a0a1")  # the search works on its own copy
    board.pop()
    t.join()
    assert chariot.Board(MIDDLEGAME).is_legal(result[0])
