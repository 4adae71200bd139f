#!/usr/bin/env bash
# The service figures of docs/PERFORMANCE.md, measured side by side in one run on this machine:
#   1. the ceiling: requests/sec of grpc.health.v1.Health/Check, same tool, same concurrency;
#   2. saturation requests/sec, p50 and p99 of every RPC on the demo world (1022 m, 169 524
#      polygons), ceiling and FindPath interleaved so their ratio is taken under the same noise;
#      FindPath in exact mode and the same requests in approximate mode, back to back;
#   3. FindPath at 50 % of its saturation rate, then offered at 2x saturation (fast
#      RESOURCE_EXHAUSTED, server RSS, p99 of the accepted calls);
#   4. a 16 km² world served with a tile budget of 25 % of its map: zone-local and anywhere
#      patterns, throughput and tile-cache hit rate;
#   5. FindPath "anywhere on the island" (random pairs, no distance cap) on both maps, two
#      servers side by side, --path-hierarchy=false and =true, rounds interleaved: calls/s,
#      p50, p99, their ratios, and on the 16 km² world (25 % budget) tiles loaded per call.
# Traffic goes to 127.0.0.1 only; every run is bounded by a call count or a duration.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build/release}
OUT=${OUT_DIR:-out/loadtest}
PORT=${PORT:-50071}
METRICS_PORT=${METRICS_PORT:-9471}
TOTAL=${TOTAL:-20000}
CONCURRENCY=${CONCURRENCY:-32}
ROUNDS=${ROUNDS:-2}
QUEUE=${QUEUE_CAPACITY:-0}  # waymesh-server --queue-capacity (0 = its default)
# PIN=1 gives the server core 0 and the generator core 1 (taskset), so the generator no longer
# takes CPU the server could use: the nearest this machine comes to a generator on another host.
PIN=${PIN:-0}
WORLD16=${WORLD16:-1}  # 0 skips part 4 and part 5's 16 km² world
LONG_PATHS=${LONG_PATHS:-1}  # 0 skips part 5; LONG_ONLY=1 runs only part 5
LONG_ONLY=${LONG_ONLY:-0}
LONG_TOTAL=${LONG_TOTAL:-2000}  # part 5: calls per run on the demo world (a quarter on the 16 km²)
SERVER_CPU=(); LOAD_CPU=()
if [[ $PIN == 1 ]]; then
  SERVER_CPU=(taskset -c 0); LOAD_CPU=(taskset -c 1)
  # One core: one worker, whose default queue (16) would not hold the closed loop's calls.
  if [[ $QUEUE == 0 ]]; then QUEUE=$CONCURRENCY; fi
fi

# SKIP_BUILD=1 uses BUILD_DIR's binaries as they are (a dev build configured with other options).
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWAYMESH_TESTS=OFF -DWAYMESH_BENCH=OFF >/dev/null
  ninja -C "$BUILD" waymesh waymesh-server waymesh-load >/dev/null
fi
WAYMESH=$BUILD/waymesh
SERVER=$BUILD/server/waymesh-server
LOAD=$BUILD/loadtest/waymesh-load
# Request files are generated into the build directory, never into the source tree.
DATA=$BUILD/loadtest/data
mkdir -p "$OUT/demo" "$OUT/world16" "$DATA"

# Maps and request data (kept between runs).
if [[ ! -f $OUT/demo/demo.wmesh ]]; then
  "$WAYMESH" demo-world --size 1022 --seed 7 -o "$OUT/demo.json"
  "$WAYMESH" build -q "$OUT/demo.json" -o "$OUT/demo/demo.wmesh"
fi
if [[ $WORLD16 == 1 && ! -f $OUT/world16/world16.wmesh ]]; then
  "$WAYMESH" demo-world --size 4000 --cell 4 --seed 11 -o "$OUT/world16.json"
  "$WAYMESH" build -q "$OUT/world16.json" -o "$OUT/world16/world16.wmesh"
