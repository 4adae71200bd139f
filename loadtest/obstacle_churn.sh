#!/usr/bin/env bash
# Obstacle churn (issue 29): FindPath at half its measured capacity on one obstacle layer while
# that layer changes CHANGES times a second (obstacles added or removed on a layer of LAYER
# obstacles, BATCH of them per UpdateObstacleLayer call, each call relative to the version
# before: BATCH=20 is a 20 Hz zone server sending its tick's changes at 1 000 changes/s),
# against the same FindPath load with no changes, side by side in one run on the 1022 m demo
# world:
#   1. capacity: closed-loop FindPath requests/sec on the layer;
#   2. FindPath at 50 % of it for DURATION, no changes: p99;
#   3. the same with the change stream running: p99, calls lost (anything not OK), and the
#      change rate the server kept up with.
# Targets: no FindPath call lost, p99 within 1.5x of run 2, the change rate reached.
# Traffic goes to 127.0.0.1 only; every run is bounded by a call count or a duration.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build/release}
OUT=${OUT_DIR:-out/loadtest}
PORT=${PORT:-50072}
CHANGES=${CHANGES:-1000}    # layer changes per second offered
BATCH=${BATCH:-1}           # changes per UpdateObstacleLayer call
LAYER=${LAYER:-100}         # obstacles in the layer
DURATION=${DURATION:-10s}   # length of runs 2 and 3
CONCURRENCY=${CONCURRENCY:-32}
QUEUE=${QUEUE:-0}           # the server's --queue-capacity (0: its default, 16 per worker)

# SKIP_BUILD=1 uses BUILD_DIR's binaries as they are (a dev build configured with other options).
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWAYMESH_TESTS=OFF -DWAYMESH_BENCH=OFF >/dev/null
  ninja -C "$BUILD" waymesh waymesh-server waymesh-load >/dev/null
fi
WAYMESH=$BUILD/waymesh
LOAD=$BUILD/loadtest/waymesh-load
DATA=$BUILD/loadtest/data
mkdir -p "$OUT/demo" "$DATA"
if [[ ! -f $OUT/demo/demo.wmesh ]]; then
  "$WAYMESH" demo-world --size 1022 --seed 7 -o "$OUT/demo.json"
  "$WAYMESH" build -q "$OUT/demo.json" -o "$OUT/demo/demo.wmesh"
fi
[[ -f $DATA/findpath.json ]] ||
  "$WAYMESH" loaddata "$OUT/demo/demo.wmesh" --rpc FindPath --count 2000 --max-path-distance 50 \
    -o "$DATA/findpath.json"

# The FindPath requests on the newest version of layer "churn"; the layer's first version (LAYER
# barrels on path ends, PutObstacleLayer) and the change stream after it: versions 2..N, each an
# UpdateObstacleLayer from the version before that adds BATCH more barrels (even versions) or
# removes them again (odd ones), as a zone server reports doors and wrecks. Deltas, not whole
# layers: the caller sends what changed, and the load generator holds 20 000 small messages.
python3 - "$DATA/findpath.json" "$OUT/churn_findpath.json" "$OUT/churn_put.json" \
  "$OUT/churn_changes.json" "$LAYER" "$BATCH" <<'PY'
import json, sys
src, findpath_out, put_out, changes_out = sys.argv[1:5]
layer, batch = int(sys.argv[5]), int(sys.argv[6])
requests = json.load(open(src))
for r in requests:
    r["obstacles"] = {"layer": "churn", "version": 0}
json.dump(requests, open(findpath_out, "w"))
def barrel(i, at):
    return {"id": f"b{i}", "effect": "OBSTACLE_EFFECT_BLOCK",
            "cylinder": {"center": at, "radius": 0.5, "height": 2}}
# Barrels on the ends of the paths, so they stand on the surface the queries use.
spots = [r["end"] for r in requests]
layer_of = {"map_id": "demo", "layer": "churn"}
json.dump([dict(layer_of, version=1,
                obstacles=[barrel(i, spots[i % len(spots)]) for i in range(layer)])],
          open(put_out, "w"))
