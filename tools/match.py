#!/usr/bin/env python3
"""Play xiangqi engines against each other, with an independent referee.

The referee: pyffish (the Python binding of Fairy-Stockfish, `pip install
pyffish`) checks every move for legality and finds mate and stalemate (both a
loss for the side that cannot move). Repetitions and the 60-round no-capture
limit are ruled by xqref.py (beside this script; xqref_cn.py with --rules chinese),
the reference reading of the project's
rule specification (pyffish differs from it in several chase cases and uses a
50-round limit).

Each engine is given as NAME=COMMAND, with optional ',key=value' settings:
  proto=uci|ucci      protocol (default uci)
  ranks=0|1           rank numbering of the engine's moves: 0 = a0..i9 (UCCI,
                      Pikafish), 1 = a1..i10 (Fairy-Stockfish). Default 0.
  opt.NAME=VALUE      an option sent with setoption (UCI) before the game
  variant=1           send 'setoption name UCI_Variant value xiangqi' (FSF)
  tc=BASE+INC         this engine's own clock (time odds); default --tc

Example:
  match.py --games 20 --tc 2+0.05 \
      'new=target/release/engine' \
      'fsf=/usr/games/fairy-stockfish,ranks=1,variant=1'

Openings: --book FILE plays each line of FILE (a FEN, or `startpos`, optionally
followed by `moves m1 m2 ...` in ranks 0-9) once with each colour; without it,
--opening-plies random plies from the start position (seeded by --seed).

SPRT: --sprt ELO0,ELO1 stops as soon as the log-likelihood ratio of "the first
engine is ELO1 stronger" against "ELO0 stronger" leaves [-2.94, 2.94] (alpha =
beta = 0.05), computed on pairs of games (same opening, colours swapped, the
pentanomial model), but never before --sprt-min-pairs pairs (default 50): the
variance of a few pairs is too unsure to decide on (nine pairs that all end
1.5-0.5 but one give an LLR above 4). --games is then the most games it plays.
Games under way when it decides still finish and count in the figures, but
the verdict is the one at the crossing (the summary gives both LLRs).

Prints one line per game (per engine: mean depth d, share of the clock
used t, least clock left after a move l) and a summary with an Elo estimate
for the first engine (and the pair statistics, LLR). Exit status 0 if every game finished
without an engine fault.

Resuming: --resume LOG reads the game lines of an earlier run's output (the
same engines, --games, --seed and --book; a run stopped part way, e.g. by the
end of a session), counts its finished games as played (W/D/L, pairs, the
SPRT, the clock figures) and plays only the others, with the openings and
colours they would have had. Append the new output to the same file
(`match.py ... --resume run.log >> run.log`) and it can be resumed again.
"""

import argparse
import math
import os
import random
import re
import select
import shlex
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pyffish as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xqref  # noqa: E402
import xqref_cn  # noqa: E402

# The rule set the referee applies to repetitions: "asian" (xqref.py) or
# "chinese" (xqref_cn.py); set from --rules.
RULESET = "asian"

VARIANT = "xiangqi"
START = sf.start_fen(VARIANT)


def to_ref(move, ranks):
    """Engine move -> referee (1..10 ranks) move."""
    if ranks == 1:
        return move
    f1, r1, rest = move[0], move[1], move[2:]
    f2, r2 = rest[0], rest[1:]
    return f"{f1}{int(r1) + 1}{f2}{int(r2) + 1}"


def from_ref(move, ranks):
    """Referee move -> engine move."""
    if ranks == 1:
        return move
    # referee squares look like a1..i10
    i = 1
    while move[i].isdigit():
        i += 1
    a, b = move[:i], move[i:]
    return f"{a[0]}{int(a[1:]) - 1}{b[0]}{int(b[1:]) - 1}"


def fen_for_engine(fen, ranks):
    return fen  # FEN is the same for both numberings


class EngineFault(Exception):
    pass


def parse_tc(text):
    """A clock 'BASE+INC' in seconds (the increment optional) as (base ms, increment ms)."""
    base, _, inc = text.partition("+")
    return int(float(base) * 1000), int(float(inc or 0) * 1000)


