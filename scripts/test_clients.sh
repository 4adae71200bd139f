#!/usr/bin/env bash
# End-to-end test of the example clients: builds the Go and Java clients offline from proto/
# (clients/go/build.sh, clients/java/build.sh), generates and compiles the demo town, starts a
# real waymesh-server on 127.0.0.1 with it, and runs both clients against it:
#   - FindPath across the ford and up to the rooftop must be COMPLETE with the length the
#     waymesh CLI computes on the same map, into the walled courtyard NO_PATH;
#   - ValidateMove of 3 m on open ground is VALID, and TOO_FAR (rubber-banded to 1 m) with
#     --max-move=1;
#   - GetMapInfo reports the polygons, tiles and islands `waymesh inspect` reports;
#   - an unknown map is NOT_FOUND, an expired deadline DEADLINE_EXCEEDED (exit status 2);
#   - Go and Java print the same lines, and the server's metrics count exactly their calls;
#   - the server exits 0 on SIGTERM.
# Usage: scripts/test_clients.sh [BIN_DIR]   (or WAYMESH_BIN_DIR; default build/release): the
# build dir holding waymesh and server/waymesh-server. Installs nothing.
# Ends with "clients: N passed, M failed".
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh" clients "$@"
SERVER_PID=""
# Called by lib.sh's exit trap: a server still running (a failed check left it) is killed.
# shellcheck disable=SC2317  # invoked indirectly
at_exit() {
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -KILL "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
}

for f in "$WAYMESH" "$SERVER"; do
  [[ -x $f ]] || fail "$f is built (ninja -C $BIN_DIR waymesh waymesh-server)"
done
require_tools go javac java protoc protoc-gen-go protoc-gen-go-grpc grpc_java_plugin python3
[[ $failed -eq 0 ]] || finish

check "Go client builds (Debian protoc-gen-go, Go gRPC, offline)" 600 bash clients/go/build.sh "$TMP/go"
check "Java client builds (Debian grpc_java_plugin, grpc-java jars)" 600 bash clients/java/build.sh "$TMP/java"

# The demo town (tools/demo_world, waymesh/demo_world/demo_world.h) and the CLI's own answers on it: the reference.
MAPS=$TMP/maps
mkdir -p "$MAPS"
check "demo town generated and compiled" 120 sh -c "
  '$WAYMESH' demo-world --size 200 --seed 7 -o '$TMP/town.json' --queries-out '$TMP/queries.txt' &&
  '$WAYMESH' build '$TMP/town.json' -o '$MAPS/town.wmesh' && '$WAYMESH' inspect '$MAPS/town.wmesh' >'$TMP/inspect.txt'"
[[ -s $TMP/inspect.txt ]] || finish
# query NAME: "sx sy sz gx gy gz" of the demo-world query whose comment matches NAME.
query() { awk -v q="$1" 'index($0, q) == 1 {getline; print; exit}' "$TMP/queries.txt"; }
FORD=$(query "# west bank (by the ford) -> east bank (by the ford):")
ROOF=$(query "# west bank (by the ford) -> rooftop (ladder):")
YARD=$(query "# west bank (by the ford) -> walled courtyard:")
printf '%s\n' "$FORD" "$ROOF" "$YARD" >"$TMP/reference-queries.txt"
check "reference paths from waymesh path" 60 \
  "$WAYMESH" path "$MAPS/town.wmesh" --queries "$TMP/reference-queries.txt" --out "$TMP/reference.csv"
# ref ROW FIELD: field 2 (status) or 3 (length) of reference.csv row ROW (0-based).
ref() { awk -F, -v r="$1" -v f="$2" 'NR == r + 2 {print $f}' "$TMP/reference.csv"; }
comma() { echo "$1" | awk '{printf "%s,%s,%s", $1, $2, $3}'; }
goal() { echo "$1" | awk '{printf "%s,%s,%s", $4, $5, $6}'; }
WEST=$(comma "$FORD")
AHEAD=$(echo "$FORD" | awk '{printf "%s,%s,%s", $1, $2, $3 + 3}') # 3 m north on open ground
POLYGONS=$(awk '$1 == "polygons" {print $2}' "$TMP/inspect.txt")
TILES=$(awk '$1 == "tiles" {print $2}' "$TMP/inspect.txt")
ISLANDS=$(awk '$1 == "islands" {print $2}' "$TMP/inspect.txt")
[[ $(ref 0 2) == COMPLETE && $(ref 1 2) == COMPLETE && $(ref 2 2) == NO_PATH && -n $POLYGONS ]] ||
  fail "the demo town has the expected reference answers (ford and rooftop COMPLETE, courtyard NO_PATH)"

