#!/usr/bin/env python3
"""Fit the win/draw/loss model of `UCI_ShowWDL` to Chariot's self-play data.

Reads `chariot datagen` files (docs/training.md, "Self-play data"): every
record gives a search score from the side to move, the material on the board
and the game's result. The model (src/eval/wdl.rs) is Stockfish's form:

    win(x, m)  = 1 / (1 + exp((a(m) - x) / b(m)))
    loss(x, m) = win(-x, m)
    draw       = 1 - win - loss

with x the score in centipawns, m the material (rook 4, horse 2, cannon 2,
advisor 1, elephant 1, pawn 1, both sides: 50 at the start) and a, b cubic
polynomials of m / 50. The fit: a and b for each material count by maximum
likelihood (counts of wins, draws and losses per 10 cp score bin), then the
polynomials by least squares weighted by the positions of each count, and
last all eight coefficients together by maximum likelihood over every
(material, score bin) cell (Nelder-Mead from the two-stage values). The
same is done with the ply (in bins of 10) in place of the material for
comparison.

Prints the coefficients as Rust constants, the log-loss of the model against
that of the ply form and of the base rates, and a table of predicted against
observed win/draw/loss rates per score bucket (Markdown, for docs/levels.md).

Every record is used except those with a mate score (|score| >= 31000);
scores are clamped to +-2000 (where self-play adjudicates games).

Usage: tools/fit_wdl.py [--limit N] FILE...
"""

import argparse
import math
import struct
import sys

RECORD = 40
MATE_BOUND = 31000
CLAMP = 2000
BIN = 10
# Material per piece kind (0 rook, 1 advisor, 2 cannon, 3 pawn, 4 horse, 5 elephant, 6 king).
VALUE = [4, 1, 2, 1, 2, 1, 0]
MAX_MATERIAL = 50
MAX_PLY = 240


def nibble_material(pieces, count):
    m = 0
    for i in range(count):
        b = pieces[i >> 1]
        code = (b >> 4) if (i & 1) else (b & 15)
        m += VALUE[code & 7] if (code & 7) < 7 else 0
    return m


def read(paths, limit):
    """Yields (score from the side to move, material, ply, result for the side to move: 2 win 1 draw 0 loss)."""
    n = 0
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        whole = len(data) // RECORD * RECORD
        for off in range(0, whole, RECORD):
            rec = data[off:off + RECORD]
            if rec[11] > 3:  # a header (byte 11 is 'a')
                continue
            occ = int.from_bytes(rec[0:12], "little")
            count = bin(occ).count("1")
            score, = struct.unpack_from("<h", rec, 28)
            ply, = struct.unpack_from("<H", rec, 32)
            stm, result = rec[34], rec[36]
            if abs(score) >= MATE_BOUND:
                continue
            if stm == 1:
                result = 2 - result
            yield score, nibble_material(rec[12:28], count), ply, result
            n += 1
            if limit and n >= limit:
                return


def sigmoid(z):
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


def probs(x, a, b):
    w = sigmoid((x - a) / b)
    l = sigmoid((-x - a) / b)
    d = max(1 - w - l, 1e-9)
    return max(w, 1e-9), d, max(l, 1e-9)


def nll(cells, a, b):
    """cells: {score bin centre: [losses, draws, wins]}."""
    if b <= 1 or a < 0:
        return float("inf")
    t = 0.0
    for x, (nl, nd, nw) in cells.items():
        w, d, l = probs(x, a, b)
        t -= nw * math.log(w) + nd * math.log(d) + nl * math.log(l)
    return t


