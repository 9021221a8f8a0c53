#!/usr/bin/env python3
"""A scripted CECP engine for tools/xboard-test.sh: it plays the moves given
on its command line, in turn and round and round, whatever the position, so
that XBoard can be shown a game no real engine would play (a perpetual
check, say). It speaks just enough of protocol version 2 for XBoard 4.9.

    cecp_script.py MOVE [MOVE ...]      e.g. cecp_script.py a8a9 a9a8
"""
import sys


def main():
    moves = sys.argv[1:]
    if not moves:
        print("usage: cecp_script.py MOVE [MOVE ...]", file=sys.stderr)
        return 2
    turn = 0          # index of the next scripted move
    playing = False   # False in force mode
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        reply = []
        if cmd == "protover":
            reply = ['feature myname="scripted" variants="xiangqi" usermove=1 setboard=1 ping=1 '
                     'sigint=0 sigterm=0 colors=0 done=1']
        elif cmd == "ping":
            reply = ["pong " + " ".join(words[1:])]
        elif cmd in ("new", "setboard"):
            playing = cmd == "new"
        elif cmd in ("force", "result"):
            playing = False
        elif cmd == "quit":
            return 0
        if cmd == "go" or (cmd == "usermove" and playing):
            playing = True
            reply.append("move " + moves[turn % len(moves)])
            turn += 1
        for r in reply:
            print(r, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
