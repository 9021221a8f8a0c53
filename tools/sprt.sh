#!/usr/bin/env bash
# This build (the working tree) against an earlier one, from the opening
# suite, with a sequential test: the way every strength change is accepted.
#
#   tools/sprt.sh [BASE [NEW]]  git revisions: BASE (default HEAD) against
#                               NEW (default: the working tree as it is)
#
# Settings from the environment (defaults in brackets):
#   TC [5+0.05]  BOUNDS [0,10]  GAMES [6000] (the most games)  CONC [1]
#   BOOK [tests/data/openings.epd]  SEED [1]  OPTS [] (',opt.Hash=64' etc.,
#   given to both engines)  PARAMS [] (a revision whose src/eval/params.rs
#   both builds take: with PARAMS=b105543 OPTS=',opt.Use NNUE=false' a
#   search change is tested on d28ede8's hand-set evaluation; NEW must then
#   be a revision)
#
# Needs python3 with pyffish (pip install pyffish). Both builds go under
# target/sprt/; the match log is target/sprt/<new>-vs-<base>-<tc>.log (one line a
# game, then the summary with W/D/L, Elo and the LLR). Exit status: 0 when
# H1 is accepted (the change is at least ELO0 better), 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${1:-HEAD}
TC=${TC:-5+0.05}
BOUNDS=${BOUNDS:-0,10}
GAMES=${GAMES:-6000}
CONC=${CONC:-1}
BOOK=${BOOK:-tests/data/openings.epd}
SEED=${SEED:-1}
OPTS=${OPTS:-}
PARAMS=${PARAMS:-}
DIR=target/sprt
# shellcheck source=tools/build_rev.sh
. tools/build_rev.sh

base_bin=$(build_rev "$BASE" "$PARAMS")
if [ -n "${2:-}" ]; then
    new_bin=$(build_rev "$2" "$PARAMS")
elif [ -n "$PARAMS" ]; then
    echo "sprt.sh: PARAMS needs NEW as a git revision (commit the change first)" >&2
    exit 2
else
    cargo build --release >&2
    new_bin="$DIR/chariot-worktree"
    cp target/release/chariot "$new_bin"
fi

bench() { "$1" bench 2>/dev/null | tail -1 | cut -d' ' -f1; }
echo "new: $new_bin (Bench: $(bench "$new_bin"))  base: $base_bin (Bench: $(bench "$base_bin"))" >&2

log="$DIR/$(basename "$new_bin")-vs-$(basename "$base_bin")-$TC.log"
echo "log: $log" >&2
python3 tools/match.py --book "$BOOK" --seed "$SEED" --tc "$TC" --games "$GAMES" \
    --concurrency "$CONC" --sprt="$BOUNDS" \
    "new=$new_bin$OPTS" "base=$base_bin$OPTS" | tee "$log"
grep -q "H1 accepted" "$log"