class Engine:
    def __init__(self, name, spec, tc):
        parts = spec.split(",")
        self.name = name
        self.cmd = parts[0]
        self.proto = "uci"
        self.ranks = 0
        self.options = {}
        self.variant = False
        self.tc = tc       # (base ms, increment ms): --tc, or this engine's own tc=
        for p in parts[1:]:
            k, _, v = p.partition("=")
            if k == "proto":
                self.proto = v
            elif k == "ranks":
                self.ranks = int(v)
            elif k.startswith("opt."):
                self.options[k[4:]] = v
            elif k == "variant":
                self.variant = v not in ("0", "false")
            elif k == "tc":
                self.tc = parse_tc(v)
            else:
                raise SystemExit(f"unknown engine setting {k!r} in {spec!r}")
        self.proc = None
        self.log = []

    def start(self):
        self.proc = subprocess.Popen(
            shlex.split(self.cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.buf = ""
        if self.proto == "ucci":
            self.send("ucci")
            self.wait_for("ucciok", 10)
            self.send("setoption usemillisec true")
            for k, v in self.options.items():
                self.send(f"setoption {k} {v}")
        else:
            self.send("uci")
            self.wait_for("uciok", 10)
            if self.variant:
                self.send("setoption name UCI_Variant value xiangqi")
            for k, v in self.options.items():
                self.send(f"setoption name {k} value {v}")
        self.send("isready")
        self.wait_for("readyok", 30)

    def send(self, line):
        self.log.append("> " + line)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineFault(f"{self.name}: write failed: {e}")

    def readline(self, deadline):
        while "\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.proc.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536).decode(errors="replace")
            if not chunk:
                raise EngineFault(f"{self.name}: exited (code {self.proc.poll()})")
            self.buf += chunk
        line, _, self.buf = self.buf.partition("\n")
        self.log.append("< " + line.rstrip())
        return line.strip()

    def wait_for(self, token, seconds):
        deadline = time.monotonic() + seconds
        while True:
            line = self.readline(deadline)
            if line is None:
                raise EngineFault(f"{self.name}: no '{token}' within {seconds}s")
            if line.split()[:1] == [token]:
                return line

    def new_game(self):
        if self.proto == "uci":
            self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok", 30)

    def go(self, fen, ref_moves, my_ms, opp_ms, opp_inc_ms, red_to_move, grace_ms):
        inc_ms = self.tc[1]
        moves = [from_ref(m, self.ranks) for m in ref_moves]
        pos = f"position fen {fen_for_engine(fen, self.ranks)}"
        if moves:
            pos += " moves " + " ".join(moves)
        self.send(pos)
        if self.proto == "ucci":
            self.send(f"go time {my_ms} increment {inc_ms} opptime {opp_ms} oppincrement {opp_inc_ms}")
        else:
            w, b = (my_ms, opp_ms) if red_to_move else (opp_ms, my_ms)
            wi, bi = (inc_ms, opp_inc_ms) if red_to_move else (opp_inc_ms, inc_ms)
            self.send(f"go wtime {w} btime {b} winc {wi} binc {bi}")
        t0 = time.monotonic()
        deadline = t0 + (my_ms + grace_ms) / 1000.0
        info = {}
        while True:
            line = self.readline(deadline)
            if line is None:
                return None, (time.monotonic() - t0) * 1000, info
            w = line.split()
            if not w:
                continue
            if w[0] == "info":
                for key in ("depth", "nodes", "nps"):
                    if key in w:
                        try:
                            info[key] = int(w[w.index(key) + 1])
                        except (ValueError, IndexError):
                            pass
                if "score" in w:
                    i = w.index("score")
                    info["score"] = " ".join(w[i + 1:i + 3])
            elif w[0] == "nobestmove":
                return "(none)", (time.monotonic() - t0) * 1000, info
            elif w[0] == "bestmove":
                mv = w[1] if len(w) > 1 else "(none)"
                return mv, (time.monotonic() - t0) * 1000, info

    def quit(self):
        if self.proc and self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=2)
            except Exception:
                self.proc.kill()
                self.proc.wait()


def random_opening(rng, plies):
    moves = []
    for _ in range(plies):
        legal = sf.legal_moves(VARIANT, START, moves)
        if not legal:
            break
        moves.append(rng.choice(legal))
    return moves


def book_openings(path):
    """Lines of a book: (fen, [referee moves])."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#")[0].strip()
            if not line:
                continue
            head, _, tail = line.partition(" moves ")
            head = head.strip()
            if head.startswith("fen "):
                head = head[4:]
            fen = START if head in ("startpos", "") else head
            moves = [to_ref(m, 0) for m in tail.split()]
            for i, m in enumerate(moves):
                if m not in sf.legal_moves(VARIANT, fen, moves[:i]):
                    raise SystemExit(f"{path}:{n}: illegal move {tail.split()[i]}")
            out.append((fen, moves))
    if not out:
        raise SystemExit(f"{path}: no openings")
    return out


def expected(elo_diff):
    return 1 / (1 + 10 ** (-elo_diff / 400))


def sprt_llr(pairs, elo0, elo1):
    """GSPRT log-likelihood ratio over pair scores (each 0, .5, 1, 1.5 or 2 points)."""
    n = len(pairs)
    if n < 2:
        return 0.0
    xs = [p / 2 for p in pairs]
    mu = sum(xs) / n
    var = sum((x - mu) ** 2 for x in xs) / n
    if var <= 0:
        return 0.0
    s0, s1 = expected(elo0), expected(elo1)
    return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)


def to_spec(move):
    """Referee (1..10 ranks) move -> spec (0..9 ranks) move."""
    return from_ref(move, 0)


class Referee:
    """Tracks one game: the board now, its legal moves, the position keys
    (board and side to move) since the last capture and the no-capture count.
    A xiangqi move only moves a piece (and removes the one it lands on), so the
    referee plays it on its own copy of the board; pyffish, whose every call
    costs milliseconds whatever it does, is asked only for the legal moves,
    once a move (the referee shares the cores with the engines it times)."""

    def __init__(self, fen):
        self.fen = fen
        board, self.side = sf.get_fen(VARIANT, fen, []).split()[:2]
        self.rows = [list(re.sub(r"\d", lambda d: "." * int(d.group()), r)) for r in board.split("/")]
        self.keys = [self.key()]
        self.quiet = int(fen.split()[4]) if len(fen.split()) > 4 else 0
        self._legal = None

    def key(self):
        """The board now in FEN and the side to move."""
        board = "/".join(re.sub(r"\.+", lambda e: str(len(e.group())), "".join(r)) for r in self.rows)
        return f"{board} {self.side}"

    def legal_moves(self):
        """The legal moves of the position now (referee notation)."""
        if self._legal is None:
            self._legal = sf.legal_moves(VARIANT, self.keys[-1] + " - - 0 1", [])
        return self._legal

    def push(self, move):
        """Plays `move`, a legal move of the position now (referee notation)."""
        spec = to_spec(move)  # files a-i, ranks 0-9 from red's side; row 0 of the FEN is rank 9
        (fr, ff), (tr, tf) = ((9 - int(spec[i + 1]), ord(spec[i]) - ord("a")) for i in (0, 2))
        if self.rows[tr][tf] != ".":
            self.keys = []
            self.quiet = 0
        else:
            self.quiet += 1
        self.rows[tr][tf], self.rows[fr][ff] = self.rows[fr][ff], "."
        self.side = "b" if self.side == "w" else "w"
        self._legal = None
        self.keys.append(self.key())

    def result(self, moves):
        """Return (result, reason) with result in {'1-0','0-1','1/2-1/2', None}."""
        red_to_move = self.side == "w"
        if not self.legal_moves():
            return ("0-1" if red_to_move else "1-0"), "no legal move"
        if self.keys.count(self.keys[-1]) >= 3 or self.quiet >= 120:
            verdict, info = xqref_cn.adjudicate(self.fen, [to_spec(m) for m in moves], ruleset=RULESET)
            rule = info.get("rule") if isinstance(info, dict) else info
            if verdict == "red_wins":
                return "1-0", f"{rule} ruling"
            if verdict == "black_wins":
                return "0-1", f"{rule} ruling"
            if verdict == "draw":
                return "1/2-1/2", f"{rule} draw"
        return None, ""


def play_game(a, b, opening, max_plies, grace_ms):
    """a plays red. opening = (fen, moves). Returns (result, reason, moves, stats)."""
    fen, opening = opening
    moves = []
    ref = Referee(fen)
    for m in opening:
        moves.append(m)
        ref.push(m)
    clocks = {e: e.tc[0] for e in (a, b)}
    stats = {a.name: [], b.name: []}
    for eng in (a, b):
        eng.new_game()
    while True:
        result, reason = ref.result(moves)
        if result:
            return result, reason, moves, stats
        if len(moves) >= max_plies:
            return "1/2-1/2", "adjudicated: ply limit", moves, stats
        red_to_move = (len(moves) % 2 == 0) == (fen.split()[1] in ("w", "r"))
        eng, opp = (a, b) if red_to_move else (b, a)
        try:
            mv, used, info = eng.go(fen, moves, clocks[eng], clocks[opp], opp.tc[1],
                                    red_to_move, grace_ms)
        except EngineFault as e:
            return ("0-1" if red_to_move else "1-0"), f"{eng.name} fault: {e}", moves, stats
        if mv is None:
            return ("0-1" if red_to_move else "1-0"), f"{eng.name} lost on time (hung)", moves, stats
        clocks[eng] -= used
        # The clock left after the move, before the increment.
        info["left_ms"] = clocks[eng]
        if clocks[eng] < -grace_ms:
            stats[eng.name].append({"left_ms": clocks[eng]})
            return ("0-1" if red_to_move else "1-0"), f"{eng.name} lost on time", moves, stats
        clocks[eng] = max(clocks[eng], 0) + eng.tc[1]
        info["used_ms"] = used
        stats[eng.name].append(info)
        try:
            ref_mv = to_ref(mv, eng.ranks)
        except (ValueError, IndexError):
            ref_mv = mv
        if ref_mv not in ref.legal_moves():
            return ("0-1" if red_to_move else "1-0"), f"{eng.name} illegal move {mv}", moves, stats
        moves.append(ref_mv)
        ref.push(ref_mv)


def is_fault(res, why):
    """True if a game ended by an engine's failure (a crash, an illegal move,
    the clock, a start that failed) rather than by play."""
    return "fault" in why or "illegal" in why or "time" in why or res == "*"


def red_points(res, red):
    """Points of the side that played red (red=True) or black: 1, 0.5 or 0
    (0 for an unfinished game)."""
    if res == "1/2-1/2":
        return 0.5
    return 1.0 if res in ("1-0", "0-1") and (res == "1-0") == red else 0.0


def elo(score, n):
    if n == 0:
        return 0.0, 0.0
    p = min(max(score / n, 1e-3), 1 - 1e-3)
    e = -400 * math.log10(1 / p - 1)
    return e, p


GAME_LINE = re.compile(r"^game\s+(\d+) (\S+) vs (\S+): (\S+) \((.*)\) \d+ plies(.*)$")
ENGINE_FIGURES = re.compile(r"(\S+):d[\d.]+/t(\d+)%/l(-?\d+)ms")


def finished_games(path, names, games):
    """The games an earlier run's output at PATH finished, as {game index:
    (result, reason, {engine: (share of clock used, least ms left)})}, checked
    against the engine NAMES (first, second) and the number of GAMES: each
    game's colours must be the ones this run gives it (the first engine has
    red in even-indexed games)."""
    done = {}  # in the order of the log: the order the games finished
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        raise SystemExit(f"--resume: cannot read {path}: {e}")
    for n, line in enumerate(lines, 1):
        m = GAME_LINE.match(line)
        if not m:
            continue
        i, red, black, res, why, rest = int(m[1]) - 1, m[2], m[3], m[4], m[5], m[6]
        want = names if i % 2 == 0 else names[::-1]
        if not 0 <= i < games or (red, black) != tuple(want):
            raise SystemExit(f"--resume: {path}:{n}: game {i + 1} {red} vs {black} does not belong "
                             f"to this match ({games} games, {names[0]} red in odd-numbered games)")
        if res == "*":
            continue  # an unfinished game is played again
        figures = {k: (int(t) / 100, int(left)) for k, t, left in ENGINE_FIGURES.findall(rest)}
        done[i] = (res, why, figures)
    return done


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engines", nargs=2, help="NAME=COMMAND[,key=value...]")
    ap.add_argument("--games", type=int, default=10, help="games (pairs of colors)")
    ap.add_argument("--tc", default="2+0.05", help="base seconds + increment seconds")
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--grace-ms", type=int, default=1000,
                    help="time beyond the clock before a move counts as lost on time")
    ap.add_argument("--pgn", help="append finished games to this file")
    ap.add_argument("--book", help="openings, one a line: FEN or startpos [moves ...]")
    ap.add_argument("--rules", choices=["asian", "chinese"], default="asian",
                    help="rule set of the referee's repetition rulings (engines: opt.RuleSet=...)")
    ap.add_argument("--sprt", help="ELO0,ELO1: stop when the SPRT accepts either")
    ap.add_argument("--sprt-min-pairs", type=int, default=50,
                    help="game pairs before the SPRT may decide (default 50)")
    ap.add_argument("--resume", metavar="LOG",
                    help="an earlier run's output: its finished games count, the rest are played")
    args = ap.parse_args()
    global RULESET
    RULESET = args.rules
    if args.sprt:
        try:
            elo0, elo1 = (float(x) for x in args.sprt.split(","))
        except ValueError:
            raise SystemExit(f"--sprt wants ELO0,ELO1, e.g. 0,10: {args.sprt!r}")
    bound = math.log((1 - 0.05) / 0.05)

    specs = []
    for e in args.engines:
        name, _, cmd = e.partition("=")
        if not cmd:
            raise SystemExit(f"engine must be NAME=COMMAND: {e!r}")
        specs.append((name, cmd))
    default_tc = parse_tc(args.tc)

    rng = random.Random(args.seed)
    if args.book:
        book = book_openings(args.book)
        rng.shuffle(book)
        openings = [book[i % len(book)] for i in range((args.games + 1) // 2)]
    else:
        openings = [(START, random_opening(rng, args.opening_plies))
                    for _ in range((args.games + 1) // 2)]
    jobs = []
    for i in range(args.games):
        jobs.append((i, openings[i // 2], i % 2 == 0))

    lock = threading.Lock()
    tally = {"w": 0, "d": 0, "l": 0, "faults": 0}
    first = specs[0][0]
    half = {}      # opening index -> first engine's points in the first game of the pair
    pairs = []     # first engine's points per finished pair (0 .. 2)
    stop = threading.Event()
    decided = {}   # the SPRT's LLR and the games counted when it crossed a bound
    time_use = {}  # engine -> share of its time used, per game
    move_ms = {}   # engine -> milliseconds of every move
    least_left = {}  # engine -> the least clock left after a move, per game

    def record(i, first_is_red, res, why, used, least):
        """Counts game I's result; returns the LLR text for its line. Call with the lock held."""
        if res == "1/2-1/2":
            tally["d"] += 1
        elif res in ("1-0", "0-1"):
            first_won = (res == "1-0") == first_is_red
            tally["w" if first_won else "l"] += 1
        if is_fault(res, why):
            tally["faults"] += 1
        pts = red_points(res, first_is_red)
        if res != "*":
            if i // 2 in half:
                pairs.append(half.pop(i // 2) + pts)
            else:
                half[i // 2] = pts
        for k, u in used.items():
            time_use.setdefault(k, []).append(u)
        for k, v in least.items():
            if v is not None:
                least_left.setdefault(k, []).append(v)
        if not (args.sprt and pairs):
            return ""
        llr = sprt_llr(pairs, elo0, elo1)
        if abs(llr) >= bound and len(pairs) >= args.sprt_min_pairs and not decided:
            # The test decides here; games already under way still finish
            # and are counted, but cannot undo the decision.
            decided.update(llr=llr, games=tally["w"] + tally["d"] + tally["l"])
            stop.set()
        return f" llr {llr:+.2f}"

    if args.resume:
        done = finished_games(args.resume, (specs[0][0], specs[1][0]), args.games)
        for i in done:  # in the order they finished: the SPRT's path as it was
            res, why, figures = done[i]
            record(i, jobs[i][2], res, why, {k: u for k, (u, _) in figures.items()},
                   {k: left for k, (_, left) in figures.items()})
        jobs = [j for j in jobs if j[0] not in done]
        print(f"resuming: {len(done)} games of {args.resume} counted, "
              + ("the SPRT has decided: none to play" if stop.is_set() else f"{len(jobs)} to play"),
              file=sys.stderr, flush=True)

    def run(job):
        i, opening, first_is_red = job
        if stop.is_set():
            return
        e1, e2 = Engine(*specs[0], default_tc), Engine(*specs[1], default_tc)
        try:
            e1.start()
            e2.start()
            red, black = (e1, e2) if first_is_red else (e2, e1)
            res, why, moves, stats = play_game(red, black, opening,
                                               args.max_plies, args.grace_ms)
        except EngineFault as ex:
            res, why, moves, stats = "*", f"start failed: {ex}", [], {}
        finally:
            e1.quit()
            e2.quit()
        with lock:
            red_name = specs[0][0] if first_is_red else specs[1][0]
            black_name = specs[1][0] if first_is_red else specs[0][0]
            depths = {k: (sum(s.get("depth", 0) for s in v) / max(len(v), 1)) for k, v in stats.items()}
            # The share of the time it had (base + increments) each engine used.
            clock = {e.name: e.tc for e in (e1, e2)}
            used = {k: sum(s.get("used_ms", 0) for s in v)
                    / (clock[k][0] + clock[k][1] * max(len(v), 1))
                    for k, v in stats.items()}
            for k, v in stats.items():
                move_ms.setdefault(k, []).extend(s["used_ms"] for s in v if "used_ms" in s)
            least = {k: min((s["left_ms"] for s in v if "left_ms" in s), default=None)
                     for k, v in stats.items()}
            llr_txt = record(i, first_is_red, res, why, used, least)
            dtxt = " ".join(f"{k}:d{v:.1f}/t{100 * used[k]:.0f}%/l{math.floor(least[k] or 0)}ms"
                            for k, v in depths.items())
            print(f"game {i + 1:4d} {red_name} vs {black_name}: {res} ({why}) "
                  f"{len(moves)} plies {dtxt}{llr_txt}", flush=True)
            if args.pgn:
                with open(args.pgn, "a") as f:
                    f.write(f'[Red "{red_name}"]\n[Black "{black_name}"]\n[Result "{res}"]\n'
                            f'[Termination "{why}"]\n[Variant "xiangqi"]\n[FEN "{opening[0]}"]\n\n'
                            f'{" ".join(moves)} {res}\n\n')
                    if "fault" in why or "illegal" in why or "time" in why:
                        f.write("; engine log tail:\n")
                        for eng in (e1, e2):
                            for line in eng.log[-30:]:
                                f.write(f"; {eng.name} {line}\n")
                        f.write("\n")

    with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        list(pool.map(run, jobs))

    n = tally["w"] + tally["d"] + tally["l"]
    score = tally["w"] + 0.5 * tally["d"]
    e, p = elo(score, n)
    # standard error of the mean score, then to Elo
    if n > 1:
        var = (tally["w"] * (1 - p) ** 2 + tally["d"] * (0.5 - p) ** 2 + tally["l"] * p ** 2) / n
        se = math.sqrt(var / n)
        lo = -400 * math.log10(1 / min(max(p - 1.96 * se, 1e-3), 1 - 1e-3) - 1)
        hi = -400 * math.log10(1 / min(max(p + 1.96 * se, 1e-3), 1 - 1e-3) - 1)
    else:
        lo = hi = e
    if pairs:
        penta = [sum(1 for x in pairs if x == v) for v in (0, 0.5, 1, 1.5, 2)]
        extra = f"pairs {len(pairs)} [0 .5 1 1.5 2] {penta}"
        if args.sprt:
            llr = sprt_llr(pairs, elo0, elo1)
            if decided:
                verdict = "H1 accepted" if decided["llr"] > 0 else "H0 accepted"
                extra += (f", SPRT [{elo0:g}, {elo1:g}] llr {decided['llr']:+.2f} ({-bound:.2f}, "
                          f"{bound:.2f}) after {decided['games']} games: {verdict}")
                if n != decided["games"]:
                    extra += f" (with the games then under way: llr {llr:+.2f})"
            else:
                extra += f", SPRT [{elo0:g}, {elo1:g}] llr {llr:+.2f} ({-bound:.2f}, {bound:.2f}): no verdict yet"
        print(extra)
    print(f"{first}: +{tally['w']} ={tally['d']} -{tally['l']} of {n}, score {p:.3f}, "
          f"elo {e:+.0f} [{lo:+.0f}, {hi:+.0f}], engine faults {tally['faults']}")
    if time_use:
        print("time used (share of base + increments, mean / max over games): " + ", ".join(
            f"{k} {100 * sum(v) / len(v):.0f}% / {100 * max(v):.0f}%" for k, v in time_use.items()))
    if move_ms:
        print(f"time per move (ms, mean / max over moves{' of this run' if args.resume else ''}): " + ", ".join(
            f"{k} {sum(v) / max(len(v), 1):.0f} / {max(v, default=0):.0f}" for k, v in move_ms.items()))
    for k, v in least_left.items():
        v = sorted(v)
        q = lambda p: v[min(len(v) - 1, int(p * len(v)))]
        print(f"least clock left after a move (ms, per game) {k}: min {math.floor(v[0])} "
              f"p10 {math.floor(q(0.1))} median {math.floor(q(0.5))} max {math.floor(v[-1])}; "
              "sorted: " + " ".join(str(math.floor(x)) for x in v))
    sys.exit(0 if tally["faults"] == 0 else 1)


if __name__ == "__main__":
    main()
