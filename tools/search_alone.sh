#!/usr/bin/env bash
# What the search and the time manager alone have gained since d28ede8, the
# build before the strength work (issue 12): revision REV's code with
# d28ede8's hand-set evaluation (src/eval/params.rs of b105543, d28ede8's
# weights in the tuner's layout) and the network off, against d28ede8
# itself, from the opening suite, both colours of every opening.
#
#   tools/search_alone.sh [REV]   REV a git revision (default HEAD)
#
# Settings from the environment (defaults in brackets): TC [10+0.1]
# GAMES [200] CONC [2] (games at once) SEED [13] BOOK
# [tests/data/openings.epd]. Needs python3 with pyffish. The log is
# target/sprt/search-alone-<rev>-<tc>-s<seed>.log: one line a game, then
# W/D/L, Elo with its interval, faults and the share of the clock used.
set -euo pipefail
cd "$(dirname "$0")/.."

REV=${1:-HEAD}
TC=${TC:-10+0.1}
GAMES=${GAMES:-200}
CONC=${CONC:-2}
SEED=${SEED:-13}
BOOK=${BOOK:-tests/data/openings.epd}
DIR=target/sprt
# shellcheck source=tools/build_rev.sh
. tools/build_rev.sh

search_bin=$(build_rev "$REV" b105543)
base_bin=$(build_rev d28ede8)
log="$DIR/search-alone-$(git rev-parse --short "$REV")-$TC-s$SEED.log"
echo "search: $search_bin (Use NNUE false)  d28ede8: $base_bin  log: $log" >&2
python3 tools/match.py --book "$BOOK" --seed "$SEED" --tc "$TC" --games "$GAMES" \
    --concurrency "$CONC" "search=$search_bin,opt.Use NNUE=false" "d28ede8=$base_bin" | tee "$log"
