#!/usr/bin/env bash
# The README's main command: installs dependencies, builds Waymesh, generates the demo world,
# compiles it into a map, prints the map's summary and a sample path.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
BUILD=${BUILD_DIR:-build/release}
OUT=${OUT_DIR:-out}
SIZE=${DEMO_SIZE:-1024}
SEED=${DEMO_SEED:-7}

bash scripts/deps.sh
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWAYMESH_TESTS=OFF -DWAYMESH_BENCH=OFF >/dev/null
ninja -C "$BUILD" -j"$JOBS" waymesh
WAYMESH=$BUILD/waymesh
mkdir -p "$OUT"

echo "== demo world: ${SIZE} m x ${SIZE} m, seed $SEED"
"$WAYMESH" demo-world --size "$SIZE" --seed "$SEED" -o "$OUT/demo-world.json" \
  --queries-out "$OUT/demo-queries.txt"
echo "== build"
"$WAYMESH" build "$OUT/demo-world.json" -o "$OUT/demo-world.wmesh"
echo "== inspect"
"$WAYMESH" inspect "$OUT/demo-world.wmesh"
echo "== sample paths"
"$WAYMESH" path "$OUT/demo-world.wmesh" --queries "$OUT/demo-queries.txt" --out "$OUT/demo-paths.csv"
head -3 "$OUT/demo-paths.csv" | cut -c1-400
