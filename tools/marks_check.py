#!/usr/bin/env python3
"""Do a quick review's marks fall where a deeper review blames? Compares two
`chariot analyse --format json` runs over the same games (the quick one
first), move by move, for the moves of one player or of both.

    tools/marks_check.py QUICK.jsonl DEEP.jsonl [--player NAME]

With --player, only the moves of the side whose PGN tag (Red/Black) is NAME
count. Prints how many of the quick review's `?`/`??` the deeper one marks
`?`/`??` (and with any mark), how many of the deeper one's `?`/`??` the quick
one marks, and the correlation of the two losses. Used for the quality
figure of docs/analysis.md.
"""
import argparse
import json
import statistics
import sys

SERIOUS = ("?", "??")


def moves(path, player):
    """{(game, ply): (mark, loss)} of the moves that count."""
    rows, sides = [], {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            o = json.loads(line)
            if o["type"] == "game":
                tags = o.get("tags", {})
                sides[o["game"]] = {c for c in ("red", "black") if player is None or tags.get(c.title()) == player}
            elif o["type"] == "move" and o.get("reviewed"):
                rows.append(o)
    return {(o["game"], o["ply"]): (o["mark"], o["loss"]) for o in rows if o["side"] in sides.get(o["game"], ())}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("quick")
    ap.add_argument("deep")
    ap.add_argument("--player")
    a = ap.parse_args()
    quick, deep = moves(a.quick, a.player), moves(a.deep, a.player)
    common = sorted(set(quick) & set(deep))
    if not common:
        sys.exit("marks_check: no move in both reviews")
    q_serious = [k for k in common if quick[k][0] in SERIOUS]
    d_serious = [k for k in common if deep[k][0] in SERIOUS]
    both = [k for k in q_serious if deep[k][0] in SERIOUS]
    any_mark = [k for k in q_serious if deep[k][0] is not None]
    found = [k for k in d_serious if quick[k][0] in SERIOUS]
    r = statistics.correlation([quick[k][1] for k in common], [deep[k][1] for k in common])
    print(f"moves compared: {len(common)} in {len({g for g, _ in common})} games")
    print(f"quick ?/??: {len(q_serious)}; also ?/?? in the deep review: {len(both)}; some mark: {len(any_mark)}")
    print(f"deep ?/??: {len(d_serious)}; marked ?/?? by the quick review: {len(found)}")
    print(f"loss correlation: {r:.2f}")
    for k in d_serious:
        if k not in found:
            print(f"  missed by the quick review: game {k[0]} ply {k[1]}: quick {quick[k]}, deep {deep[k]}")


if __name__ == "__main__":
    main()
