#!/usr/bin/env bash
# End-to-end test of the example clients: builds the Go and Java clients offline from proto/
# (clients/go/build.sh, clients/java/build.sh), generates and compiles the demo town, starts a
# real waymesh-server on 127.0.0.1 with it, and runs both clients against it:
#   - FindPath across the ford and up to the rooftop must be COMPLETE with the length the
#     waymesh CLI computes on the same map, into the walled courtyard NO_PATH;
#   - ValidateMove of 3 m on open ground is VALID, and TOO_FAR (rubber-banded to 1 m) with
#     --max-move=1;
#   - GetMapInfo reports the polygons, tiles and islands `waymesh inspect` reports, and every
#     answer the same map version;
#   - errors come with their google.rpc details, decoded by each language's stock gRPC status
#     API: an unknown map is NOT_FOUND with ErrorInfo reason MAP_NOT_FOUND (and the map id in
#     its metadata), an unknown agent type AGENT_TYPE_NOT_FOUND, a NaN start INVALID_ARGUMENT
#     with a BadRequest violation of start.x; an expired deadline is DEADLINE_EXCEEDED;
#   - Go and Java print the same lines, and the server's metrics count exactly their calls;
#   - obstacle layers (`waymesh-example obstacles`, a block box halfway along the ford path):
#     put (and the same put again, already held), FindPath on the layer version, the replica
#     loses the layer (DeleteObstacleLayer), FindPath again is refused (OBSTACLE_LAYER_VERSION_
#     UNKNOWN) and answered after a resync put, an update on the lost layer is refused
#     (OBSTACLE_LAYER_VERSION_MISMATCH) and resynced; the paths with the box equal `waymesh path
#     --obstacles` and differ from the one without; the server counts the refusals and the puts;
#   - crowds (`waymesh-example crowd`, RunCrowd stepped by the client at dt 0.05): 6 agents
#     spawned behind the west end of the ford path, all sent to its east end (surround: a ring of
#     slots round it); after 40 ticks the client cancels the stream (a lost replica), finds it
#     broken (CANCELLED) at the next step, opens a new one and replays every agent at its last
#     reported position, and steps on: all 6 arrive, no two final positions closer than the sum
#     of their radii, and removing an unknown agent is command_failed NOT_FOUND with its seq
#     while the session goes on; a crowd on an unknown map ends NOT_FOUND (MAP_NOT_FOUND); Go
#     and Java print the same lines; the server counted every stream (RunCrowd started and
#     handled by code) and every tick the clients saw, and its waymesh_crowd_sessions and
#     waymesh_crowd_agents gauges are back to 0; over two replicas (below) the crowd, its
#     streams balanced over both, walks exactly as on one;
#   - the server exits 0 on SIGTERM.
# Then, on a throw-away CA made with openssl:
#   - TLS: a server with --tls-cert/--tls-key for the name waymesh.test answers both clients
#     with --tls-ca and --tls-server-name=waymesh.test; without the server name (the
#     certificate does not name 127.0.0.1) the handshake fails, UNAVAILABLE;
#   - mutual TLS (--tls-client-ca) with an auth token (WAYMESH_AUTH_TOKEN, read by the server
#     and the clients alike): answered with --tls-cert/--tls-key and the token; UNAVAILABLE
#     without the client certificate, UNAUTHENTICATED (reason UNAUTHENTICATED) without the token.
# And against clients/go's overload stub (RESOURCE_EXHAUSTED with RetryInfo and the
# grpc-retry-pushback-ms trailer, like an overloaded server), the retry policy of
# clients/service_config.json: each client retries GetMapInfo after the server's pushback delay
# (longer than the policy's own maxBackoff) and succeeds on the third attempt; a server that stays
# overloaded gets exactly maxAttempts attempts, and the client reports RESOURCE_EXHAUSTED with
# reason OVERLOADED and the retry delay.
# Usage: scripts/test_clients.sh [BIN_DIR]   (or WAYMESH_BIN_DIR; default build/release): the
# build dir holding waymesh and server/waymesh-server. Installs nothing.
# Ends with "clients: N passed, M failed".
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh" clients "$@"
# The token is set only where a check wants it (the clients and the server read it).
unset WAYMESH_AUTH_TOKEN
SERVER_PID=""
STUB_PID=""
REPLICA_PID=""
DNS_PID=""
# Called by lib.sh's exit trap: a server or stub still running (a failed check left it) is killed.
# shellcheck disable=SC2317  # invoked indirectly
at_exit() {
  local pid
  for pid in "$SERVER_PID" "$STUB_PID" "$REPLICA_PID" "$DNS_PID"; do
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null
      wait "$pid" 2>/dev/null
    fi
  done
}

for f in "$WAYMESH" "$SERVER"; do
  [[ -x $f ]] || fail "$f is built (ninja -C $BIN_DIR waymesh waymesh-server)"
done
require_tools go javac java protoc protoc-gen-go protoc-gen-go-grpc grpc_java_plugin python3 openssl
[[ $failed -eq 0 ]] || finish

check "Go client builds (Debian protoc-gen-go, Go gRPC, genproto google.rpc, offline)" 600 \
  bash clients/go/build.sh "$TMP/go"
check "Java client builds (Debian grpc_java_plugin, grpc-java jars, google.rpc from proto/)" 600 \
  bash clients/java/build.sh "$TMP/java"

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

