"""Reference (slow, readable) implementation of RuleSet = chinese, the
repetition rules of the Chinese Xiangqi Association's competition rules as
specified in the shared rules-chinese.md (this is a copy of its reference reading).  Pure Python, no dependencies.

It imports the board, move generator, legality and the Asian arbiter from
xqref.py and leaves that module untouched, so

    adjudicate(fen, moves)                       -> Chinese ruling (this file)
    adjudicate(fen, moves, ruleset="asian")      -> xqref.adjudicate (rules.md)

Conventions are those of xqref.py: files a..i, ranks 0..9 (rank 0 = Red's
back rank), moves like "h2e2", Red = "w".

Command line (verification):

    python3 xqref_cn.py FILE.jsonl [...]

replays every case of each file, checks that each move is legal, that the
Chinese verdict equals `expected`, that the Asian verdict (xqref.py) equals
the `asian` field, and that `trace`, `ruling_window_plies` and
`search_ruling` are reproduced.  It exits non-zero on any mismatch.

Like xqref.py this is a specification aid, written for clarity, not speed.
"""

import sys
sys.dont_write_bytecode = True

import xqref
from xqref import (RED, BLACK, other, color_of, sqname, parse_move, parse_fen,
                   crossed_river, targets, attackers_of_king, in_check,
                   make, legal_moves, replay, _capture_feasible)

# --------------------------------------------------------------------------
# Parameters (rules-chinese.md section 3 and 9)
# --------------------------------------------------------------------------

KILL_DEPTH = 3          # 杀: forced mate by consecutive checks, at most this many moves of S
MOVE_LIMIT = 120        # 60 rounds without a capture

# Piece values used to decide whether a capture sequence "gains material"
# (得子).  Rook = two horses = two cannons = horse + cannon; horse = cannon;
# advisor = elephant; a crossed pawn is worth as much as an advisor; an
# uncrossed pawn is not a "piece" (子) and is worth 0.  The king is never
# captured.
VALUES = {"R": 4, "N": 2, "C": 2, "A": 1, "B": 1}


def value_of(piece, square):
    t = piece.upper()
    if t == "P":
        return 1 if crossed_river(square, color_of(piece)) else 0
    return VALUES.get(t, 0)


# --------------------------------------------------------------------------
# Mate and mate threats (杀)
# --------------------------------------------------------------------------

def is_checkmated(pos):
    """Side to move is in check and has no legal move."""
    return in_check(pos, pos.side) and not legal_moves(pos)


def has_mate_in_one(pos):
    """Side to move has a legal move after which the opponent is checkmated."""
    for f, t in legal_moves(pos):
        if is_checkmated(make(pos, f, t)):
            return True
    return False


def check_mate_within(pos, depth):
    """Side to move (the attacker) mates by consecutive checks (连将杀) within
    `depth` of its own moves, against every defence.  Every attacker move in
    the sequence must give check; the defender may play any legal move."""
    if depth <= 0:
        return False
    for f, t in legal_moves(pos):
        n = make(pos, f, t)
        if not in_check(n, n.side):
            continue
        replies = legal_moves(n)
        if not replies:
            return True
        if depth == 1:
            continue
        if all(check_mate_within(make(n, a, b), depth - 1) for a, b in replies):
            return True
    return False


def kill_threat(Q, S, depth=None):
    """杀 test (rules-chinese.md 3.2): in the position Q reached by S's
    non-checking move, would S mate by consecutive checks within `depth`
    moves if it were S's turn again (the opponent 'passes')?"""
    depth = KILL_DEPTH if depth is None else depth
    R = Q.copy()
    R.side = S
    return check_mate_within(R, depth)


# --------------------------------------------------------------------------
# Value-based chase (捉)
# --------------------------------------------------------------------------

def exchange_gain(pos, v, side):
    """Best material gain for `side` (to move in pos) from a sequence of
    captures on square v, where either side may stop at any point (rules-
    chinese.md 3.4).  Only legal captures on v are considered."""
    p = pos.copy()
    p.side = side
    best = 0
    for f, t in legal_moves(p, side):
        if t != v:
            continue
        gain = value_of(p.board[v], v) - exchange_gain(make(p, f, t), v, other(side))
        if gain > best:
            best = gain
    return best


