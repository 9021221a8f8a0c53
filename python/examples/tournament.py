#!/usr/bin/env python3
"""A small tournament runner: two engines play each other, colours
alternating, and the rule arbiter (Board.outcome) decides every game —
mate, stalemate, perpetual check or chase, repetition, the 60-round limit.

    python examples/tournament.py --games 4 --nodes 20000 \\
        --a eval=nnue --b eval=classical,skill=10 --rules asian

Engine options are `key=value` pairs for chariot.Engine (threads, hash_mb,
eval, skill, elo). Each game starts from the start position, or with
--openings FILE from the FENs of an EPD file (one opening per pair of games,
both colours), and prints its moves, result and the arbiter's reason.
"""

import argparse
import random
import sys

import chariot


def engine_options(spec):
    options = {}
    for item in filter(None, spec.split(",")):
        key, _, value = item.partition("=")
        options[key.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    return options


def play_game(red, black, fen, rules, limits, max_plies):
    """Plays one game; returns (Outcome or None, the board)."""
    board = chariot.Board(fen)
    engines = {chariot.RED: red, chariot.BLACK: black}
    while len(board.move_stack) < max_plies:
        outcome = board.outcome(rules=rules)
        if outcome is not None:
            return outcome, board
        board.push(engines[board.turn].play(board, **limits))
    return None, board


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--nodes", type=int, default=20000, help="nodes per move (default 20000)")
    ap.add_argument("--movetime", type=float, help="seconds per move instead of --nodes")
    ap.add_argument("--rules", default="asian", choices=["asian", "chinese"])
    ap.add_argument("--a", default="eval=nnue", help="engine A's options (default eval=nnue)")
    ap.add_argument("--b", default="eval=classical", help="engine B's options (default eval=classical)")
    ap.add_argument("--openings", help="an EPD file of start positions")
    ap.add_argument("--max-plies", type=int, default=600, help="adjourn (no result) after this many plies")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    try:
        engines = {
            "A": chariot.Engine(rules=args.rules, **engine_options(args.a)),
            "B": chariot.Engine(rules=args.rules, **engine_options(args.b)),
        }
    except (ValueError, TypeError) as e:
        sys.exit(f"bad engine options: {e}")
    limits = {"movetime": args.movetime} if args.movetime else {"nodes": args.nodes}
    fens = [chariot.STARTING_FEN]
    if args.openings:
        with open(args.openings) as f:
            fens = [line.split(";")[0].strip() for line in f if line.strip() and not line.startswith("#")]
        random.Random(args.seed).shuffle(fens)

    points = {"A": 0.0, "B": 0.0}
    for game in range(args.games):
        fen = fens[(game // 2) % len(fens)]
        red, black = ("A", "B") if game % 2 == 0 else ("B", "A")
        for e in engines.values():
            e.new_game()
        outcome, board = play_game(engines[red], engines[black], fen, args.rules, limits, args.max_plies)
        moves = " ".join(str(m) for m in board.move_stack)
        if outcome is None:
            print(f"game {game + 1}: {red} (red) - {black} (black): adjourned after {args.max_plies} plies")
            continue
        if outcome.winner is None:
            points[red] += 0.5
            points[black] += 0.5
        else:
            points[red if outcome.winner else black] += 1
        print(f"game {game + 1}: {red} (red) - {black} (black): {outcome.result}, {outcome.reason}")
        print(f"  {len(board.move_stack)} plies: {moves}")
        if "repetition" in outcome.reason or "perpetual" in outcome.reason:
            print("  " + outcome.explanation.replace("\n", "\n  "))
    print(f"score: A {points['A']:g} - B {points['B']:g} ({args.a} vs {args.b}, {args.rules} rules)")


if __name__ == "__main__":
    main()
