#!/usr/bin/env bash
# Never lose on time (issue 41): fast games on a busy machine, counted by
# the GUI and by a referee that allows no grace.
#   1. latency: tools/clock_latency.py, the time from `go` to `bestmove`
#      with more engine threads than cores (and the hogs below);
#   2. xboard: the real XBoard under Xvfb (-autoCallFlag true): Chariot
#      against itself and against fairy-stockfish (CECP) at each of
#      CLOCK_XBOARD_TCS, both pairings at once, beside CLOCK_HOGS busy loops;
#      flags and the least clock left from XBoard's PGN and debug log
#      (tools/xboard_clocks.py);
#   3. match: tools/match.py --grace-ms 0, Chariot against itself,
#      CLOCK_CONC games at once (more than the cores), at each of
#      CLOCK_MATCH_TCS, beside the hogs; the least clock left per game.
# Exit status 1 when Chariot lost a game on time anywhere.
#
# Needs: apt-get install xboard xvfb fairy-stockfish; pip install pyffish
# Usage: tools/clock-test.sh [chariot binary]   (make clock-test)
# Settings: CLOCK_PARTS ["latency xboard match"], CLOCK_XBOARD_TCS
#   ["0:10+0.1 0:05+0.05"], CLOCK_XBOARD_GAMES [20, per pairing and control],
#   CLOCK_MATCH_TCS ["2+0.02 1+0.01"], CLOCK_MATCH_GAMES [30], CLOCK_CONC [3],
#   CLOCK_HOGS [2], CLOCK_OUT [a temp dir: PGNs, logs, the summary],
#   CLOCK_XBOARD_ARGS [] (more XBoard options, e.g. "-animate false
#   -flashCount 0" to measure XBoard's own cycle without its animation).
set -euo pipefail

BIN=$(realpath "${1:-target/release/chariot}")
XBOARD=${XBOARD:-/usr/games/xboard}
FSF=${FSF:-/usr/games/fairy-stockfish}
PARTS=${CLOCK_PARTS:-latency xboard match}
XBOARD_TCS=${CLOCK_XBOARD_TCS:-0:10+0.1 0:05+0.05}
XBOARD_GAMES=${CLOCK_XBOARD_GAMES:-20}
MATCH_TCS=${CLOCK_MATCH_TCS:-2+0.02 1+0.01}
MATCH_GAMES=${CLOCK_MATCH_GAMES:-30}
CONC=${CLOCK_CONC:-3}
HOGS=${CLOCK_HOGS:-2}
OUT=${CLOCK_OUT:-$(mktemp -d /tmp/chariot-clock.XXXXXX)}
read -r -a XBOARD_ARGS <<<"${CLOCK_XBOARD_ARGS:-}"
TOOLS=$(realpath "$(dirname "$0")")
mkdir -p "$OUT"

for tool in "$XBOARD" "$FSF" Xvfb; do
    command -v "$tool" >/dev/null || { echo "clock-test: '$tool' is missing (apt-get install xboard xvfb fairy-stockfish)" >&2; exit 2; }
done
[ -x "$BIN" ] || { echo "clock-test: no engine at $BIN (make build)" >&2; exit 2; }

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
# The load: busy loops beside everything that follows.
for _ in $(seq "$HOGS"); do
    sh -c 'while :; do :; done' &
    pids+=($!)
done
echo "clock-test: $BIN, $(nproc) cores, $HOGS hogs, load average $(cut -d' ' -f1 /proc/loadavg); out: $OUT"
flags=0

if [[ " $PARTS " == *" latency "* ]]; then
    echo "== latency: 3 engines x 2 threads, go to bestmove"
    python3 "$TOOLS/clock_latency.py" "$BIN" --engines 3 --threads 2 --moves 100 | tee "$OUT/latency.txt"
fi

# xboard_game NAME SECOND TC INC: an XBoard match of XBOARD_GAMES games,
# Chariot first, in the background; sets the global `xb_pid`.
xboard_match() {
    local name=$1 second=$2 tc=$3 inc=$4 nr
    nr=$(( 90 + RANDOM % 100 ))
    while [ -e "/tmp/.X11-unix/X$nr" ] || [ -e "/tmp/.X$nr-lock" ]; do nr=$(( nr + 1 )); done
    Xvfb ":$nr" -screen 0 1000x760x24 -nolisten tcp >"$OUT/$name.xvfb" 2>&1 &
    pids+=($!)
    for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$nr" ] && break; sleep 0.1; done
    rm -f "$OUT/$name.pgn" "$OUT/$name.debug"
    DISPLAY=":$nr" "$XBOARD" -variant xiangqi -fcp "$BIN" -fd "$OUT" -scp "$second" -sd "$OUT" \
        -mg "$XBOARD_GAMES" -tc "$tc" -inc "$inc" -autoCallFlag true -ruleMoves 60 \
        -saveGameFile "$OUT/$name.pgn" -debug -debugfile "$OUT/$name.debug" -xexit \
        -popupMoveErrors false -showThinking true -engineOutputUp false "${XBOARD_ARGS[@]}" >"$OUT/$name.stdout" 2>&1 &
    xb_pid=$!
}

if [[ " $PARTS " == *" xboard "* ]]; then
    for tcinc in $XBOARD_TCS; do
        tc=${tcinc%+*} inc=${tcinc#*+}
        inc_ms=$(python3 -c "print(round($inc * 1000))")
        echo "== xboard $tc + $inc s: Chariot vs Chariot and vs fairy-stockfish, $XBOARD_GAMES games each, at once"
        xboard_match "self-$tcinc" "$BIN" "$tc" "$inc"; self_pid=$xb_pid
        xboard_match "fsf-$tcinc" "$FSF" "$tc" "$inc"; fsf_pid=$xb_pid
        timeout 3600 tail --pid="$self_pid" -f /dev/null || true
        timeout 3600 tail --pid="$fsf_pid" -f /dev/null || true
        for pair in "self first second" "fsf first"; do
            read -r name slots <<<"$pair"
            echo "-- $name $tcinc ($slots are Chariot)"
            # shellcheck disable=SC2086
            python3 "$TOOLS/xboard_clocks.py" "$OUT/$name-$tcinc.pgn" "$OUT/$name-$tcinc.debug" "$inc_ms" $slots \
                | tee "$OUT/$name-$tcinc.clocks" || flags=$((flags + 1))
        done
    done
fi

if [[ " $PARTS " == *" match "* ]]; then
    for tc in $MATCH_TCS; do
        echo "== match.py $tc, --grace-ms 0, $MATCH_GAMES games, $CONC at once"
        python3 "$TOOLS/match.py" --games "$MATCH_GAMES" --tc "$tc" --concurrency "$CONC" --grace-ms 0 \
            --pgn "$OUT/match-$tc.pgn" "a=$BIN" "b=$BIN" | tee "$OUT/match-$tc.log" || true
        grep -q "lost on time" "$OUT/match-$tc.log" && flags=$((flags + 1))
    done
fi

if [ "$flags" -gt 0 ]; then
    echo "clock-test: Chariot lost on time in $flags of the runs; games and logs in $OUT"
    exit 1
fi
echo "clock-test: no loss on time; games and logs in $OUT"