def threats_cn(pos, S):
    """Th_cn(P, S): the set of squares of enemy pieces that S threatens to
    win material from, as if S were to move (rules-chinese.md 3.4)."""
    O = other(S)
    ignore = set(attackers_of_king(pos, S))   # see rules.md 3.2 (evasions)
    out = set()
    B = pos.board
    for a, A in enumerate(B):
        if not A or color_of(A) != S or A.upper() in "KP":
            continue                           # king and pawn attacks are idle
        ta = A.upper()
        for v in targets(pos, a):
            V = B[v]
            if not V or color_of(V) != O or v in out:
                continue
            tv = V.upper()
            if tv == "K":
                continue                       # that is a check
            if tv == "P" and not crossed_river(v, O):
                continue                       # uncrossed pawn is not a 子
            if not _capture_feasible(pos, S, a, v, ignore):
                continue                       # illegal capture: not an attacker
            if ta == tv:
                po = pos.copy()
                po.side = O
                if (v, a) in legal_moves(po, O):
                    continue                   # same type, mutual: 兑 (exchange offer)
            after = make(pos, a, v)
            after.side = O
            gain = value_of(V, v) - exchange_gain(after, v, O)
            if gain <= 0:
                continue                       # no gain in piece value
            if has_mate_in_one(after):
                continue                       # capturing would be mated at once
            out.add(v)
    return out


# --------------------------------------------------------------------------
# Move classes and the window
# --------------------------------------------------------------------------

CHECK, KILL, CHASE, IDLE = "check", "kill", "chase", "idle"
ATTACKS = (CHECK, KILL, CHASE)


def classify_move(P, Q, S, kill_depth=None):
    """Return (class, new_chase_squares) for S's move P -> Q
    (rules-chinese.md 3.5: 将 > 杀 > 捉 > 闲)."""
    new = threats_cn(Q, S) - threats_cn(P, S)
    if in_check(Q, Q.side):
        return CHECK, new
    if kill_threat(Q, S, kill_depth):
        return KILL, new
    if new:
        return CHASE, new
    return IDLE, new


def side_pattern(classes):
    """rules-chinese.md section 5."""
    if classes and all(c == CHECK for c in classes):
        return "perpetual_check"
    if classes and all(c in ATTACKS for c in classes):
        return "forbidden"
    return "allowed"


def pattern_name(classes):
    """Human-readable Chinese name of a side's cycle, for traces/reports."""
    kinds = [c for c in (CHECK, KILL, CHASE) if c in classes]
    names = {CHECK: "jiang", KILL: "sha", CHASE: "zhuo"}
    if IDLE in classes:
        return "allowed (" + "+".join(names[k] for k in kinds) + ("+" if kinds else "") + "xian)"
    if len(kinds) == 1:
        return "chang_" + names[kinds[0]]
    return "mixed_" + "_".join(names[k] for k in kinds)


def classify_window_cn(ps, moves, i0, i1, kill_depth=None):
    ident = {s: s for s, p in enumerate(ps[i0].board) if p}
    classes = {RED: [], BLACK: []}
    per_move = []
    for i in range(i0, i1):
        P, Q = ps[i], ps[i + 1]
        S = P.side
        frm, to = parse_move(moves[i])
        cls, new = classify_move(P, Q, S, kill_depth)
        ids = {ident[s] for s in new}
        per_move.append({"move": moves[i], "side": "red" if S == RED else "black",
                         "class": cls,
                         "new_chases": sorted(sqname(s) for s in new),
                         "victim_ids": sorted(sqname(x) for x in ids)})
        classes[S].append(cls)
        if to in ident:
            del ident[to]
        ident[to] = ident.pop(frm)
    res = {c: {"pattern": side_pattern(classes[c]), "name": pattern_name(classes[c])}
           for c in (RED, BLACK)}
    return res, per_move


def decide_cn(res):
    """rules-chinese.md section 6."""
    r, b = res[RED]["pattern"], res[BLACK]["pattern"]
    if r == "perpetual_check" and b == "perpetual_check":
        return "draw"
    if r == "perpetual_check":
        return "black_wins"
    if b == "perpetual_check":
        return "red_wins"
    if r == "forbidden" and b == "forbidden":
        return "draw"
    if r == "forbidden":
        return "black_wins"
    if b == "forbidden":
        return "red_wins"
    return "draw"