# A real server on loopback; port 0 = a free port, which it logs.
"$SERVER" --maps-dir="$MAPS" --listen-address=127.0.0.1 --port=0 \
  --metrics-address=127.0.0.1 --metrics-port=0 --reload-interval=0 --shutdown-grace=2s \
  >"$TMP/server.log" 2>&1 &
SERVER_PID=$!
GRPC_PORT="" METRICS_PORT=""
for _ in $(seq 1 300); do
  line=$(grep -m1 'waymesh-server serving' "$TMP/server.log")
  if [[ -n $line ]]; then
    GRPC_PORT=$(echo "$line" | sed -n 's/.* on 127\.0\.0\.1:\([0-9]*\) .*/\1/p')
    METRICS_PORT=$(echo "$line" | sed -n 's/.*metrics on 127\.0\.0\.1:\([0-9]*\).*/\1/p')
    break
  fi
  kill -0 "$SERVER_PID" 2>/dev/null || break
  sleep 0.1
done
if [[ -z $GRPC_PORT || -z $METRICS_PORT ]]; then
  fail "waymesh-server starts on 127.0.0.1"
  sed 's/^/    /' "$TMP/server.log" | tail -n 20
  finish
fi
pass "waymesh-server starts on 127.0.0.1 (gRPC $GRPC_PORT, metrics $METRICS_PORT)"

# Both clients dial through the DNS resolver with round_robin, as in Kubernetes.
TARGET=dns:///127.0.0.1:$GRPC_PORT
GO=$TMP/go/bin/waymesh-example
JAVA=$TMP/java/bin/waymesh-example
# run LANG NAME EXPECTED_EXIT ARGS...: runs one client; output in $TMP/LANG-NAME.txt.
run() {
  local lang=$1 name=$2 want=$3 bin
  shift 3
  [[ $lang == go ]] && bin=$GO || bin=$JAVA
  timeout 60 "$bin" --target="$TARGET" "$@" >"$TMP/$lang-$name.txt" 2>"$TMP/$lang-$name.err"
  local got=$?
  if [[ $got -ne $want ]]; then
    fail "$lang $name: exit status $got, want $want"
    sed 's/^/    /' "$TMP/$lang-$name.txt" "$TMP/$lang-$name.err" | tail -n 20
    return 1
  fi
}
# expect LANG NAME REGEX DESCRIPTION: a line of the run's output matches REGEX.
expect() {
  if grep -Eq "$3" "$TMP/$1-$2.txt"; then pass "$1 $2: $4"; else
    fail "$1 $2: $4 (no line matches /$3/)"
    sed 's/^/    /' "$TMP/$1-$2.txt"
  fi
}
# near LANG NAME KEY WANT TOLERANCE DESCRIPTION: the number after "KEY=" is WANT +- TOLERANCE.
near() {
  local got
  got=$(sed -n "s/.* $3=\([-0-9.]*\).*/\1/p" "$TMP/$1-$2.txt" | head -n1)
  if awk -v g="$got" -v w="$4" -v t="$5" 'BEGIN {exit !(g != "" && (g - w) <= t && (w - g) <= t)}'; then
    pass "$1 $2: $6 ($3=$got, want $4)"
  else
    fail "$1 $2: $6 ($3=${got:-none}, want $4 +- $5)"
    sed 's/^/    /' "$TMP/$1-$2.txt"
  fi
}

# at_least LANG NAME KEY MIN DESCRIPTION: the number after "KEY=" is >= MIN.
at_least() {
  local got
  got=$(sed -n "s/.* $3=\([-0-9.]*\).*/\1/p" "$TMP/$1-$2.txt" | head -n1)
  if awk -v g="$got" -v m="$4" 'BEGIN {exit !(g != "" && g + 0.001 >= m)}'; then
    pass "$1 $2: $5 ($3=$got >= $4)"
  else
    fail "$1 $2: $5 ($3=${got:-none} < $4)"
  fi
}

