#!/usr/bin/env bash
# What serving maps from private copies costs at start-up (docs/PERFORMANCE.md, private map
# copies): for each maps directory, start waymesh-server, time it until /healthz answers 200,
# then report its RSS, the disk its spool took and how the copies were made (the debug log).
#   bash loadtest/map_startup.sh [SERVER_BIN] MAPS_DIR...
# SERVER_BIN defaults to build/rel/server/waymesh-server; an older binary without --spool-dir
# runs without one (for a before/after comparison). Traffic goes to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER=build/rel/server/waymesh-server
if [[ $# -gt 0 && -x $1 && ! -d $1 ]]; then SERVER=$1; shift; fi
PORT=${METRICS_PORT:-9473}
WORK=$(mktemp -d)
trap 'kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT
SPOOL_FLAG=()
if "$SERVER" --help | grep -q -- --spool-dir; then SPOOL_FLAG=(--spool-dir="$WORK/spool"); fi
mkdir -p "$WORK/spool"

echo "| maps | files | start to /healthz 200 | RSS | spool disk | copies |"
echo "|---|---|---|---|---|---|"
for dir in "$@"; do
  sync
  used_before=$(df -k --output=used "$WORK/spool" | tail -1)
  start=$(date +%s.%N)
  "$SERVER" --maps-dir="$dir" "${SPOOL_FLAG[@]}" --listen-address=127.0.0.1 --port=0 \
    --metrics-address=127.0.0.1 --metrics-port="$PORT" --reload-interval=0 --log-level=debug \
    >"$WORK/log" 2>&1 &
  PID=$!
  until curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; do
    kill -0 "$PID" 2>/dev/null || { cat "$WORK/log"; exit 1; }
    sleep 0.02
  done
  end=$(date +%s.%N)
  sync
  used_after=$(df -k --output=used "$WORK/spool" | tail -1)
  rss=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$PID/status")
  bytes=$(du -cb "$dir"/*.wmesh | tail -1 | cut -f1)
  methods=$( (grep -o 'private copy by [a-z_/]*' "$WORK/log" || true) | sort | uniq -c |
    awk '{printf "%s%d by %s", sep, $1, $5; sep=", "}')
  copy_s=$( (grep -o 'private copy by [a-z_/]* in [0-9.]*' "$WORK/log" || true) |
    awk '{s += $NF} END {if (NR) printf ", %.2f s copying", s}')
  printf '| %s | %d, %.1f MB | %.2f s | %s MB | %.1f MB | %s |\n' "$(basename "$dir")" \
    "$(ls "$dir"/*.wmesh | wc -l)" "$(echo "$bytes / 1048576" | bc -l)" \
    "$(echo "$end - $start" | bc -l)" "$rss" "$(echo "($used_after - $used_before) / 1024" | bc -l)" \
    "${methods:-none}${copy_s}"
  kill "$PID"
  wait "$PID" 2>/dev/null || true
done
