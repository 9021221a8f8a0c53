#!/usr/bin/env python3
"""Losses on time and the least clock left, from XBoard's own records of a
match (issue 41): its PGN (-saveGameFile) and its debug log (-debug).

Usage: tools/xboard_clocks.py GAMES.pgn DEBUG.log INC_MS ENGINE...
ENGINE: the XBoard engine slots that are Chariot ("first", "second").

For every game: the result and XBoard's reason, and per Chariot slot the
least clock left after one of its moves, in milliseconds: the least `time`
XBoard sent it before a move (centiseconds, the clock with the last move's
increment added) less the increment; 0 when the game was lost on time by
that engine. Then the flags and the distribution over games, and XBoard's
cycle: for the moves on which Chariot thought less than 60 ms (its `#
thought N ms` note), the time from XBoard's `time` to its reading of the
move: what a fast move costs on XBoard's clock (see docs/clock.md). Exit
status 1 when a Chariot engine lost on time.
"""

import re
import sys


def games(pgn):
    """(result, reason, red engine name) of every game in PGN."""
    out = []
    text = open(pgn, errors="replace").read()
    for block in re.split(r"\n(?=\[Event )", text):
        if not block.strip():
            continue
        red = re.search(r'^\[White "(.*)"\]', block, re.M)
        black = re.search(r'^\[Black "(.*)"\]', block, re.M)
        result = re.search(r'^\[Result "(.*)"\]', block, re.M)
        reason = re.findall(r"\{([^}]*)\}\s*(?:1-0|0-1|1/2-1/2|\*)\s*$", block)
        out.append((result.group(1) if result else "*", reason[-1] if reason else "",
                    red.group(1) if red else "", black.group(1) if black else ""))
    return out


def least_clocks(log, slots):
    """Per game (ended by XBoard's `GameEnds`), per slot: the least `time`
    sent, in centiseconds."""
    per_game = []
    cur = {}
    for line in open(log, errors="replace"):
        if line.startswith("GameEnds("):
            if cur:
                per_game.append(cur)
            cur = {}
            continue
        m = re.match(r"\d+ >(first|second)\s*: time (\d+)\s*$", line)
        if m and m.group(1) in slots:
            cs = int(m.group(2))
            cur[m.group(1)] = min(cur.get(m.group(1), cs), cs)
    if cur:
        per_game.append(cur)
    return per_game


def cycle(log, slots):
    """Per fast move (Chariot thought < 60 ms) of the slots: milliseconds
    from XBoard sending `time` to reading the move."""
    costs = []
    for slot in slots:
        sent = None
        for line in open(log, errors="replace"):
            m = re.match(r"(\d+) >%s *: time " % slot, line)
            if m:
                sent = int(m.group(1))
                continue
            m = re.match(r"(\d+) <%s *: # thought (\d+) ms" % slot, line)
            if m and sent is not None:
                if int(m.group(2)) < 60:
                    costs.append(int(m.group(1)) - sent)
                sent = None
    return sorted(costs)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    pgn, log, inc_ms, slots = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    played = games(pgn)
    clocks = least_clocks(log, slots)
    flags = other_flags = 0
    least = []
    for i, (result, reason, red, black) in enumerate(played):
        c = clocks[i] if i < len(clocks) else {}
        on_time = "on time" in reason
        # Who flagged: the side that did not win.
        loser = None
        if on_time:
            loser = "Black" if result == "1-0" else "White"
        words = []
        for slot in slots:
            ms = max(c.get(slot, 0) * 10 - inc_ms, 0)
            # XBoard's first engine plays White in odd games of a match and
            # Black in even ones; "Chariot" names both slots in self-play.
            colour = ("White" if i % 2 == 0 else "Black") if slot == "first" else \
                     ("Black" if i % 2 == 0 else "White")
            if on_time and loser == colour:
                flags += 1
                ms = 0
            least.append(ms)
            words.append(f"{slot} ({colour}) {ms} ms")
        if on_time and not any(loser == ("White" if (i % 2 == 0) == (s == "first") else "Black")
                               for s in slots):
            # An opponent's flag.
            other_flags += 1
        print(f"game {i + 1:3d}: {result:7s} {{{reason}}}  least clock left: {', '.join(words)}")
    least.sort()
    n = len(least)
    if n:
        q = lambda p: least[min(n - 1, int(p * n))]
        print(f"{len(played)} games, Chariot lost {flags} on time, the opponent {other_flags}; "
              f"least clock left (ms) over {n} game sides: min {least[0]} p10 {q(0.1)} "
              f"median {q(0.5)} max {least[-1]}")
        print("least clock left, sorted: " + " ".join(str(x) for x in least))
    costs = cycle(log, slots)
    if costs:
        q = lambda p: costs[min(len(costs) - 1, int(p * len(costs)))]
        print(f"XBoard's cycle (ms from `time` to the move, {len(costs)} moves thought < 60 ms): "
              f"p10 {q(0.1)} median {q(0.5)} p90 {q(0.9)}")
    sys.exit(1 if flags else 0)


if __name__ == "__main__":
    main()
