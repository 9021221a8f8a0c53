#!/usr/bin/env python3
"""Compares chariot analyse's best moves with the UCI loop's.

Usage: analyse_uci_check.py BIN GAMES.txt REVIEW.jsonl N

GAMES.txt holds one game a line (`FEN|startpos moves ...`, as datagen's
--games-out writes); REVIEW.jsonl is `chariot analyse --format json` of it.
N positions, spread evenly over the file, are searched by `chariot` in UCI
with `go movetime 200` (the game's moves given, as the analyser gives them),
and the share of positions where both chose the same move is printed. Both
searches are timed, so a few differences are expected (a different depth
reached); a weaker analyser would show as a low share.
"""
import json
import subprocess
import sys


def main():
    binary, games_path, review_path, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    games = [line.split() for line in open(games_path, encoding="utf-8") if line.strip()]
    best = {}
    for line in open(review_path, encoding="utf-8"):
        o = json.loads(line)
        if o["type"] == "move" and o["best"]:
            best[(o["game"], o["ply"])] = o["best"]
    keys = sorted(best)
    sample = [keys[i * len(keys) // n] for i in range(n)] if len(keys) >= n else keys
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(cmd):
        engine.stdin.write(cmd + "\n")

    def wait_for(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                raise SystemExit("engine exited")
            if line.startswith(prefix):
                return line

    send("uci")
    wait_for("uciok")
    send("setoption name Hash value 32")
    send("isready")
    wait_for("readyok")
    same = 0
    for game, ply in sample:
        words = games[game - 1]
        i = words.index("moves") if "moves" in words else len(words)
        start = " ".join(words[:i])
        moves = words[i + 1:][: ply - 1]
        pos = "position startpos" if start == "startpos" else f"position fen {start}"
        send(f"{pos} moves {' '.join(moves)}" if moves else pos)
        send("go movetime 200")
        move = wait_for("bestmove").split()[1]
        same += move == best[(game, ply)]
    send("quit")
    engine.wait()
    print(f"same best move as go movetime 200: {same}/{len(sample)} ({100 * same / len(sample):.1f} %)")


if __name__ == "__main__":
    main()
