#!/bin/sh
# Calibration of the strength levels: each level against the one STEP below
# it, from LEVELS (default 20 down to 0 in steps of 2; level 20 is full
# strength), GAMES games per step at TC from the opening suite, one game at
# a time. Prints one match.py summary per step, then a table line per step:
# levels, games, +wins =draws -losses, score, measured Elo difference with
# its 95 % interval, and the difference the Elo scale says (100 per level).
#
#   tools/calibrate-levels.sh [BIN]    (default target/release/chariot)
#   GAMES=100 TC=2+0.02 LEVELS="20 18 16" tools/calibrate-levels.sh
set -eu
BIN=${1:-target/release/chariot}
GAMES=${GAMES:-100}
TC=${TC:-2+0.02}
LEVELS=${LEVELS:-"20 18 16 14 12 10 8 6 4 2 0"}
SEED=${SEED:-1}
BOOK=${BOOK:-tests/data/openings.epd}
DIR=$(dirname "$0")

table=""
prev=""
for level in $LEVELS; do
    if [ -n "$prev" ]; then
        out=$(python3 "$DIR/match.py" --games "$GAMES" --tc "$TC" --concurrency 1 --seed "$SEED" \
            --book "$BOOK" "L$prev=$BIN,opt.Skill Level=$prev" "L$level=$BIN,opt.Skill Level=$level" |
            tail -4)
        echo "L$prev vs L$level:"
        echo "$out"
        summary=$(echo "$out" | grep "^L$prev: ")
        line=$(echo "$summary" | sed -E 's/^L[0-9]+: (\+[0-9]+ =[0-9]+ -[0-9]+) of ([0-9]+), score ([0-9.]+), elo ([-+0-9]+) \[([-+0-9]+), ([-+0-9]+)\].*/\2 games | \1 | \3 | \4 [\5, \6]/')
        table="$table
| $prev vs $level | $line | +$(( (prev - level) * 100 )) |"
    fi
    prev=$level
done
echo
echo "| levels | games | +W =D -L | score | Elo difference [95 %] | scale |"
echo "|---|---|---|---|---|---|"
echo "$table" | sed '/^$/d' | sed -E 's/\| ([0-9]+) games \|/| \1 |/'
