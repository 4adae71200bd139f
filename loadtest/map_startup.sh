#!/usr/bin/env bash
# What serving maps from private copies costs at start-up (docs/PERFORMANCE.md, private map
# copies): for each maps directory, start waymesh-server, time it until /healthz answers 200,
# then report its RSS, the disk and page cache its private copies take (read from the unnamed
# spool files through /proc/PID/fd) and how the copies were made (the registry's debug lines).
#   bash loadtest/map_startup.sh [SERVER_BIN] MAPS_DIR...
# SERVER_BIN defaults to build/rel/server/waymesh-server; an older binary without --spool-dir
# runs without one (for a before/after comparison). A directory named twice is measured twice.
# COLD=1 drops the map files from the page cache before each start (posix_fadvise DONTNEED on
# those files only, through dd), so the copy reads them from disk. Traffic goes to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER=build/rel/server/waymesh-server
if [[ $# -gt 0 && -x $1 && ! -d $1 ]]; then SERVER=$1; shift; fi
PORT=${METRICS_PORT:-9473}
WORK=$(mktemp -d)
PID=
cleanup() {
  if [[ -n $PID ]]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
SPOOL_FLAG=()
# Not `--help | grep -q`: grep quits at the first match, the server dies of SIGPIPE writing the
# rest, and pipefail turns that into "no --spool-dir" now and then.
if [[ $("$SERVER" --help) == *--spool-dir* ]]; then SPOOL_FLAG=(--spool-dir="$WORK/spool"); fi
mkdir -p "$WORK/spool"

mb() { echo "scale=1; $1 / 1048576" | bc -l; }

# Allocated bytes and page-cache bytes of the server's open files under the spool directory.
spool_usage() {
  local disk=0 cached=0 fd
  for fd in /proc/"$1"/fd/*; do
    [[ $(readlink "$fd" 2>/dev/null) == "$WORK/spool/"* ]] || continue
    disk=$((disk + $(stat -L -c '%b * %B' "$fd")))
    cached=$((cached + $(fincore -n -b -o RES "$fd")))
  done
  echo "$disk $cached"
}

echo "server $SERVER${COLD:+, map files dropped from the page cache before each start}," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo -n "| maps | files | start to /healthz 200 | CPU | RSS (anon + file) | spool disk |"
echo " spool in page cache | copies | loading |"
echo "|---|---|---|---|---|---|---|---|---|"
for dir in "$@"; do
  if [[ -n ${COLD:-} ]]; then
    for f in "$dir"/*.wmesh; do dd if="$f" iflag=nocache count=0 status=none; done
  fi
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
  # user + system time so far: unlike the wall time, not stretched by other work on the machine.
  cpu=$(sed 's/.*) //' "/proc/$PID/stat" | awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f s",
    ($12 + $13) / hz}')
  rss=$(awk '/^(RssAnon|RssFile):/ {v[$1] = $2} END {printf "%.0f (%.0f + %.0f)",
    (v["RssAnon:"] + v["RssFile:"]) / 1024, v["RssAnon:"] / 1024, v["RssFile:"] / 1024}' \
    "/proc/$PID/status")
  read -r spool_disk spool_cached < <(spool_usage "$PID")
  bytes=$(du -cbL "$dir"/*.wmesh | tail -1 | cut -f1)
  methods=$( (grep -o 'private copy by [a-z_/]*' "$WORK/log" || true) | sort | uniq -c |
    awk '{printf "%s%d by %s", sep, $1, $5; sep=", "}')
  copy_s=$( (grep -o 'private copy by [a-z_/]* in [0-9.]*' "$WORK/log" || true) |
    awk '{s += $NF} END {if (NR) printf ", %.3f s copying", s}')
  load_s=$( (grep -o 'loaded in [0-9.]* s in all' "$WORK/log" || true) |
    awk '{s += $3} END {if (NR) printf "%.2f s", s; else printf "-"}')
  disk_mb=none cached_mb=none
  if [[ ${#SPOOL_FLAG[@]} -gt 0 ]]; then
    disk_mb="$(mb "$spool_disk") MB" cached_mb="$(mb "$spool_cached") MB"
  fi
  printf '| %s | %d, %.1f MB | %.2f s | %s | %s MB | %s | %s | %s | %s |\n' "$(basename "$dir")" \
    "$(ls "$dir"/*.wmesh | wc -l)" "$(mb "$bytes")" "$(echo "$end - $start" | bc -l)" "$cpu" \
    "$rss" "$disk_mb" "$cached_mb" "${methods:-none}${copy_s}" "$load_s"
  kill "$PID"
  wait "$PID" 2>/dev/null || true
  PID=
done
echo "(load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