# start_server NAME ARGS...: a real server on loopback serving the town with ARGS, its metrics
# on a free port too. Sets SERVER_PID, GRPC_PORT and METRICS_PORT; on failure ends the run.
start_server() {
  local name=$1
  shift
  launch_server "$name" --metrics-address=127.0.0.1 --metrics-port=0 "$@"
  METRICS_PORT=$(echo "$SERVER_LINE" | sed -n 's/.*metrics on 127\.0\.0\.1:\([0-9]*\).*/\1/p')
  [[ -n $METRICS_PORT ]] || server_failed "$name"
  pass "waymesh-server ($name) starts on 127.0.0.1 (gRPC $GRPC_PORT, metrics $METRICS_PORT)"
}

GO=$TMP/go/bin/waymesh-example
JAVA=$TMP/java/bin/waymesh-example
# run LANG NAME EXPECTED_EXIT [obstacles|crowd] ARGS...: runs one client (or its obstacles or
# crowd command) against $TARGET; output in $TMP/LANG-NAME.txt.
run() {
  local lang=$1 name=$2 want=$3 bin command=()
  shift 3
  [[ $lang == go ]] && bin=$GO || bin=$JAVA
  if [[ ${1:-} == obstacles || ${1:-} == crowd ]]; then
    command=("$1")
    shift
  fi
  timeout 60 "$bin" "${command[@]}" --target="$TARGET" "$@" >"$TMP/$lang-$name.txt" 2>"$TMP/$lang-$name.err"
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
# number LANG NAME KEY: the number after " KEY=" on the first line that has one.
number() { sed -n "s/.* $3=\([-0-9.]*\).*/\1/p" "$TMP/$1-$2.txt" | head -n1; }
# near LANG NAME KEY WANT TOLERANCE DESCRIPTION: the number after "KEY=" is WANT +- TOLERANCE.
near() {
  local got
  got=$(number "$1" "$2" "$3")
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
  got=$(number "$1" "$2" "$3")
  if awk -v g="$got" -v m="$4" 'BEGIN {exit !(g != "" && g + 0.001 >= m)}'; then
    pass "$1 $2: $5 ($3=$got >= $4)"
  else
    fail "$1 $2: $5 ($3=${got:-none} < $4)"
  fi
}
# one_version LANG NAME: every answer of the run carries the same map version.
one_version() {
  local versions
  versions=$(grep -o ' version=[0-9]*' "$TMP/$1-$2.txt" | sort -u)
  if [[ $(echo "$versions" | wc -l) -eq 1 && -n $versions ]]; then
    pass "$1 $2: GetMapInfo, FindPath and ValidateMove answer on one map version ($versions )"
  else
    fail "$1 $2: one map version in every answer (got: $(echo "$versions" | tr '\n' ' '))"
  fi
}
# same_answers NAME...: Go and Java printed the same lines for each run NAME.
same_answers() {
  local name
  for name in "$@"; do
    if [[ -s $TMP/go-$name.txt ]] && cmp -s "$TMP/go-$name.txt" "$TMP/java-$name.txt"; then
      pass "go and java print the same answers ($name)"
    else
      fail "go and java print the same answers ($name)"
      diff "$TMP/go-$name.txt" "$TMP/java-$name.txt" | sed 's/^/    /'
    fi
  done
}

start_server plaintext
# Both clients dial through the DNS resolver with round_robin, as in Kubernetes.
TARGET=dns:///127.0.0.1:$GRPC_PORT
for lang in go java; do
  if run $lang ford 0 --map=town --start="$WEST" --end="$(goal "$FORD")" --move-to="$AHEAD" --max-move=1; then
    expect $lang ford '^health: SERVING$' "health check of waymesh.v1.NavigationService SERVING"
    expect $lang ford "^map: town version=[0-9]+ polygons=$POLYGONS tiles=$TILES islands=$ISLANDS\$" \
      "GetMapInfo matches waymesh inspect"
    expect $lang ford '^path: PATH_STATUS_COMPLETE waypoints=[2-9][0-9]* ' "FindPath across the ford is COMPLETE"
    near $lang ford length "$(ref 0 3)" 0.01 "FindPath length equals the CLI's"
    expect $lang ford '^move: VERDICT_INVALID reason=REASON_TOO_FAR ' "ValidateMove beyond --max-move is TOO_FAR"
    near $lang ford distance 1 0.05 "TOO_FAR move is rubber-banded to max-move"
    one_version $lang ford
  fi
  if run $lang roof 0 --map=town --start="$WEST" --end="$(goal "$ROOF")" --move-to="$AHEAD"; then
    expect $lang roof '^path: PATH_STATUS_COMPLETE waypoints=([4-9]|[1-9][0-9]+) ' \
      "FindPath to the rooftop (bridge or ford, ladder) is COMPLETE"
    near $lang roof length "$(ref 1 3)" 0.01 "FindPath length equals the CLI's"
    at_least $lang roof length "$(echo "$ROOF" | awk '{print sqrt(($4-$1)^2 + ($5-$2)^2 + ($6-$3)^2)}')" \
      "FindPath is no shorter than the straight line"
    expect $lang roof '^move: VERDICT_VALID reason=REASON_UNSPECIFIED ' "ValidateMove on open ground is VALID"
    near $lang roof distance 3 0.05 "VALID move reaches the destination"
  fi
  if run $lang yard 0 --map=town --start="$WEST" --end="$(goal "$YARD")"; then
    expect $lang yard '^path: PATH_STATUS_NO_PATH waypoints=0 ' "FindPath into the walled courtyard is NO_PATH"
  fi
  if run $lang missing 2 --map=no-such-map --start="$WEST" --end="$(goal "$FORD")"; then
    expect $lang missing '^error: GetMapInfo: NOT_FOUND: ' "unknown map is NOT_FOUND"
    expect $lang missing '^error-info: reason=MAP_NOT_FOUND domain=waymesh\.dev map_id=no-such-map$' \
      "unknown map: ErrorInfo reason MAP_NOT_FOUND, the map id in its metadata"
  fi
  if run $lang agent 2 --map=town --agent-type=ogre; then
    expect $lang agent '^error: GetMapInfo: NOT_FOUND: ' "unknown agent type is NOT_FOUND"
    expect $lang agent '^error-info: reason=AGENT_TYPE_NOT_FOUND domain=waymesh\.dev( |$)' \
      "unknown agent type: ErrorInfo reason AGENT_TYPE_NOT_FOUND"
  fi
  if run $lang nan 2 --map=town --start=NaN,0,0 --end="$(goal "$FORD")"; then
    expect $lang nan '^error: FindPath: INVALID_ARGUMENT: ' "NaN start is INVALID_ARGUMENT"
    expect $lang nan '^error-info: reason=INVALID_FIELD domain=waymesh\.dev( |$)' "NaN start: ErrorInfo reason INVALID_FIELD"
    expect $lang nan '^bad-request: field=start\.x description=.' "NaN start: BadRequest names start.x"
  fi
  if run $lang deadline 2 --map=town --deadline-ms=0; then
    expect $lang deadline '^error: Health.Check: DEADLINE_EXCEEDED: ' "expired deadline is DEADLINE_EXCEEDED"
  fi
done
# Same requests, same answers, whatever the language (error texts are the server's).
same_answers ford roof yard missing agent nan

# The answers came from this server: its counters saw exactly the clients' calls.
# scrape_metrics [HOST:PORT]: a server's /metrics (default: the one start_server started) into
# $TMP/metrics.txt, read by metric SERIES.
scrape_metrics() {
  python3 - "${1:-127.0.0.1:$METRICS_PORT}" >"$TMP/metrics.txt" 2>&1 <<'EOF'
import sys, urllib.request
print(urllib.request.urlopen(f"http://{sys.argv[1]}/metrics", timeout=5).read().decode())
EOF
}
scrape_metrics
metric() { awk -v s="$1" '$1 == s {print $2}' "$TMP/metrics.txt"; }
# handled METHOD CODE: the grpc_server_handled_total series (labels in the exposition's order).
handled() {
  echo "grpc_server_handled_total{grpc_code=\"$2\",grpc_method=\"$1\",grpc_service=\"waymesh.v1.NavigationService\",grpc_type=\"unary\"}"
}
for want in 'waymesh_path_results_total{status="complete"} 4' 'waymesh_path_results_total{status="no_path"} 2' \
  "$(handled GetMapInfo NotFound) 4" "$(handled FindPath InvalidArgument) 2" \
  'waymesh_move_validations_total{reason="too_far"} 2' 'waymesh_move_validations_total{reason="valid"} 2'; do
  series=${want% *}
  if [[ $(metric "$series") == "${want##* }" ]]; then pass "server metrics: $want"; else
    fail "server metrics: $series is $(metric "$series"), want ${want##* }"
  fi
done
# Obstacle layers: `waymesh-example obstacles` keeps a layer the way a zone server does and
# resyncs a replica that lost it. The block box goes halfway along the ford path the CLI found
# without obstacles, so it stands on the map whatever the demo town's generator does; the CLI's
# answer with the same box (`waymesh path --obstacles`) is the reference. Each language has its
# own layer (a fresh one: version 1 first), and the layer name is the only difference between
# their lines.
# midpoint WAYPOINTS: the point halfway along a path written 'x y z;x y z;...' (reference.csv).
midpoint() {
  echo "$1" | awk -v RS=';' 'BEGIN { n = 0 } NF == 3 {
      x[n] = $1; y[n] = $2; z[n] = $3
      if (n) { d[n] = sqrt((x[n] - x[n-1])^2 + (y[n] - y[n-1])^2 + (z[n] - z[n-1])^2); total += d[n] }
      n++
    }
    END {
      for (i = 1; i < n; i++) {
        if (d[i] > 0 && done + d[i] >= total / 2) { t = (total / 2 - done) / d[i]; break }
        done += d[i]
      }
      if (i >= n) { i = n - 1; t = 1 }
      printf "%.3f,%.3f,%.3f", x[i-1] + t * (x[i] - x[i-1]), y[i-1] + t * (y[i] - y[i-1]), z[i-1] + t * (z[i] - z[i-1])
    }'
}
BLOCK=$(midpoint "$(awk -F, 'NR == 2 {print $5}' "$TMP/reference.csv")")
HALF_EXTENTS=1.5,2,1.5
echo "$BLOCK $HALF_EXTENTS" | awk -F'[, ]' '{printf "{\"obstacles\": [{\"id\": \"block-1\", \"shape\": \"box\", \"center\": [%s, %s, %s], \"half_extents\": [%s, %s, %s], \"yaw_deg\": 0, \"effect\": \"block\"}]}\n", $1, $2, $3, $4, $5, $6}' >"$TMP/block.json"
check "reference path around the block box (waymesh path --obstacles, box at $BLOCK)" 60 \
  "$WAYMESH" path "$MAPS/town.wmesh" --queries "$TMP/reference-queries.txt" --obstacles "$TMP/block.json" \
  --out "$TMP/reference-block.csv"
