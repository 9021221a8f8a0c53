#!/usr/bin/env bash
# Tunes the search's constants (src/search/tunables.rs) by SPSA: a `tune`
# build of REV plays itself with perturbed values, game pair after game pair
# (tools/spsa.py). Long: run it in the background; it resumes from STATE.
#
#   tools/spsa.sh [REV]   the git revision to tune (default HEAD)
#
# Settings from the environment (defaults in brackets):
#   STATE [data/spsa.json] (its log: STATE.log)  PAIRS [4000] (the planned
#   length)  TC [3+0.03]  CONC [2]  BOOK [tests/data/openings.epd]  SEED [1]
#   PARAMS_REV [] and OPTS [] as PARAMS and OPTS of tools/sprt.sh (with
#   PARAMS_REV=b105543 OPTS=',opt.Use NNUE=false' the search is tuned on
#   d28ede8's evaluation)  SPSA_FLAGS [] (more spsa.py options, e.g.
#   '--stop-after 500' or '--params rfp_margin,fut_base' for a new run)
#
# The build goes under target/sprt/ (chariot-<rev>[-params-<rev>]-tune).
# Commit the state as docs/spsa/<name> at the end of a session (not the
# log): a fresh checkout then goes on from it.
# `tools/spsa.py --show STATE` prints the values reached.
set -euo pipefail
cd "$(dirname "$0")/.."

STATE=${STATE:-data/spsa.json}
PAIRS=${PAIRS:-4000}
TC=${TC:-3+0.03}
CONC=${CONC:-2}
BOOK=${BOOK:-tests/data/openings.epd}
SEED=${SEED:-1}
OPTS=${OPTS:-}
DIR=target/sprt
FEATURES=tune
# shellcheck source=tools/build_rev.sh
. tools/build_rev.sh

bin=$(build_rev "${1:-HEAD}" "${PARAMS_REV:-}")
mkdir -p "$(dirname "$STATE")"
# A run's state is committed under docs/spsa/ at the end of a session; on a
# fresh checkout the run goes on from there.
saved="docs/spsa/$(basename "$STATE")"
if [ ! -e "$STATE" ] && [ -e "$saved" ]; then
    cp "$saved" "$STATE"
    echo "spsa.sh: going on from the committed $saved" >&2
fi
# shellcheck disable=SC2086
exec python3 tools/spsa.py --state "$STATE" --pairs "$PAIRS" --tc "$TC" --book "$BOOK" \
    --seed "$SEED" --concurrency "$CONC" ${SPSA_FLAGS:-} "$bin$OPTS"
