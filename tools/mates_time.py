#!/usr/bin/env python3
"""Time to solve each forced mate of tests/data/mates.epd, for one or more builds.

    tools/mates_time.py BINARY [BINARY ...]

Each position gets a fresh engine and `go mate N movetime 10000`; one line per
position (N, then per build the seconds to `bestmove` and the last exact
score), then the total seconds per build. The suite `tests/mates.rs` asserts
the 5 s limit; this shows whether a change makes mates slower or faster.
"""
import os
import subprocess
import sys
import time

MATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "mates.epd")


def solve(binary, fen, n):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    p.stdin.write("uci\nisready\n")
    p.stdin.flush()
    while p.stdout.readline().strip() != "readyok":
        pass
    start = time.time()
    p.stdin.write(f"position fen {fen}\ngo mate {n} movetime 10000\n")
    p.stdin.flush()
    score = "none"
    while True:
        line = p.stdout.readline()
        if not line:
            break
        if line.startswith("info depth") and " score " in line and "bound" not in line:
            w = line.split()
            i = w.index("score")
            score = w[i + 1] + " " + w[i + 2]
        if line.startswith("bestmove"):
            break
    took = time.time() - start
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return took, score


def main():
    bins = sys.argv[1:]
    if not bins:
        sys.exit(__doc__)
    total = [0.0] * len(bins)
    for line in open(MATES):
        if not line.strip() or line.startswith("#"):
            continue
        fen, n = line.strip().split(";mate ")
        results = [solve(b, fen, int(n)) for b in bins]
        for i, (took, _) in enumerate(results):
            total[i] += took
        print(n, " | ".join(f"{t:6.2f}s {s:8}" for t, s in results), fen, flush=True)
    print("total", " | ".join(f"{t:.2f}s" for t in total))


if __name__ == "__main__":
    main()
