#!/usr/bin/env python3
"""Generates extra-chinese.jsonl: more test games for RuleSet = chinese, with
every verdict, window, trace, pattern and in-search ruling computed by the
specification's Python reference (xqref_cn.py, which imports xqref.py), not
by Chariot.

    python3 gen_extra_chinese.py PATH/TO/xqref_dir cases-chinese.jsonl \
        ../../../perft-data/random.epd > extra-chinese.jsonl

Games (deterministic, fixed seed):
  * file-mirrored copies (files a<->i) and colour-mirrored copies (ranks
    flipped, colours swapped) of the Chinese catalogue's games;
  * reinforced copies: the same moves with extra pieces of both colours on
    points the game never touches (the rule that ends the game is kept; the
    verdict may change, which is the point);
  * random games from perft positions ending in a forced shuffle of one or
    two cycles, picked in turn for a decisive Chinese verdict, for a Chinese
    verdict that differs from the Asian one, or at random.

Each record has the fields of cases-chinese.jsonl that the Rust tests read:
id, fen, moves, expected (Chinese), asian, why, ruling_rule, search_ruling,
and for repetitions ruling_window_plies, patterns and trace.
"""

import json
import random
import sys

import gen_extra  # noqa: E402  (same directory; puts sys.argv[1] on the path)
import xqref  # noqa: E402
import xqref_cn  # noqa: E402


def record(cid, fen, moves, why):
    verdict, detail = xqref_cn.adjudicate(fen, moves)
    asian, _ = xqref_cn.adjudicate(fen, moves, ruleset="asian")
    case = {"id": cid, "fen": fen, "moves": moves, "expected": verdict, "asian": asian,
            "why": why, "ruling_rule": detail["rule"],
            "search_ruling": xqref_cn.search_ruling(fen, moves)}
    if detail["rule"] == "repetition":
        case["ruling_window_plies"] = list(detail["window"])
        case["patterns"] = {("red" if c == "w" else "black"): v for c, v in detail["sides"].items()}
        case["trace"] = detail["moves"]
    return case


def shuffle_game(fen, rng, prefix_len, cycles, want):
    """A random prefix, then `cycles` repetitions of a 4-ply shuffle; `want`
    picks the shuffle by its two-cycle verdict: 'decisive', 'differs' (from
    the Asian verdict) or 'any'."""
    moves = gen_extra.random_prefix(fen, rng, prefix_len)
    if moves is None:
        return None
    p = xqref.replay(fen, moves)[-1]
    for cycle in gen_extra.shuffle_cycles(p, rng, 1 if want == "any" else 30):
        game = moves + cycle * 2
        cn = xqref_cn.adjudicate(fen, game)[0]
        if want == "decisive" and cn == "draw":
            continue
        if want == "differs" and cn == xqref_cn.adjudicate(fen, game, ruleset="asian")[0]:
            continue
        return moves + cycle * cycles
    return None


def main():
    rng = random.Random(20251201)
    shared = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
    out = []
    for c in shared:
        if c["id"].endswith("_mirrored"):
            continue
        copies = [("_files", gen_extra.mirror_files_fen, gen_extra.mirror_files_move,
                   "catalogue game mirrored a<->i"),
                  ("_colours", gen_extra.mirror_colours_fen, gen_extra.mirror_colours_move,
                   "catalogue game with ranks flipped and colours swapped")]
        for suffix, fen_map, move_map, why in copies:
            out.append(record(c["id"] + suffix, fen_map(c["fen"]), [move_map(m) for m in c["moves"]], why))
    for c in shared:
        rule = xqref_cn.adjudicate(c["fen"], c["moves"])[1]["rule"]
        case = gen_extra.reinforced(c, rng, rule, record)
        if case:
            out.append(case)
    starts = [line.split(";")[0].strip() for line in open(sys.argv[3]) if line.strip() and not line.startswith("#")]
    n = 0
    wants = ("decisive", "differs", "any")
    while n < 45:
        fen = rng.choice(starts)
        cycles = 2 if n % 4 else 1
        want = wants[n % 3]
        moves = shuffle_game(fen, rng, rng.randint(0, 20), cycles, want)
        if moves is None:
            continue
        out.append(record("cn_random_shuffle_%02d" % n, fen, moves,
                          "random game ending in %d shuffle cycle(s), picked: %s" % (cycles, want)))
        print("# %d done" % n, file=sys.stderr, flush=True)
        n += 1
    for case in out:
        print(json.dumps(case, ensure_ascii=False))


if __name__ == "__main__":
    main()
