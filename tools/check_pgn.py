#!/usr/bin/env python3
"""Checks the endings of a tools/match.py PGN against Chariot's own arbiter.

For every game that ended by the rules (a repetition ruling, the 60-round
limit, no legal move) it replays the game with `chariot judge --rules RULES`
and compares the verdict with the result the referee gave; games adjudicated
at the ply limit are skipped. Prints one line per kind of ending (count,
result, Chariot's verdict and rule), then `N/M agree`; exit status 1 if any
game disagrees.

    tools/check_pgn.py GAMES.pgn [--bin target/release/chariot] [--rules asian|chinese]
"""
import argparse
import collections
import re
import subprocess
import sys

VERDICT = {"1-0": "red_wins", "0-1": "black_wins", "1/2-1/2": "draw"}


def engine_move(m):
    """Referee move (ranks 1-10) -> Chariot's (ranks 0-9)."""
    a = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", m)
    return f"{a[1]}{int(a[2]) - 1}{a[3]}{int(a[4]) - 1}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--bin", default="target/release/chariot")
    ap.add_argument("--rules", choices=["asian", "chinese"], default="asian")
    args = ap.parse_args()
    kinds = collections.Counter()
    n = agree = 0
    for game in open(args.pgn).read().strip().split("\n\n["):
        term = re.search(r'Termination "([^"]*)"', game)[1]
        if not any(k in term for k in ("repetition", "move_limit", "no legal")):
            continue
        fen = re.search(r'FEN "([^"]*)"', game)[1]
        result = re.search(r'Result "([^"]*)"', game)[1]
        body = " ".join(l for l in game.split("\n") if l and not l.startswith("[") and not l.endswith("]"))
        moves = [engine_move(t) for t in body.split() if re.fullmatch(r"[a-i]\d+[a-i]\d+", t)]
        out = subprocess.run([args.bin, "judge", "--rules", args.rules, fen] + moves,
                             capture_output=True, text=True).stdout.split("\n")
        verdict = out[0].split()[1] if out[0].startswith("verdict ") else "error"
        same = verdict == VERDICT[result]
        n += 1
        agree += same
        kinds[(term, result, out[0], out[1] if len(out) > 1 else "", same)] += 1
    for (term, result, verdict, rule, same), count in kinds.most_common():
        print(f"{count:4} {term} {result} -> {verdict} | {rule}{'' if same else '  DISAGREES'}")
    print(f"{agree}/{n} agree")
    sys.exit(0 if agree == n else 1)


if __name__ == "__main__":
    main()