BLOCKED_STATUS=$(awk -F, 'NR == 2 {print $2}' "$TMP/reference-block.csv")
BLOCKED_LENGTH=$(awk -F, 'NR == 2 {print $3}' "$TMP/reference-block.csv")
# check_paths LANG NAME LAYER: the FindPath answers of an obstacles run: without the layer and
# on version 2 (box removed) the CLI's ford path, on versions 1 and 3 (before and after each
# resync) the CLI's path around the box, which differs from the straight crossing (or its status
# does, NO_PATH).
check_paths() {
  local want got
  sed -n 's/^path: PATH_STATUS_\([A-Z_]*\) waypoints=[0-9]* length=\([0-9.]*\) version=[0-9]* obstacles=\(.*\)$/\1 \2 \3/p' \
    "$TMP/$1-$2.txt" >"$TMP/$1-$2-paths.txt"
  want="COMPLETE none $BLOCKED_STATUS $3@1 $BLOCKED_STATUS $3@1 COMPLETE $3@2 $BLOCKED_STATUS $3@3"
  got=$(awk '{printf "%s%s %s", (NR > 1 ? " " : ""), $1, $3}' "$TMP/$1-$2-paths.txt")
  if [[ $got == "$want" ]]; then pass "$1 $2: FindPath status per layer version ($want)"; else
    fail "$1 $2: FindPath status per layer version: got $got, want $want"
  fi
  if awk -v free="$(ref 0 3)" -v blocked="$BLOCKED_LENGTH" -v status="$BLOCKED_STATUS" '
      function near(a, b) { return (a - b) <= 0.01 && (b - a) <= 0.01 }
      NR == 1 || $3 ~ /@2$/ { if (!near($2, free)) bad = bad " " $3 "=" $2 " (want " free ")" }
      $3 ~ /@[13]$/ { if (status == "COMPLETE" ? !near($2, blocked) : $2 != 0) bad = bad " " $3 "=" $2 " (want " blocked ")" }
      END { if (bad != "") { print bad; exit 1 } }' "$TMP/$1-$2-paths.txt" >"$TMP/$1-$2-lengths.txt" &&
    [[ $BLOCKED_STATUS != COMPLETE || $BLOCKED_LENGTH != "$(ref 0 3)" ]]; then
    pass "$1 $2: the path around the box ($BLOCKED_STATUS $BLOCKED_LENGTH) differs from the one without ($(ref 0 3)) and equals the CLI's"
  else
    fail "$1 $2: FindPath lengths (free $(ref 0 3), around the box $BLOCKED_STATUS $BLOCKED_LENGTH):$(cat "$TMP/$1-$2-lengths.txt")"
  fi
}
OBSTACLE_ARGS=(--map=town --start="$WEST" --end="$(goal "$FORD")" --block="$BLOCK" --half-extents="$HALF_EXTENTS" --yaw-deg=0)
for lang in go java; do
  layer=zone-$lang
  if run $lang obstacles 0 obstacles "${OBSTACLE_ARGS[@]}" --layer=$layer; then
    expect $lang obstacles "^put: layer=$layer version=1 obstacles=1 tiles_carved=[1-9][0-9]* already_held=false\$" \
      "PutObstacleLayer carves the box into version 1"
    expect $lang obstacles "^put: layer=$layer version=1 obstacles=1 tiles_carved=0 already_held=true\$" \
      "the same put again is idempotent (already_held, nothing carved)"
    expect $lang obstacles "^lost: layer=$layer deleted=true\$" "DeleteObstacleLayer makes the replica lose the layer"
    expect $lang obstacles "^resync: FindPath: OBSTACLE_LAYER_VERSION_UNKNOWN held_version=0 -> put: layer=$layer version=1 obstacles=1\$" \
      "FindPath on a lost layer: FAILED_PRECONDITION OBSTACLE_LAYER_VERSION_UNKNOWN, resynced"
    expect $lang obstacles "^update: layer=$layer version=2 obstacles=0 tiles_carved=[1-9][0-9]* already_held=false\$" \
      "UpdateObstacleLayer 1 -> 2 removes the box on the resynced replica"
    expect $lang obstacles "^resync: UpdateObstacleLayer: OBSTACLE_LAYER_VERSION_MISMATCH held_version=0 -> put: layer=$layer version=3 obstacles=1\$" \
      "UpdateObstacleLayer on a lost layer: FAILED_PRECONDITION OBSTACLE_LAYER_VERSION_MISMATCH, resynced"
    expect $lang obstacles "^update: layer=$layer version=3 obstacles=1 tiles_carved=[1-9][0-9]* already_held=false\$" \
      "the resync put holds the change (version 3, the box back)"
    expect $lang obstacles '^resyncs: 2$' "two resyncs"
    check_paths $lang obstacles $layer
  fi
  sed "s/zone-$lang/LAYER/g" "$TMP/$lang-obstacles.txt" >"$TMP/$lang-obstacles-any-layer.txt"