fi
gen() { [[ -f $DATA/$1.json ]] || "$WAYMESH" loaddata "${@:2}" -o "$DATA/$1.json"; }
gen findpath "$OUT/demo/demo.wmesh" --rpc FindPath --count 2000 --max-path-distance 50
gen findpath_wide "$OUT/demo/demo.wmesh" --rpc FindPath --count 500
gen findpath_exact "$OUT/demo/demo.wmesh" --rpc FindPath --count 2000 --max-path-distance 50 --exact
# The same pairs and filter without the mode: exact and approximate compared call for call.
[[ -f $DATA/findpath_exact_twin.json ]] || python3 -c '
import json, sys
requests = json.load(open(sys.argv[1]))
for r in requests: r.pop("options", None)
json.dump(requests, open(sys.argv[2], "w"))' "$DATA/findpath_exact.json" "$DATA/findpath_exact_twin.json"
gen findpathbatch "$OUT/demo/demo.wmesh" --rpc FindPathBatch --count 50 --batch-size 64 --max-path-distance 50
gen validatemove "$OUT/demo/demo.wmesh" --rpc ValidateMove --count 2000
gen raycast "$OUT/demo/demo.wmesh" --rpc Raycast --count 2000
gen randompoint "$OUT/demo/demo.wmesh" --rpc RandomPoint --count 100
gen nearestpoint "$OUT/demo/demo.wmesh" --rpc NearestPoint --count 2000
if [[ $WORLD16 == 1 ]]; then
  gen world16_zones "$OUT/world16/world16.wmesh" --rpc FindPath --count 4000 --zones 8 --zone-radius 150 --max-path-distance 50
  gen world16_anywhere "$OUT/world16/world16.wmesh" --rpc FindPath --count 4000 --max-path-distance 50
  gen world16_long "$OUT/world16/world16.wmesh" --rpc FindPath --count 1000
fi

