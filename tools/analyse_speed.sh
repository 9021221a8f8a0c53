#!/usr/bin/env bash
# The analyser's figures: a 100-game self-play file (datagen, seed 777, 3000
# nodes a move, from the opening suite) analysed at --movetime 200 on 2
# threads (positions per second, wall time), then 300 of its positions
# searched by the UCI loop with `go movetime 200` (one thread, as each of
# the analyser's two reviewers has) to compare the best moves.
# Usage: tools/analyse_speed.sh BIN   (work files in data/analyse/)
set -euo pipefail
bin=$(realpath "${1:?chariot binary}")
cd "$(dirname "$0")/.."
dir=data/analyse
mkdir -p "$dir"
if [ ! -s "$dir/g100.txt" ]; then
    rm -f "$dir/g100.bin" "$dir/g100.bin.progress"
    "$bin" datagen --out "$dir/g100.bin" --games-out "$dir/g100.txt" --games 100 --nodes 3000 \
        --threads 2 --seed 777 --book tests/data/openings.epd --net default
fi
start=$(date +%s)
"$bin" analyse --movetime 200 --threads 2 --format json --out "$dir/g100.jsonl" "$dir/g100.txt"
echo "wall time: $(( $(date +%s) - start )) s"
python3 tools/analyse_uci_check.py "$bin" "$dir/g100.txt" "$dir/g100.jsonl" 300
