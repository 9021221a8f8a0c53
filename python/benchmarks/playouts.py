#!/usr/bin/env python3
"""Random playouts per second through Python: chariot, pyffish and cchess in
one run, and perft from Python against the `chariot perft` command line.

A playout starts from the initial position and, until the side to move has
no legal move or PLIES plies were played, lists the legal moves and plays one
at random. Every library plays the same number of games per seed's budget:
each runs for about SECONDS seconds (at least one playout).

    python benchmarks/playouts.py [--seconds 5] [--plies 200] [--cli ../target/release/chariot]
"""

import argparse
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import chariot

START = chariot.STARTING_FEN


def chariot_playout(rng, plies):
    board = chariot.Board()
    for n in range(plies):
        moves = board.legal_moves
        if not moves:
            return n
        board.push(rng.choice(moves))
    return plies


def pyffish_playout(rng, plies):
    # One call a ply: the legal moves after the moves so far (pyffish has no
    # board object; this beats a get_fen + legal_moves pair per ply).
    import pyffish as sf
    played = []
    for n in range(plies):
        moves = sf.legal_moves("xiangqi", START, played)
        if not moves:
            return n
        played.append(rng.choice(moves))
    return plies


def cchess_playout(rng, plies):
    import cchess
    board = cchess.ChessBoard(START)
    for n in range(plies):
        moves = [m for m in board.create_moves() if board.is_valid_move(*m) and not board.is_checked_move(*m)]
        if not moves:
            return n
        board.move(*rng.choice(moves))
        board.next_turn()
    return plies


def measure(playout, seconds, plies):
    rng = random.Random(1)
    playout(rng, 2)  # imports and first-call set-up are not timed
    games = total = 0
    start = time.perf_counter()
    while True:
        total += playout(rng, plies)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, total / elapsed


def perft_figures(cli, depth):
    board = chariot.Board()
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        nodes = board.perft(depth)
        best = min(best, time.perf_counter() - t)
    print(f"perft({depth}) from Python: {nodes} nodes in {best * 1000:.0f} ms ({nodes / best / 1e6:.1f} M nodes/s, best of 3)")
    if cli and Path(cli).exists():
        cli_best = float("inf")
        for _ in range(3):
            out = subprocess.run([cli, "perft", str(depth)], capture_output=True, text=True, check=True).stdout
            assert f"Nodes searched: {nodes}" in out, out
            # The CLI's own timing (no process start), precise through its nps.
            nps = int(re.search(r"Time: \d+ ms, (\d+) nps", out).group(1))
            cli_best = min(cli_best, nodes / max(nps, 1))
        print(f"perft({depth}) from the CLI:  {nodes} nodes in {cli_best * 1000:.0f} ms "
              f"({nodes / cli_best / 1e6:.1f} M nodes/s, best of 3): Python takes {best / cli_best:.2f}x the CLI's time")
    t = time.perf_counter()
    n = python_perft(board, 3)
    el = time.perf_counter() - t
    print(f"perft(3) in Python (legal_moves + push + pop, last ply counted by len): {n} nodes in {el * 1000:.0f} ms")


def python_perft(board, depth):
    if depth == 1:
        return len(board.legal_moves)
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += python_perft(board, depth - 1)
        board.pop()
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="time per library (default 5)")
    ap.add_argument("--plies", type=int, default=200, help="longest playout (default 200)")
    ap.add_argument("--perft-depth", type=int, default=4)
    ap.add_argument("--cli", default=str(Path(__file__).resolve().parents[2] / "target" / "release" / "chariot"))
    args = ap.parse_args()

    results = {}
    for name, playout in [("chariot", chariot_playout), ("pyffish", pyffish_playout), ("cchess", cchess_playout)]:
        try:
            results[name] = measure(playout, args.seconds, args.plies)
        except ImportError:
            print(f"{name}: not installed (pip install {name})")
    print(f"random playouts (legal moves + push, up to {args.plies} plies), about {args.seconds:g} s each:")
    base = results.get("chariot")
    for name, (games, plies) in results.items():
        ratio = "" if name == "chariot" else f"   chariot is {base[0] / games:.0f}x faster"
        print(f"  {name:8} {games:10.1f} playouts/s {plies:12.0f} plies/s{ratio}")
    perft_figures(args.cli, args.perft_depth)
    return 0


if __name__ == "__main__":
    sys.exit(main())
