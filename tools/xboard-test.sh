#!/usr/bin/env bash
# The real-GUI test of Chariot's CECP dialect (issue 15): Debian's XBoard
# under Xvfb plays
#   1. Chariot against Chariot (-mode TwoMachines, one fast game), and
#   2. Chariot against fairy-stockfish (its CECP mode, variant xiangqi),
#   3. Chariot (Black) against a scripted engine (tools/cecp_script.py) that
#      checks for ever from a set position, with XBoard testing claims: the
#      game must go to Chariot by XBoard's own perpetual-check ruling (an
#      engine's claim of such a win would count as false there),
# saves each game (-saveGameFile) and XBoard's debug log (-debug), and checks
# that every game ends with a result, that XBoard saw no illegal move, false
# claim, forfeit, time loss or engine error, and that the engines' replies
# contain no `Illegal move` / `Error`. It also takes a screenshot of the
# second game (doc/xboard.png when XBOARD_SHOT is set to a path).
#
# Needs: apt-get install xboard xvfb imagemagick fairy-stockfish
# Usage: tools/xboard-test.sh [chariot binary]   (make xboard-test)
# Settings: XBOARD_TC (base, default 0:20), XBOARD_INC (default 0.2),
#           XBOARD_OUT (directory for games and logs, default a temp dir),
#           XBOARD_SHOT (where to write the screenshot PNG; none if empty),
#           XBOARD_GAMES (which games, default "chariot-chariot
#           chariot-fairy-stockfish chariot-perpetual").
set -euo pipefail

BIN=$(realpath "${1:-target/release/chariot}")
XBOARD=${XBOARD:-/usr/games/xboard}
FSF=${FSF:-/usr/games/fairy-stockfish}
TC=${XBOARD_TC:-0:20}
INC=${XBOARD_INC:-0.2}
OUT=${XBOARD_OUT:-$(mktemp -d /tmp/chariot-xboard.XXXXXX)}
SHOT=${XBOARD_SHOT:-}
GAMES=${XBOARD_GAMES:-chariot-chariot chariot-fairy-stockfish chariot-perpetual}
TOOLS=$(realpath "$(dirname "$0")")
# XBoard's oriental xiangqi pieces and board (themes/conf/xq).
THEME=/usr/share/games/xboard/themes
mkdir -p "$OUT"

for tool in "$XBOARD" "$FSF" Xvfb import; do
    command -v "$tool" >/dev/null || { echo "xboard-test: '$tool' is missing (apt-get install xboard xvfb imagemagick fairy-stockfish)" >&2; exit 2; }
done
[ -x "$BIN" ] || { echo "xboard-test: no engine at $BIN (make build)" >&2; exit 2; }

# A free display for Xvfb.
DISPLAY_NR=${XBOARD_DISPLAY:-$(( 90 + RANDOM % 100 ))}
while [ -e "/tmp/.X11-unix/X$DISPLAY_NR" ] || [ -e "/tmp/.X$DISPLAY_NR-lock" ]; do DISPLAY_NR=$(( DISPLAY_NR + 1 )); done
Xvfb ":$DISPLAY_NR" -screen 0 1000x760x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
XVFB_PID=$!
trap 'kill "$XVFB_PID" 2>/dev/null || true' EXIT
export DISPLAY=":$DISPLAY_NR"
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$DISPLAY_NR" ] && break; sleep 0.1; done

failures=0

