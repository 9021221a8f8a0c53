#!/usr/bin/env python3
"""Tune the search's constants by SPSA, playing the engine against itself.

The engine must be a `tune` build (`cargo build --release --features tune`):
it offers each constant of src/search/tunables.rs as a UCI option
`tune_<name>`. Every iteration perturbs all the constants at once by +c or -c
(a random sign each), plays one pair of games (same opening, colours swapped)
between the two settings, and moves every constant towards the side that
scored more: theta += a_k / c_k * (points(+) - points(-)) * sign. The gains
follow Spall's schedule as fishtest uses it, with the run's planned length
--pairs as N:

  c_k = c_end * N^0.101 / (k+1)^0.101
  a_k = r_end * c_end^2 * (A+N)^0.602 / (A+k+1)^0.602,   A = N / 10

so that the last iterations perturb by c_end and step by r_end * c_end per
point. c_end is a tenth of the constant's range (--c-div) and r_end 0.004
(--r-end): twice fishtest's usual, because a run here has thousands of
pairs, not tens of thousands, and a larger perturbation gives each pair a
stronger signal. Games run --concurrency at a time; each finished pair updates the
values at once (asynchronous SPSA).

The run is resumable: the state (values, iteration, totals) is rewritten to
--state after every pair, and each pair appends a line to STATE.log (the
iteration, the pair's result, the values). Run it again with the same
--state to go on; the settings stored in the state win over the command
line's, except the engine (e.g. rebuilt on another machine), --pairs (to
plan a longer run) and --concurrency.

Example (the setting the search-alone figure is measured in):
  tools/spsa.py --state data/spsa.json --pairs 4000 --tc 3+0.03 \\
      --book tests/data/openings.epd --concurrency 2 \\
      'target/tune/release/chariot,opt.Use NNUE=false'

Prints progress to stdout; `--show STATE` prints a state's values as a table
(value, default, change) and the lines to paste into tunables.rs.
"""

import argparse
import json
import math
import os
import random
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402

ALPHA = 0.602
GAMMA = 0.101


def engine_tunables(spec):
    """The engine's `tune_*` spin options: {name: (default, min, max)}."""
    eng = match.Engine("probe", spec, None)
    try:
        eng.start()
    finally:
        eng.quit()
    found = {}
    for line in eng.log:
        w = line[2:].split()
        if w[:2] != ["option", "name"] or len(w) < 3 or not w[2].startswith("tune_"):
            continue
        try:
            kv = {w[i]: int(w[i + 1]) for i in range(3, len(w) - 1) if w[i] in ("default", "min", "max")}
            found[w[2]] = (kv["default"], kv["min"], kv["max"])
        except (KeyError, ValueError):
            raise SystemExit(f"cannot read the option line {line[2:]!r}")
    return found


def new_state(args, tunables):
    wanted = args.params.split(",") if args.params else sorted(tunables)
    params = {}
    for name in wanted:
        name = name if name.startswith("tune_") else "tune_" + name
        if name not in tunables:
            raise SystemExit(f"the engine has no option {name} (it must be a `tune` build)")
        default, lo, hi = tunables[name]
        params[name] = {"value": float(default), "default": default, "min": lo, "max": hi,
                        "c_end": max((hi - lo) / args.c_div, 0.5), "r_end": args.r_end}
    return {"engine": args.engine, "tc": args.tc, "book": args.book, "seed": args.seed,
            "max_plies": args.max_plies, "grace_ms": args.grace_ms, "pairs": args.pairs,
            "done": 0, "points": {"plus": 0.0, "minus": 0.0}, "faults": 0, "params": params}


def save(path, state):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def gains(state, k, p):
    n = state["pairs"]
    big_a = n / 10
    c = p["c_end"] * n ** GAMMA / (k + 1) ** GAMMA
    a = p["r_end"] * p["c_end"] ** 2 * (big_a + n) ** ALPHA / (big_a + k + 1) ** ALPHA
    return c, a