for lang in go java; do
  if run $lang ford 0 --map=town --from="$WEST" --to="$(goal "$FORD")" --move-to="$AHEAD" --max-move=1; then
    expect $lang ford '^health: SERVING$' "health check SERVING"
    expect $lang ford "^map: town polygons=$POLYGONS tiles=$TILES islands=$ISLANDS\$" "GetMapInfo matches waymesh inspect"
    expect $lang ford '^path: COMPLETE waypoints=[2-9][0-9]* ' "FindPath across the ford is COMPLETE"
    near $lang ford length "$(ref 0 3)" 0.01 "FindPath length equals the CLI's"
    expect $lang ford '^move: INVALID reason=TOO_FAR ' "ValidateMove beyond --max-move is TOO_FAR"
    near $lang ford distance 1 0.05 "TOO_FAR move is rubber-banded to max-move"
  fi
  if run $lang roof 0 --map=town --from="$WEST" --to="$(goal "$ROOF")" --move-to="$AHEAD"; then
    expect $lang roof '^path: COMPLETE waypoints=([4-9]|[1-9][0-9]+) ' "FindPath to the rooftop (bridge or ford, ladder) is COMPLETE"
    near $lang roof length "$(ref 1 3)" 0.01 "FindPath length equals the CLI's"
    at_least $lang roof length "$(echo "$ROOF" | awk '{print sqrt(($4-$1)^2 + ($5-$2)^2 + ($6-$3)^2)}')" \
      "FindPath is no shorter than the straight line"
    expect $lang roof '^move: VALID reason=REASON_NONE ' "ValidateMove on open ground is VALID"
    near $lang roof distance 3 0.05 "VALID move reaches the destination"
  fi
  if run $lang yard 0 --map=town --from="$WEST" --to="$(goal "$YARD")"; then
    expect $lang yard '^path: NO_PATH waypoints=0 ' "FindPath into the walled courtyard is NO_PATH"
  fi
  if run $lang missing 2 --map=no-such-map --from="$WEST" --to="$(goal "$FORD")"; then
    expect $lang missing '^error: GetMapInfo: NOT_FOUND: ' "unknown map is NOT_FOUND"
  fi
  if run $lang deadline 2 --map=town --deadline-ms=0; then
    expect $lang deadline '^error: Health.Check: DEADLINE_EXCEEDED: ' "expired deadline is DEADLINE_EXCEEDED"
  fi
done

# Same requests, same answers, whatever the language (error texts are the server's).
for name in ford roof yard missing; do
  if [[ -s $TMP/go-$name.txt ]] && cmp -s "$TMP/go-$name.txt" "$TMP/java-$name.txt"; then
    pass "go and java print the same answers ($name)"
  else
    fail "go and java print the same answers ($name)"
    diff "$TMP/go-$name.txt" "$TMP/java-$name.txt" | sed 's/^/    /'
  fi
done

# The answers came from this server: its counters saw exactly the clients' calls.
python3 - "$METRICS_PORT" >"$TMP/metrics.txt" 2>&1 <<'EOF'
import sys, urllib.request
print(urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=5).read().decode())
EOF
metric() { awk -v s="$1" '$1 == s {print $2}' "$TMP/metrics.txt"; }
for want in 'waymesh_path_results_total{status="complete"} 4' 'waymesh_path_results_total{status="no_path"} 2' \
  'grpc_server_handled_total{grpc_type="unary",grpc_service="waymesh.v1.Navigation",grpc_method="GetMapInfo",grpc_code="NotFound"} 2' \
  'waymesh_move_validations_total{reason="too_far"} 2' 'waymesh_move_validations_total{reason="valid"} 2'; do
  series=${want% *}
  if [[ $(metric "$series") == "${want##* }" ]]; then pass "server metrics: $want"; else
    fail "server metrics: $series is $(metric "$series"), want ${want##* }"
  fi
done

# SIGTERM drains and exits 0 (within --shutdown-grace=2s plus a margin; else cleanup kills it).
kill -TERM "$SERVER_PID"
status=timeout
for _ in $(seq 1 100); do
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    wait "$SERVER_PID"
    status=$?
    SERVER_PID=""
    break
  fi
  sleep 0.1
done
if [[ $status == 0 ]]; then pass "waymesh-server exits 0 on SIGTERM"; else
  fail "waymesh-server exits 0 on SIGTERM (exit status: $status)"
  sed 's/^/    /' "$TMP/server.log" | tail -n 20
fi

finish