# play NAME FIRST SECOND SIDES [screenshot-after-seconds]: one game, FIRST
# plays Red; SIDES are the engines that are Chariot ("first", "second").
# EXTRA: more XBoard arguments; EXPECT: the result and words the game must end with.
EXTRA=()
EXPECT=""
play() {
    local name=$1 first=$2 second=$3 sides=$4 shot_after=${5:-}
    case " $GAMES " in *" $name "*) ;; *) return ;; esac
    local pgn="$OUT/$name.pgn" log="$OUT/$name.debug"
    rm -f "$pgn" "$log"
    echo "== $name: $(basename "${first%% *}") (Red) vs $(basename "${second%% *}") (Black), $TC + $INC s"
    # -mg 1: a one-game match, after which XBoard exits. -xponder would
    # switch pondering off; it stays on, as in Debian's default settings.
    # -ruleMoves 60: xiangqi's 60-round limit instead of XBoard's 50 moves.
    "$XBOARD" -variant xiangqi -fcp "$first" -fd "$OUT" -scp "$second" -sd "$OUT" \
        -mg 1 -tc "$TC" -inc "$INC" -ruleMoves 60 -saveGameFile "$pgn" -debug -debugfile "$log" \
        -xexit -popupMoveErrors false -showThinking true -engineOutputUp false \
        -pid "$THEME/xiangqi" -trueColors true -useBoardTexture true -overrideLineGap 0 \
        -liteBackTextureFile "$THEME/textures/xqboard-9x10.png" \
        -darkBackTextureFile "$THEME/textures/xqboard-9x10.png" "${EXTRA[@]}" \
        >"$OUT/$name.stdout" 2>&1 &
    local pid=$!
    if [ -n "$shot_after" ] && [ -n "$SHOT" ]; then
        sleep "$shot_after"
        if kill -0 "$pid" 2>/dev/null; then
            import -window root -trim +repage -resize 70% -colors 32 "PNG8:$SHOT" && echo "screenshot: $SHOT"
        fi
    fi
    if ! timeout 900 tail --pid="$pid" -f /dev/null; then
        echo "FAIL $name: XBoard did not finish within 15 minutes"; kill "$pid"; failures=$((failures + 1)); return
    fi
    check "$name" "$pgn" "$log" "$sides"
}

# check NAME PGN LOG SIDES: the game has a result, and the log shows no
# trouble: nothing XBoard held against an engine, and from each Chariot
# engine in SIDES ("first", "second") no `Illegal move`/`Error` reply and no
# feature XBoard rejected.
check() {
    local name=$1 pgn=$2 log=$3 sides=$4 bad
    if [ ! -s "$pgn" ]; then
        echo "FAIL $name: no game saved"; failures=$((failures + 1)); return
    fi
    local result moves
    result=$(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$pgn" | tail -1)
    moves=$(grep -v '^\[' "$pgn" | grep -o '[0-9]*\. ' | tail -1 | tr -d '. ')
    echo "result: $result after $moves moves: $(grep -o '{[^}]*} *\(1-0\|0-1\|1/2-1/2\) *$' "$pgn" | tail -1)"
    case "$result" in
        1-0|0-1|1/2-1/2) ;;
        *) echo "FAIL $name: no result ('$result')"; failures=$((failures + 1)) ;;
    esac
    if [ -n "$EXPECT" ] && ! grep -q -F "$EXPECT" "$pgn"; then
        echo "FAIL $name: the game does not end with '$EXPECT'"; failures=$((failures + 1))
    fi
    bad=$(grep -a -E 'GameEnds\(.*(Forfeit|False|on time|llegal|unexpectedly)|exited unexpectedly' "$log" || true)
    for side in $sides; do
        bad+=$(grep -a -E "<$side ?: (Illegal move|Error \()|>$side ?: rejected " "$log" || true)
    done
    if [ -n "$bad" ]; then
        echo "FAIL $name: trouble in XBoard's debug log:"; echo "$bad" | head -20
        failures=$((failures + 1))
    fi
}

play chariot-chariot "$BIN" "$BIN" "first second"
play chariot-fairy-stockfish "$BIN" "$FSF" "first" 25

# Red's rook checks from a9 and a8 in turn; Black's king can only step
# between e9 and e8 (Red's pawn guards e7), and Black, two rooks up and
# threatening mate, is winning anyway. The position repeats; Chariot,
# winning by rule at the third occurrence, does not claim, and XBoard rules
# the perpetual check at the sixth.
echo "4k4/R8/9/4P4/9/9/9/6r2/7r1/3K5 w - - 0 1" >"$OUT/perpetual.fen"
EXTRA=(-lpf "$OUT/perpetual.fen" -testClaims true -repeatsToDraw 6)
EXPECT="{Xboard adjudication: perpetual checking} 0-1"
play chariot-perpetual "python3 $TOOLS/cecp_script.py a8a9 a9a8" "$BIN" "second"
EXTRA=()
EXPECT=""

if [ "$failures" -gt 0 ]; then
    echo "xboard-test: $failures failure(s); games and logs in $OUT"
    exit 1
fi
echo "xboard-test: all games ended with a result, no protocol trouble; games and logs in $OUT"