def adjudicate(fen, moves, nfold=3, move_limit=MOVE_LIMIT, ruleset="chinese",
               kill_depth=None):
    """Game-level ruling after the whole move list.  Returns (verdict, detail).
    ruleset="asian" delegates to xqref.adjudicate unchanged."""
    if ruleset == "asian":
        return xqref.adjudicate(fen, moves, nfold=nfold, move_limit=move_limit)
    if ruleset != "chinese":
        raise ValueError("unknown ruleset %r" % ruleset)
    ps = replay(fen, moves)
    last = ps[-1]
    parts = fen.split()
    halfmove = int(parts[4]) if len(parts) > 4 and parts[4].isdigit() else 0
    # 1. no legal move: the side to move loses (checkmate or stalemate)
    if not legal_moves(last):
        who = "black_wins" if last.side == RED else "red_wins"
        kind = "checkmate" if in_check(last, last.side) else "stalemate"
        return who, {"rule": kind}
    since, start = halfmove, 0
    for i in range(len(moves)):
        if sum(1 for p in ps[i].board if p) != sum(1 for p in ps[i + 1].board if p):
            since, start = 0, i + 1
        else:
            since += 1
    # 2. repetition
    k = last.key()
    occ = [i for i in range(start, len(ps)) if ps[i].key() == k]
    if len(occ) >= nfold:
        i0 = occ[-nfold]
        res, per_move = classify_window_cn(ps, moves, i0, len(ps) - 1, kill_depth)
        return decide_cn(res), {"rule": "repetition", "window": (i0, len(ps) - 1),
                                "sides": res, "moves": per_move}
    # 3. natural move limit
    if move_limit and since >= move_limit:
        return "draw", {"rule": "move_limit", "plies_without_capture": since}
    return "none", {"rule": None, "plies_without_capture": since}


def search_ruling(fen, moves, ruleset="chinese", kill_depth=None):
    """What the simple in-search judge (rules-chinese.md 7) returns at the
    final position when every earlier occurrence lies strictly inside the
    tree: the 3-fold ruling when the position occurred 3+ times, the one-cycle
    ruling when it occurred exactly twice, None when it is no repetition."""
    v3, d3 = adjudicate(fen, moves, ruleset=ruleset, kill_depth=kill_depth, move_limit=None)
    if d3.get("rule") == "repetition":
        return v3
    if d3.get("rule") in ("checkmate", "stalemate"):
        return None
    v2, d2 = adjudicate(fen, moves, nfold=2, ruleset=ruleset, kill_depth=kill_depth,
                        move_limit=None)
    return v2 if d2.get("rule") == "repetition" else None


# --------------------------------------------------------------------------
# Verification of case files
# --------------------------------------------------------------------------

def verify_case(c):
    """Return a list of problems (empty = the case is reproduced)."""
    probs = []
    kd = c.get("kill_depth")
    try:
        replay(c["fen"], c["moves"])
    except ValueError as e:
        return ["illegal: %s" % e]
    v, d = adjudicate(c["fen"], c["moves"], kill_depth=kd)
    if v != c["expected"]:
        probs.append("chinese verdict %s != expected %s" % (v, c["expected"]))
    if "asian" in c:
        va, _ = adjudicate(c["fen"], c["moves"], ruleset="asian")
        if va != c["asian"]:
            probs.append("asian verdict %s != recorded %s" % (va, c["asian"]))
    if "search_ruling" in c:
        sr = search_ruling(c["fen"], c["moves"], kill_depth=kd)
        if sr != c["search_ruling"]:
            probs.append("search_ruling %s != recorded %s" % (sr, c["search_ruling"]))
    if "trace" in c:
        if d.get("rule") != "repetition":
            probs.append("trace recorded but no repetition ruling")
        else:
            if list(d["window"]) != c.get("ruling_window_plies"):
                probs.append("window %s != %s" % (d["window"], c.get("ruling_window_plies")))
            if d["moves"] != c["trace"]:
                probs.append("trace differs")
    return probs


def main(argv):
    import json
    bad = total = 0
    for path in argv:
        n = 0
        for line in open(path, encoding="utf-8"):
            if not line.strip():
                continue
            c = json.loads(line)
            n += 1
            probs = verify_case(c)
            if probs:
                bad += 1
                print("FAIL %s: %s" % (c["id"], "; ".join(probs)))
        print("%s: %d cases checked" % (path, n))
        total += n
    print("%d cases, %d failures" % (total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
