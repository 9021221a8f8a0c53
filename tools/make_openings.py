#!/usr/bin/env python3
"""Make the balanced opening suite tests/data/openings.epd.

Each opening is a short game from the start position (6 to 10 plies): at
every ply a move is drawn at random among those an independent engine
(Debian's fairy-stockfish, MultiPV at a shallow depth) rates within
--ply-margin centipawns of its best move, so the lines look like openings
people play rather than random moves. The final position is kept only if
the engine, searching it to --depth, rates it within +-80 cp (--keep-cp) and
it is new (no two lines reach the same position). Output: one FEN a line,
ranks 0-9 like Chariot's (the format match.py's --book and `chariot
datagen --book` read), sorted for stable diffs.

Usage:
  apt-get install fairy-stockfish && pip install pyffish
  tools/make_openings.py --count 1200 --seed 1 --out tests/data/openings.epd

Deterministic for a seed (fairy-stockfish searches one thread to a fixed
depth with a cleared hash), about 0.5 s per candidate on one core.
"""

import argparse
import random
import subprocess
import sys

import pyffish as sf

VARIANT = "xiangqi"


class Engine:
    """A fairy-stockfish process speaking UCI, set up for xiangqi."""

    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("fairy-stockfish exited")
            lines.append(line.strip())
            if line.startswith(token):
                return lines

    def search(self, moves, depth, multipv):
        """Scores (cp, side to move's view) of the best `multipv` moves: {move: cp}."""
        self.send("ucinewgame")
        self.send(f"setoption name MultiPV value {multipv}")
        self.send("isready")
        self.wait("readyok")
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go depth {depth}")
        scores = {}
        for line in self.wait("bestmove"):
            t = line.split()
            if not t or t[0] != "info" or "pv" not in t or "score" not in t:
                continue
            if int(t[t.index("depth") + 1]) != depth:
                continue
            kind, val = t[t.index("score") + 1], int(t[t.index("score") + 2])
            cp = val if kind == "cp" else (100000 - abs(val)) * (1 if val > 0 else -1)
            scores[t[t.index("pv") + 1]] = cp
        return scores

    def close(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=1200, help="openings to keep")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-plies", type=int, default=6)
    ap.add_argument("--max-plies", type=int, default=10)
    ap.add_argument("--ply-depth", type=int, default=5, help="depth of the per-ply MultiPV search")
    ap.add_argument("--multipv", type=int, default=12)
    ap.add_argument("--ply-margin", type=int, default=60, help="cp below the best a drawn move may be")
    ap.add_argument("--depth", type=int, default=12, help="depth of the final evaluation")
    ap.add_argument("--keep-cp", type=int, default=80, help="keep positions rated within +-this")
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    eng = Engine(args.engine)
    start = sf.start_fen(VARIANT)
    kept = {}
    tried = 0
    while len(kept) < args.count:
        tried += 1
        plies = rng.randint(args.min_plies, args.max_plies)
        moves = []
        for _ in range(plies):
            scores = eng.search(moves, args.ply_depth, args.multipv)
            if not scores:
                break
            best = max(scores.values())
            choices = sorted(m for m, s in scores.items() if s >= best - args.ply_margin)
            moves.append(rng.choice(choices))
        if len(moves) != plies:
            continue
        fen = sf.get_fen(VARIANT, start, moves)
        key = " ".join(fen.split()[:2])
        if key in kept or not sf.legal_moves(VARIANT, fen, []):
            continue
        scores = eng.search(moves, args.depth, 1)
        if not scores:
            continue
        score = next(iter(scores.values()))
        if abs(score) <= args.keep_cp:
            kept[key] = fen
        print(f"tried {tried} kept {len(kept)} last {score:+d}", file=sys.stderr, flush=True)
    eng.close()
    with open(args.out, "w") as f:
        for fen in sorted(kept.values()):
            f.write(fen + "\n")
    print(f"{len(kept)} openings from {tried} candidates -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
