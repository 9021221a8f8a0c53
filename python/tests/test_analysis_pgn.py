"""The annotated PGN of `chariot analyse` read back by programs other than
Chariot: parsed here by the PGN standard's grammar (tags, moves, comments,
NAGs), its ICCS moves replayed by pyffish and its Chinese moves read by
cchess, both compared with cchess's reading of the source file.

cchess's PGN reader takes comments only on lines of their own and splits
the moves on single spaces, so its copy has the comments and NAGs taken out
and the spaces evened (what any PGN reader's tokenizer does itself)."""

import re
import subprocess

import pytest

from conftest import CLI, REPO, to_ffish

pyffish = pytest.importorskip("pyffish")
cchess = pytest.importorskip("cchess")

GAME = REPO / "tests" / "data" / "games" / "longhua1989.pgn"
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TAG = re.compile(r'\[(\w+) "((?:[^"\\]|\\.)*)"\]')
TOKEN = re.compile(r"\{[^}]*\}|;[^\n]*|\$\d+|[()]|\d+\.(?:\.\.)?|[^\s{};$()]+")
MARKS = {6: "inaccuracy", 2: "mistake", 4: "blunder"}

pytestmark = pytest.mark.skipif(not CLI.exists(), reason="needs target/release/chariot (cargo build --release)")


def analyse(notation):
    """The first game of GAME analysed at depth 2, as an annotated PGN in `notation`."""
    return subprocess.run(
        [CLI, "analyse", "--depth", "2", "--game", "1", "--format", "pgn", "--notation", notation, GAME],
        check=True, capture_output=True, text=True).stdout


def parse(text):
    """(tags, moves, {move index: comment}, {move index: NAG}, result) of a
    one-game PGN; every line of the head a tag, no variations."""
    head, _, body = text.strip().partition("\n\n")
    tags = {}
    for line in head.splitlines():
        m = TAG.fullmatch(line.strip())
        assert m, f"not a tag pair: {line!r}"
        tags[m[1]] = m[2]
    moves, comments, nags, result = [], {}, {}, None
    for tok in TOKEN.findall(body):
        assert result is None, f"{tok!r} after the result"
        if tok.startswith("{"):
            comments[len(moves) - 1] = " ".join(tok[1:-1].split())
        elif tok.startswith("$"):
            nags[len(moves) - 1] = int(tok[1:])
        elif tok in "()" or tok.startswith(";"):
            raise AssertionError(f"unexpected {tok!r}")
        elif re.fullmatch(r"\d+\.(\.\.)?", tok):
            assert int(tok.rstrip(".")) == len(moves) // 2 + 1, f"move number {tok} at ply {len(moves)}"
        elif tok in RESULTS:
            result = tok
        else:
            moves.append(tok)
    return tags, moves, comments, nags, result


def cchess_moves(path):
    """The main line of the game cchess reads from `path` (coordinates, ranks 0-9)."""
    return [m.to_iccs().replace("-", "").lower() for m in cchess.Game.read_from(str(path)).iter_moves()]


def test_the_iccs_pgn_parses_and_pyffish_replays_it():
    tags, moves, comments, nags, result = parse(analyse("iccs"))
    assert tags["Red"] == "徐天红" and tags["Result"] == result == "1/2-1/2"
    assert tags["Annotator"].startswith("chariot")
    truth = cchess_moves(GAME)
    assert len(truth) == 60
    assert [m.replace("-", "") for m in moves] == truth
    start = pyffish.start_fen("xiangqi")
    played = []
    for m in moves:
        sf = to_ffish(m.replace("-", ""))
        assert sf in pyffish.legal_moves("xiangqi", start, played), f"{m} illegal after {played}"
        played.append(sf)
    # Every move has its score; each NAG is a mark, named in its comment.
    assert sorted(comments) == list(range(len(moves)))
    for i, c in comments.items():
        assert re.match(r"\[%eval (-?\d+\.\d\d|#-?\d+)\]", c), c
    for i, nag in nags.items():
        assert MARKS[nag] in comments[i], (i, nag, comments[i])


def test_cchess_reads_the_chinese_pgn(tmp_path):
    text = analyse("zh")
    tags, moves, comments, _, result = parse(text)
    assert len(moves) == 60 and moves[0] == "兵七进一" and moves[1] == "象３进５"
    head, _, body = text.strip().partition("\n\n")
    body = " ".join(re.sub(r"\{[^}]*\}|\$\d+", " ", body).split())
    path = tmp_path / "analysis.pgn"
    path.write_text(f"{head}\n\n{body}\n", encoding="utf-8")
    game = cchess.Game.read_from(str(path))
    assert cchess_moves(path) == cchess_moves(GAME)
    assert [m.to_text() for m in game.iter_moves()] == moves
    assert game.info["annotator"] == tags["Annotator"]
