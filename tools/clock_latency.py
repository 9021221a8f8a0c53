#!/usr/bin/env python3
"""The latency a GUI sees: the time from writing `go` to reading `bestmove`,
beyond what the engine was told it may think (issue 41).

Starts --engines copies of ENGINE (UCI) at once, each with --threads search
threads, so that the machine runs more threads than it has cores; each copy
searches --moves times from the start position with a tiny clock
(`go wtime W btime W winc I binc I`) and, in turn, `go movetime M`, and the
wall time of every answer is recorded. Prints, per kind of `go`, the
distribution (median, 90th and 99th percentile, maximum) of the answer times
in milliseconds. What the answer takes beyond the engine's own budget is the
latency that a clock reserve must be large against.

Usage: tools/clock_latency.py ENGINE [--engines 3] [--threads 2] [--moves 100]
       [--wtime 50] [--winc 10] [--movetime 1] [--hog 0]
--hog N also runs N busy-looping processes for the duration.
"""

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import threading
import time


def hog():
    """Burn a core until killed."""
    x = 0
    while True:
        x += 1


def run_engine(path, threads, moves, wtime, winc, movetime, out, lock):
    p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait_for(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith(prefix):
                return line

    send("uci")
    wait_for("uciok")
    send(f"setoption name Threads value {threads}")
    send("setoption name OwnBook value false")
    send("isready")
    wait_for("readyok")
    times = {"clock": [], "movetime": []}
    played = []
    for i in range(moves):
        kind = "clock" if i % 2 == 0 else "movetime"
        send("position startpos" + (" moves " + " ".join(played) if played else ""))
        go = (f"go wtime {wtime} btime {wtime} winc {winc} binc {winc}" if kind == "clock"
              else f"go movetime {movetime}")
        t0 = time.monotonic()
        send(go)
        line = wait_for("bestmove")
        times[kind].append((time.monotonic() - t0) * 1000)
        mv = line.split()[1]
        if mv == "(none)" or len(played) > 60:
            played = []
        else:
            played.append(mv)
    send("quit")
    p.wait(timeout=5)
    with lock:
        for k, v in times.items():
            out.setdefault(k, []).extend(v)


def pct(v, q):
    s = sorted(v)
    return s[min(len(s) - 1, int(q * len(s)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine")
    ap.add_argument("--engines", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--wtime", type=int, default=50)
    ap.add_argument("--winc", type=int, default=10)
    ap.add_argument("--movetime", type=int, default=1)
    ap.add_argument("--hog", type=int, default=0)
    args = ap.parse_args()
    if not os.access(args.engine, os.X_OK):
        sys.exit(f"clock_latency: no engine at {args.engine}")
    hogs = [multiprocessing.Process(target=hog, daemon=True) for _ in range(args.hog)]
    for h in hogs:
        h.start()
    out, lock = {}, threading.Lock()
    workers = [threading.Thread(target=run_engine, args=(args.engine, args.threads, args.moves,
                                                         args.wtime, args.winc, args.movetime,
                                                         out, lock))
               for _ in range(args.engines)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    for h in hogs:
        h.terminate()
    print(f"{args.engines} engines x {args.threads} threads on {os.cpu_count()} cores, "
          f"{args.hog} hogs; load average {os.getloadavg()[0]:.1f}")
    for k, v in out.items():
        what = (f"go wtime {args.wtime} winc {args.winc}" if k == "clock"
                else f"go movetime {args.movetime}")
        print(f"{what:28s} n={len(v):4d} median {statistics.median(v):6.1f} "
              f"p90 {pct(v, 0.9):6.1f} p99 {pct(v, 0.99):6.1f} max {max(v):6.1f} ms")


if __name__ == "__main__":
    main()
