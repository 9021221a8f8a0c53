"""read_training_data and read_training_arrays on datagen files: one written
here byte by byte (the format of src/tools/datagen/format.rs), and one made by
`chariot datagen` compared with its `--dump`."""

import importlib.util
import struct
import subprocess

import pytest

import chariot
from conftest import CLI

KINDS = "RACPNBK"  # the engine's kind order, as in chariot.PIECE_KINDS


def header():
    return b"chariot datagen\0" + struct.pack("<HH", 1, 40) + bytes(20)


def record(fen, score, best, result, end, ply):
    """The 40 bytes of one record (result: 0 Black wins, 1 draw, 2 Red wins)."""
    board = chariot.Board(fen)
    occupancy, codes, n = 0, 0, 0
    for sq in range(90):
        piece = board.piece_at(sq)
        if piece is not None:
            occupancy |= 1 << sq
            code = KINDS.index(piece.symbol().upper()) + (0 if piece.color else 8)
            codes |= code << (4 * n)
            n += 1
    m = chariot.Move.from_uci(best)
    raw = m.from_square << 7 | m.to_square
    return (occupancy.to_bytes(16, "little")[:12] + codes.to_bytes(16, "little")
            + struct.pack("<hHHBBBB", score, raw, ply, 0 if board.turn else 1, board.halfmove_clock, result, end)
            + bytes(2))


FENS = [
    (chariot.STARTING_FEN, 25, "h2e2", 2, 6, 0),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", -40, "h9g7", 1, 5, 1),
    ("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", 31999, "b0b9", 0, 0, 88),
]


@pytest.fixture()
def data_file(tmp_path):
    path = tmp_path / "data.bin"
    body = b"".join(record(*f) for f in FENS)
    path.write_bytes(header() + body + header() + record(*FENS[0]) + b"\1\2\3")  # an inner header and a partial tail
    return path


def test_records(data_file):
    records = list(chariot.read_training_data(str(data_file)))
    assert len(records) == 4
    r = records[0]
    assert r.fen.startswith(chariot.STARTING_FEN.split(" ")[0]) and r.turn == chariot.RED
    assert (r.score, str(r.best_move), r.result, r.end, r.ply) == (25, "h2e2", "1-0", "60-round", 0)
    assert r.result_for_side_to_move == 1.0
    r = records[1]
    assert r.turn == chariot.BLACK and r.score == -40 and r.result == "1/2-1/2" and r.halfmove_clock == 1
    assert r.board().fen() == r.fen
    assert records[2].result == "0-1" and records[2].end == "mate" and records[2].result_for_side_to_move == 0.0
    assert r.board().is_legal(records[1].best_move)


def test_arrays(data_file):
    np = pytest.importorskip("numpy")
    a = chariot.read_training_arrays(str(data_file))
    assert a["board"].shape == (4, 90) and a["board"].dtype == np.int8
    assert a["board"][0][4] == 7 and a["board"][0][85] == -7 and a["board"][0][0] == 1 and a["board"][0][40] == 0
    assert list(a["score"]) == [25, -40, 31999, 25]
    assert list(a["turn"]) == [1, 0, 1, 1]
    assert list(a["result"]) == [1.0, 0.5, 0.0, 1.0]
    assert chariot.SQUARE_NAMES[a["best_from"][0]] + chariot.SQUARE_NAMES[a["best_to"][0]] == "h2e2"
    assert list(a["ply"]) == [0, 1, 88, 0]
    assert len(chariot.read_training_arrays(str(data_file), limit=2)["score"]) == 2


def test_path_like_arguments(data_file):
    # A pathlib.Path reads the same records as its str; a non-path is a TypeError.
    assert [r.fen for r in chariot.read_training_data(data_file)] == [
        r.fen for r in chariot.read_training_data(str(data_file))]
    if importlib.util.find_spec("numpy"):
        assert list(chariot.read_training_arrays(data_file)["score"]) == [25, -40, 31999, 25]
    with pytest.raises(TypeError):
        chariot.read_training_data(42)


def test_bad_files(tmp_path):
    with pytest.raises(ValueError):
        chariot.read_training_data(str(tmp_path / "missing.bin"))
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(200)))
    with pytest.raises(ValueError):
        list(chariot.read_training_data(str(junk)))
    with pytest.raises(ValueError):
        chariot.read_training_arrays(str(junk))


@pytest.mark.skipif(not CLI.exists(), reason="needs target/release/chariot (cargo build --release)")
def test_a_datagen_file_matches_its_dump(tmp_path):
    path = tmp_path / "gen.bin"
    subprocess.run([CLI, "datagen", "--out", path, "--games", "1", "--nodes", "300", "--threads", "1", "--seed", "7"],
                   check=True, capture_output=True)
    dump = subprocess.run([CLI, "datagen", "--dump", path], check=True, capture_output=True, text=True).stdout
    expected = [[f.strip() for f in line.split("|")] for line in dump.splitlines() if "|" in line]
    records = list(chariot.read_training_data(str(path)))
    assert len(records) == len(expected) > 0
    words = {"1-0": "red_wins", "0-1": "black_wins", "1/2-1/2": "draw"}
    for r, (fen, score, result, best) in zip(records, expected):
        assert (r.fen, str(r.score), words[r.result], str(r.best_move)) == (fen, score, result, best)