def show(path):
    state = json.load(open(path))
    print(f"{path}: {state['done']} of {state['pairs']} pairs, "
          f"points +{state['points']['plus']:g} / -{state['points']['minus']:g}, faults {state['faults']}")
    print(f"{'name':24} {'value':>9} {'default':>8} {'change':>8} {'c_end':>7}")
    for name, p in sorted(state["params"].items()):
        print(f"{name:24} {p['value']:9.2f} {p['default']:8d} {p['value'] - p['default']:+8.2f} {p['c_end']:7.2f}")
    print("\n# tunables.rs values:")
    for name, p in sorted(state["params"].items()):
        print(f"{name[5:]} = {round(p['value'])}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", nargs="?", help="COMMAND[,opt.NAME=VALUE...] of a tune build")
    ap.add_argument("--state", help="the run's state file (resumed if it exists)")
    ap.add_argument("--show", metavar="STATE", help="print a state's values and exit")
    ap.add_argument("--pairs", type=int, default=4000, help="planned length of the run (N), in game pairs")
    ap.add_argument("--stop-after", type=int, help="stop after this many pairs in this invocation")
    ap.add_argument("--tc", default="3+0.03")
    ap.add_argument("--book", help="openings as for match.py (default: 4 random plies)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--params", help="comma-separated names to tune (default: every tune_ option)")
    ap.add_argument("--c-div", type=float, default=10.0, help="c_end = range / this")
    ap.add_argument("--r-end", type=float, default=0.004)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--grace-ms", type=int, default=1000)
    args = ap.parse_args()
    if args.show:
        show(args.show)
        return
    if not args.state:
        raise SystemExit("--state FILE is needed")

    if os.path.exists(args.state):
        state = json.load(open(args.state))
        state["pairs"] = max(state["pairs"], args.pairs)
        if args.engine and args.engine != state["engine"]:
            print(f"engine now {args.engine} (was {state['engine']})", flush=True)
            state["engine"] = args.engine
        print(f"resuming {args.state} at pair {state['done']} of {state['pairs']}", flush=True)
    else:
        if not args.engine:
            raise SystemExit("a new run needs the engine")
        state = new_state(args, engine_tunables(args.engine))
        save(args.state, state)
    engine = state["engine"]
    tc = match.parse_tc(state["tc"])
    if state["book"]:
        openings = match.book_openings(state["book"])
        random.Random(state["seed"]).shuffle(openings)
    else:
        rng = random.Random(state["seed"])
        openings = [(match.START, match.random_opening(rng, 4)) for _ in range(1000)]

    lock = threading.Lock()
    next_k = [state["done"]]
    last = state["done"] + args.stop_after if args.stop_after else state["pairs"]

    def play_pair(k):
        """Plays pair k; returns ({"plus", "minus": points}, faults, the signs,
        and the (value, c_k, a_k) of each constant it was played with)."""
        rng = random.Random(f"{state['seed']}:{k}")
        with lock:
            snapshot = {n: (p["value"], *gains(state, k, p)) for n, p in state["params"].items()}
        delta = {n: rng.choice((-1, 1)) for n in snapshot}

        def spec(sign):
            opts = []
            for n, (v, c, _) in snapshot.items():
                p = state["params"][n]
                x = min(max(v + sign * delta[n] * c, p["min"]), p["max"])
                # Rounded up with the probability of the fraction: unbiased
                # however small the perturbation.
                opts.append(f"opt.{n}={math.floor(x) + (rng.random() < x - math.floor(x))}")
            return ",".join([engine] + opts)

        opening = openings[k % len(openings)]
        points = {"plus": 0.0, "minus": 0.0}
        faults = 0
        for plus_red in (True, False):
            plus, minus = match.Engine("plus", spec(1), tc), match.Engine("minus", spec(-1), tc)
            try:
                plus.start()
                minus.start()
                red, black = (plus, minus) if plus_red else (minus, plus)
                res, why, _, _ = match.play_game(red, black, opening,
                                                 state["max_plies"], state["grace_ms"])
            except match.EngineFault as ex:
                res, why = "*", f"start failed: {ex}"
            finally:
                plus.quit()
                minus.quit()
            if match.is_fault(res, why):
                faults += 1
                print(f"pair {k}: fault: {why}", flush=True)
            if res in ("1-0", "0-1", "1/2-1/2"):
                pts = match.red_points(res, plus_red)
                points["plus"] += pts
                points["minus"] += 1 - pts
        return points, faults, delta, snapshot

    def worker():
        while True:
            with lock:
                k = next_k[0]
                if k >= min(last, state["pairs"]):
                    return
                next_k[0] += 1
            points, faults, delta, snapshot = play_pair(k)
            result = points["plus"] - points["minus"]
            with lock:
                for n, (_, c, a) in snapshot.items():
                    p = state["params"][n]
                    p["value"] = min(max(p["value"] + a / c * result * delta[n], p["min"]), p["max"])
                state["done"] += 1
                state["points"]["plus"] += points["plus"]
                state["points"]["minus"] += points["minus"]
                state["faults"] += faults
                save(args.state, state)
                with open(args.state + ".log", "a") as f:
                    values = {n: round(p["value"], 2) for n, p in state["params"].items()}
                    f.write(json.dumps({"k": k, "result": result, "values": values}) + "\n")
                print(f"pair {k + 1}/{state['pairs']}: {result:+g}  done {state['done']}, "
                      + " ".join(f"{n[5:]}={p['value']:.1f}" for n, p in sorted(state["params"].items())),
                      flush=True)

    with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        for f in [pool.submit(worker) for _ in range(args.concurrency)]:
            f.result()
    print(f"stopped at pair {state['done']} of {state['pairs']}", flush=True)


if __name__ == "__main__":
    main()