SERVER_PID=
stop_server() { [[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null; SERVER_PID=; }
PAIR_PIDS=()  # part 5's two servers
stop_pair() { if ((${#PAIR_PIDS[@]})); then kill "${PAIR_PIDS[@]}" 2>/dev/null; wait "${PAIR_PIDS[@]}" 2>/dev/null || true; fi; PAIR_PIDS=(); }
trap 'stop_server; stop_pair' EXIT
start_server() {  # MAPS_DIR [extra flags]
  "${SERVER_CPU[@]}" "$SERVER" --maps-dir="$1" --listen-address=127.0.0.1 --port="$PORT" \
    --metrics-address=127.0.0.1 --metrics-port="$METRICS_PORT" --queue-capacity="$QUEUE" \
    --reload-interval=0 "${@:2}" >"$OUT/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 600); do
    curl -sf "http://127.0.0.1:$METRICS_PORT/healthz" >/dev/null 2>&1 && return
    sleep 0.1
  done
  echo "waymesh-server did not start:" >&2; cat "$OUT/server.log" >&2; exit 1
}
rss_mb() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$SERVER_PID/status"; }
metric() { curl -s "http://127.0.0.1:$METRICS_PORT/metrics" | awk -v m="$1" '$1 == m {print $2}'; }

# load NAME CALL DATA_FILE|- [waymesh-load flags...]: one bounded run, JSON report in OUT.
load() {
  local name=$1 call=$2 data=$3
  local args=(--proto proto/waymesh/v1/navigation.proto -i proto -D "$data")
  if [[ $call == grpc.health.v1.* ]]; then
    args=(--proto /usr/share/grpc-proto/grpc/health/v1/health.proto -d '{}')
  fi
  "${LOAD_CPU[@]}" "$LOAD" "${args[@]}" --call "$call" --insecure --connections 2 -c "$CONCURRENCY" "${@:4}" \
    -O json -o "$OUT/$name.report.json" "127.0.0.1:$PORT"
}
# row NAME: "| name | count | rps | p50 | p99 | OK | ResourceExhausted |" from its report.
row() {
  python3 - "$OUT/$1.report.json" "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
lat = {int(d["percentage"]): d["latency"] / 1e6 for d in r["latencyDistribution"]}
codes = r["statusCodeDistribution"]
print(f"| {sys.argv[2]} | {r['count']} | {r['rps']:.0f} | {lat.get(50, 0):.2f} | "
      f"{lat.get(99, 0):.2f} | {codes.get('OK', 0)} | {codes.get('ResourceExhausted', 0)} |")
PY
}
rps() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['rps'])" "$OUT/$1.report.json"; }
p99() { python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['latencyDistribution']; print([x['latency'] for x in d if int(x['percentage'])==99][0]/1e6)" "$OUT/$1.report.json"; }

# pair_run K NAME DATA_FILE CALLS: one run at part 5's server K, its metrics scraped before and after.
pair_run() {
  curl -s "http://127.0.0.1:$((METRICS_PORT + $1))/metrics" >"$OUT/$2.before.metrics"
  PORT=$((PORT + $1)) load "$2" waymesh.v1.NavigationService.FindPath "$3" -n "$4" >/dev/null
  curl -s "http://127.0.0.1:$((METRICS_PORT + $1))/metrics" >"$OUT/$2.after.metrics"
}
# Part 5. long_paths MAP_DIR CALLS DATA_NAME [server flags...]: a server with the hierarchy off
# on PORT and one with it on on PORT+1 (both warmed), then ROUNDS rounds of CALLS calls each,
# off first in odd rounds and on first in even ones, so both see the same noise. Tiles loaded
# per call are the cache misses the run added (0 once a map fits its budget).
long_paths() {
  local dir=$1 calls=$2 data=$DATA/$3.json mode
  for mode in false true; do
    local port=$((PORT + ${#PAIR_PIDS[@]})) mport=$((METRICS_PORT + ${#PAIR_PIDS[@]}))
    "${SERVER_CPU[@]}" "$SERVER" --maps-dir="$dir" --listen-address=127.0.0.1 --port="$port" \
      --metrics-address=127.0.0.1 --metrics-port="$mport" --queue-capacity="$QUEUE" \
      --reload-interval=0 --path-hierarchy="$mode" "${@:4}" >"$OUT/server.$mode.log" 2>&1 &
    PAIR_PIDS+=($!)
  done
  for k in 0 1; do
    local up=0
    for _ in $(seq 1 900); do
      curl -sf "http://127.0.0.1:$((METRICS_PORT + k))/healthz" >/dev/null 2>&1 && { up=1; break; }
      sleep 0.1
    done
    if [[ $up == 0 ]]; then echo "waymesh-server did not start:" >&2; cat "$OUT"/server.*.log >&2; exit 1; fi
  done
  pair_run 0 long.warm.off "$data" "$((calls / 4))"; pair_run 1 long.warm.on "$data" "$((calls / 4))"
  for round in $(seq 1 "$ROUNDS"); do
    if ((round % 2)); then
      pair_run 0 "long.$round.off" "$data" "$calls"; pair_run 1 "long.$round.on" "$data" "$calls"
    else
      pair_run 1 "long.$round.on" "$data" "$calls"; pair_run 0 "long.$round.off" "$data" "$calls"
    fi
  done
  stop_pair
  python3 - "$OUT" "$ROUNDS" <<'PY'
import json, re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def metrics(name):
    values = {}
    for line in open(f"{out}/{name}.metrics"):
        m = re.match(r'^(waymesh_tile_cache_misses_total|waymesh_path_search_total\{kind="(\w+)"\}) (\S+)', line)
        if m: values[m.group(2) or "misses"] = float(m.group(3))
    return values
def run(name):
    r = json.load(open(f"{out}/{name}.report.json"))
    lat = {int(d["percentage"]): d["latency"] / 1e6 for d in r["latencyDistribution"]}
    a, b = metrics(f"{name}.before"), metrics(f"{name}.after")
    hier = b.get("hierarchical", 0) - a.get("hierarchical", 0)
    plain = b.get("plain", 0) - a.get("plain", 0)
    return {"rps": r["rps"], "p50": lat.get(50, 0), "p99": lat.get(99, 0), "count": r["count"],
            "ok": r["statusCodeDistribution"].get("OK", 0),
            "tiles": (b["misses"] - a["misses"]) / max(r["count"], 1),
            "hier": hier / max(hier + plain, 1)}
print("| round | hierarchy | calls | OK | calls/s | p50 ms | p99 ms | tiles loaded / call | searches hierarchical |")
print("|---|---|---|---|---|---|---|---|---|")
pairs = []
for k in range(1, rounds + 1):
    off, on = run(f"long.{k}.off"), run(f"long.{k}.on")
    pairs.append((off, on))
    for mode, x in (("off", off), ("on", on)):
        print(f"| {k} | {mode} | {x['count']} | {x['ok']} | {x['rps']:.0f} | {x['p50']:.2f} | "
              f"{x['p99']:.2f} | {x['tiles']:.2f} | {x['hier']:.0%} |")
ratio = lambda key, inv=False: [(o[key] / n[key]) if inv else (n[key] / o[key]) for o, n in pairs]
fmt = lambda xs: ", ".join(f"{x:.2f}" for x in xs)
speed = ratio("rps")
print(f"calls/s on / off per round: {fmt(speed)} (median {statistics.median(speed):.2f}; "
      f"target >= 5: {'met' if statistics.median(speed) >= 5 else 'NOT met'})")
print(f"p50 off / on: {fmt(ratio('p50', True))}; p99 off / on: {fmt(ratio('p99', True))}")
print("tiles loaded per call off / on: " +
      ", ".join(f"{o['tiles']:.2f} / {n['tiles']:.2f}" for o, n in pairs))
PY
}
run_long_paths() {
  echo "== long paths (FindPath anywhere on the island), --path-hierarchy=false vs =true, $ROUNDS interleaved rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "-- demo world, $LONG_TOTAL calls a run (findpath_wide: random pairs, no distance cap)"
  long_paths "$OUT/demo" "$LONG_TOTAL" findpath_wide
  if [[ $WORLD16 == 1 ]]; then
    local bytes; bytes=$(stat -c %s "$OUT/world16/world16.wmesh")
    echo "-- 16 km² world, tile budget $((bytes / 4)) (25 % of $bytes bytes), $((LONG_TOTAL / 4)) calls a run (world16_long)"
    long_paths "$OUT/world16" "$((LONG_TOTAL / 4))" world16_long --tile-cache-bytes="$((bytes / 4))"
  fi
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
}
if [[ $LONG_ONLY == 1 ]]; then run_long_paths; exit 0; fi

echo "== demo world: $("$WAYMESH" inspect "$OUT/demo/demo.wmesh" | awk '/^polygons/ {print $2}') polygons; concurrency $CONCURRENCY over 2 connections, $TOTAL calls a run"
start_server "$OUT/demo"
load warmup waymesh.v1.NavigationService.FindPath "$DATA/findpath.json" -n 2000 >/dev/null
echo "| run | calls | req/s | p50 ms | p99 ms | OK | RESOURCE_EXHAUSTED |"
echo "|---|---|---|---|---|---|---|"
for round in $(seq 1 "$ROUNDS"); do
  load "health.$round" grpc.health.v1.Health.Check - -n "$TOTAL"; row "health.$round"
  load "findpath.$round" waymesh.v1.NavigationService.FindPath "$DATA/findpath.json" -n "$TOTAL"
  row "findpath.$round"
done
for rpc in ValidateMove Raycast RandomPoint NearestPoint; do
  lc=$(tr A-Z a-z <<<"$rpc")
  load "$lc" "waymesh.v1.NavigationService.$rpc" "$DATA/$lc.json" -n "$TOTAL"; row "$lc"
done
load findpath_wide waymesh.v1.NavigationService.FindPath "$DATA/findpath_wide.json" -n 1000
row findpath_wide
# Exact paths (PATH_MODE_EXACT, pairs under 50 m, the links' areas left out) and the same
# requests in the default approximate mode, back to back.
load findpath_exact waymesh.v1.NavigationService.FindPath "$DATA/findpath_exact.json" -n "$((TOTAL / 2))"
row findpath_exact
load findpath_exact_twin waymesh.v1.NavigationService.FindPath "$DATA/findpath_exact_twin.json" -n "$((TOTAL / 2))"
row findpath_exact_twin
# 64 paths a call: req/s here are batches (x64 for paths per second).
load findpathbatch waymesh.v1.NavigationService.FindPathBatch "$DATA/findpathbatch.json" -n "$((TOTAL / 64))"
row findpathbatch
python3 - "$OUT" "$ROUNDS" <<'PY'
import json, sys
out, rounds = sys.argv[1], int(sys.argv[2])
ratios = []
for k in range(1, rounds + 1):
    h = json.load(open(f"{out}/health.{k}.report.json"))["rps"]
    f = json.load(open(f"{out}/findpath.{k}.report.json"))["rps"]
    ratios.append(f / h)
exact = json.load(open(f"{out}/findpath_exact.report.json"))["rps"]
twin = json.load(open(f"{out}/findpath_exact_twin.report.json"))["rps"]
print(f"FindPath exact / approximate req/s, same requests: {exact / twin:.2f}")
print("FindPath / ceiling per round: " + ", ".join(f"{r:.2f}" for r in ratios) +
      f"  (target >= 0.70: {'met' if min(ratios) >= 0.70 else 'NOT met'})")
PY

SAT=$(rps findpath.1)
HALF=$(python3 -c "print(int($SAT * 0.5))")
load findpath_half waymesh.v1.NavigationService.FindPath "$DATA/findpath.json" -r "$HALF" -z 8s -c 256
row findpath_half
RSS_BEFORE=$(rss_mb)
DOUBLE=$(python3 -c "print(int($SAT * 2))")
load findpath_overload waymesh.v1.NavigationService.FindPath "$DATA/findpath.json" -r "$DOUBLE" -z 8s -c 1024 --connections 4
row findpath_overload
RSS_AFTER=$(rss_mb)
python3 - "$(p99 findpath_half)" "$(p99 findpath_overload)" "$RSS_BEFORE" "$RSS_AFTER" "$HALF" "$DOUBLE" <<'PY'
import sys
half, over, before, after, r_half, r_double = map(float, sys.argv[1:])
print(f"50 % load ({r_half:.0f}/s): p99 {half:.2f} ms (target <= 2 ms: {'met' if half <= 2 else 'NOT met'})")
print(f"2x offered ({r_double:.0f}/s): accepted p99 {over:.2f} ms = {over / half:.1f}x the 50 % value "
      f"(target <= 3x: {'met' if over <= 3 * half else 'NOT met'}); server RSS {before:.0f} -> {after:.0f} MB")
PY
stop_server
if [[ $LONG_PATHS == 1 ]]; then run_long_paths; fi
[[ $WORLD16 == 1 ]] || exit 0

BYTES=$(stat -c %s "$OUT/world16/world16.wmesh")
BUDGET=$((BYTES / 4))
echo "== 16 km² world: $("$WAYMESH" inspect "$OUT/world16/world16.wmesh" | awk '/^polygons/ {print $2}') polygons, $BYTES bytes, tile budget $BUDGET (25 %)"
start_server "$OUT/world16" --tile-cache-bytes="$BUDGET"
echo "| run | calls | req/s | p50 ms | p99 ms | OK | RESOURCE_EXHAUSTED | tile hit rate |"
echo "|---|---|---|---|---|---|---|---|"
for pattern in zones anywhere; do
  h0=$(metric waymesh_tile_cache_hits_total); m0=$(metric waymesh_tile_cache_misses_total)
  load "world16_$pattern" waymesh.v1.NavigationService.FindPath "$DATA/world16_$pattern.json" -n "$TOTAL"
  h1=$(metric waymesh_tile_cache_hits_total); m1=$(metric waymesh_tile_cache_misses_total)
  echo "$(row "world16_$pattern") $(python3 -c "h=$h1-$h0; m=$m1-$m0; print(f'{h/(h+m):.3f} |')")"
done
echo "resident tile bytes $(metric waymesh_tile_cache_bytes) of budget $BUDGET; server RSS $(rss_mb) MB"