done
same_answers obstacles-any-layer

# The replica saw the resyncs: two refusals per client, and every put (two at the start, one per
# resync) answered.
scrape_metrics
obstacle_handled() {
  echo "grpc_server_handled_total{grpc_code=\"$2\",grpc_method=\"$1\",grpc_service=\"waymesh.v1.ObstacleService\",grpc_type=\"unary\"}"
}
for want in 'waymesh_obstacle_resyncs_total 4' "$(handled FindPath FailedPrecondition) 2" \
  "$(obstacle_handled UpdateObstacleLayer FailedPrecondition) 2" "$(obstacle_handled PutObstacleLayer OK) 8" \
  "$(obstacle_handled DeleteObstacleLayer OK) 4"; do
  series=${want% *}
  if [[ $(metric "$series") == "${want##* }" ]]; then pass "server metrics: $want"; else
    fail "server metrics: $series is $(metric "$series"), want ${want##* }"
  fi
done


# Crowds: `waymesh-example crowd` runs a caller-stepped crowd (RunCrowd) the way a zone server
# does: 6 agents spawned in two rows of three behind the west end of the ford path, all sent to
# its east end (one shared point: they spread on a ring of slots round it), stepped at dt 0.05.
# After 40 ticks the client cancels the stream, as a lost replica would end it; the next step
# finds it broken, and the client opens a new stream and replays its agents (each at its last
# reported position with its params, then its goal) and steps on until all arrive. A remove of an
# agent it never added is answered command_failed NOT_FOUND with its seq, and the session goes on.
CROWD_AGENTS=6
CROWD_ARGS=(--map=town --start="$WEST" --end="$(goal "$FORD")" --agents="$CROWD_AGENTS" --break-after=40 --max-ticks=600)
# crowd_lines LANG NAME PREFIX: "id x,y,z" of the run's PREFIX lines ("at:", "replay:", "final:").
crowd_lines() { sed -n "s/^$3 .* id=\([0-9]*\) at=\([-0-9.,]*\) .*/\1 \2/p" "$TMP/$1-$2.txt"; }
# apart LANG NAME: no two final positions closer (in plan, x-z) than the sum of their radii,
# less 0.01 m for the rounding of the printed coordinates to 0.01 m.
apart() {
  sed -n 's/^final: .* id=\([0-9]*\) at=\([-0-9.]*\),[-0-9.]*,\([-0-9.]*\) .* radius=\([0-9.]*\) .*/\1 \2 \3 \4/p' \
    "$TMP/$1-$2.txt" | awk '{id[NR] = $1; x[NR] = $2; z[NR] = $3; r[NR] = $4}
      END {
        for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) {
          gap = sqrt((x[i] - x[j])^2 + (z[i] - z[j])^2) - r[i] - r[j]
          if (pair == "" || gap < closest) { closest = gap; pair = id[i] "-" id[j] }
        }
        printf "%d %.3f %s\n", NR, closest, pair
        exit !(NR >= 2 && closest >= -0.01)
      }'
}
for lang in go java; do
  if run $lang crowd 0 crowd "${CROWD_ARGS[@]}"; then
    expect $lang crowd '^opened: stream=1 map_version=[0-9]+ max_agents=[1-9][0-9]* tick_hz=0\.00$' \
      "RunCrowd opens a caller-stepped crowd on the town (opened, tick_hz 0)"
    expect $lang crowd '^command_failed: seq=[0-9]+ remove_agent id=999: NOT_FOUND: ' \
      "removing an unknown agent: command_failed NOT_FOUND naming its seq"
    expect $lang crowd '^tick: tick=20 stream=1 stream_tick=20 agents=6 ' \
      "the session goes on after the failed command (tick 20 with 6 agents)"
    expect $lang crowd '^broken: stream=1 after tick=40: CANCELLED$' \
      "the cancelled stream (a lost replica) is found broken at the next step"
    expect $lang crowd '^opened: stream=2 ' "a new stream is opened"
    expect $lang crowd '^tick: tick=60 stream=2 stream_tick=20 agents=6 ' \
      "the crowd goes on on the new stream (its tick 20 is the client's 60, 6 agents)"
    expect $lang crowd "^crowd: ticks=[0-9]+ streams=2 replayed=$CROWD_AGENTS command_failed=1 arrived=$CROWD_AGENTS of $CROWD_AGENTS\$" \
      "all $CROWD_AGENTS agents arrive, over two streams"
    expect $lang crowd '^closed: stream=2 OK$' "closing the sending side ends the session with OK"
    if [[ $(crowd_lines $lang crowd replay:) == "$(crowd_lines $lang crowd at:)" &&
      $(crowd_lines $lang crowd replay: | wc -l) -eq $CROWD_AGENTS ]]; then
      pass "$lang crowd: every agent is replayed at its last reported position"
    else
      fail "$lang crowd: every agent is replayed at its last reported position"
      diff <(crowd_lines $lang crowd at:) <(crowd_lines $lang crowd replay:) | sed 's/^/    /'
    fi
    if [[ $(grep -c '^final: .* state=ARRIVED ' "$TMP/$lang-crowd.txt") -eq $CROWD_AGENTS ]]; then
      pass "$lang crowd: every agent's last reported state is ARRIVED"
    else
      fail "$lang crowd: every agent's last reported state is ARRIVED"
      grep '^final: ' "$TMP/$lang-crowd.txt" | sed 's/^/    /'
    fi
    if closest=$(apart $lang crowd); then
      pass "$lang crowd: no two final positions closer than their radii (agents, closest gap, pair: $closest)"
    else
      fail "$lang crowd: no two final positions closer than their radii (agents, closest gap, pair: $closest)"
    fi
  fi
  if run $lang crowd-missing 2 crowd --map=no-such-map --start="$WEST" --end="$(goal "$FORD")"; then
    expect $lang crowd-missing '^error: RunCrowd: NOT_FOUND: ' "a crowd on an unknown map: the stream ends NOT_FOUND"
    expect $lang crowd-missing '^error-info: reason=MAP_NOT_FOUND domain=waymesh\.dev( |$)' \
      "a crowd on an unknown map: ErrorInfo reason MAP_NOT_FOUND"
  fi