def nelder_mead(f, x0, steps, iters=300):
    pts = [list(x0)]
    for i, s in enumerate(steps):
        p = list(x0)
        p[i] += s
        pts.append(p)
    vals = [f(*p) for p in pts]
    for _ in range(iters):
        order = sorted(range(len(pts)), key=lambda i: vals[i])
        pts = [pts[i] for i in order]
        vals = [vals[i] for i in order]
        centre = [sum(p[j] for p in pts[:-1]) / (len(pts) - 1) for j in range(len(x0))]
        worst = pts[-1]
        refl = [c + (c - w) for c, w in zip(centre, worst)]
        fr = f(*refl)
        if fr < vals[0]:
            exp = [c + 2 * (c - w) for c, w in zip(centre, worst)]
            fe = f(*exp)
            pts[-1], vals[-1] = (exp, fe) if fe < fr else (refl, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = refl, fr
        else:
            con = [c + 0.5 * (w - c) for c, w in zip(centre, worst)]
            fc = f(*con)
            if fc < vals[-1]:
                pts[-1], vals[-1] = con, fc
            else:
                best = pts[0]
                pts = [best] + [[b + 0.5 * (p - b) for b, p in zip(best, q)] for q in pts[1:]]
                vals = [vals[0]] + [f(*p) for p in pts[1:]]
    i = min(range(len(pts)), key=lambda i: vals[i])
    return pts[i], vals[i]


def solve(mat, vec):
    """Gaussian elimination with partial pivoting."""
    n = len(vec)
    m = [row[:] + [v] for row, v in zip(mat, vec)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c] != 0:
                k = m[r][c] / m[c][c]
                m[r] = [x - k * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def polyfit(ts, ys, ws, degree=3):
    """Weighted least squares polynomial: coefficients of t^0..t^degree."""
    n = degree + 1
    mat = [[sum(w * t ** (i + j) for t, w in zip(ts, ws)) for j in range(n)] for i in range(n)]
    vec = [sum(w * y * t ** i for t, y, w in zip(ts, ys, ws)) for i in range(n)]
    return solve(mat, vec)


def poly(c, t):
    return sum(ci * t ** i for i, ci in enumerate(c))


def fit(by_key, scale):
    """by_key: {m: {bin: [l, d, w]}}. Per-key (a, b), then cubic polynomials of m / scale."""
    ts, as_, bs, ws = [], [], [], []
    for m in sorted(by_key):
        cells = by_key[m]
        n = sum(sum(c) for c in cells.values())
        if n < 1000:
            continue
        (a, b), _ = nelder_mead(lambda a, b: nll(cells, a, b), (300.0, 150.0), (50.0, 30.0))
        ts.append(m / scale)
        as_.append(a)
        bs.append(b)
        ws.append(n)
    ca, cb = polyfit(ts, as_, ws), polyfit(ts, bs, ws)
    # Then all eight coefficients together, by maximum likelihood over every cell.
    flat = [(m / scale, x, c) for m, cells in by_key.items() for x, c in cells.items()]

    def total(*coef):
        t = 0.0
        for tm, x, (nl, nd, nw) in flat:
            a, b = poly(coef[:4], tm), poly(coef[4:], tm)
            if a < 0 or b <= 1:
                return float("inf")
            w, d, l = probs(x, a, b)
            t -= nw * math.log(w) + nd * math.log(d) + nl * math.log(l)
        return t

    start = list(ca) + list(cb)
    if total(*start) == float("inf"):
        start = [300.0, 0, 0, 0, 200.0, 0, 0, 0]
    steps = [max(abs(v) * 0.1, 20.0) for v in start]
    best, _ = nelder_mead(total, start, steps, iters=1500)
    return best[:4], best[4:], list(zip(ts, as_, bs, ws))


def model(ca, cb, t):
    # The Rust model clamps the same way (src/eval/wdl.rs).
    return max(poly(ca, t), 1.0), max(poly(cb, t), 10.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--limit", type=int, default=0, help="records at most")
    args = ap.parse_args()

    by_mat, by_ply, samples = {}, {}, []
    for score, mat, ply, result in read(args.files, args.limit):
        x = max(-CLAMP, min(CLAMP, score))
        xb = round(x / BIN) * BIN
        by_mat.setdefault(mat, {}).setdefault(xb, [0, 0, 0])[result] += 1
        by_ply.setdefault(min(ply, MAX_PLY) // 10 * 10 + 5, {}).setdefault(xb, [0, 0, 0])[result] += 1
        samples.append((x, mat, min(ply, MAX_PLY), result))
    n = len(samples)
    if n == 0:
        sys.exit("no records")
    ca, cb, per_mat = fit(by_mat, MAX_MATERIAL)
    pa, pb, _ = fit(by_ply, MAX_PLY)

    counts = [0, 0, 0]
    for s in samples:
        counts[s[3]] += 1
    base = [c / n for c in counts]
    ll_mat = ll_ply = ll_base = 0.0
    buckets = [(-10**9, -600), (-600, -400), (-400, -250), (-250, -150), (-150, -75), (-75, -25),
               (-25, 25), (25, 75), (75, 150), (150, 250), (250, 400), (400, 600), (600, 10**9)]
    table = [[0, [0, 0, 0], [0.0, 0.0, 0.0]] for _ in buckets]
    for x, mat, ply, r in samples:
        a, b = model(ca, cb, mat / MAX_MATERIAL)
        w, d, l = probs(x, a, b)
        ll_mat -= math.log((l, d, w)[r])
        a2, b2 = model(pa, pb, ply / MAX_PLY)
        w2, d2, l2 = probs(x, a2, b2)
        ll_ply -= math.log((l2, d2, w2)[r])
        ll_base -= math.log(max(base[r], 1e-9))
        for i, (lo, hi) in enumerate(buckets):
            if lo <= x < hi:
                t = table[i]
                t[0] += 1
                t[1][r] += 1
                t[2][0] += w
                t[2][1] += d
                t[2][2] += l
                break

    print(f"records: {n} (mate scores left out); results for the side to move: "
          f"win {100 * base[2]:.1f} %, draw {100 * base[1]:.1f} %, loss {100 * base[0]:.1f} %")
    print(f"log-loss per position: material model {ll_mat / n:.4f}, ply model {ll_ply / n:.4f}, "
          f"base rates {ll_base / n:.4f}")
    print("\nper material count (m, a, b, positions) of the first stage:")
    for t, a, b, w in per_mat:
        print(f"  {round(t * MAX_MATERIAL):2d} a {a:7.1f} b {b:6.1f} n {w}")
    fmt = lambda c: ", ".join(f"{v:.3f}" for v in c)
    print("\n/// a(t), t = material / 50: coefficients of t^0..t^3.")
    print(f"const A: [f64; 4] = [{fmt(ca)}];")
    print("/// b(t): coefficients of t^0..t^3.")
    print(f"const B: [f64; 4] = [{fmt(cb)}];")
    print(f"\n(ply form, t = ply / {MAX_PLY}: a [{fmt(pa)}], b [{fmt(pb)}])")
    print("\n| score (cp) | positions | observed W / D / L (%) | predicted W / D / L (%) |")
    print("|---|---|---|---|")
    for (lo, hi), (cnt, obs, pred) in zip(buckets, table):
        if cnt == 0:
            continue
        name = f"< {hi}" if lo < -10**8 else f">= {lo}" if hi > 10**8 else f"{lo} .. {hi}"
        o = f"{100 * obs[2] / cnt:.1f} / {100 * obs[1] / cnt:.1f} / {100 * obs[0] / cnt:.1f}"
        p = f"{100 * pred[0] / cnt:.1f} / {100 * pred[1] / cnt:.1f} / {100 * pred[2] / cnt:.1f}"
        print(f"| {name} | {cnt} | {o} | {p} |")


if __name__ == "__main__":
    main()
