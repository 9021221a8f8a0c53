#!/usr/bin/env bash
# Remakes the README's analysed game: doc/analysis.html (chariot analyse, one
# second a position) and doc/analysis.png (that page in headless Chromium).
# Usage: tools/analysis_doc.sh BIN GAMEFILE GAME_NUMBER
set -euo pipefail
bin=${1:?chariot binary} games=${2:?game file} n=${3:?game number}
cd "$(dirname "$0")/.."
"$bin" analyse --movetime 1000 --threads 2 --game "$n" --out doc/analysis.html "$games"
profile=$(mktemp -d)
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
    --window-size=1000,1500 --screenshot="$PWD/doc/analysis.png" "file://$PWD/doc/analysis.html" 2>/dev/null
rm -rf "$profile"
ls -l doc/analysis.html doc/analysis.png
