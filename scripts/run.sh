#!/usr/bin/env bash
# The README's main command: installs dependencies, builds Waymesh, generates the demo world,
# compiles it into a map, starts waymesh-server on it, prints the gRPC, metrics and viewer
# addresses and makes one example call with waymesh-client. The server then keeps running in the
# foreground until Ctrl-C (SERVE=0 stops it right after the example call instead).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
BUILD=${BUILD_DIR:-build/release}
OUT=${OUT_DIR:-out}
SIZE=${DEMO_SIZE:-1024}
SEED=${DEMO_SEED:-7}
GRPC_PORT=${GRPC_PORT:-50051}
METRICS_PORT=${METRICS_PORT:-9464}
UI_PORT=${UI_PORT:-8080}
SERVE=${SERVE:-1}

bash scripts/deps.sh
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWAYMESH_TESTS=OFF -DWAYMESH_BENCH=OFF >/dev/null
ninja -C "$BUILD" -j"$JOBS" waymesh waymesh-server waymesh-client
WAYMESH=$BUILD/waymesh
SERVER=$BUILD/server/waymesh-server
CLIENT=$BUILD/server/waymesh-client
MAPS=$OUT/maps
mkdir -p "$MAPS"

echo "== demo world: ${SIZE} m x ${SIZE} m, seed $SEED"
"$WAYMESH" demo-world --size "$SIZE" --seed "$SEED" -o "$OUT/demo-world.json" \
  --queries-out "$OUT/demo-queries.txt"
echo "== build"
"$WAYMESH" build "$OUT/demo-world.json" -o "$MAPS/demo.wmesh"
echo "== inspect"
"$WAYMESH" inspect "$MAPS/demo.wmesh"

echo "== waymesh-server"
"$SERVER" --maps-dir="$MAPS" --port="$GRPC_PORT" --metrics-port="$METRICS_PORT" \
  --ui-port="$UI_PORT" >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
stop_server() {
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" && wait "$SERVER_PID" || true
  fi
}
trap stop_server EXIT
trap 'exit 130' INT TERM

ready=0
for _ in $(seq 1 300); do
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then break; fi
  if "$CLIENT" --target="127.0.0.1:$GRPC_PORT" --call=list_maps --timeout=1s >/dev/null 2>&1; then
    ready=1
    break
  fi
  sleep 0.1
done
if [[ $ready -ne 1 ]]; then
  echo "waymesh-server did not start; its log:" >&2
  cat "$OUT/server.log" >&2
  exit 1
fi
echo "gRPC:    127.0.0.1:$GRPC_PORT   (waymesh.v1.NavigationService, grpc.health.v1, reflection)"
echo "metrics: http://127.0.0.1:$METRICS_PORT/metrics   (health: /healthz)"
echo "viewer:  http://127.0.0.1:$UI_PORT/   (the map viewer: docs/viewer.md)"
echo "log:     $OUT/server.log"

# The example call: across the river, from the west bank to the east bank (by the ford).
read -r SX SY SZ GX GY GZ < <(awk '/^# west bank .* -> east bank .*: path/ {getline; print; exit}' \
  "$OUT/demo-queries.txt")
EXAMPLE=("$CLIENT" --target="127.0.0.1:$GRPC_PORT" --map=demo --start="$SX,$SY,$SZ" --end="$GX,$GY,$GZ")
echo "== example call: ${EXAMPLE[*]}"
"${EXAMPLE[@]}"

if [[ $SERVE == 1 ]]; then
  echo "== serving; Ctrl-C stops the server (it drains in-flight calls first)"
  wait "$SERVER_PID"
fi