done
same_answers crowd crowd-missing

# The server saw the streams: two per demo (the cancelled one and its replacement) and one per
# unknown map; every session ended, so the sessions gauge is back to 0 (a cancelled stream's
# session ends when the server notices the cancel: allowed a few seconds).
crowd_series() {
  echo "grpc_server_$1_total{${2:+grpc_code=\"$2\",}grpc_method=\"RunCrowd\",grpc_service=\"waymesh.v1.CrowdService\",grpc_type=\"bidi_stream\"}"
}
# Each step the clients saw answered is one tick the server ran (the step sent on the cancelled
# stream never reached it).
CROWD_TICKS=$(cat "$TMP/go-crowd.txt" "$TMP/java-crowd.txt" | sed -n 's/^crowd: ticks=\([0-9]*\) .*/\1/p' |
  awk '{n += $1} END {print n + 0}')
for _ in $(seq 1 50); do
  scrape_metrics
  [[ $(metric waymesh_crowd_sessions) == 0 ]] && break
  sleep 0.1
done
for want in "$(crowd_series started) 6" "$(crowd_series handled NotFound) 2" 'waymesh_crowd_sessions 0' \
  'waymesh_crowd_agents 0' "waymesh_crowd_tick_seconds_count $CROWD_TICKS"; do
  series=${want% *}
  if [[ $(metric "$series") == "${want##* }" ]]; then pass "server metrics: $want"; else
    fail "server metrics: $series is $(metric "$series"), want ${want##* }"
  fi