changes = []
for v in range(2, 20002):
    change = dict(layer_of, base_version=v - 1, version=v)
    extra = range(layer, layer + batch)
    if v % 2 == 0:
        change["upsert"] = [barrel(i, spots[(i + v * batch) % len(spots)]) for i in extra]
    else:
        change["remove"] = [f"b{i}" for i in extra]
    changes.append(change)
json.dump(changes, open(changes_out, "w"))
PY

"$BUILD/server/waymesh-server" --maps-dir="$OUT/demo" --listen-address=127.0.0.1 --port="$PORT" \
  --metrics-port=-1 --log-level=warn --queue-capacity="$QUEUE" &
SERVER_PID=$!
trap 'kill $SERVER_PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  "$BUILD/server/waymesh-client" --target="127.0.0.1:$PORT" ListMaps >/dev/null 2>&1 && break
  sleep 0.2
done

load() {  # load NAME CALL DATA [flags...]: one bounded run, JSON report in OUT
  local name=$1 call=$2 data=$3
  "$LOAD" --proto proto/waymesh/v1/obstacles.proto -i proto -D "$data" --call "$call" \
    --insecure "${@:4}" -O json -o "$OUT/$name.report.json" "127.0.0.1:$PORT"
}
field() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$OUT/$1.report.json"; }

# The layer must exist before queries name it.
load churn_first waymesh.v1.ObstacleService.PutObstacleLayer "$OUT/churn_put.json" -n 1 -c 1
load churn_warmup waymesh.v1.NavigationService.FindPath "$OUT/churn_findpath.json" -n 2000 -c "$CONCURRENCY" --connections 2
load churn_capacity waymesh.v1.NavigationService.FindPath "$OUT/churn_findpath.json" -n 20000 -c "$CONCURRENCY" --connections 2
CAPACITY=$(field churn_capacity 'r["rps"]')
HALF=$(python3 -c "print(int($CAPACITY * 0.5))")
load churn_quiet waymesh.v1.NavigationService.FindPath "$OUT/churn_findpath.json" -r "$HALF" -z "$DURATION" -c 256 --connections 2
CALLS=$(python3 -c "print(max(1, round($CHANGES / $BATCH)))")
load churn_changes waymesh.v1.ObstacleService.UpdateObstacleLayer "$OUT/churn_changes.json" \
  -r "$CALLS" -z "$DURATION" -c 1 &
CHANGES_PID=$!
load churn_busy waymesh.v1.NavigationService.FindPath "$OUT/churn_findpath.json" -r "$HALF" -z "$DURATION" -c 256 --connections 2
wait $CHANGES_PID

python3 - "$OUT" "$CAPACITY" "$HALF" "$CHANGES" "$LAYER" "$BATCH" <<'PY'
import json, sys
out, capacity, half, offered, layer = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
batch = int(sys.argv[6])
def load(name):
    return json.load(open(f"{out}/{name}.report.json"))
def p99(r):
    return [x["latency"] for x in r["latencyDistribution"] if int(x["percentage"]) == 99][0] / 1e6
quiet, busy, changes = load("churn_quiet"), load("churn_busy"), load("churn_changes")
lost = busy["count"] - busy["statusCodeDistribution"].get("OK", 0)
lost_quiet = quiet["count"] - quiet["statusCodeDistribution"].get("OK", 0)
changes_ok = changes["statusCodeDistribution"].get("OK", 0)
ratio = p99(busy) / p99(quiet)
print(f"FindPath capacity on the layer: {capacity:.0f}/s; runs at {half:.0f}/s")
print(f"no changes:   {quiet['count']} calls, {lost_quiet} not OK, p99 {p99(quiet):.2f} ms")
print(f"with changes: {busy['count']} calls, {lost} not OK, p99 {p99(busy):.2f} ms = {ratio:.2f}x "
      f"(target <= 1.5x: {'met' if ratio <= 1.5 else 'NOT met'}; no call lost: {'met' if lost == 0 else 'NOT met'})")
done = changes["rps"] * batch * changes_ok / max(1, changes["count"])
print(f"changes: {offered:.0f}/s offered on a layer of {layer} obstacles, {batch} per call: "
      f"{done:.0f}/s done, {changes_ok} calls OK of {changes['count']}, call p99 {p99(changes):.2f} ms "
      f"(target 1000/s: {'met' if done >= 0.95 * 1000 else 'NOT met'})")
PY
