#!/usr/bin/env bash
# Browser tests of the map viewer (docs/viewer.md): headless Debian chromium (scripts/deps.sh)
# driven by puppeteer-core (npm, pinned in tests/viewer/package-lock.json, installed there with
# `npm ci`) against real waymesh-servers with --ui-port on the demo town:
#   - the page lists the maps, draws every polygon of "demo", hovering names the polygon;
#   - two clicks run FindPath, and the path the page shows is exactly what waymesh-client gets
#     over gRPC for the request the page sent; drags run Raycast and ValidateMove, likewise;
#     the heat map shows the clicked path; a screenshot is saved (docs/viewer.png is one);
#   - a live crowd (waymesh-client RunCrowd holds a server-ticked session open): the page lists
#     it, draws every agent from the session's event stream, they move; a second screenshot;
#   - with --auth-token the page asks for the token and the API answers 401 without it; the
#     same again over HTTPS (--tls-cert, a self-signed certificate made with openssl).
# Usage: scripts/test_viewer.sh [BIN_DIR] (or WAYMESH_BIN_DIR; default build/release): the build
# dir holding waymesh and server/waymesh-server(-client). SCREENSHOT=path keeps the screenshot.
# Ends with "viewer: N passed, M failed".
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh" viewer "$@"
CLIENT=$BIN_DIR/server/waymesh-client
SCREENSHOT=${SCREENSHOT:-$BIN_DIR/viewer.png}
unset WAYMESH_AUTH_TOKEN
SERVER_PID=""
# shellcheck disable=SC2317  # called by lib.sh's exit trap
at_exit() {
  if [[ -n ${CROWD_PID:-} ]]; then kill -KILL "$CROWD_PID" 2>/dev/null; fi
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -KILL "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
}

for f in "$WAYMESH" "$SERVER" "$CLIENT"; do
  [[ -x $f ]] || fail "$f is built (ninja -C $BIN_DIR waymesh waymesh-server waymesh-client)"
done
require_tools chromium node npm openssl
[[ $failed -eq 0 ]] || finish

check "puppeteer-core installed (npm ci, pinned)" 300 \
  npm ci --prefix tests/viewer --no-audit --no-fund --loglevel=error
MAPS=$TMP/maps
mkdir -p "$MAPS"
check "demo town generated and compiled" 120 sh -c "
  '$WAYMESH' demo-world --size 200 --seed 7 -o '$TMP/town.json' --queries-out '$TMP/queries.txt' &&
  '$WAYMESH' build '$TMP/town.json' -o '$MAPS/demo.wmesh'"
[[ $failed -eq 0 ]] || finish
FORD=$(awk 'index($0, "# west bank (by the ford) -> east bank (by the ford):") == 1 {getline; print; exit}' \
  "$TMP/queries.txt")

# start_server NAME ARGS...: a server on loopback with the viewer on a free port; sets
# SERVER_PID, GRPC_PORT and UI_PORT, or ends the run.
start_server() {
  local name=$1
  shift
  launch_server "$name" --metrics-port=-1 --ui-port=-1 "$@"
  UI_PORT=$(sed -n 's/.*map viewer on https\{0,1\}:\/\/127\.0\.0\.1:\([0-9]*\)\/.*/\1/p' \
    "$TMP/server-$name.log")
  [[ -n $UI_PORT ]] || server_failed "$name"
  pass "waymesh-server ($name) starts with the viewer (gRPC $GRPC_PORT, viewer $UI_PORT)"
}

# browser NAME ARGS...: runs viewer_test.mjs, counting each of its PASS / FAIL lines.
browser() {
  local name=$1
  shift
  timeout 120 node tests/viewer/viewer_test.mjs "$@" >"$TMP/browser-$name.log" 2>&1
  local rc=$? line
  while IFS= read -r line; do
    case $line in
      PASS*) pass "${line#PASS }" ;;
      FAIL*) fail "${line#FAIL }" ;;
    esac
  done <"$TMP/browser-$name.log"
  if [[ $rc -ne 0 ]] && ! grep -q '^FAIL' "$TMP/browser-$name.log"; then
    fail "browser tests ($name) ran (exit $rc)"
    sed 's/^/    /' "$TMP/browser-$name.log" | tail -n 20
  fi
}

start_server open
browser open open "http://127.0.0.1:$UI_PORT/" "127.0.0.1:$GRPC_PORT" "$CLIENT" "$FORD" "$SCREENSHOT"
if [[ -s $SCREENSHOT ]]; then pass "screenshot saved ($SCREENSHOT)"; else fail "screenshot saved"; fi

# A live crowd: waymesh-client holds a server-ticked RunCrowd stream open (agents crossing the
# ford at 10 Hz) while the page draws it from the session's event stream.
read -r SX SY SZ GX GY GZ <<<"$FORD"
CROWD_AGENTS=4
CROWD='[{"seq": 1, "open": {"map_id": "demo", "tick_hz": 10}}'
for i in $(seq 1 $CROWD_AGENTS); do
  X=$(awk -v x="$SX" -v i="$i" 'BEGIN { print x + 0.8 * (i - 1) }')
  CROWD+=", {\"seq\": $((i + 1)), \"add_agent\": {\"id\": $i, \"position\": {\"x\": $X, \"y\": $SY, \"z\": $SZ}}}"
  CROWD+=", {\"seq\": $((i + 100)), \"set_target\": {\"id\": $i, \"point\": {\"x\": $GX, \"y\": $GY, \"z\": $GZ}}}"
done
CROWD+=']'
"$CLIENT" --target="127.0.0.1:$GRPC_PORT" --hold=60s RunCrowd "$CROWD" >"$TMP/crowd.jsonl" 2>&1 &
CROWD_PID=$!
CROWD_SCREENSHOT=${SCREENSHOT%.png}-crowd.png
browser crowd crowd "http://127.0.0.1:$UI_PORT/" "$CROWD_AGENTS" "$CROWD_SCREENSHOT"
if grep -q '"opened"' "$TMP/crowd.jsonl" && ! grep -q command_failed "$TMP/crowd.jsonl"; then
  pass "crowd session held by waymesh-client RunCrowd ($CROWD_AGENTS agents, no command failed)"
else
  fail "crowd session held by waymesh-client RunCrowd"
  sed 's/^/    /' "$TMP/crowd.jsonl" | head -n 5
fi
if [[ -s $CROWD_SCREENSHOT ]]; then pass "crowd screenshot saved ($CROWD_SCREENSHOT)"; else fail "crowd screenshot saved"; fi
kill -TERM "$CROWD_PID" 2>/dev/null
wait "$CROWD_PID" 2>/dev/null
CROWD_PID=""
stop_server open

TOKEN=viewer-test-token-$RANDOM
WAYMESH_AUTH_TOKEN=$TOKEN start_server auth
browser auth auth "http://127.0.0.1:$UI_PORT/" "$TOKEN"
stop_server auth

# The same over HTTPS: the viewer follows the server's TLS flags.
check "self-signed certificate made" 30 openssl req -x509 -newkey ec \
  -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=localhost \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$TMP/tls.key" -out "$TMP/tls.pem"
WAYMESH_AUTH_TOKEN=$TOKEN start_server https --tls-cert="$TMP/tls.pem" --tls-key="$TMP/tls.key"
browser https auth "https://127.0.0.1:$UI_PORT/" "$TOKEN"
stop_server https
finish