done
ended=$(awk '$1 ~ /^grpc_server_handled_total\{.*grpc_method="RunCrowd"/ {n += $2} END {print n + 0}' "$TMP/metrics.txt")
if [[ $ended == 6 ]]; then pass "server metrics: every RunCrowd stream ended (handled, all codes: 6)"; else
  fail "server metrics: RunCrowd streams handled (all codes) is $ended, want 6"
fi
# Each demo cancels one stream and half-closes the other: 2 Canceled and 2 OK.
got="Canceled=$(metric "$(crowd_series handled Canceled)") OK=$(metric "$(crowd_series handled OK)")"
if [[ $got == "Canceled=2 OK=2" ]]; then pass "server metrics: the cancelled streams handled Canceled, the closed ones OK ($got)"; else
  fail "server metrics: the cancelled streams handled Canceled, the closed ones OK (got $got, want Canceled=2 OK=2)"
fi

# Two replicas behind one name, as a headless Service gives them: a second server on 127.0.0.2
# with the same port, and a throw-away DNS server answering every A query with both addresses.
# The balanced channel sends each call to the next replica, so an update reaches one of them and
# the next query the other, which refuses the version: the resync must go to the replica that
# refused (the one after it holds the version already, and a strict alternation would refuse
# forever). Go only: grpc-java's DNS resolver takes no server address (dns://SERVER/name).
"$SERVER" --maps-dir="$MAPS" --listen-address=127.0.0.2 --port="$GRPC_PORT" \
  --metrics-address=127.0.0.2 --metrics-port=0 --reload-interval=0 --shutdown-grace=2s \
  >"$TMP/server-replica2.log" 2>&1 &
REPLICA_PID=$!
python3 -u - >"$TMP/dns.log" 2>&1 <<'EOF' &
import socket, struct
# Every A query is answered with both replicas' addresses, any other type with no record.
REPLICAS = ["127.0.0.1", "127.0.0.2"]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
print("listening on", s.getsockname()[1])
while True:
    query, client = s.recvfrom(512)
    qid, flags = struct.unpack(">HH", query[:4])
    end = 12
    while query[end]:
        end += query[end] + 1
    qtype = struct.unpack(">H", query[end + 1:end + 3])[0]
    answers = [struct.pack(">HHHIH", 0xC00C, 1, 1, 0, 4) + socket.inet_aton(a)
               for a in (REPLICAS if qtype == 1 else [])]
    header = struct.pack(">HHHHHH", qid, 0x8180 | (flags & 0x0100), 1, len(answers), 0, 0)
    s.sendto(header + query[12:end + 5] + b"".join(answers), client)
EOF
DNS_PID=$!
REPLICA_METRICS="" DNS_PORT=""
for _ in $(seq 1 300); do
  REPLICA_METRICS=$(sed -n 's/.*waymesh-server serving.*metrics on \(127\.0\.0\.2:[0-9]*\).*/\1/p' "$TMP/server-replica2.log")
  DNS_PORT=$(awk '/^listening on/ {print $3}' "$TMP/dns.log")
  [[ -n $REPLICA_METRICS && -n $DNS_PORT ]] && break
  sleep 0.1
