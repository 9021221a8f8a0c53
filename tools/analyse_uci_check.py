#!/usr/bin/env python3
"""Compares chariot analyse's best moves with the UCI loop's.

Usage: analyse_uci_check.py BIN GAMES.txt REVIEW.jsonl N [GO [REF]]

GO is the UCI search command, `go movetime 200` unless given (give the
analyser's limit: `go depth 10` for `--depth 10`). With REF (e.g. `go depth
14`), a third engine searches each position deeper and both the analyser's
move and the UCI engine's are compared with its: the analyser keeps its
table from one position of a game to the next, as an engine in a game
does, so at a fixed depth its moves differ from a cold search's, and the
deeper search says which of the two is the better choice.

GAMES.txt holds one game a line (`FEN|startpos moves ...`, as datagen's
--games-out writes); REVIEW.jsonl is `chariot analyse --format json` of it.
N positions, spread evenly over the file, are searched by two `chariot`
processes in UCI, each with `go movetime 200` (the game's moves given, as
the analyser gives them). Printed: how often the analyser chose the same
move as the first UCI engine, and how often the two UCI engines agreed with
each other. Timed searches differ from run to run (another depth reached,
another move among near equals), so the second share is the baseline: an
analyser that searched worse than the UCI loop would agree less with it
than the UCI loop agrees with itself.
"""
import json
import subprocess
import sys


def main():
    binary, games_path, review_path, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    go = sys.argv[5] if len(sys.argv) > 5 else "go movetime 200"
    ref = sys.argv[6] if len(sys.argv) > 6 else None
    games = [line.split() for line in open(games_path, encoding="utf-8") if line.strip()]
    best = {}
    for line in open(review_path, encoding="utf-8"):
        o = json.loads(line)
        if o["type"] == "move" and o["best"]:
            best[(o["game"], o["ply"])] = o["best"]
    keys = sorted(best)
    sample = [keys[i * len(keys) // n] for i in range(n)] if len(keys) >= n else keys
    engines = [Uci(binary), Uci(binary)]
    judge = Uci(binary) if ref else None
    same = [0, 0]
    deep = [0, 0]
    for game, ply in sample:
        words = games[game - 1]
        i = words.index("moves") if "moves" in words else len(words)
        start = " ".join(words[:i])
        moves = words[i + 1:][: ply - 1]
        pos = "position startpos" if start == "startpos" else f"position fen {start}"
        pos = f"{pos} moves {' '.join(moves)}" if moves else pos
        a, b = (e.best(pos, go) for e in engines)
        same[0] += a == best[(game, ply)]
        same[1] += a == b
        if judge:
            r = judge.best(pos, ref)
            deep[0] += best[(game, ply)] == r
            deep[1] += a == r
    for e in engines + ([judge] if judge else []):
        e.quit()
    n = len(sample)
    print(f"analyser = UCI {go}: {same[0]}/{n} ({100 * same[0] / n:.1f} %)")
    print(f"UCI = UCI (the baseline): {same[1]}/{n} ({100 * same[1] / n:.1f} %)")
    if judge:
        print(f"analyser = UCI {ref}: {deep[0]}/{n} ({100 * deep[0] / n:.1f} %)")
        print(f"UCI {go} = UCI {ref}: {deep[1]}/{n} ({100 * deep[1] / n:.1f} %)")


class Uci:
    """A chariot process in UCI with Hash 32."""

    def __init__(self, binary):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Hash value 32")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")

    def wait_for(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("engine exited")
            if line.startswith(prefix):
                return line

    def best(self, position, go):
        self.send(position)
        self.send(go)
        return self.wait_for("bestmove").split()[1]

    def quit(self):
        self.send("quit")
        self.p.wait()


if __name__ == "__main__":
    main()
