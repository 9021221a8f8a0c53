#!/usr/bin/env python3
"""Checks Chariot's game-file readers and Chinese notation against the
`cchess` Python library (pip install cchess; github.com/walker8088/cchess)
on real game files. Not part of `make test`.

    cargo build --release --example read_game
    tools/cchess_check.py [--reader target/release/examples/read_game] PATH...

PATH: files or directories (searched for .xqf .pgn .cbl .cbr .cbf, any case).

* XQF and PGN files are read by both: the main lines must hold the same
  moves (coordinates), and Chariot's Chinese text of each move must equal
  cchess's `to_text()`.
* CBL libraries and CBR/CBF files (formats Chariot does not read) are read
  by cchess and each game written out as a PGN with cchess's Chinese moves
  and the start FEN; Chariot then reads that PGN (parsing cchess's Chinese
  text) and must find the same moves and print the same text.

Prints one line per disagreement (file, game, ply, the position's FEN,
cchess's and Chariot's text), then the counts. Exit status 0 when every move
agrees, 1 otherwise.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import cchess


def chariot_read(reader, path):
    """{game index: {"status", "fen", "error", "moves": [(coord, zh, fen_before)]}}."""
    out = subprocess.run([reader, path], capture_output=True, text=True).stdout
    games = {}
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "game":
            games[int(f[1])] = {"status": f[2], "fen": f[3], "error": f[5], "moves": []}
        elif f[0] == "move":
            games[int(f[1])]["moves"].append((f[3], f[4], f[6] if len(f) > 6 else ""))
        elif f[0] == "error":
            games[0] = {"status": "error", "fen": "", "error": f[1], "moves": []}
    return games


def cchess_main_line(game):
    """[(coordinates, Chinese text)] of the game's main line."""
    return [(m.to_iccs().replace("-", "").lower(), m.to_text()) for m in game.iter_moves()]


def as_pgn(games):
    """A PGN text of cchess games: FEN tag and cchess's Chinese moves."""
    parts = []
    for g in games:
        moves = cchess_main_line(g)
        fen = g.init_board.to_fen()
        text = " ".join(f"{i // 2 + 1}. {zh}" if i % 2 == 0 else zh for i, (_, zh) in enumerate(moves))
        parts.append(f'[FEN "{fen}"]\n\n{text} *\n')
    return "\n".join(parts)


class Tally:
    def __init__(self):
        self.files = self.games = self.moves = self.same_move = self.same_text = self.recoded = 0
        self.problems = []

    def compare(self, label, index, ours, theirs):
        """ours: chariot's game dict; theirs: cchess main line."""
        self.games += 1
        got = ours["moves"]
        for ply, (their_move, their_zh) in enumerate(theirs):
            self.moves += 1
            if ply >= len(got):
                why = ours["error"] or "Chariot's main line is shorter"
                self.problems.append(f"{label} game {index} ply {ply + 1}: cchess {their_move} {their_zh}; Chariot stops: {why}")
                return
            coord, zh, fen = got[ply]
            if coord != their_move:
                self.problems.append(f"{label} game {index} ply {ply + 1} [{fen}]: cchess {their_move} {their_zh}; Chariot {coord} {zh}")
                return
            self.same_move += 1
            if zh == their_zh:
                self.same_text += 1
            else:
                self.problems.append(f"{label} game {index} ply {ply + 1} [{fen}] {coord}: cchess {their_zh}; Chariot {zh}")
        if len(got) > len(theirs):
            self.problems.append(f"{label} game {index}: Chariot reads {len(got)} moves, cchess {len(theirs)}")


def files_under(paths):
    exts = (".xqf", ".pgn", ".cbl", ".cbr", ".cbf")
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                for n in sorted(names):
                    if n.lower().endswith(exts):
                        yield os.path.join(root, n)
        else:
            yield p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reader", default="target/release/examples/read_game")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    t = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        for path in files_under(args.paths):
            ext = os.path.splitext(path)[1].lower()
            label = os.path.basename(path)
            try:
                if ext == ".cbl":
                    theirs = [g for g in cchess.Game.read_from_lib(path)["games"]]
                else:
                    try:
                        theirs = [cchess.Game.read_from(path)]
                    except UnicodeDecodeError:
                        # cchess reads PGN as UTF-8 only: give it a UTF-8 copy of a GBK file.
                        copy = os.path.join(tmp, "utf8" + ext)
                        with open(path, "rb") as f, open(copy, "w", encoding="utf-8") as g:
                            g.write(f.read().decode("gb18030"))
                        theirs = [cchess.Game.read_from(copy)]
                        t.recoded += 1
            except Exception as e:  # cchess's own failures are counted, not fatal
                t.problems.append(f"{label}: cchess cannot read it: {e}")
                continue
            t.files += 1
            if ext in (".xqf", ".pgn"):
                ours = chariot_read(args.reader, path)
            else:
                pgn = os.path.join(tmp, "games.pgn")
                with open(pgn, "w", encoding="utf-8") as f:
                    f.write(as_pgn(theirs))
                ours = chariot_read(args.reader, pgn)
            for i, g in enumerate(theirs):
                mine = ours.get(i + 1, {"status": "missing", "error": "no such game", "moves": []})
                t.compare(label, i + 1, mine, cchess_main_line(g))
    for p in t.problems:
        print(p)
    print(f"{t.files} files ({t.recoded} GBK PGN given to cchess as UTF-8), {t.games} games, {t.moves} moves: same move {t.same_move}, "
          f"same Chinese text {t.same_text}, {len(t.problems)} disagreements")
    return 0 if not t.problems else 1


if __name__ == "__main__":
    sys.exit(main())