done
if [[ -n $REPLICA_METRICS && -n $DNS_PORT ]]; then
  pass "second replica on 127.0.0.2:$GRPC_PORT and a DNS server naming both (port $DNS_PORT)"
  TARGET=dns://127.0.0.1:$DNS_PORT/replicas.waymesh.test:$GRPC_PORT
  if run go two-replicas 0 obstacles "${OBSTACLE_ARGS[@]}" --layer=zone-two; then
    expect go two-replicas '^resync: ' "a replica refused the version named and was resynced"
    check_paths go two-replicas zone-two
  fi
  scrape_metrics "$REPLICA_METRICS"
  if [[ $(metric "$(handled FindPath OK)") -ge 1 ]]; then
    pass "go two-replicas: the second replica answered FindPath too ($(metric "$(handled FindPath OK)") calls)"
  else
    fail "go two-replicas: the second replica answered no FindPath (round_robin over both addresses)"
  fi
  # The crowd demo over both: the balanced channel opens each stream on the replica it picks
  # (round_robin starts at a random one, so the replacement may or may not land on the other),
  # and a replica knows nothing of the crowd until the replay; the crowd walks on exactly as on
  # one replica (the same commands give the same ticks on any replica).
  if run go crowd-two-replicas 0 crowd "${CROWD_ARGS[@]}"; then
    scrape_metrics "$REPLICA_METRICS"
    split="$(metric "$(crowd_series started)") of 2 streams on the second replica"
    if cmp -s "$TMP/go-crowd.txt" "$TMP/go-crowd-two-replicas.txt"; then
      pass "go crowd-two-replicas: the crowd replayed over two replicas prints the same lines as on one ($split)"
    else
      fail "go crowd-two-replicas: the crowd replayed over two replicas prints the same lines as on one ($split)"
      diff "$TMP/go-crowd.txt" "$TMP/go-crowd-two-replicas.txt" | sed 's/^/    /' | head -n 20
    fi
  fi
  TARGET=dns:///127.0.0.1:$GRPC_PORT
else
  fail "second replica on 127.0.0.2:$GRPC_PORT and a DNS server naming both"
  sed 's/^/    /' "$TMP/server-replica2.log" "$TMP/dns.log" | tail -n 20
fi
kill -TERM "$REPLICA_PID" "$DNS_PID" 2>/dev/null
wait "$REPLICA_PID" "$DNS_PID" 2>/dev/null
REPLICA_PID="" DNS_PID=""
stop_server plaintext

# A throw-away CA, a server certificate for the name waymesh.test only and a client certificate
# (keys in PKCS#8, which Java's TLS reads).
PKI=$TMP/pki
mkdir -p "$PKI"
# issue NAME EXTENSIONS: NAME.key and NAME.pem signed by the CA.
issue() {
  openssl req -new -newkey rsa:2048 -nodes -keyout "$PKI/$1.key" -subj "/CN=$1" -out "$PKI/$1.csr" &&
    printf '%s\n' "$2" >"$PKI/$1.ext" &&
    openssl x509 -req -in "$PKI/$1.csr" -CA "$PKI/ca.pem" -CAkey "$PKI/ca.key" -CAcreateserial \
      -days 1 -extfile "$PKI/$1.ext" -out "$PKI/$1.pem"
}
if {
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$PKI/ca.key" -subj /CN=waymesh-test-ca \
    -days 1 -out "$PKI/ca.pem" &&
    issue server $'subjectAltName=DNS:waymesh.test\nextendedKeyUsage=serverAuth' &&
    issue client 'extendedKeyUsage=clientAuth'
} >"$TMP/pki.log" 2>&1; then
  pass "throw-away CA, server and client certificates (openssl)"
else
  fail "throw-away CA, server and client certificates (openssl)"
  sed 's/^/    /' "$TMP/pki.log" | tail -n 20
  finish
fi

start_server tls --tls-cert="$PKI/server.pem" --tls-key="$PKI/server.key"
TARGET=dns:///127.0.0.1:$GRPC_PORT
TLS_ARGS=(--tls-ca="$PKI/ca.pem" --tls-server-name=waymesh.test)
for lang in go java; do
  if run $lang tls 0 --map=town "${TLS_ARGS[@]}" --start="$WEST" --end="$(goal "$FORD")"; then
    expect $lang tls '^health: SERVING$' "TLS (--tls-ca, --tls-server-name): health SERVING"
    expect $lang tls '^path: PATH_STATUS_COMPLETE ' "TLS: FindPath across the ford is COMPLETE"
  fi
  if run $lang tls-wrong-name 2 --map=town --tls-ca="$PKI/ca.pem"; then
    expect $lang tls-wrong-name '^error: Health.Check: UNAVAILABLE: ' \
      "TLS: a certificate that does not name the target is refused (UNAVAILABLE)"
  fi
done
same_answers tls
stop_server tls

TOKEN=waymesh-test-token
WAYMESH_AUTH_TOKEN=$TOKEN start_server mtls --tls-cert="$PKI/server.pem" --tls-key="$PKI/server.key" \
  --tls-client-ca="$PKI/ca.pem"
