#!/usr/bin/env python3
"""Generates extra.jsonl: more rule-arbiter test games, with every verdict,
window, trace and in-search ruling computed by the spec's Python reference
implementation (xqref.py, shipped with the rule specification).

    python3 gen_extra.py PATH/TO/xqref_dir cases.jsonl perft-data/random.epd > extra.jsonl

Games (deterministic, fixed seed; about ten minutes):
  * file-mirrored copies (files a<->i) of the catalogue's games;
  * colour-mirrored copies (ranks flipped, colours swapped) of the games that
    have none in the catalogue;
  * reinforced copies: the same moves with extra pieces of both colours on
    points the game never touches (every move still legal, and the same rule
    still applies: repetition, mate, stalemate, move limit); the extra
    material may change the verdict, which is the point;
  * random games from the start position and from perft positions, ending in
    a forced shuffle (two cycles: the third occurrence, or one: the second);
    half of them with a shuffle picked for a decisive verdict (a check or a
    chase), since random shuffles are nearly always plain draws;
  * random quiet walks around the 120-ply no-capture limit.
"""

import json
import random
import sys

sys.path.insert(0, sys.argv[1])
import xqref  # noqa: E402

FILES = "abcdefghi"


def mirror_files_fen(fen):
    parts = fen.split()
    parts[0] = "/".join(row[::-1] for row in parts[0].split("/"))
    return " ".join(parts)


def mirror_files_move(m):
    f = lambda c: FILES[8 - FILES.index(c)]
    return f(m[0]) + m[1] + f(m[2]) + m[3]


def mirror_colours_fen(fen):
    parts = fen.split()
    parts[0] = "/".join(reversed(parts[0].split("/"))).swapcase()
    parts[1] = "b" if parts[1] in "wr" else "w"
    return " ".join(parts)


def mirror_colours_move(m):
    return m[0] + str(9 - int(m[1])) + m[2] + str(9 - int(m[3]))


def piece_count(p):
    return sum(1 for x in p.board if x)


def search_ruling(ps, moves):
    """rules.md section 7 (simple version), every earlier occurrence strictly
    inside the tree: None if the final position is not a repetition."""
    n = len(moves)
    start = 0
    for i in range(n):
        if piece_count(ps[i]) != piece_count(ps[i + 1]):
            start = i + 1
    key = ps[n].key()
    occ = [j for j in range(n - 4, start - 1, -2) if ps[j].key() == key]
    if not occ:
        return None
    i0 = occ[1] if len(occ) >= 2 else occ[0]
    cls, _ = xqref.classify_window(ps, moves, i0, n)
    return xqref.decide(cls)


def valid_start(fen):
    p = xqref.parse_fen(fen)
    return not xqref.kings_facing(p) and not xqref.in_check(p, xqref.other(p.side))


def record(cid, fen, moves, why):
    ps = xqref.replay(fen, moves)
    verdict, detail = xqref.adjudicate(fen, moves)
    case = {"id": cid, "fen": fen, "moves": moves, "expected": verdict, "why": why,
            "ruling_rule": detail["rule"], "search_ruling": search_ruling(ps, moves)}
    if detail["rule"] == "repetition":
        case["ruling_window_plies"] = list(detail["window"])
        case["trace"] = [{"move": m, "side": "red" if s == "w" else "black", "check": c,
                          "new_chases": new, "victim_ids": ids}
                         for (m, s, c, new, ids) in detail["moves"]]
    return case


# Points each kind may stand on (Red's view; Black's are rank-flipped).
def allowed(kind, s, colour):
    f, r = s % 9, s // 9
    if colour == "b":
        r = 9 - r
    if kind == "A":
        return (f, r) in ((3, 0), (5, 0), (4, 1), (3, 2), (5, 2))
    if kind == "B":
        return (f, r) in ((2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4))
    if kind == "P":
        return r >= 5 or (r >= 3 and f % 2 == 0)
    return True


LIMITS = {"K": 1, "A": 2, "B": 2, "N": 2, "R": 2, "C": 2, "P": 5}


def reinforce(fen, moves, rng):
    """The same game with a few extra pieces on points no move touches."""
    p = xqref.parse_fen(fen)
    touched = {xqref.sq(m[:2]) for m in moves} | {xqref.sq(m[2:]) for m in moves}
    free = [s for s in range(90) if not p.board[s] and s not in touched]
    board = p.board[:]
    for _ in range(rng.randint(3, 8)):
        colour = rng.choice("wb")
        kind = rng.choice("RNCABPPP")
        letter = kind if colour == "w" else kind.lower()
        if sum(1 for x in board if x == letter) >= LIMITS[kind]:
            continue
        spots = [s for s in free if not board[s] and allowed(kind, s, colour)]
        if spots:
            board[rng.choice(spots)] = letter
    return xqref.to_fen(xqref.Pos(board, p.side), (0, 1))


def reinforced(c, rng, rule, make_record):
    """Catalogue game c with extra pieces (up to 40 tries) whose ruling keeps
    the catalogue's rule, as a record made by make_record; None if no try does."""
    for _ in range(40):
        fen = reinforce(c["fen"], c["moves"], rng)
        if not valid_start(fen) or legal_or_none(fen, c["moves"]) is None:
            continue
        case = make_record(c["id"] + "_reinforced", fen, c["moves"], "")
        if case["ruling_rule"] != rule:
            continue
        same = case["expected"] == c["expected"]
        case["why"] = "catalogue game with extra pieces; verdict %s (catalogue: %s)" % (
            "unchanged" if same else "changed to " + case["expected"], c["expected"])
        return case
    return None


