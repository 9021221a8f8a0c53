"""Shared helpers: the repository's data files (perft counts, rule cases),
the command-line build, and moves to and from pyffish's notation."""

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PERFT_DATA = REPO / "perft-data"
RULE_CASES = REPO / "tests" / "data" / "rules"
#: The command line, for the tests that compare with it (they skip without it).
CLI = REPO / "target" / "release" / "chariot"


def to_ffish(move):
    """A move in coordinates (`h2e2`, ranks 0-9; a `Move` or text) as pyffish
    writes it (`h3e3`, ranks 1-10)."""
    s = str(move)
    return f"{s[0]}{int(s[1]) + 1}{s[2]}{int(s[3]) + 1}"


def from_ffish(text):
    """A move as pyffish writes it (`h3e3`, `a10a9`: ranks 1-10) in
    coordinates (`h2e2`, ranks 0-9): the inverse of `to_ffish`."""
    a, b = [i for i, c in enumerate(text) if c.isalpha()]
    return f"{text[a]}{int(text[a + 1:b]) - 1}{text[b]}{int(text[b + 1:]) - 1}"


def perft_cases():
    """(fen, {depth: count}) for every line of perft-data/*.epd."""
    cases = []
    for path in sorted(PERFT_DATA.glob("*.epd")):
        for line in path.read_text().splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fen, *counts = line.split(";")
            table = {}
            for c in counts:
                d, n = c.split()
                table[int(d[1:])] = int(n)
            cases.append((fen.strip(), table))
    return cases


def rule_cases(name):
    """The games of tests/data/rules/<name> (one JSON object a line)."""
    lines = (RULE_CASES / name).read_text().splitlines()
    return [json.loads(l) for l in lines if l.strip()]