TARGET=dns:///127.0.0.1:$GRPC_PORT
MTLS_ARGS=("${TLS_ARGS[@]}" --tls-cert="$PKI/client.pem" --tls-key="$PKI/client.key")
for lang in go java; do
  if WAYMESH_AUTH_TOKEN=$TOKEN run $lang mtls 0 --map=town "${MTLS_ARGS[@]}" --start="$WEST" \
    --end="$(goal "$FORD")"; then
    expect $lang mtls '^path: PATH_STATUS_COMPLETE ' \
      "mutual TLS (--tls-cert/--tls-key) with WAYMESH_AUTH_TOKEN: FindPath is COMPLETE"
  fi
  if WAYMESH_AUTH_TOKEN=$TOKEN run $lang mtls-no-cert 2 --map=town "${TLS_ARGS[@]}"; then
    expect $lang mtls-no-cert '^error: Health.Check: UNAVAILABLE: ' \
      "mutual TLS: a client without a certificate is refused (UNAVAILABLE)"
  fi
  if run $lang mtls-no-token 2 --map=town "${MTLS_ARGS[@]}"; then
    expect $lang mtls-no-token '^error: GetMapInfo: UNAUTHENTICATED: ' \
      "mutual TLS without WAYMESH_AUTH_TOKEN: UNAUTHENTICATED"
    expect $lang mtls-no-token '^error-info: reason=UNAUTHENTICATED domain=waymesh\.dev( |$)' \
      "no token: ErrorInfo reason UNAUTHENTICATED"
  fi
done
same_answers mtls mtls-no-token
stop_server mtls

# The retry policy against the overload stub. PUSHBACK_MS is longer than the policy's
# maxBackoff, so a retry that waited at least PUSHBACK_MS honoured the server's trailer.
PUSHBACK_MS=700
read -r MAX_ATTEMPTS MAX_BACKOFF_MS < <(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["methodConfig"][0]["retryPolicy"]
print(p["maxAttempts"], round(float(p["maxBackoff"].rstrip("s")) * 1000))' clients/service_config.json)
((MAX_BACKOFF_MS < PUSHBACK_MS)) ||
  fail "the retry test's pushback ($PUSHBACK_MS ms) exceeds the policy's maxBackoff ($MAX_BACKOFF_MS ms)"
# start_stub NAME ARGS...: the overload stub; sets STUB_PID and TARGET.
start_stub() {
  local name=$1 port=""
  shift
  "$TMP/go/bin/overload-stub" "$@" >"$TMP/stub-$name.log" 2>&1 &
  STUB_PID=$!
  for _ in $(seq 1 100); do
    port=$(awk '/^listening on/ {print $3}' "$TMP/stub-$name.log")
    [[ -n $port ]] && break
    sleep 0.1
  done
  TARGET=dns:///127.0.0.1:$port
  [[ -n $port ]] || fail "overload stub ($name) starts"
}
stop_stub() {
  kill "$STUB_PID" 2>/dev/null
  wait "$STUB_PID" 2>/dev/null
  STUB_PID=""
}
# attempts_of STUB FIRST LAST: "at_ms code" of the stub's attempts FIRST..LAST.
attempts_of() { awk -v a="$2" -v b="$3" '$1 == "attempt" && $2 >= a && $2 <= b {print $3, $4}' "$TMP/stub-$1.log"; }

start_stub pushback --failures=2 --pushback-ms=$PUSHBACK_MS
first=1
for lang in go java; do
  if run $lang retry 0 --map=town --deadline-ms=10000; then
    expect $lang retry '^map: town ' "RESOURCE_EXHAUSTED twice, then answered: the retry policy retried"
  fi
  attempts=$(attempts_of pushback $first $((first + 2)))
  if [[ $(echo "$attempts" | awk '{print $2}' | tr '\n' ' ') == "code=RESOURCE_EXHAUSTED code=RESOURCE_EXHAUSTED code=OK " ]] &&
    echo "$attempts" | awk -F'[= ]' -v p=$PUSHBACK_MS 'NR > 1 && $2 - prev < p {bad = 1} {prev = $2} END {exit bad}'; then
    pass "$lang retry: 3 attempts, each retry after the server's pushback ($(echo "$attempts" | awk '{print $1}' | tr '\n' ' ')>= $PUSHBACK_MS ms apart)"
  else
    fail "$lang retry: 3 attempts, each retry after the ${PUSHBACK_MS} ms pushback (stub saw: $(echo "$attempts" | tr '\n' ';'))"
  fi
  first=$((first + 3))
done
stop_stub

start_stub exhausted --failures=1000000 --pushback-ms=50
first=1
for lang in go java; do
  if run $lang exhausted 2 --map=town --deadline-ms=10000; then
    expect $lang exhausted '^error: GetMapInfo: RESOURCE_EXHAUSTED: ' "an overload that lasts: RESOURCE_EXHAUSTED"
    expect $lang exhausted '^error-info: reason=OVERLOADED domain=waymesh\.dev$' "overload: ErrorInfo reason OVERLOADED"
    expect $lang exhausted '^retry-info: delay_ms=50$' "overload: RetryInfo delay"
  fi
  got=$(awk '$1 == "attempt" {n++} END {print n + 0}' "$TMP/stub-exhausted.log")
  if [[ $got -eq $((first - 1 + MAX_ATTEMPTS)) ]]; then
    pass "$lang exhausted: exactly maxAttempts ($MAX_ATTEMPTS) attempts"
  else
    fail "$lang exhausted: $((got - first + 1)) attempts, want maxAttempts ($MAX_ATTEMPTS)"
  fi
  first=$((first + MAX_ATTEMPTS))
done
same_answers retry exhausted
stop_stub

finish