def legal_or_none(fen, moves):
    try:
        return xqref.replay(fen, moves)
    except ValueError:
        return None


def random_prefix(fen, rng, plies):
    """`plies` random legal moves from `fen` (None if the game ends first)."""
    p = xqref.parse_fen(fen)
    moves = []
    for _ in range(plies):
        legal = xqref.legal_moves(p)
        if not legal:
            return None
        frm, to = rng.choice(legal)
        moves.append(xqref.move_str(frm, to))
        p = xqref.make(p, frm, to)
    return moves


def shuffle_cycles(p, rng, tries):
    """Random 4-ply shuffles from p: each side moves a piece without capturing,
    then both move back."""
    for _ in range(tries):
        q, cycle = p, []
        for _ in range(2):
            quiet = [(a, b) for (a, b) in xqref.legal_moves(q) if not q.board[b]]
            if not quiet:
                break
            a, b = rng.choice(quiet)
            cycle.append((a, b))
            q = xqref.make(q, a, b)
        if len(cycle) < 2:
            continue
        back = [(b, a) for (a, b) in cycle]
        ok = True
        for (a, b) in back:
            if (a, b) not in xqref.legal_moves(q):
                ok = False
                break
            q = xqref.make(q, a, b)
        if ok and q.key() == p.key():
            yield [xqref.move_str(a, b) for (a, b) in cycle + back]


def shuffle_game(fen, rng, prefix_len, cycles, decisive):
    """A random prefix, then `cycles` repetitions of a shuffle; with
    `decisive`, only a shuffle whose two-cycle verdict is a win."""
    moves = random_prefix(fen, rng, prefix_len)
    if moves is None:
        return None
    p = xqref.replay(fen, moves)[-1]
    for cycle in shuffle_cycles(p, rng, 80 if decisive else 1):
        if not decisive or xqref.adjudicate(fen, moves + cycle * 2)[0] != "draw":
            return moves + cycle * cycles
    return None


def quiet_walk(fen, rng, plies):
    """`plies` random non-capturing moves that never reach a third occurrence
    or a position without legal moves."""
    p = xqref.parse_fen(fen)
    seen = {p.key(): 1}
    moves = []
    while len(moves) < plies:
        options = []
        for (a, b) in xqref.legal_moves(p):
            if p.board[b]:
                continue
            q = xqref.make(p, a, b)
            if seen.get(q.key(), 0) < 2 and xqref.legal_moves(q):
                options.append((a, b, q))
        if not options:
            return None
        a, b, p = rng.choice(options)
        seen[p.key()] = seen.get(p.key(), 0) + 1
        moves.append(xqref.move_str(a, b))
    return moves


def main():
    rng = random.Random(20240611)
    shared = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
    # The in-search re-derivation above must agree with the catalogue.
    for c in shared:
        got = search_ruling(xqref.replay(c["fen"], c["moves"]), c["moves"])
        assert got == c.get("search_ruling"), (c["id"], got, c.get("search_ruling"))
    out = []
    ids = {c["id"] for c in shared}
    for c in shared:
        if c["id"].endswith("_mirrored"):
            continue
        copies = [("_files", mirror_files_fen, mirror_files_move, "catalogue game mirrored a<->i")]
        if c["id"] + "_mirrored" not in ids:
            copies.append(("_colours", mirror_colours_fen, mirror_colours_move,
                           "catalogue game with ranks flipped and colours swapped"))
        for suffix, fen_map, move_map, why in copies:
            case = record(c["id"] + suffix, fen_map(c["fen"]), [move_map(m) for m in c["moves"]], why)
            for key in ("illegal_next", "legal_next"):
                if key in c:
                    case[key] = [move_map(m) for m in c[key]]
            if "legal_next" in case:
                final = xqref.replay(case["fen"], case["moves"])[-1]
                assert sorted(case["legal_next"]) == sorted(xqref.move_str(a, b) for a, b in xqref.legal_moves(final))
            out.append(case)
    for c in shared:
        if "legal_next" in c:
            continue
        rule = xqref.adjudicate(c["fen"], c["moves"])[1]["rule"]
        case = reinforced(c, rng, rule, record)
        if case:
            out.append(case)
    starts = [xqref.to_fen(xqref.parse_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"), (0, 1))]
    starts += [line.split(";")[0].strip() for line in open(sys.argv[3]) if line.strip() and not line.startswith("#")]
    n = 0
    while n < 40:
        fen = rng.choice(starts)
        cycles = 2 if n % 4 else 1
        decisive = n % 2 == 0
        moves = shuffle_game(fen, rng, rng.randint(0, 30), cycles, decisive)
        if moves is None:
            continue
        out.append(record("random_shuffle_%02d" % n, fen, moves,
                          "random game ending in %d %sshuffle cycle(s)"
                          % (cycles, "decisive " if decisive else "")))
        n += 1
    for i, (counter, plies) in enumerate(((0, 119), (0, 120), (0, 121), (100, 20), (100, 19), (0, 125))):
        while True:
            fen = " ".join(rng.choice(starts[1:]).split()[:2]) + " - - %d 1" % counter
            moves = quiet_walk(fen, rng, plies)
            if moves is not None:
                break
        out.append(record("quiet_walk_%d_%d" % (i, counter + plies), fen, moves,
                          "%d random non-capturing plies after a counter of %d" % (plies, counter)))
    for case in out:
        print(json.dumps(case))


if __name__ == "__main__":
    main()
