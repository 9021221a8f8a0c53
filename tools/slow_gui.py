#!/usr/bin/env python3
"""A slow GUI, simulated (issue 41): ENGINE plays itself over UCI at
BASE+INC (milliseconds), and every move is charged LATENCY ms more than
the engine took (the harness sleeps that long after reading `bestmove`,
as a GUI busy drawing or refereeing would). With `--cycle MS` the GUI
also reads no answer sooner than MS after its `go` (as XBoard, which draws
and animates the last move before it reads the engine): the cycle hides
within any longer thinking and shows only in a fast answer. No grace: a
clock below 0 after a move is a loss on time.

Prints per game the plies, how it ended and the least clock left after a
move of each side. An engine that plans only with its `Move Overhead`
loses on time once LATENCY exceeds the increment; one that learns the
latency from the clocks it is sent keeps a reserve for it.

Usage: tools/slow_gui.py ENGINE BASE_MS INC_MS LATENCY_MS [--cycle 0] [--games 2] [--max-plies 300]
"""

import argparse
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine")
    ap.add_argument("base_ms", type=int)
    ap.add_argument("inc_ms", type=int)
    ap.add_argument("latency_ms", type=int)
    ap.add_argument("--cycle", type=int, default=0, help="ms before the GUI reads an answer")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--max-plies", type=int, default=300)
    args = ap.parse_args()
    flags = 0
    for game in range(args.games):
        ps = [subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, bufsize=1) for _ in range(2)]

        def send(p, line):
            p.stdin.write(line + "\n")
            p.stdin.flush()

        def wait(p, prefix):
            while True:
                line = p.stdout.readline()
                if not line:
                    sys.exit("slow_gui: the engine exited")
                if line.startswith(prefix):
                    return line

        for p in ps:
            send(p, "uci")
            wait(p, "uciok")
            send(p, "isready")
            wait(p, "readyok")
        clocks = [args.base_ms, args.base_ms]
        least = [args.base_ms, args.base_ms]
        moves, end = [], "ply limit"
        for ply in range(args.max_plies):
            side = ply % 2
            p = ps[side]
            send(p, "position startpos" + (" moves " + " ".join(moves) if moves else ""))
            t0 = time.monotonic()
            send(p, f"go wtime {clocks[0]} btime {clocks[1]} winc {args.inc_ms} binc {args.inc_ms}")
            line = wait(p, "bestmove")
            time.sleep(max(0.0, args.cycle / 1000 - (time.monotonic() - t0)))
            time.sleep(args.latency_ms / 1000)
            clocks[side] -= round((time.monotonic() - t0) * 1000)
            least[side] = min(least[side], clocks[side])
            if clocks[side] < 0:
                end = f"{'Red' if side == 0 else 'Black'} lost on time"
                flags += 1
                break
            clocks[side] += args.inc_ms
            mv = line.split()[1] if len(line.split()) > 1 else "(none)"
            if mv == "(none)":
                end = "no move"
                break
            moves.append(mv)
        for p in ps:
            send(p, "quit")
            p.wait(timeout=5)
        print(f"game {game + 1}: {len(moves)} plies, {end}; least clock left after a move: "
              f"Red {least[0]} ms, Black {least[1]} ms", flush=True)
    print(f"{args.games} games at {args.base_ms}+{args.inc_ms} ms with {args.latency_ms} ms "
          f"latency a move and a cycle of {args.cycle} ms: {flags} lost on time")
    sys.exit(1 if flags else 0)


if __name__ == "__main__":
    main()
